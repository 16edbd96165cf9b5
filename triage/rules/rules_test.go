package rules

import (
	"errors"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/report"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"function:foo", "r:1: no action"},
		{"-app", "r:1: no matcher before the actions"},
		{"# ok\nfunc:foo -app", `r:2: unknown matcher "func:"`},
		{"function: -app", "r:1: function: has no pattern"},
		{"family:java -app", `r:1: unknown family "java"`},
		{"function:f +app -app", `action "-app" contradicts`},
		{"function:f ^-app", `range action "^-app" is not supported`},
		{"function:f max-frames=3", `variable action "max-frames=3"`},
		{"function:f -app module:m", `matcher "m" after an action`},
		{"function:\"f -app", "quoted pattern without its closing"},
		{"function:f -apps", `unknown action "-apps"`},
		{"foo -app", `"foo" is neither a matcher`},
		{"app:maybe -group", "want app:yes or app:no"},
		{"class:kernel -app", `unknown class "kernel"`},
		{"function:\xff -app", "r:1: not valid UTF-8"},
		{"function:f -app\n" + strings.Repeat("x", maxLine+1), "r:2: line longer than"},
	} {
		_, err := Parse("r", strings.NewReader(tc.text))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want a *SyntaxError", tc.text, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want it to hold %q", tc.text, err, tc.want)
		}
	}
}

