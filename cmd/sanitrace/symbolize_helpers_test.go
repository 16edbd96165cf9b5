package main

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var faceUpdate = flag.Bool("update", false, "rewrite golden files from the reference tools")

// faceFixtureDir is where the committed ELF fixtures are, relative to this
// package.
const faceFixtureDir = "../../testdata/elf"

// faceRunFace runs sanitrace in-process under argv0 (so the argv[0] dispatch is
// exercised) with stdin as input, and returns what it wrote.
func faceRunFace(t testing.TB, argv0 string, args []string, stdin string) (stdout, stderr string, code int) {
	t.Helper()
	dir := t.TempDir()
	in := faceWriteTemp(t, dir, "stdin", stdin)
	out, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	errf, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	code = run(append([]string{argv0}, args...), in, out, errf)
	for _, f := range []*os.File{in, out, errf} {
		f.Close()
	}
	o, _ := os.ReadFile(filepath.Join(dir, "stdout"))
	e, _ := os.ReadFile(filepath.Join(dir, "stderr"))
	return string(o), string(e), code
}

func faceWriteTemp(t testing.TB, dir, name, content string) *os.File {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// faceRunTool runs a reference tool and returns its output.
func faceRunTool(t testing.TB, tool string, args []string, stdin string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Env = append(os.Environ(), "LLVM_SYMBOLIZER_OPTS=")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %s: %v", tool, err)
	}
	return o.String(), e.String(), code
}

func faceNeedTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not found in PATH: cannot record goldens from the reference", name)
	}
	return p
}

// faceFixtureAddresses picks the addresses a golden covers, from the ELF
// symbols and DWARF of src (the fixture itself, or its unstripped twin):
// function starts, middles and last bytes, the start of every inlined
// subroutine (up to a bound), 0 and an address past the end of .text.
func faceFixtureAddresses(t testing.TB, src string, maxFuncs, maxInlines int) []uint64 {
	t.Helper()
	f, err := elf.Open(src)
	if err != nil {
		t.Fatalf("open %s: %v", src, err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		syms, _ = f.DynamicSymbols()
	}
	var funcs []elf.Symbol
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Size > 0 && s.Value != 0 {
			funcs = append(funcs, s)
		}
	}
	sort.Slice(funcs, func(i, j int) bool {
		if funcs[i].Value != funcs[j].Value {
			return funcs[i].Value < funcs[j].Value
		}
		return funcs[i].Name < funcs[j].Name
	})
	step := 1
	if len(funcs) > maxFuncs {
		step = (len(funcs) + maxFuncs - 1) / maxFuncs
	}
	seen := map[uint64]bool{}
	var addrs []uint64
	add := func(a uint64) {
		if !seen[a] {
			seen[a] = true
			addrs = append(addrs, a)
		}
	}
	for i := 0; i < len(funcs); i += step {
		s := funcs[i]
		add(s.Value)
		add(s.Value + s.Size/2)
		add(s.Value + s.Size - 1)
	}
	if d, err := f.DWARF(); err == nil {
		r := d.Reader()
		n := 0
		for n < maxInlines {
			e, err := r.Next()
			if err != nil || e == nil {
				break
			}
			if e.Tag == dwarf.TagInlinedSubroutine {
				if lo, ok := e.Val(dwarf.AttrLowpc).(uint64); ok {
					add(lo)
					add(lo + 1)
					n++
				}
			}
		}
	}
	// 0 is unknown everywhere. (Past the last symbol llvm-symbolizer 14
	// answers "_end" or the last function; the engine deliberately says
	// "??", docs/differences.md, so such addresses are not in the goldens.)
	add(0)
	return addrs
}

func faceDataAddresses(t testing.TB, src string) []uint64 {
	t.Helper()
	f, err := elf.Open(src)
	if err != nil {
		t.Fatalf("open %s: %v", src, err)
	}
	defer f.Close()
	syms, _ := f.Symbols()
	var addrs []uint64
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_OBJECT && s.Size > 0 && s.Value != 0 {
			addrs = append(addrs, s.Value, s.Value+s.Size-1, s.Value+s.Size)
		}
	}
	sort.Slice(addrs, func(i, j int) bool { return addrs[i] < addrs[j] })
	if len(addrs) > 30 {
		addrs = addrs[:30]
	}
	return append(addrs, 0)
}

func faceHexList(addrs []uint64, prefix string) []string {
	s := make([]string, len(addrs))
	for i, a := range addrs {
		s[i] = fmt.Sprintf("%s%x", prefix, a)
	}
	return s
}

// faceCompareGolden compares got with the golden file, or rewrites the golden
// with want when -update is set.
func faceCompareGolden(t *testing.T, path, got string, want func() string) {
	t.Helper()
	if *faceUpdate {
		w := want()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(w), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %s missing (run go test -update with the reference tool installed): %v", path, err)
	}
	if w, g := string(b), got; w != g {
		t.Errorf("%s: output differs from the reference (%d vs %d bytes)\n%s", path, len(got), len(b), faceFirstDiff(w, g))
	}
}

// faceFirstDiff shows the first differing line of two outputs.
func faceFirstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return fmt.Sprintf("line %d:\n  reference: %q\n  sanitrace: %q", i+1, w, g)
		}
	}
	return "(no line differs)"
}
