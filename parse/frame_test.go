package parse

import (
	"testing"

	"github.com/sanitrace/sanitrace/report"
)

// Frame lines as the runtimes and tools print them (taken from the corpus
// logs and the samples in ../testdata/reports, a few from compiler-rt's
// printer for shapes the corpus lacks).
func TestParseFrame(t *testing.T) {
	tests := []struct {
		line string
		want report.Frame
	}{
		{"    #0 0x55821e959568 in session_id /build/ci/src/use_after_free.c:33:13",
			report.Frame{Index: 0, PC: 0x55821e959568, HasPC: true, Function: "session_id", File: "/build/ci/src/use_after_free.c", Line: 33, Column: 13}},
		{"    #5 0x55821e958180 in _start (/build/ci/cases/x/use_after_free+0x1180) (BuildId: d8da252cdb939397a36f31f8d67c0bff99156254)",
			report.Frame{Index: 5, PC: 0x55821e958180, HasPC: true, Function: "_start", Module: "/build/ci/cases/x/use_after_free", Offset: 0x1180, HasOffset: true, BuildID: "d8da252cdb939397a36f31f8d67c0bff99156254"}},
		// Chromium's Android HWASan report with a symbolizer's "-> f at
		// file:line" (public-hwasan-chromium-android-symbolized-arrow.log).
		{"    #12 0x6caee6cd7c  (/data/app/~~47cxnQp1PLqI56lgYho12g==/org.chromium.chrome-BkkkBaeMyLMy4SzvxB-_kg==/lib/arm64/libchrome.so+0x686cd7c) (BuildId: f70b4ed1a4f72e94) -> base::OnceCallback<void (bool)>::Run(bool) && at ./../../base/functional/callback.h:156 (discriminator 4)",
			report.Frame{Index: 12, PC: 0x6caee6cd7c, HasPC: true, Module: "/data/app/~~47cxnQp1PLqI56lgYho12g==/org.chromium.chrome-BkkkBaeMyLMy4SzvxB-_kg==/lib/arm64/libchrome.so", Offset: 0x686cd7c, HasOffset: true, BuildID: "f70b4ed1a4f72e94",
				Function: "base::OnceCallback<void (bool)>::Run(bool) &&", File: "./../../base/functional/callback.h", Line: 156}},
		{"    #1 0x55e2bfb489bb  (/build/ci/cases/x/bin+0x9bb)",
			report.Frame{Index: 1, PC: 0x55e2bfb489bb, HasPC: true, Module: "/build/ci/cases/x/bin", Offset: 0x9bb, HasOffset: true}},
		{"    #2 0x60600000005f  (<unknown module>)",
			report.Frame{Index: 2, PC: 0x60600000005f, HasPC: true, Module: "<unknown module>"}},
		{"    #3 0x7ffd20a1eca7  ([stack]+0x1fca7)",
			report.Frame{Index: 3, PC: 0x7ffd20a1eca7, HasPC: true, Module: "[stack]", Offset: 0x1fca7, HasOffset: true}},
		{"    #2 0x7f0697576b96 in __libc_start_main+0x80 (/lib/x86_64-linux-gnu/libc.so.6+0x21b96)",
			report.Frame{Index: 2, PC: 0x7f0697576b96, HasPC: true, Function: "__libc_start_main", SymbolOffset: 0x80, HasSymbolOffset: true, Module: "/lib/x86_64-linux-gnu/libc.so.6", Offset: 0x21b96, HasOffset: true}},
		{"    #0 0x40d312 in operator new[](unsigned long) llvm/projects/compiler-rt/lib/asan/asan_new_delete.cc:46",
			report.Frame{Index: 0, PC: 0x40d312, HasPC: true, Function: "operator new[](unsigned long)", File: "llvm/projects/compiler-rt/lib/asan/asan_new_delete.cc", Line: 46}},
		{"    #0 0x7f in operator delete(void*, unsigned long) /src/asan_new_delete.cpp:172:3",
			report.Frame{Index: 0, PC: 0x7f, HasPC: true, Function: "operator delete(void*, unsigned long)", File: "/src/asan_new_delete.cpp", Line: 172, Column: 3}},
		{"    #2 0x5646bebcf806 in cfg::value_length(cfg::Settings const&, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&) /build/ci/src/a.cpp:38:1",
			report.Frame{Index: 2, PC: 0x5646bebcf806, HasPC: true, Function: "cfg::value_length(cfg::Settings const&, std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)", File: "/build/ci/src/a.cpp", Line: 38, Column: 1}},
		{"    #1 0x1 in (anonymous namespace)::f() /my dir/with space/a.cc:7:2",
			report.Frame{Index: 1, PC: 1, HasPC: true, Function: "(anonymous namespace)::f()", File: "/my dir/with space/a.cc", Line: 7, Column: 2}},
		{"    #3 0x2 in void std::__invoke_impl<void, main::'lambda0'()>(std::__invoke_other, main::'lambda0'()&&) /usr/include/c++/12/bits/invoke.h:61:14",
			report.Frame{Index: 3, PC: 2, HasPC: true, Function: "void std::__invoke_impl<void, main::'lambda0'()>(std::__invoke_other, main::'lambda0'()&&)", File: "/usr/include/c++/12/bits/invoke.h", Line: 61, Column: 14}},
		{"    #4 0x3 in main::'lambda0'()::operator()() const /src/t.cpp:9:5",
			report.Frame{Index: 4, PC: 3, HasPC: true, Function: "main::'lambda0'()::operator()() const", File: "/src/t.cpp", Line: 9, Column: 5}},
		{"    #0 0x4 in std::vector<int, std::allocator<int> >::operator[](unsigned long) /usr/include/c++/12/bits/stl_vector.h:1123",
			report.Frame{Index: 0, PC: 4, HasPC: true, Function: "std::vector<int, std::allocator<int> >::operator[](unsigned long)", File: "/usr/include/c++/12/bits/stl_vector.h", Line: 1123}},
		{"    #0 0x5 in bool operator<<int>(A<int> const&, A<int> const&) /a.h:3:1",
			report.Frame{Index: 0, PC: 5, HasPC: true, Function: "bool operator<<int>(A<int> const&, A<int> const&)", File: "/a.h", Line: 3, Column: 1}},
		{"    #7 0x6 in __interceptor_malloc",
			report.Frame{Index: 7, PC: 6, HasPC: true, Function: "__interceptor_malloc"}},
		// TSan
		{"    #1 transfer_locked /build/ci/src/lock_order.c:20:3 (lock_order+0x4cf126) (BuildId: 342e4fe7ec2e82bb10168926c4019307528086e3)",
			report.Frame{Index: 1, Function: "transfer_locked", File: "/build/ci/src/lock_order.c", Line: 20, Column: 3, Module: "lock_order", Offset: 0x4cf126, HasOffset: true, BuildID: "342e4fe7ec2e82bb10168926c4019307528086e3"}},
		{"    #0 pthread_mutex_lock <null> (lock_order+0x46df3a)",
			report.Frame{Index: 0, Function: "pthread_mutex_lock", Module: "lock_order", Offset: 0x46df3a, HasOffset: true}},
		{"    #0 <null> <null> (race_global+0x1292)",
			report.Frame{Index: 0, Module: "race_global", Offset: 0x1292, HasOffset: true}},
		{"    #3 __tsan::CallUserSignalHandler(__tsan::ThreadState*, bool, bool, int, __sanitizer::__sanitizer_siginfo*, void*) tsan_interceptors_posix.cpp.o (signal_unsafe+0x57c91)",
			report.Frame{Index: 3, Function: "__tsan::CallUserSignalHandler(__tsan::ThreadState*, bool, bool, int, __sanitizer::__sanitizer_siginfo*, void*)", File: "tsan_interceptors_posix.cpp.o", Module: "signal_unsafe", Offset: 0x57c91, HasOffset: true}},
		{"    #0 malloc ../../../../src/libsanitizer/tsan/tsan_interceptors_posix.cpp:647 (libtsan.so.2+0x3ebb8)",
			report.Frame{Index: 0, Function: "malloc", File: "../../../../src/libsanitizer/tsan/tsan_interceptors_posix.cpp", Line: 647, Module: "libtsan.so.2", Offset: 0x3ebb8, HasOffset: true}},
	}
	for _, tt := range tests {
		got, ok := ParseFrame(tt.line)
		if !ok {
			t.Errorf("ParseFrame(%q) failed", tt.line)
			continue
		}
		want := tt.want
		want.Raw = trimLeft(tt.line)
		want.Symbolized = report.SymbolizedNone
		if want.Function != "" || want.File != "" {
			want.Symbolized = report.SymbolizedReport
		}
		if got != want {
			t.Errorf("ParseFrame(%q)\n\tgot  %+v\n\twant %+v", tt.line, got, want)
		}
	}
}

