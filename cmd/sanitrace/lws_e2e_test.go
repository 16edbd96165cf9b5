package main

import (
	"bufio"
	"debug/elf"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/decompress"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/reftool"
	"github.com/sanitrace/sanitrace/wire"
)

// allocation is one line of testdata/src/lws/allocs.c's output.
type allocation struct {
	size uint64
	fn   string // innermost source function of the first return address
	line int    // and its line (__LINE__ of the record call)
	pcs  []uint64
}

// buildAllocs compiles and runs the fixture; it returns the binary, its
// load address as printed, and the allocations.
func buildAllocs(t *testing.T, flags ...string) (bin string, base uint64, allocs []allocation) {
	t.Helper()
	gcc := reftool.NeedFor(t, "gcc", "cannot build the lws end-to-end fixture")
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "src", "lws"))
	if err != nil {
		t.Fatal(err)
	}
	bin = filepath.Join(t.TempDir(), "allocs")
	args := append([]string{"-g", "-O2"}, flags...)
	args = append(args, "-ffile-prefix-map="+src+"=/build/sanitrace/lws", "-o", bin, filepath.Join(src, "allocs.c"))
	if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
		t.Fatalf("gcc %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatalf("run %s: %v", bin, err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "BASE":
			base, err = strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 64)
		case len(f) >= 5 && f[0] == "ALLOC":
			a := allocation{fn: f[2]}
			a.size, err = strconv.ParseUint(f[1], 10, 64)
			if err == nil {
				a.line, err = strconv.Atoi(f[3])
			}
			for _, p := range f[4:] {
				var pc uint64
				if pc, err = strconv.ParseUint(strings.TrimPrefix(p, "0x"), 16, 64); err != nil {
					break
				}
				a.pcs = append(a.pcs, pc)
			}
			allocs = append(allocs, a)
		default:
			err = fmt.Errorf("unexpected line")
		}
		if err != nil {
			t.Fatalf("%s output %q: %v", bin, sc.Text(), err)
		}
	}
	if len(allocs) < 5 {
		t.Fatalf("%s printed %d allocations:\n%s", bin, len(allocs), out)
	}
	return bin, base, allocs
}

// allocsLog encodes the allocations with our encoder into a log where the
// ~m# lines sit among ordinary lines, some behind lws and ESP-IDF prefixes
// and ANSI colours.
func allocsLog(t *testing.T, allocs []allocation) string {
	var b strings.Builder
	b.WriteString("[2024/05/01 12:00:01:1234] U: LWS minimal http server | visit http://localhost:7681\n")
	for i, a := range allocs {
		line, err := decompress.AppendLine(nil, decompress.Backtrace{Size: a.size, PCs: a.pcs})
		if err != nil {
			t.Fatalf("encode %+v: %v", a, err)
		}
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "%s\n", line)
		case 1:
			fmt.Fprintf(&b, "[2024/05/01 12:00:05:%04d] N: %s\n", i, line)
		case 2:
			fmt.Fprintf(&b, "\x1b[0;32mI (%d) heap: %s\x1b[0m\n", 1000+i, line)
		}
		b.WriteString("[2024/05/01 12:00:05:0201] N: lws_ss_event_helper: [ss|3|mqtt]: CONNECTED\n")
	}
	return b.String()
}

// llvmFrames asks llvm-symbolizer about the same adjusted addresses the
// lws commands look up (pc - base - 1), as "function file:line" per frame
// (the column is compared separately).
func llvmFrames(t *testing.T, bin string, base uint64, pcs []uint64) [][]string {
	t.Helper()
	addrs := make([]uint64, len(pcs))
	for i, pc := range pcs {
		addrs[i] = pc - base - 1
	}
	res := reftool.LLVMChains(t, bin, addrs)
	for _, chain := range res {
		for i, fl := range chain {
			if j := strings.LastIndexByte(fl, ':'); j > 0 && strings.Count(fl, ":") >= 2 {
				chain[i] = fl[:j]
			}
		}
	}
	return res
}

// textRanges are the executable PT_LOAD segments of a binary, read with
// debug/elf for the test's own judgement of which pcs belong to it.
type textRanges []*elf.Prog

func readTextRanges(t *testing.T, bin string) textRanges {
	f := fixture.OpenELF(t, bin)
	var r textRanges
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			r = append(r, p)
		}
	}
	return r
}

func (r textRanges) contains(addr uint64) bool {
	for _, p := range r {
		if addr >= p.Vaddr && addr < p.Vaddr+p.Memsz {
			return true
		}
	}
	return false
}

func frameKey(f wire.Frame) string {
	fn, file := "??", "??"
	if f.Function != nil {
		fn = *f.Function
	}
	if f.File != nil {
		file = *f.File
	}
	return fmt.Sprintf("%s %s:%d", fn, file, f.Line)
}

