package decompress

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzDecodeLine: any line either decodes to a backtrace that re-encodes
// and decodes to itself, or fails with one of the package's classes.
func FuzzDecodeLine(f *testing.F) {
	for _, s := range []string{
		"~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV",
		"~m#ABAABA==",
		"[2024/05/01 12:00:05:0188] N: ~m#UL386nCGitBe/nU4Q0caL386nCGcRxeqwPHQEkCkEFNBoAtS5JFqQoIxOuqln39boAhYDEGAADg=",
		"~m#GP3//////////QH7//////////oAVAIkABo=",
		"~m#EgBEgRIRIAAJ",
		"~b#size: 7520, 0x406651 0x406852",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var d Decoder
		bt, err := d.DecodeLine(line)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code == "" {
				t.Fatalf("DecodeLine(%q): untyped error %v", line, err)
			}
			return
		}
		m, err := AppendLine(nil, bt)
		if errors.Is(err, ErrUnencodable) {
			return // a delta can reach 2^63 and more; the encoder must refuse those
		}
		if err != nil {
			t.Fatalf("decoded %+v from %q but cannot encode it: %v", bt, line, err)
		}
		var d2 Decoder
		bt2, err := d2.DecodeLine(m)
		if err != nil || !bt2.Equal(bt) {
			t.Fatalf("%q: decode(encode(%+v)) = %+v, %v", line, bt, bt2, err)
		}
	})
}

// FuzzScanner feeds arbitrary logs through the streaming scanner.
func FuzzScanner(f *testing.F) {
	f.Add([]byte("x\n~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV\r\n\x1b[1m~b#size: 1, 0x1\x1b[0m\n~m#"))
	f.Fuzz(func(t *testing.T, log []byte) {
		sc := NewScanner(bytes.NewReader(log))
		last := 0
		for sc.Scan() {
			rec := sc.Record()
			if rec.Line <= last {
				t.Fatalf("line numbers not increasing: %d after %d", rec.Line, last)
			}
			last = rec.Line
			if rec.Err == nil {
				AppendB(nil, rec.Backtrace)
			}
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	})
}
