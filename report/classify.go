package report

import (
	"path"
	"strconv"
	"strings"
)

// FrameClass says whose code a frame is in. Everything but User is code
// the program links against: frames to skip when looking for the bug.
type FrameClass int

const (
	// User is the program's own code: the frames worth reading first.
	User FrameClass = iota
	// Runtime is a runtime's own code: the sanitizers' (libasan,
	// libclang_rt, __asan_*, ...); in their producers' reports the
	// kernel's reporting and entry machinery, Go's runtime, Rust's
	// standard library (ClassIn).
	Runtime
	// Interceptor is a sanitizer's wrapper of a libc function
	// (__interceptor_malloc, or TSan's "malloc <null>").
	Interceptor
	// Libc is the C library and the dynamic loader.
	Libc
	// CXXRuntime is the C++ runtime: libstdc++/libc++ and their headers,
	// operator new/delete, exception handling and unwinding.
	CXXRuntime
	// NoCode is a frame the fast unwinder made up ("[stack]+0x...",
	// "<unknown module>").
	NoCode
)

var classNames = [...]string{"user", "runtime", "interceptor", "libc", "c++ runtime", "no code"}

func (c FrameClass) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return "FrameClass(" + strconv.Itoa(int(c)) + ")"
	}
	return classNames[c]
}

type classPrefix struct {
	prefix string
	class  FrameClass
}

// modulePrefixes are base names of shared objects that belong to the
// sanitizer runtimes or to the C and C++ runtimes.
var modulePrefixes = []classPrefix{
	{"libasan.", Runtime}, {"libtsan.", Runtime}, {"liblsan.", Runtime}, {"libubsan.", Runtime},
	{"libmsan.", Runtime}, {"libhwasan.", Runtime}, {"libclang_rt.", Runtime},
	{"libc.so", Libc}, {"libc-", Libc}, {"libm.so", Libc}, {"libm-", Libc}, {"libpthread.", Libc},
	{"libdl.", Libc}, {"librt.", Libc},
	{"libstdc++.", CXXRuntime}, {"libc++.", CXXRuntime}, {"libc++abi.", CXXRuntime}, {"libgcc_s.", CXXRuntime},
	{"ld-linux", Libc}, {"ld64.so", Libc}, {"libunwind.", CXXRuntime},
	{"vgpreload_", Runtime}, // Valgrind's replacement malloc, string and pthread functions
}

// functionPrefixes are names of sanitizer entry points, interceptors and
// C runtime start-up code.
var functionPrefixes = []classPrefix{
	{"__interceptor_", Interceptor}, {"___interceptor_", Interceptor},
	{"__asan_", Runtime}, {"__sanitizer_", Runtime}, {"__tsan_", Runtime},
	{"__msan_", Runtime}, {"__lsan_", Runtime}, {"__ubsan_", Runtime}, {"__hwasan_", Runtime}, {"__sanitizer::", Runtime},
	{"__asan::", Runtime}, {"__tsan::", Runtime}, {"__msan::", Runtime}, {"__lsan::", Runtime}, {"__ubsan::", Runtime},
	{"operator new", CXXRuntime}, {"operator delete", CXXRuntime}, {"__libc_start", Libc}, {"__GI_", Libc}, {"__cxa_", CXXRuntime},
	{"_Unwind_", CXXRuntime}, {"__gxx_personality", CXXRuntime},
}

// interceptedNames are libc functions that TSan prints without the
// __interceptor_ prefix and without a file ("pthread_create <null>").
var interceptedNames = map[string]bool{
	"malloc": true, "calloc": true, "realloc": true, "free": true,
	"memalign": true, "posix_memalign": true, "aligned_alloc": true,
	"valloc": true, "pvalloc": true, "strdup": true, "strndup": true,
	"memcpy": true, "memmove": true, "memset": true, "memcmp": true,
	"strlen": true, "strcpy": true, "strncpy": true, "strcmp": true,
	"pthread_create": true, "pthread_join": true, "pthread_mutex_lock": true,
	"pthread_mutex_unlock": true, "pthread_mutex_trylock": true,
	"pthread_rwlock_rdlock": true, "pthread_rwlock_wrlock": true,
	"pthread_rwlock_unlock": true, "pthread_cond_wait": true,
	"pthread_cond_signal": true, "pthread_cond_broadcast": true,
	"pthread_mutex_init": true, "pthread_mutex_destroy": true,
	"pthread_detach": true, "signal": true, "sigaction": true, "raise": true,
	"abort": true, "exit": true, "printf": true, "fprintf": true,
	"puts": true, "write": true, "read": true, "usleep": true, "sleep": true,
}

