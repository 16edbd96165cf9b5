package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/decompress"
	"github.com/sanitrace/sanitrace/internal/golden"
)

// The mixed device log (testdata/lws/mixed-device.log): lws program output
// with CRLF, a heap dump of ~m# records behind lws and ESP-IDF prefixes and
// ANSI colours, a ~b# line, a depth-0 record, a record cut by the console,
// then a real gcc ASan report.
var mixedLog = filepath.Join(repoRoot, "testdata", "lws", "mixed-device.log")

func TestDecodeLWSMixedLog(t *testing.T) {
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) {
			out, stderr, code := runCLI(t, "", "decode", "--format", format, mixedLog)
			if code != exitFound {
				t.Errorf("exit %d, want 1 for the ASan report", code)
			}
			// The cut record: one line naming input, line and class.
			wantErr := mixedLog + ":9: ~m# record: length-mismatch: length trailer says 46382 bytes, payload decodes to 30\n"
			if stderr != wantErr {
				t.Errorf("stderr %q, want %q", stderr, wantErr)
			}
			ext := ".txt"
			if format == "json" {
				ext = ".json"
				d := parseDecodeJSON(t, out)
				if len(d.Reports) != 2 || d.Reports[0].Tool != "libwebsockets" || d.Reports[0].Kind != "heap dump" ||
					d.Reports[1].Tool != "AddressSanitizer" || d.Reports[1].Kind != "heap-use-after-free" {
					t.Fatalf("reports: %+v", d.Reports)
				}
				var got []string
				for _, s := range d.Reports[0].Stacks {
					var pcs []string
					for _, f := range s.Frames {
						pcs = append(pcs, str(f.PC))
					}
					got = append(got, s.Title+": "+strings.Join(pcs, " "))
				}
				// Sizes and pcs as lws's own decoder prints them (FORMAT.md
				// §9 for the ~b# line; the others from heapmap-expected.json).
				want := []string{
					"allocation of 64 bytes: 0x7f3a9c21a2b4 0x7f3a9c21a3f9 0x7f3a9c21e0c5 0x5581e3a02481 0x7f3a9c224a10 0x7f3a9c224f3e 0x5581e3a01f60 0x5581e3a01589 0x7f3a9be29d90 0x7f3a9be29e40",
					"allocation of 565 bytes: 0x7f3a9c21a2b4 0x7f3a9c21a38d 0x7f3a9c219c47 0x5581e3a02481 0x7f3a9c224a10 0x7f3a9c224f3e 0x5581e3a01f60 0x5581e3a01589 0x7f3a9be29d90 0x7f3a9be29e40",
					"allocation of 1912 bytes: 0x7f3a9c21a2b4 0x7f3a9c21a3f9 0x7f3a9c22c11e 0x7f3a9c22f5a3 0x5581e3a01d3a 0x5581e3a01589 0x7f3a9be29d90 0x7f3a9be29e40",
					"allocation of 7520 bytes: 0x406651 0x406852 0x406c1b 0x406294",
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("heap dump stacks:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
			golden.Check(t, filepath.Join(golden.Dir("decode"), "mixed-device"+ext), out)
		})
	}
}

// Heap dumps are not bug reports: a log with only a dump exits 0. --obj and
// --base are checked as lws's are.
func TestDecodeLWSExitCodes(t *testing.T) {
	dump := "[t] N: ~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV\n~m#\n"
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"decode"}, exitOK},
		{[]string{"decode", "--format", "json"}, exitOK},
		{[]string{"decode", "--base", "0x1000"}, exitUsage},
		{[]string{"decode", "--obj", filepath.Join(t.TempDir(), "nope")}, exitUsage},
		{[]string{"decode", "--obj", filepath.Join(repoRoot, "testdata", "elf", "c-O0-dw4-nopie"), "--base", "xyz"}, exitUsage},
		{[]string{"decode", "--obj", filepath.Join(repoRoot, "testdata", "elf", "c-O0-dw4-nopie")}, exitOK},
	}
	for _, tt := range tests {
		out, stderr, code := runCLI(t, dump, tt.args...)
		if code != tt.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tt.args, code, tt.code, stderr)
		}
		if code == exitOK {
			if !strings.Contains(out, "libwebsockets heap dump: 1 live allocation, 7.3 KiB (7520 bytes); 1 record undecodable") {
				t.Errorf("%v: no heap dump in\n%s", tt.args, out)
			}
			if stderr != "<stdin>:2: ~m# record: empty-payload: nothing after the ~m# lead-in\n" {
				t.Errorf("%v: stderr %q", tt.args, stderr)
			}
		}
	}
}

