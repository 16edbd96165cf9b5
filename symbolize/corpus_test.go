package symbolize

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	fx "github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/sharedtest"
)

// llvmJSON is one line of llvm-symbolizer --output-style=JSON.
type llvmJSON struct {
	Address string
	Symbol  []struct {
		FunctionName, FileName, StartFileName, StartAddress string
		Line, Column, Discriminator, StartLine              int
	}
}

func readGzipLines(t *testing.T, path string) []string {
	t.Helper()
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(fx.Gunzip(t, path)))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return lines
}

func readAddresses(t *testing.T, path string) []uint64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []uint64
	for _, l := range strings.Fields(string(data)) {
		v, err := strconv.ParseUint(strings.TrimPrefix(l, "0x"), 16, 64)
		if err != nil {
			t.Fatalf("%s: bad address %q", path, l)
		}
		out = append(out, v)
	}
	return out
}

// llvmText renders frames in a canonical one-line-per-frame form for
// comparison with llvm-symbolizer's JSON.
func llvmText(frames []Frame) string {
	var b strings.Builder
	for _, f := range frames {
		fmt.Fprintf(&b, "%s | %s:%d:%d d%d\n", f.Function, f.File, f.Line, f.Column, f.Discriminator)
	}
	return b.String()
}

func llvmTextFromJSON(j llvmJSON) string {
	var b strings.Builder
	for _, s := range j.Symbol {
		fmt.Fprintf(&b, "%s | %s:%d:%d d%d\n", s.FunctionName, s.FileName, s.Line, s.Column, s.Discriminator)
	}
	return b.String()
}

// gnuText renders frames exactly as addr2line -f -i -C prints them.
func gnuText(frames []Frame) string {
	var b strings.Builder
	if len(frames) == 1 && frames[0] == (Frame{}) {
		return "??\n??:0\n"
	}
	for _, f := range frames {
		fn := f.Function
		if fn == "" {
			fn = "??"
		}
		file := f.File
		if file == "" && !f.FileKnown {
			file = "??"
		}
		b.WriteString(fn + "\n" + file + ":")
		switch {
		case f.Line == 0:
			b.WriteString("?\n")
		case frames[0].Discriminator != 0:
			// addr2line repeats the innermost row's discriminator: bfd's
			// inliner info does not report one.
			fmt.Fprintf(&b, "%d (discriminator %d)\n", f.Line, frames[0].Discriminator)
		default:
			fmt.Fprintf(&b, "%d\n", f.Line)
		}
	}
	return b.String()
}

// parseAddr2line splits `addr2line -a -f -i -C` output into one block per
// address.
func parseAddr2line(lines []string) map[uint64]string {
	out := map[uint64]string{}
	var cur uint64
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out[cur] = b.String()
		}
		b.Reset()
	}
	for _, l := range lines {
		if len(l) == 18 && strings.HasPrefix(l, "0x") {
			if v, err := strconv.ParseUint(l[2:], 16, 64); err == nil {
				flush()
				cur = v
				continue
			}
		}
		b.WriteString(l + "\n")
	}
	flush()
	return out
}

func TestCorpusDifferential(t *testing.T) {
	root := sharedtest.Dir(t, "corpus", "symbolize")
	sets, err := os.ReadDir(root)
	if err != nil {
		t.Skipf("no symbolizer corpus: %v", err)
	}
	for _, set := range sets {
		if !set.IsDir() {
			continue
		}
		set := set.Name()
		t.Run(set, func(t *testing.T) {
			dir := filepath.Join(root, set)
			bin := filepath.Join(dir, set[strings.LastIndex(set, "__")+2:])
			if strings.HasSuffix(bin, "_so") {
				bin = strings.TrimSuffix(bin, "_so") + ".so"
			}
			addrs := readAddresses(t, filepath.Join(dir, "addresses.txt"))
			obj := openObject(t, bin, noDebugDirs())

			llvmOpts := LookupOptions{Inlines: true, Demangle: true, Policy: LLVM14}
			got := obj.SymbolizeMany(addrs, llvmOpts)
			want := readGzipLines(t, filepath.Join(dir, "llvm-symbolizer.json.gz"))
			if len(want) != len(addrs) {
				t.Fatalf("llvm-symbolizer.json has %d lines for %d addresses", len(want), len(addrs))
			}
			same, shown := 0, 0
			for i, line := range want {
				var j llvmJSON
				if err := json.Unmarshal([]byte(line), &j); err != nil {
					t.Fatalf("llvm-symbolizer.json line %d: %v", i+1, err)
				}
				g, w := llvmText(got[i]), llvmTextFromJSON(j)
				if g == w {
					same++
				} else if shown < 5 {
					shown++
					t.Logf("LLVM 0x%x:\n got:\n%s want:\n%s", addrs[i], g, w)
				}
			}
			pct := 100 * float64(same) / float64(len(addrs))
			t.Logf("LLVM style: %d/%d identical (%.2f%%)", same, len(addrs), pct)
			if pct < 99.5 {
				t.Errorf("LLVM style: only %.2f%% identical to llvm-symbolizer, need 99.5%%", pct)
			}

			gnuOpts := LookupOptions{Inlines: true, Demangle: true, Policy: GNU240}
			gotGNU := obj.SymbolizeMany(addrs, gnuOpts)
			wantGNU := parseAddr2line(readGzipLines(t, filepath.Join(dir, "addr2line.txt.gz")))
			same, shown = 0, 0
			for i, a := range addrs {
				g, w := gnuText(gotGNU[i]), wantGNU[a]
				if g == w {
					same++
				} else if shown < 5 {
					shown++
					t.Logf("GNU 0x%x:\n got:\n%s want:\n%s", a, g, w)
				}
			}
			pct = 100 * float64(same) / float64(len(addrs))
			t.Logf("GNU style: %d/%d identical (%.2f%%)", same, len(addrs), pct)
			if pct < 99.5 {
				t.Errorf("GNU style: only %.2f%% identical to addr2line, need 99.5%%", pct)
			}
		})
	}
}