// startNames are the C runtime's entry points linked into every program
// (crt1.o's _start from glibc's sysdeps/<arch>/start.S): in the program's
// own module and often without a file, yet not the program's code; and
// Valgrind's name for whatever called main.
var startNames = map[string]bool{"_start": true, "__start": true, "_dl_start": true, "_dl_start_user": true, "(below main)": true}

// fileMarkers are path pieces of runtime and libc sources as the
// symbolizers print them (glibc's relative "../sysdeps/..." names included).
var fileMarkers = []classPrefix{
	{"/sysdeps/", Libc}, {"sysdeps/", Libc}, {"csu/", Libc}, {"/compiler-rt/", Runtime}, {"compiler-rt/lib/", Runtime},
	{"libsanitizer/", Runtime}, {"/sanitizer_common/", Runtime}, {"/glibc", Libc}, {"glibc-", Libc},
	{"/usr/include/c++/", CXXRuntime}, {"/include/c++/", CXXRuntime}, {"/libstdc++", CXXRuntime}, {"/libgcc/", CXXRuntime},
	{"tsan_interceptors", Interceptor}, {"asan_malloc", Interceptor}, {"asan_new_delete", Runtime},
	{"vg_replace_", Interceptor}, {"hg_intercepts.c", Interceptor}, {"drd_pthread_intercepts.c", Interceptor},
}

// ClassIn says whose code f is in, in a report of the given tool
// (Report.Tool). In a kernel report the kernel's own reporting, trap,
// locking, scheduling and entry code; in a Go report Go's runtime, its
// testing harness and sync package; in a Rust panic the standard library:
// these are Runtime, as the sanitizers' runtimes are. Their names (panic,
// schedule, kthread, worker_thread) are ordinary names in a C program, so
// these rules apply only to their producer's reports. Everything else is
// classed as Frame.Class does.
func ClassIn(tool string, f *Frame) FrameClass { return ProducerOf(tool).Class(f) }

// Class says whose code f is in, in a report of p: Frame.Class with p's
// own rules first (ClassIn).
func (p Producer) Class(f *Frame) FrameClass {
	switch p {
	case ProducerKernel:
		if kernelMachinery(f.Function) {
			return Runtime
		}
	case ProducerGoPanic, ProducerGoRace:
		if goRuntime(f.Function) {
			return Runtime
		}
	case ProducerRust:
		if rustLibrary(f) {
			return Runtime
		}
	}
	return f.Class()
}

// Class says whose code f is in, as ClassIn does for r's tool.
func (r *Report) Class(f *Frame) FrameClass { return r.Producer().Class(f) }