// End to end: a device log with an ASan report and a heap dump of the
// fixture program's real allocations (testdata/src/lws/allocs.c, built
// here; its ~m# records behind prefixes and colours, one as a ~b# line and
// one cut short). `decode --obj` names the allocating function and line of
// every record and gives the frames llvm-symbolizer gives for pc-base-1.
func TestDecodeLWSEndToEnd(t *testing.T) {
	t.Parallel() // long and self-contained
	asan, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "reports", "asan_use_after_free_gcc_O0.symbolized.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range allocsBuildModes {
		t.Run(mode.name, func(t *testing.T) {
			bin, base, allocs := buildAllocs(t, mode.flags...)
			text := readTextRanges(t, bin)
			var log strings.Builder
			log.WriteString("app: starting\r\n")
			log.WriteString(allocsLog(t, allocs[1:]))
			log.WriteString(string(decompress.AppendB(nil, decompress.Backtrace{Size: allocs[0].size, PCs: allocs[0].pcs})) + " \n")
			log.WriteString("~m#UL386nCGitBe/nU4Q0fygEkGyaAMQKpBBTC6ALUu\n")
			badLine := strings.Count(log.String(), "\n")
			log.WriteString("app: crashing\n")
			log.Write(asan)
			order := append(allocs[1:len(allocs):len(allocs)], allocs[0])

			args := []string{"decode", "--obj", bin}
			if mode.pie {
				args = append(args, "--base", fmt.Sprintf("%#x", base))
			} else {
				base = 0
			}
			out, stderr, code := runCLI(t, log.String(), append(args, "--format", "json")...)
			if code != exitFound {
				t.Errorf("exit %d, want 1", code)
			}
			if want := fmt.Sprintf("<stdin>:%d: ~m# record: length-mismatch: ", badLine); !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr %q, want one line starting %q", stderr, want)
			}
			d := parseDecodeJSON(t, out)
			if len(d.Reports) != 2 || d.Reports[0].Tool != "libwebsockets" || d.Reports[1].Tool != "AddressSanitizer" {
				t.Fatalf("reports: %+v", d.Reports)
			}
			stacks := d.Reports[0].Stacks
			if len(stacks) != len(order) {
				t.Fatalf("%d allocation stacks, want %d", len(stacks), len(order))
			}
			compared := 0
			for i, a := range order {
				s := stacks[i]
				if s.Title != fmt.Sprintf("allocation of %d bytes", a.size) || s.Role != "alloc" {
					t.Errorf("stack %d: %q role %q", i, s.Title, s.Role)
				}
				if len(s.Frames) == 0 || str(s.Frames[0].Function) != a.fn || str(s.Frames[0].File) != "/build/sanitrace/lws/allocs.c" || s.Frames[0].Line != a.line {
					t.Errorf("stack %d: first frame %+v, want %s allocs.c:%d", i, s.Frames[0], a.fn, a.line)
				}
				var inside []uint64
				for _, pc := range a.pcs {
					if text.contains(pc - base - 1) {
						inside = append(inside, pc)
					}
				}
				answers := llvmFrames(t, bin, base, inside)
				var want, got []string
				for _, pc := range a.pcs {
					if !text.contains(pc - base - 1) {
						want = append(want, fmt.Sprintf("%#x ?? ??:0", pc))
						continue
					}
					for _, fl := range answers[0] {
						want = append(want, fmt.Sprintf("%#x %s", pc, fl))
					}
					answers = answers[1:]
				}
				for _, f := range s.Frames {
					fn, file := str(f.Function), str(f.File)
					if fn == "" {
						fn = "??"
					}
					if file == "" {
						file = "??"
					}
					got = append(got, fmt.Sprintf("%s %s %s:%d", str(f.PC), fn, file, f.Line))
					inModule := str(f.Module) == bin
					if f.Symbolized == "sanitrace" && (!inModule || str(f.Offset) == "") {
						t.Errorf("stack %d: symbolized frame %+v without module and offset", i, f)
					}
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("stack %d:\n got\n\t%s\nllvm-symbolizer\n\t%s", i, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
				}
				compared += len(inside)
			}

			// Text: one header per allocation, the frames under it.
			out, _, _ = runCLI(t, log.String(), args...)
			for _, a := range order {
				site := fmt.Sprintf("  allocation of %d bytes:\n    #0 %#x in %s /build/sanitrace/lws/allocs.c:%d:", a.size, a.pcs[0], a.fn, a.line)
				if !strings.Contains(out, site) {
					t.Errorf("text output lacks %q:\n%s", site, out)
					break
				}
			}
			t.Logf("%d allocations; frames of %d pcs inside the binary agree with llvm-symbolizer", len(order), compared)
		})
	}
}
