package parse

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/report"
)

// FuzzScanner feeds arbitrary logs to the Scanner: it must not panic or
// loop, and every report must be consistent. Seeds (testdata/fuzz/
// FuzzScanner) are small corpus logs, some with noise added.
func FuzzScanner(f *testing.F) {
	f.Add([]byte("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)\n    #0 0x1 in main a.c:1:2\n==1==ABORTING\n"))
	// The tail of a TSan report whose headline the paste lost
	// (testdata/samples/pastes/public-tsan-null-frames-fragment.log).
	f.Add([]byte("    #1 <null> <null> (libtsan.so.0+0x29b3d)\n\n  Previous read of size 2 at 0x7fffe4dfdde6 by main thread:\n    #0 main /home/quantum/build/cava/cava.c:822 (cava+0x54f4)\n\nSUMMARY: ThreadSanitizer: data race input/fifo.c:47 in input_fifo\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc := NewScanner(bytes.NewReader(data), "fuzz")
		lines := bytes.Count(data, []byte("\n")) + 1
		// Unattached fragments: within the input, never empty, each
		// frame as many as it says at most.
		sc.OnFragment(func(fr *report.Fragment) {
			in := fr.Input
			if in.FirstLine < 1 || in.LastLine < in.FirstLine || in.LastLine > lines {
				t.Fatalf("fragment with bad line range %+v (%d lines)", in, lines)
			}
			n := 0
			for _, s := range fr.Stacks {
				if len(s.Frames) == 0 || s.Role == "" {
					t.Fatalf("empty or role-less fragment stack %+v", s)
				}
				n += len(s.Frames)
			}
			if n == 0 || n > fr.Frames {
				t.Fatalf("fragment keeps %d frames of %d", n, fr.Frames)
			}
		})
		prev := 0
		eachReport(t, sc, func(n int, r *report.Report) {
			if n > lines {
				t.Fatalf("more reports (%d) than lines (%d)", n, lines)
			}
			if r.Tool == "" || len(r.Raw) == 0 {
				t.Fatalf("report without tool or lines: %+v", r)
			}
			if r.Input.FirstLine < prev || r.Input.LastLine < r.Input.FirstLine || r.Input.LastLine > lines {
				t.Fatalf("bad line range %+v (previous report started at %d, %d lines)", r.Input, prev, lines)
			}
			prev = r.Input.FirstLine
			for _, s := range r.Stacks {
				if len(s.Frames) == 0 && s.Marker == "" || s.Role == "" {
					t.Fatalf("empty or role-less stack %+v", s)
				}
			}
			if r.Shadow != nil {
				for _, row := range r.Shadow.Rows {
					if row.Marked >= len(row.Bytes) {
						t.Fatalf("marked byte %d outside row %+v", row.Marked, row)
					}
				}
			}
		})
	})
}

// FuzzParseFrame checks that frame parsing never panics and that what it
// extracts comes from the line.
func FuzzParseFrame(f *testing.F) {
	for _, s := range []string{
		"    #0 0x55821e959568 in session_id /build/ci/src/use_after_free.c:33:13",
		"    #1 transfer_locked /build/ci/src/lock_order.c:20:3 (lock_order+0x4cf126) (BuildId: 34)",
		"    #2 0x60600000005f  (<unknown module>)",
		"#1  0x0000555555555161 in measure (s=0x0) at g.c:3",
		"./bt(handler_fn+0x16) [0x55b061033243]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		for _, parse := range []func(string) (report.Frame, bool){ParseFrame, ParseGDBFrame, ParseBacktraceSymbol} {
			fr, ok := parse(line)
			if !ok {
				continue
			}
			for _, part := range []string{fr.Function, fr.File, fr.Module, fr.BuildID} {
				if !bytes.Contains([]byte(line), []byte(part)) {
					t.Fatalf("%q: field %q not in the line", line, part)
				}
			}
		}
	})
}

