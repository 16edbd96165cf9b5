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
	} {
		if got := c.f.Class(); got != c.want {
			t.Errorf("%+v: class %v, want %v", c.f, got, c.want)
		}
	}
}