func TestApply(t *testing.T) {
	const text = `
# comments and blank lines are skipped

family:native function:std::* -app
stack.abs_path:**/vendor/** -app -group   # Sentry's own matcher names
!module:**/libmine.so* family:native path:**/third_party/*.c -app
function:"operator new" -app
app:no function:*::keep_* +app
class:runtime -app -group
module:libplugin.so* -group
family:go,rust function:main.* -group
`
	s, err := Parse("r", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	in, out := Verdict{InApp: true, Group: true}, Verdict{Group: true}
	for _, tc := range []struct {
		f    Frame
		want Verdict
	}{
		{Frame{Function: "std::vector<int>::at"}, out},
		{Frame{Family: Rust, Function: "std::panicking::begin_panic"}, in},
		{Frame{Path: "/src/Vendor/zlib/inflate.c"}, Verdict{}}, // paths ignore case
		{Frame{Path: `C:\src\vendor\x.c`}, Verdict{}},
		{Frame{Path: "/src/third_party/a.c", Module: "/bin/prog"}, out},
		{Frame{Path: "/src/third_party/sub/a.c", Module: "/bin/prog"}, in}, // "*" stops at "/"
		{Frame{Path: "/src/third_party/a.c", Module: "/usr/lib/libmine.so.1"}, in},
		{Frame{Function: "operator new"}, out},
		{Frame{Function: "operator new[]"}, in},
		{Frame{Function: "std::keep_me"}, in}, // app:no, then +app
		{Frame{Class: report.Runtime, Function: "__asan_memcpy"}, Verdict{}},
		{Frame{Module: "/opt/libplugin.so.2", Function: "f"}, Verdict{InApp: true}},
		{Frame{Family: Go, Function: "main.main"}, Verdict{InApp: true}},
		{Frame{Family: Native, Function: "main.main"}, in},
	} {
		if got := s.Apply(tc.f); got != tc.want {
			t.Errorf("%+v: %+v, want %+v", tc.f, got, tc.want)
		}
	}
}

func TestDefaults(t *testing.T) {
	d := Defaults()
	if d.Len() < 20 {
		t.Fatalf("%d default rules", d.Len())
	}
	for _, tc := range []struct {
		f    Frame
		want Verdict
	}{
		{Frame{Class: report.Runtime, Function: "__asan_report_load4"}, Verdict{}},
		{Frame{Class: report.Libc, Function: "strlen"}, Verdict{Group: true}},
		{Frame{Function: "start_thread", Path: "nptl/pthread_create.c"}, Verdict{}},
		{Frame{Function: "__GI_raise", Path: "../sysdeps/unix/sysv/linux/raise.c"}, Verdict{Group: true}},
		{Frame{Function: "testing::internal::HandleExceptionsInMethodIfSupported<testing::Test, void>"}, Verdict{}},
		{Frame{Function: "fuzzer::Fuzzer::ExecuteCallback"}, Verdict{}},
		{Frame{Function: "LLVMFuzzerTestOneInput", Path: "/src/fuzz.c"}, Verdict{InApp: true, Group: true}},
		{Frame{Family: Rust, Function: "test::run_test::{{closure}}"}, Verdict{}},
		{Frame{Family: Native, Function: "test::run"}, Verdict{InApp: true, Group: true}},
		{Frame{Function: "area_of", Path: "/src/app/geom.c"}, Verdict{InApp: true, Group: true}},
	} {
		if got := d.Apply(tc.f); got != tc.want {
			t.Errorf("%+v: %+v, want %+v", tc.f, got, tc.want)
		}
	}
	// A user's file overrides a default.
	user, err := Parse("u", strings.NewReader("class:runtime function:__asan_* +app +group\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := Frame{Class: report.Runtime, Function: "__asan_report_load4"}
	if got := d.Then(user).Apply(f); got != (Verdict{InApp: true, Group: true}) {
		t.Errorf("override: %+v", got)
	}
}

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		pat      string
		pathLike bool
		s        string
		want     bool
	}{
		{"a*c", false, "a/b::c", true},
		{"a?c", false, "abc", true},
		{"a?c", false, "ac", false},
		{"operator[]", false, "operator[]", true},
		{"f(int)*", false, "f(int) const", true},
		{"**/x/*.c", true, "/a/b/x/y.c", true},
		{"**/x/*.c", true, "/a/b/x/z/y.c", false},
		{"src/**", true, "src/a/b.c", true},
		{"*.c", true, "a/b.c", false},
		{"**.c", true, "a/b.c", true},
		{"a?b", true, "a/b", false},
	} {
		g, err := compileGlob(tc.pat, tc.pathLike)
		if err != nil {
			t.Fatal(err)
		}
		s := tc.s
		if tc.pathLike {
			s = foldPath(s)
		}
		if got := g.match(s); got != tc.want {
			t.Errorf("%q on %q: %v", tc.pat, tc.s, got)
		}
	}
}

// BenchmarkDefaults: the built-in rules over the frames of an ASan
// report's stack (batch applies them to every frame of every report).
func BenchmarkDefaults(b *testing.B) {
	d := Defaults()
	frames := []Frame{
		{Class: report.Interceptor, Function: "__interceptor_free", Module: "/usr/lib/x86_64-linux-gnu/libasan.so.8", Path: "../../../../src/libsanitizer/asan/asan_malloc_linux.cpp"},
		{Function: "session_close", Module: "/build/ci/prog", Path: "/build/ci/src/use_after_free.c"},
		{Function: "main", Module: "/build/ci/prog", Path: "/build/ci/src/use_after_free.c"},
		{Class: report.Libc, Function: "__libc_start_call_main", Path: "../sysdeps/nptl/libc_start_call_main.h"},
		{Function: "_start", Module: "/build/ci/prog"},
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, f := range frames {
			d.Apply(f)
		}
	}
}

func TestGlobForms(t *testing.T) {
	for _, tc := range []struct {
		pat  string
		s    string
		want bool
	}{
		{"**/googletest/src/**", "/x/googletest/src/gtest.cc", true},
		{"**/googletest/src/**", "/x/googletest/gtest.cc", false},
		{"**/lib/fuzzer/Fuzzer*.cpp", "/llvm/compiler-rt/lib/fuzzer/FuzzerLoop.cpp", true},
		{"**/lib/fuzzer/Fuzzer*.cpp", "/llvm/compiler-rt/lib/fuzzer/sub/FuzzerLoop.cpp", false},
	} {
		g, err := compileGlob(tc.pat, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.match(foldPath(tc.s)); got != tc.want {
			t.Errorf("%q on %q: %v", tc.pat, tc.s, got)
		}
	}
}
