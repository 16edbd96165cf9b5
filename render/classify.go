package render

import (
	"path"
	"strings"

	"github.com/sanitrace/sanitrace/parse"
)

// FrameClass says whose code a frame is in.
type FrameClass int

const (
	// User is the program's own code: the frames worth reading first.
	User FrameClass = iota
	// System is sanitizer runtime, interceptor, C/C++ runtime or libc code.
	System
)

// runtimeModulePrefixes are base names of shared objects that belong to the
// sanitizer runtimes or to the C and C++ runtimes.
var runtimeModulePrefixes = []string{
	"libasan.", "libtsan.", "liblsan.", "libubsan.", "libmsan.", "libhwasan.",
	"libclang_rt.", "libc.so", "libc-", "libm.so", "libm-", "libpthread.",
	"libdl.", "librt.", "libstdc++.", "libc++.", "libc++abi.", "libgcc_s.",
	"ld-linux", "ld64.so", "libunwind.",
}

// runtimeFunctionPrefixes are names of sanitizer entry points, interceptors
// and C runtime start-up code.
var runtimeFunctionPrefixes = []string{
	"__interceptor_", "___interceptor_", "__asan_", "__sanitizer_", "__tsan_",
	"__msan_", "__lsan_", "__ubsan_", "__hwasan_", "__sanitizer::",
	"__asan::", "__tsan::", "__msan::", "__lsan::", "__ubsan::",
	"operator new", "operator delete", "__libc_start", "__GI_", "__cxa_",
	"_Unwind_", "__gxx_personality",
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
	"_start": true,
}

// runtimeFileMarkers are path pieces of runtime and libc sources as the
// symbolizers print them (glibc's relative "../sysdeps/..." names included).
var runtimeFileMarkers = []string{
	"/sysdeps/", "sysdeps/", "csu/", "/compiler-rt/", "compiler-rt/lib/",
	"libsanitizer/", "/sanitizer_common/", "/glibc", "glibc-",
	"/usr/include/c++/", "/include/c++/", "/libstdc++", "/libgcc/",
	"tsan_interceptors", "asan_malloc", "asan_new_delete",
}

// Classify reports whether f is in the user's code or in the runtime.
func Classify(f parse.Frame) FrameClass {
	if f.Module != "" {
		base := path.Base(f.Module)
		for _, p := range runtimeModulePrefixes {
			if strings.HasPrefix(base, p) {
				return System
			}
		}
	}
	fn := f.Function
	for _, p := range runtimeFunctionPrefixes {
		if strings.HasPrefix(fn, p) {
			return System
		}
	}
	if f.File == "" || f.File == "<null>" {
		if interceptedNames[fn] {
			return System
		}
	}
	for _, m := range runtimeFileMarkers {
		if strings.Contains(f.File, m) {
			return System
		}
	}
	// Garbage frames of the fast unwinder: "[stack]+0x...", "<unknown module>".
	if strings.HasPrefix(f.Module, "[") || strings.HasPrefix(f.Module, "<") {
		return System
	}
	return User
}
