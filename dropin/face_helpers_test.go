package dropin

import (
	"bytes"
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
)

// faceFixtureDir is where the committed ELF fixtures are, as the goldens
// name them: they were recorded from a directory two levels below the
// repository's root, and llvm-symbolizer's JSON prints a module's name as
// given. Every face test runs from such a directory (faceChdir).
const faceFixtureDir = "../../testdata/elf"

// faceChdir runs the test from testdata/elf, two levels below the
// repository's root, so that faceFixtureDir names the fixtures.
func faceChdir(t *testing.T) {
	t.Helper()
	t.Chdir(filepath.Join(golden.Dir(""), "..", "elf"))
}

// faceRunFace runs a drop-in face (llvm-symbolizer* or addr2line, as its
// argv[0] would be) with stdin as input, and returns what it wrote.
func faceRunFace(t testing.TB, face string, args []string, stdin string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	env := Env{Stdin: strings.NewReader(stdin), Stdout: &o, Stderr: &e, Getenv: os.Getenv, Open: OpenEngine}
	switch {
	case strings.HasPrefix(face, "llvm-symbolizer"):
		code = RunLLVMSymbolizer(args, env)
	case face == "addr2line":
		code = RunAddr2line(args, env)
	default:
		t.Fatalf("no face %q", face)
	}
	return o.String(), e.String(), code
}

// faceFixtureAddresses picks the addresses a golden covers, from the ELF
// symbols and DWARF of src (the fixture itself, or its unstripped twin):
// function starts, middles and last bytes, the start of every inlined
// subroutine (up to a bound), 0 and an address past the end of .text.
func faceFixtureAddresses(t testing.TB, src string, maxFuncs, maxInlines int) []uint64 {
	t.Helper()
	funcs := fixture.Funcs(t, src)
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
	for _, lo := range fixture.InlineStarts(t, src, maxInlines) {
		add(lo)
		add(lo + 1)
	}
	// 0 is unknown everywhere. (Past the last symbol llvm-symbolizer 14
	// answers "_end" or the last function; the engine deliberately says
	// "??", docs/differences.md, so such addresses are not in the goldens.)
	add(0)
	return addrs
}

func faceDataAddresses(t testing.TB, src string) []uint64 {
	t.Helper()
	f := fixture.OpenELF(t, src)
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