// kernelMachineryPrefixes start the names of the kernel functions a report
// passes through on its way to being printed, or that every stack of a
// kind holds: stack dumping and report printing; the sanitizers' and
// debugging tools' hooks (KASAN, KMSAN, KCSAN, KFENCE, UBSAN, lockdep,
// object debugging); BUG/WARN and the traps and faults that raise them;
// the scheduler and sleeping locks a hung task waits in; system call and
// thread entry; KUnit's harness. A kernel bug is in the first frame past
// them.
var kernelMachineryPrefixes = []string{
	"dump_stack", "show_stack", "show_trace_log_lvl", "show_regs",
	"print_report", "print_address_description", "print_error_description", "describe_object",
	"kasan_", "kmsan_", "kcsan_", "kfence_", "ubsan_", "asan_", "msan_", "tsan_", "sanitizer_",
	"check_memory_region", "lockdep_", "lock_acquire", "lock_release", "lock_acquired", "lock_contended",
	"check_noncircular", "check_prev_add", "check_prevs_add", "validate_chain", "print_circular_bug",
	"print_deadlock_bug", "print_usage_bug", "mark_lock", "debug_object", "debug_print_object",
	"report_bug", "handle_bug", "warn", "warn_slowpath", "panic", "nmi_panic",
	"die", "oops_end", "do_trap", "do_error_trap", "exc_", "asm_exc_", "asm_sysvec_",
	"page_fault_oops", "do_user_addr_fault", "kernelmode_fixup_or_oops", "bad_area_nosemaphore",
	"do_kern_addr_fault", "handle_page_fault", "do_page_fault",
	"do_mem_abort", "do_kernel_fault", "die_kernel_fault", "el1_abort", "el1h_64_sync",
	"schedule", "io_schedule", "preempt_schedule", "mutex_lock",
	"wait_for_common", "wait_for_completion", "rwsem_down_", "down_read", "down_write",
	"down", "rt_mutex", "rt_spin_lock",
	"kmalloc", "kzalloc", "kvmalloc", "kfree", "kvfree", "kmem_cache_", "slab_",
	"entry_SYSCALL", "do_syscall_", "x64_sys_call", "syscall_exit", "ret_from_fork", "kthread",
	"worker_thread", "process_one_work", "process_scheduled_works", "invoke_syscall",
	"el0_svc", "do_el0_svc", "el0t_", "el0_", "smpboot_thread_fn", "kunit_",
}

// kernelMachinery reports whether fn is one of the kernel functions of
// kernelMachineryPrefixes, leading underscores aside (the kernel's
// "__schedule", "____kasan_slab_free"): the prefix is the whole name or
// goes on with "_" or ".", so that "down" does not take
// "download_firmware" and "die" does not take "diet_probe".
func kernelMachinery(fn string) bool {
	fn = strings.TrimLeft(fn, "_")
	for _, p := range kernelMachineryPrefixes {
		if !strings.HasPrefix(fn, p) {
			continue
		}
		if len(fn) == len(p) || strings.HasSuffix(p, "_") || fn[len(p)] == '_' || fn[len(p)] == '.' {
			return true
		}
	}
	return false
}

// goRuntime reports whether fn (as Go's tracebacks print it) is Go's
// runtime, its internal packages, the testing harness or the sync package
// a goroutine blocks in; "panic" (with or without its arguments) is how
// tracebacks name runtime.gopanic.
func goRuntime(fn string) bool {
	if fn == "panic" || strings.HasPrefix(fn, "panic(") {
		return true
	}
	for _, p := range []string{"runtime.", "runtime/", "internal/", "testing.", "sync.", "sync/atomic."} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// rustLibrary reports whether f is Rust's standard library: a source file
// in the toolchain's library tree ("/rustc/<commit>/library/..."), or a
// function in core, alloc or std or their impls ("<u32 as
// core::iter::traits::accum::Sum>::sum") and the panic entry points.
func rustLibrary(f *Frame) bool {
	if strings.HasPrefix(f.File, "/rustc/") && strings.Contains(f.File, "/library/") {
		return true
	}
	fn := strings.TrimPrefix(f.Function, "<")
	for _, p := range []string{"core::", "alloc::", "std::", "__rustc::", "rust_begin_unwind", "__rust_"} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// Class says whose code f is in, from its module's base name, its
// function's name and its source file. The first rule that knows wins, in
// that order; a frame no rule knows is the user's.
func (f *Frame) Class() FrameClass {
	if f.Module != "" {
		base := path.Base(f.Module)
		for _, p := range modulePrefixes {
			if strings.HasPrefix(base, p.prefix) {
				return p.class
			}
		}
	}
	fn := f.Function
	if startNames[fn] {
		return Libc
	}
	for _, p := range functionPrefixes {
		if strings.HasPrefix(fn, p.prefix) {
			return p.class
		}
	}
	if f.File == "" || f.File == "<null>" {
		if interceptedNames[fn] {
			return Interceptor
		}
	}
	for _, m := range fileMarkers {
		if strings.Contains(f.File, m.prefix) {
			return m.class
		}
	}
	if strings.HasPrefix(f.Module, "[") || strings.HasPrefix(f.Module, "<") {
		return NoCode
	}
	return User
}