func trimLeft(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	return s
}

func TestParseFrameRejects(t *testing.T) {
	for _, line := range []string{
		"", "#", "#0", "# 0x12 in f", "#0  0x0000555555555161 in measure (s=0x0) at g.c:3",
		"#include <stdio.h>", "    #x 0x1 in f", "#12abc", "    #0 0xzz in f", "#0 0x12(foo+0x1)",
	} {
		if f, ok := ParseFrame(line); ok {
			t.Errorf("ParseFrame(%q) = %+v, want failure", line, f)
		}
	}
}

// From ../testdata/reports/glibc_backtrace_symbols.log and gdb_bt.log.
func TestParseOtherFrames(t *testing.T) {
	bt := []struct {
		line string
		want report.Frame
	}{
		{"./bt(+0x1198) [0x55b061033198]", report.Frame{Module: "./bt", Offset: 0x1198, HasOffset: true, PC: 0x55b061033198}},
		{"./bt(handler_fn+0x16) [0x55b061033243]", report.Frame{Module: "./bt", Function: "handler_fn", SymbolOffset: 0x16, HasSymbolOffset: true, PC: 0x55b061033243}},
		{"/lib/x86_64-linux-gnu/libc.so.6(__libc_start_main+0x85) [0x7fdea9900305]", report.Frame{Module: "/lib/x86_64-linux-gnu/libc.so.6", Function: "__libc_start_main", SymbolOffset: 0x85, HasSymbolOffset: true, PC: 0x7fdea9900305}},
		{"./prog(main+0x1c)[0x4005d4]", report.Frame{Module: "./prog", Function: "main", SymbolOffset: 0x1c, HasSymbolOffset: true, PC: 0x4005d4}},
		{"./prog() [0x400a1b]", report.Frame{Module: "./prog", PC: 0x400a1b}},
		{"[0x7f0012345678]", report.Frame{PC: 0x7f0012345678}},
	}
	for _, tt := range bt {
		got, ok := ParseBacktraceSymbol(tt.line)
		w := tt.want
		w.Index, w.HasPC, w.Adjust, w.Raw = -1, true, 1, tt.line
		w.Symbolized = report.SymbolizedNone
		if w.Function != "" {
			w.Symbolized = report.SymbolizedReport
		}
		if !ok || got != w {
			t.Errorf("ParseBacktraceSymbol(%q) = %+v, %v\n\twant %+v", tt.line, got, ok, w)
		}
	}
	gdb := []struct {
		line string
		want report.Frame
	}{
		{"#0  __strlen_evex () at ../sysdeps/x86_64/multiarch/strlen-evex.S:79", report.Frame{Index: 0, Function: "__strlen_evex", File: "../sysdeps/x86_64/multiarch/strlen-evex.S", Line: 79}},
		{"#1  0x0000555555555161 in measure (s=0x0) at g.c:3", report.Frame{Index: 1, PC: 0x555555555161, HasPC: true, Function: "measure", File: "g.c", Line: 3, Adjust: 1}},
		{"#2  0x00007ffff7df0d90 in __libc_start_call_main () from /lib/x86_64-linux-gnu/libc.so.6", report.Frame{Index: 2, PC: 0x7ffff7df0d90, HasPC: true, Function: "__libc_start_call_main", Module: "/lib/x86_64-linux-gnu/libc.so.6", Adjust: 1}},
		{"#3  0x0000000000401136 in ?? ()", report.Frame{Index: 3, PC: 0x401136, HasPC: true, Adjust: 1}},
		{"#12 0x0000000000401136 in std::vector<int, std::allocator<int> >::at (this=0x7fffffffe3c0, __n=5) at /usr/include/c++/12/bits/stl_vector.h:1150", report.Frame{Index: 12, PC: 0x401136, HasPC: true, Function: "std::vector<int, std::allocator<int> >::at", File: "/usr/include/c++/12/bits/stl_vector.h", Line: 1150, Adjust: 1}},
	}
	for _, tt := range gdb {
		got, ok := ParseGDBFrame(tt.line)
		w := tt.want
		w.Raw = tt.line
		w.Symbolized = report.SymbolizedNone
		if w.Function != "" || w.File != "" {
			w.Symbolized = report.SymbolizedReport
		}
		if !ok || got != w {
			t.Errorf("ParseGDBFrame(%q) = %+v, %v\n\twant %+v", tt.line, got, ok, w)
		}
	}
}

