package report

import "testing"

func TestClass(t *testing.T) {
	for _, c := range []struct {
		f    Frame
		want FrameClass
	}{
		{Frame{Function: "main", File: "/build/ci/src/a.c"}, User},
		{Frame{Function: "__interceptor_malloc", Module: "/usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.asan-x86_64.so"}, Runtime},
		{Frame{Function: "__interceptor_malloc", File: "../../../../src/libsanitizer/asan/asan_malloc_linux.cpp"}, Interceptor},
		{Frame{Module: "/lib/x86_64-linux-gnu/libasan.so.8", HasOffset: true}, Runtime},
		{Frame{Function: "__libc_start_call_main", File: "../sysdeps/nptl/libc_start_call_main.h"}, Libc},
		{Frame{Module: "/lib/x86_64-linux-gnu/libc.so.6", HasOffset: true}, Libc},
		{Frame{Function: "operator new[](unsigned long)", File: "llvm/projects/compiler-rt/lib/asan/asan_new_delete.cc"}, CXXRuntime},
		{Frame{Function: "__asan::ReportGenericError(unsigned long)", File: "compiler-rt/lib/asan/asan_report.cpp"}, Runtime},
		{Frame{Function: "pthread_create", Module: "race_global"}, Interceptor},
		{Frame{Function: "std::vector<int>::operator[]", File: "/usr/include/c++/12/bits/stl_vector.h"}, CXXRuntime},
		{Frame{Module: "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", HasOffset: true}, CXXRuntime},
		{Frame{Module: "[stack]", HasOffset: true}, NoCode},
		{Frame{Module: "<unknown module>"}, NoCode},
		{Frame{Module: "/build/ci/cases/x/prog", HasOffset: true}, User},
		{Frame{Function: "free", File: "/build/ci/src/myalloc.c"}, User},
		{Frame{Function: "_start", Module: "./bt"}, Libc},
		{Frame{Function: "_start", File: "../sysdeps/x86_64/start.S"}, Libc},
		{Frame{Function: "_start_worker", Module: "./bt"}, User},
		// Valgrind's replacements (its preload libraries, or their sources
		// when Valgrind has its debug info) and its name for main's caller.
		{Frame{Function: "malloc", Module: "/usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so"}, Runtime},
		{Frame{Module: "/usr/libexec/valgrind/vgpreload_helgrind-amd64-linux.so"}, Runtime},
		{Frame{Function: "malloc", File: "vg_replace_malloc.c", Line: 299}, Interceptor},
		{Frame{Function: "(below main)", File: "libc_start_call_main.h", Line: 58}, Libc},
	} {
		if got := c.f.Class(); got != c.want {
			t.Errorf("%+v: class %v, want %v", c.f, got, c.want)
		}
	}
}

func TestClassIn(t *testing.T) {
	for _, c := range []struct {
		tool string
		f    Frame
		want FrameClass
	}{
		{ToolKernel, Frame{Function: "dump_stack_lvl", File: "lib/dump_stack.c"}, Runtime},
		{ToolKernel, Frame{Function: "__dump_stack"}, Runtime},
		{ToolKernel, Frame{Function: "kasan_report"}, Runtime},
		{ToolKernel, Frame{Function: "__schedule"}, Runtime},
		{ToolKernel, Frame{Function: "schedule_preempt_disabled"}, Runtime},
		{ToolKernel, Frame{Function: "__mutex_lock.constprop.0"}, Runtime},
		{ToolKernel, Frame{Function: "entry_SYSCALL_64_after_hwframe"}, Runtime},
		{ToolKernel, Frame{Function: "ret_from_fork_asm"}, Runtime},
		{ToolKernel, Frame{Function: "down"}, Runtime},
		{ToolKernel, Frame{Function: "download_firmware"}, User},
		{ToolKernel, Frame{Function: "diet_probe"}, User},
		{ToolKernel, Frame{Function: "____kasan_slab_free"}, Runtime},
		{ToolKernel, Frame{Function: "__kmem_cache_free"}, Runtime},
		{ToolKernel, Frame{Function: "kfree"}, Runtime},
		{ToolKernel, Frame{Function: "__warn"}, Runtime},
		{ToolKernel, Frame{Function: "warning_report"}, User},
		{ToolKernel, Frame{Function: "ring_pop", Module: "ringbuf"}, User},
		{ToolGoPanic, Frame{Function: "runtime.gopanic", File: "/usr/local/go/src/runtime/panic.go"}, Runtime},
		{ToolGoPanic, Frame{Function: "panic", File: "/usr/local/go/src/runtime/panic.go"}, Runtime},
		{ToolGoPanic, Frame{Function: "internal/runtime/maps.fatal"}, Runtime},
		{ToolGoRace, Frame{Function: "sync.(*WaitGroup).Wait"}, Runtime},
		{ToolGoRace, Frame{Function: "main.(*account).deposit"}, User},
		{ToolRust, Frame{Function: "__rustc::rust_begin_unwind"}, Runtime},
		{ToolRust, Frame{Function: "<u32 as core::iter::traits::accum::Sum>::sum", File: "/rustc/59807616e1fa/library/core/src/iter/traits/accum.rs"}, Runtime},
		{ToolRust, Frame{Function: "<main::Cfg as core::fmt::Display>::fmt", File: "/build/ci/src/main.rs"}, User},
		{ToolRust, Frame{Function: "main::pick", File: "/build/ci/src/main.rs"}, User},
		// The producer rules are the producer's: in a sanitizer report a
		// program's own schedule() or panic() is its code.
		{"AddressSanitizer", Frame{Function: "schedule", File: "/build/ci/src/sched.c"}, User},
		{"AddressSanitizer", Frame{Function: "panic", File: "/build/ci/src/err.c"}, User},
		{"AddressSanitizer", Frame{Function: "runtime.gopanic"}, User},
		{ToolKernel, Frame{Function: "__interceptor_malloc"}, Interceptor},
	} {
		if got := ClassIn(c.tool, &c.f); got != c.want {
			t.Errorf("%s %+v: class %v, want %v", c.tool, c.f, got, c.want)
		}
	}
}