// allocsBuildModes are the two ways the allocs fixture program is built:
// a fixed image, and a PIE whose load address the program prints.
var allocsBuildModes = []struct {
	name  string
	flags []string
	pie   bool
}{
	{"no-pie", []string{"-no-pie"}, false},
	{"pie", []string{"-fPIE", "-pie"}, true},
}

func TestLWSEndToEnd(t *testing.T) {
	for _, mode := range allocsBuildModes {
		t.Run(mode.name, func(t *testing.T) {
			bin, base, allocs := buildAllocs(t, mode.flags...)
			text := readTextRanges(t, bin)
			log := allocsLog(t, allocs)
			args := []string{"--obj", bin}
			if mode.pie {
				if base == 0 {
					t.Fatal("PIE build printed no load address")
				}
				args = append(args, "--base", fmt.Sprintf("%#x", base))
			} else {
				base = 0 // a non-PIE executable runs at its link-time addresses
			}

			// lws decode --obj: each record's ~b# line, then its frames; the
			// first frame names the allocating function and line.
			out, stderr, code := runCLI(t, log, append([]string{"lws", "decode"}, args...)...)
			if code != exitOK || stderr != "" {
				t.Fatalf("lws decode: exit %d, stderr:\n%s", code, stderr)
			}
			blocks := strings.Split(out, "~b#")[1:]
			if len(blocks) != len(allocs) {
				t.Fatalf("lws decode printed %d records, want %d:\n%s", len(blocks), len(allocs), out)
			}
			for i, a := range allocs {
				want := string(decompress.AppendB(nil, decompress.Backtrace{Size: a.size, PCs: a.pcs}))
				lines := strings.Split(blocks[i], "\n")
				if "~b#"+lines[0] != want {
					t.Errorf("record %d: %q, want %q", i, "~b#"+lines[0], want)
				}
				site := fmt.Sprintf("    #0 %#x in %s /build/sanitrace/lws/allocs.c:%d:", a.pcs[0], a.fn, a.line)
				if len(lines) < 2 || !strings.HasPrefix(lines[1], site) {
					t.Errorf("record %d: first frame %q, want it to start with %q", i, lines[1], site)
				}
			}

			// lws heapmap --obj --format json: one row per distinct stack,
			// frames equal to llvm-symbolizer's for the same addresses.
			out, stderr, code = runCLI(t, log, append([]string{"lws", "heapmap", "--format", "json"}, args...)...)
			if code != exitOK || stderr != "" {
				t.Fatalf("lws heapmap: exit %d, stderr:\n%s", code, stderr)
			}
			var r wire.HeapMap
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("heap map JSON: %v\n%s", err, out)
			}
			distinct := map[string]bool{}
			var bytes uint64
			rowCount, rowBytes := map[string]int{}, map[string]uint64{}
			for _, a := range allocs {
				var hex []string
				for _, pc := range a.pcs {
					hex = append(hex, fmt.Sprintf("%#x", pc))
				}
				k := strings.Join(hex, " ")
				distinct[k] = true
				bytes += a.size
				rowCount[k]++
				rowBytes[k] += a.size
			}
			if r.Records != len(allocs) || r.TotalBytes != bytes || r.DistinctBacktraces != len(distinct) {
				t.Errorf("heap map: %d records, %d bytes, %d backtraces; want %d, %d, %d",
					r.Records, r.TotalBytes, r.DistinctBacktraces, len(allocs), bytes, len(distinct))
			}
			compared, repeated := 0, 0
			for _, row := range r.Backtraces {
				k := strings.Join(row.PCs, " ")
				if row.Count != rowCount[k] || row.TotalBytes != rowBytes[k] {
					t.Errorf("row %s: count %d, %d bytes; the program made %d, %d bytes", k, row.Count, row.TotalBytes, rowCount[k], rowBytes[k])
				}
				if row.Count > 1 {
					repeated++
				}
				var pcs []uint64
				for _, s := range row.PCs {
					pc, _ := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
					pcs = append(pcs, pc)
				}
				// pcs outside the binary (libc's) must stay unsymbolized;
				// llvm-symbolizer is asked only about the others.
				var inside []uint64
				for _, pc := range pcs {
					if text.contains(pc - base - 1) {
						inside = append(inside, pc)
					}
				}
				answers := llvmFrames(t, bin, base, inside)
				var want []string
				for _, pc := range pcs {
					if !text.contains(pc - base - 1) {
						want = append(want, "?? ??:0")
						continue
					}
					want = append(want, answers[0]...)
					answers = answers[1:]
				}
				var got []string
				for _, f := range row.Frames {
					got = append(got, frameKey(f))
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("backtrace %v:\n got frames\n\t%s\nllvm-symbolizer says\n\t%s", row.PCs,
						strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
				}
				compared += len(inside)
			}
			if repeated == 0 {
				t.Errorf("no backtrace with more than one allocation: many_small's loop should give one")
			}
			t.Logf("%d allocations, %d distinct backtraces, frames of %d pcs inside the binary agree with llvm-symbolizer", len(allocs), len(r.Backtraces), compared)
		})
	}
}