func TestPrefix(t *testing.T) {
	tests := []struct {
		prefix, line, rest string
		ok                 bool
	}{
		{"2024-01-02T03:04:05.123Z ", "2024-01-02T03:04:59.7Z     #0 x", "    #0 x", true},
		{"[job 3] ", "[job 3] READ", "READ", true},
		{"[job 3] ", "[job 4] READ", "", false},
		{"svc_1  | ", "svc_1  |", "", true},
		{"svc_1  | ", "db_1   | x", "", false},
		{"", "anything", "anything", true},
	}
	for _, tt := range tests {
		rest, ok := newPrefix(tt.prefix).strip([]byte(tt.line))
		if ok != tt.ok || (ok && string(rest) != tt.rest) {
			t.Errorf("prefix %q on %q = %q, %v; want %q, %v", tt.prefix, tt.line, rest, ok, tt.rest, tt.ok)
		}
	}
	for _, tt := range []struct {
		line string
		n    int
	}{
		{"2024-01-02T03:04:05.123Z a.c:1:2: runtime error: x", 25},
		{"2024-01-02 03:04:05,123 [job 3] a.c:1:2", 32},
		{"##[error]a.c:1:2", 9},
		{"stderr: a.c:1:2", 8},
		{"svc_1  | a.c:1:2", 9},
		{"a.c:1:2: runtime error", 0},
		{"/src/my dir/a.c:1:2", 0},
	} {
		if n := splitKnownPrefix([]byte(tt.line)); n != tt.n {
			t.Errorf("splitKnownPrefix(%q) = %d, want %d", tt.line, n, tt.n)
		}
	}
}
