package parse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/report"
)

// FuzzLineProbes holds the probes' answers equal to a search of each line:
// a probe that says a line lacks its byte is never wrong. The input is
// repeated to cross the read buffer's refills, and which probes are asked
// of which line comes from the input, since a probe not asked for many
// lines has to search again.
func FuzzLineProbes(f *testing.F) {
	f.Add([]byte("a\nFatal signal 11\n#0 x\n~m#\x1b[0m\x00\n"), uint8(3), uint16(0x5a5a))
	f.Add([]byte("x signal y\r\n[<ffff>] f\n#\n\n"), uint8(200), uint16(0xffff))
	f.Add([]byte("plain line without any of them\n"), uint8(255), uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, repeat uint8, ask uint16) {
		in := bytes.Repeat(data, 1+int(repeat))
		s := NewScannerSize(bytes.NewReader(in), "fuzz", 0) // the least buffer
		lp := &s.probes
		rest := in
		for n := 0; ; n++ {
			line, ok := s.readLine()
			if !ok {
				break
			}
			// The line as read: up to its line feed, without it and a
			// carriage return before it.
			raw := rest
			if i := bytes.IndexByte(rest, '\n'); i >= 0 {
				raw, rest = rest[:i], rest[i+1:]
			} else {
				rest = nil
			}
			raw = bytes.TrimSuffix(raw, []byte("\r"))
			if got, want := s.nul, bytes.IndexByte(raw, 0) >= 0; got != want && len(raw) <= MaxLineLen {
				t.Fatalf("line %d %q: nul %v, want %v", n+1, raw, got, want)
			}
			p := lp.of(line, s.lineNo)
			if p == nil {
				continue // a cleaned or long line
			}
			if !bytes.Equal(line, raw) {
				t.Fatalf("line %d: probes of %q, read %q", n+1, line, raw)
			}
			for i := range nProbes {
				if ask>>((n+i)%16)&1 == 0 {
					continue
				}
				if c := lp.bytes[i]; p.lacks(i, line) && c != 0 && bytes.IndexByte(line, c) >= 0 {
					t.Fatalf("line %d %q: probe %d (%q) says it lacks it", n+1, line, i, c)
				}
			}
		}
	})
}

// TestLineProbesAnswer holds that the probes answer lines that lack their
// bytes without a search of the line (a probe that never knew would pass
// FuzzLineProbes), and only for the line read.
func TestLineProbesAnswer(t *testing.T) {
	in := []byte("one\ntwo # three\nfour\n[<ffffffff>] f\nfive\n")
	s := NewScanner(bytes.NewReader(in), "t")
	for n, want := range []struct{ hash, start bool }{
		{true, true}, {false, true}, {true, true}, {true, false}, {true, true},
	} {
		line, ok := s.readLine()
		if !ok {
			t.Fatalf("line %d not read", n+1)
		}
		p := s.probes.of(line, s.lineNo)
		if p == nil {
			t.Fatalf("line %d %q: no probes", n+1, line)
		}
		if got := p.lacks(probeHash, line); got != want.hash {
			t.Errorf("line %d %q: lacks '#' %v, want %v", n+1, line, got, want.hash)
		}
		if got := p.lacks(probeStart, line); got != want.start {
			t.Errorf("line %d %q: lacks %q %v, want %v", n+1, line, s.probes.bytes[probeStart], got, want.start)
		}
		if s.probes.of(line, s.lineNo-1) != nil || s.probes.of(line[1:], s.lineNo) != nil {
			t.Errorf("line %d: another line has the line's probes", n+1)
		}
	}
}

// FuzzProbesChangeNothing holds a Scanner's reports and notices the same
// with its line probes and without them (every line searched in full):
// the probes answer only for the line they were read for, and only what
// a search of it would. It holds them the same too when the reports'
// derived fields are left to Complete (DeferFill), as decode's writer
// does once the parser has gone on.
func FuzzProbesChangeNothing(f *testing.F) {
	for _, name := range []string{
		"../testdata/reports/asan_use_after_free_gcc_O0.symbolized.log",
		"../testdata/reports/kernel_kasan_uaf.log",
		"../testdata/reports/lws_heap_dump.log",
		"../testdata/reports/android_tombstone.log",
	} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data, uint8(0))
		}
	}
	f.Add([]byte("x\n#0 0x1 in f a.c:1\nFatal signal 11 (SIGSEGV)\n[<ffffffff8100>] g+0x1/0x2\n~m#AAAA\n\x1b[31m==1==ERROR: AddressSanitizer: SEGV\x1b[0m\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, repeat uint8) {
		in := bytes.Repeat(data, 1+int(repeat%4))
		scan := func(disabled, deferred bool) string {
			var out strings.Builder
			s := NewScannerSize(bytes.NewReader(in), "fuzz", 0)
			s.probes.disabled = disabled
			var held []*report.Report // completed after the scan, as a writer would
			if deferred {
				s.DeferFill()
			}
			// (JSON, which follows the model's pointers.)
			put := func(what string, v any) {
				j, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&out, "%s %s\n", what, j)
			}
			s.OnDamage(func(d *Damage) { put("damage", d) })
			s.OnFragment(func(fr *report.Fragment) { put("fragment", fr) })
			s.OnUnreported(func(u *Unreported) { put("unreported", u) })
			s.OnRecordError(func(e *RecordError) { put("record", e.Error()) })
			for {
				r, err := s.Next()
				if err != nil {
					for _, r := range held {
						Complete(r)
						put("report", r)
					}
					fmt.Fprintf(&out, "end %v\n", err)
					return out.String()
				}
				if deferred {
					held = append(held, r)
					continue
				}
				put("report", r)
			}
		}
		with := scan(false, false)
		if without := scan(true, false); with != without {
			t.Fatalf("with probes:\n%s\nwithout:\n%s", with, without)
		}
		// The notices come first when the reports wait: compare the two
		// kinds of lines apart.
		sorted := func(s string) string {
			l := strings.Split(s, "\n")
			sort.SliceStable(l, func(i, j int) bool { return strings.HasPrefix(l[i], "report ") && !strings.HasPrefix(l[j], "report ") })
			return strings.Join(l, "\n")
		}
		if deferred := scan(false, true); sorted(with) != sorted(deferred) {
			t.Fatalf("filled by the Scanner:\n%s\nby Complete:\n%s", with, deferred)
		}
	})
}