// FuzzDumpFrame checks the frame parsers of the other formats: no panic,
// and every name they extract comes from the line. Seeds (testdata/fuzz/
// FuzzDumpFrame) are frame lines of the kernel, Go, Rust, Chromium and
// boost::stacktrace samples in ../testdata/reports.
func FuzzDumpFrame(f *testing.F) {
	f.Add(" ? ring_pop+0x7e/0x130 [ringbuf]")
	f.Fuzz(func(t *testing.T, line string) {
		check := func(name string, fr report.Frame, ok bool) {
			if !ok {
				return
			}
			for _, part := range []string{fr.Function, fr.File, fr.Module, fr.BuildID} {
				if !strings.Contains(line, part) {
					t.Fatalf("%s(%q): field %q not in the line", name, line, part)
				}
			}
			if fr.HasSymbolSize && !fr.HasSymbolOffset {
				t.Fatalf("%s(%q): a size without an offset", name, line)
			}
		}
		fr, ok := ParseKernelFrame(line)
		check("ParseKernelFrame", fr, ok)
		fr, ok = ParseChromiumFrame(line)
		check("ParseChromiumFrame", fr, ok)
		fr, ok = ParseBoostFrame(line)
		check("ParseBoostFrame", fr, ok)
		fr, ok = parseGoFunc(line)
		check("parseGoFunc", fr, ok)
		fr, ok = parseRustFrame(line)
		check("parseRustFrame", fr, ok)
		var g report.Frame
		goLocation(&g, line)
		if g.File != "" && !strings.Contains(line, g.File) {
			t.Fatalf("goLocation(%q): file %q not in the line", line, g.File)
		}
		if row, ok := parseKernelShadowRow(line); ok && row.Marked >= len(row.Bytes) {
			t.Fatalf("parseKernelShadowRow(%q): marked %d of %d", line, row.Marked, len(row.Bytes))
		}
	})
}

// FuzzValgrind checks the Valgrind grammar's entry points on one line: no
// panic; a frame's names come from the line; a message's kind is a part
// of it; the mark is where it says. Seeds (testdata/fuzz/FuzzValgrind) are
// lines of the valgrind_*.log samples in ../testdata/reports.
func FuzzValgrind(f *testing.F) {
	f.Add("==12591==    by 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)")
	f.Fuzz(func(t *testing.T, line string) {
		start, end, _, marked := valgrindMark(line)
		body := line
		if marked {
			if start < 0 || end > len(line) || start+5 > end || line[start:start+2] != "==" || line[end-2:end] != "==" {
				t.Fatalf("valgrindMark(%q) = %d, %d", line, start, end)
			}
			body = strings.TrimPrefix(line[end:], " ")
		}
		if fr, ok := ParseValgrindFrame(strings.TrimSpace(body)); ok {
			for _, part := range []string{fr.Function, fr.File, fr.Module} {
				if !strings.Contains(line, part) {
					t.Fatalf("ParseValgrindFrame(%q): field %q not in the line", body, part)
				}
			}
			if !fr.HasPC {
				t.Fatalf("ParseValgrindFrame(%q): no pc", body)
			}
		}
		// (A loss record's first piece, its rest still to come, is "lost".)
		if kind, _, ok := valgrindKind(body); ok && !(kind == "lost" && strings.Contains(body, " blocks are")) {
			for _, w := range strings.Fields(kind) {
				if !strings.Contains(body, w) {
					t.Fatalf("valgrindKind(%q) = %q: %q not in the message", body, kind, w)
				}
			}
		}
	})
}

// FuzzAndroid checks the Android grammar's entry points on one line: no
// panic; logcat's prefix is inside the line; a tombstone frame's names
// come from the line. Seeds (testdata/fuzz/FuzzAndroid) are lines of the
// public-android-*.log pastes in ../testdata/samples/pastes.
func FuzzAndroid(f *testing.F) {
	f.Add("F DEBUG   :       #00 pc 0000000000055c84  /apex/com.android.runtime/lib64/bionic/libc.so (__memset_aarch64+196) (BuildId: 1b9fecf834d610f77e641f026ca7269b)")
	f.Fuzz(func(t *testing.T, line string) {
		b := []byte(line)
		p := splitKnownPrefix(b)
		if m := logcatLen(b); m < 0 || m > len(b) || p > len(b) {
			t.Fatalf("logcatLen(%q) = %d, splitKnownPrefix %d", line, m, p)
		}
		body := strings.TrimSpace(line[p:])
		if fr, ok := ParseTombstoneFrame(body); ok {
			for _, part := range []string{fr.Function, fr.Module, fr.BuildID} {
				if !strings.Contains(line, part) {
					t.Fatalf("ParseTombstoneFrame(%q): field %q not in the line", body, part)
				}
			}
		}
		if _, r := androidStart(body, ""); r != nil && r.Headline != "" && !strings.Contains(line, r.Headline) {
			t.Fatalf("androidStart(%q): headline %q not in the line", body, r.Headline)
		}
	})
}

// FuzzParseHex holds parseHex to strconv.ParseUint(s, 16, 64): the same
// value and the same error for every string.
func FuzzParseHex(f *testing.F) {
	for _, s := range []string{"", "0", "55821e959568", "FFFFFFFFFFFFFFFF", "ffffffffffffffff0", "00000000000000000001",
		"10000000000000000", "12g4", "+1", "0x10", "a_b", "7fffffffffffffff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, gotErr := parseHex(s)
		want, wantErr := strconv.ParseUint(s, 16, 64)
		if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("parseHex(%q) = %#x, %v; strconv says %#x, %v", s, got, gotErr, want, wantErr)
		}
	})
}
