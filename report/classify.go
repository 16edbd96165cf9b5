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
	// Runtime is sanitizer runtime code (libasan, libclang_rt, __asan_*, ...).
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
// own module and often without a file, yet not the program's code.
var startNames = map[string]bool{"_start": true, "__start": true, "_dl_start": true, "_dl_start_user": true}

// fileMarkers are path pieces of runtime and libc sources as the
// symbolizers print them (glibc's relative "../sysdeps/..." names included).
var fileMarkers = []classPrefix{
	{"/sysdeps/", Libc}, {"sysdeps/", Libc}, {"csu/", Libc}, {"/compiler-rt/", Runtime}, {"compiler-rt/lib/", Runtime},
	{"libsanitizer/", Runtime}, {"/sanitizer_common/", Runtime}, {"/glibc", Libc}, {"glibc-", Libc},
	{"/usr/include/c++/", CXXRuntime}, {"/include/c++/", CXXRuntime}, {"/libstdc++", CXXRuntime}, {"/libgcc/", CXXRuntime},
	{"tsan_interceptors", Interceptor}, {"asan_malloc", Interceptor}, {"asan_new_delete", Runtime},
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
