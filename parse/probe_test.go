package parse

import (
	"bytes"
	"testing"
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
