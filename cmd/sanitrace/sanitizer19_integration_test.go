package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
)

// TestSanitizerIntegrationClang19 runs the markup samples' programs
// (testdata/samples/src/markup: ASan, LSan, TSan, MSan and UBSan) built
// by clang-19 with its runtimes twice: with llvm-symbolizer-19 as their
// external symbolizer, and with sanitrace linked under the same name. The
// reports must be identical apart from addresses, pids and thread ids.
// Both symbolizers are reached through paths of the same length, so the
// programs' environment, and so their stacks, are laid out alike.
func TestSanitizerIntegrationClang19(t *testing.T) {
	t.Parallel() // long and self-contained
	if testing.Short() {
		t.Skip("builds sanitrace and runs sanitized programs; skipped with -short")
	}
	clang := reftool.NeedFor(t, "clang-19", "cannot build the sanitized programs (.ci/run installs clang-19 and libclang-rt-19-dev)")
	const realSym = "/usr/bin/llvm-symbolizer-19"
	if _, err := os.Stat(realSym); err != nil {
		t.Skipf("%s not found (Debian's llvm-19): no reference symbolizer to compare with", realSym)
	}
	dir := t.TempDir()
	buildSanitraceAs(t, dir, "sanitrace-link")
	refSym, ourSym := filepath.Join(dir, "ref", "llvm-symbolizer-19"), filepath.Join(dir, "our", "llvm-symbolizer-19")
	for _, l := range []struct{ link, target string }{{refSym, realSym}, {ourSym, filepath.Join(dir, "sanitrace")}} {
		if err := os.MkdirAll(filepath.Dir(l.link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(l.target, l.link); err != nil {
			t.Fatal(err)
		}
	}
	src, err := filepath.Abs("../../testdata/samples/src")
	if err != nil {
		t.Fatal(err)
	}
	built := map[string]string{}
	build := func(t *testing.T, prog, sanitizer string) string {
		if bin, ok := built[prog]; ok {
			return bin
		}
		bin := filepath.Join(dir, prog)
		args := []string{"-g", "-O1", "-fno-omit-frame-pointer", "-fsanitize=" + sanitizer,
			"-ffile-prefix-map=" + src + "=/build/ci/samples/src", "-Wl,--build-id", "-o", bin, filepath.Join(src, "markup", prog+".c")}
		if sanitizer == "memory" {
			args = append(args, "-fsanitize-memory-track-origins")
		}
		if out, err := exec.Command(clang, args...).CombinedOutput(); err != nil {
			if bytes.Contains(out, []byte("libclang_rt")) || bytes.Contains(out, []byte("cannot find")) {
				t.Skipf("clang-19 sanitizer runtime missing (libclang-rt-19-dev): %s", out)
			}
			t.Fatalf("build %s: %v\n%s", prog, err, out)
		}
		built[prog] = bin
		return bin
	}
	for _, c := range []struct {
		name, prog, sanitizer, env, arg, opts, mustShow string
	}{
		// Frame #0 is an inline chain (read_id inlined into item_id).
		{"asan-uaf", "asan", "address", "ASAN", "uaf", "", " in read_id /build/ci/samples/src/markup/asan.c:28:13"},
		{"asan-segv", "asan", "address", "ASAN", "segv", "", "SEGV on unknown address"},
		{"asan-overflow", "asan", "address", "ASAN", "overflow", "", "stack-overflow"},
		{"lsan", "lsan", "leak", "LSAN", "", "", " in make_row /build/ci/samples/src/markup/lsan.c"},
		// "Location is global 'counter'" is a DATA answer.
		{"tsan", "tsan", "thread", "TSAN", "", "", "Location is global 'counter'"},
		{"msan", "msan", "memory", "MSAN", "", "", " in new_conf /build/ci/samples/src/markup/msan.c"},
		{"ubsan", "ubsan", "undefined", "UBSAN", "", ":print_stacktrace=1", " in scale /build/ci/samples/src/markup/ubsan.c:9:11"},
	} {
		t.Run(c.name, func(t *testing.T) {
			argv := []string{build(t, c.prog, c.sanitizer)}
			if c.arg != "" {
				argv = append(argv, c.arg)
			}
			if c.name == "asan-overflow" {
				// Where the stack runs out (frame #0) depends on where it
				// starts: without address-space randomisation both runs
				// fault in the same instruction.
				setarch, err := exec.LookPath("setarch")
				if err != nil {
					t.Skip("no setarch to run without address-space randomisation: frame #0 of a stack overflow would differ between runs")
				}
				argv = append([]string{setarch, "-R"}, argv...)
			}
			// A race report depends on how the threads ran, which the
			// scheduler decides (which access comes first, how many
			// warnings, the exit status): differing TSan runs are run
			// again (at most 5 times), so that what is compared is the
			// symbolizers, not the scheduling.
			var want, got, nw, ng string
			for try := 0; try < 5; try++ {
				want = runSanitized19(t, argv, c.env, c.opts, refSym)
				got = runSanitized19(t, argv, c.env, c.opts, ourSym)
				// (UBSan's dump of the bytes a pointer points at is the stack's.)
				nw, ng = normalizeReport(runBytes.ReplaceAllString(want, "BYTES")), normalizeReport(runBytes.ReplaceAllString(got, "BYTES"))
				if nw == ng || c.prog != "tsan" {
					break
				}
			}
			if !strings.Contains(want, c.mustShow) {
				t.Fatalf("the report does not show %q:\n%s", c.mustShow, want)
			}
			if nw != ng {
				t.Errorf("reports differ (after normalising addresses and ids)\n%s\n--- with llvm-symbolizer-19:\n%s\n--- with sanitrace:\n%s",
					golden.FirstDiff(nw, ng), want, got)
			}
		})
	}
}

// runSanitized19 runs argv with the runtime's external symbolizer set to
// sym (a clang-19 runtime takes any name that starts with
// "llvm-symbolizer") and the extra runtime options opts.
func runSanitized19(t *testing.T, argv []string, tool, opts, sym string) string {
	t.Helper()
	return runSanitizedArgs(t, argv, []string{
		"PATH=/usr/local/bin:/usr/bin:/bin",
		tool + "_SYMBOLIZER_PATH=" + sym,
		tool + "_OPTIONS=symbolize=1:color=never" + opts + ":external_symbolizer_path=" + sym,
	})
}
