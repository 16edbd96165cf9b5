package decompress

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/iotest"
)

func TestScanner(t *testing.T) {
	long := strings.Repeat("x", MaxLine+10)
	input := strings.Join([]string{
		"[2024/05/01 12:00:01:1234] U: LWS minimal http server",
		"~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV",
		"[2024/05/01 12:00:05:0188] N: ~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV",
		"\x1b[32mI (1234) heap: ~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV\x1b[0m\r",
		"a ~ tilde that is not a record",
		"~m#",
		"~b#size: 7520, 0x406651 0x406852 0x406c1b 0x406294 ",
		"~b#size: x",
		"~m#" + long,
		"no newline at the end ~m#ABAABA==",
	}, "\n")
	want := []string{
		"2 ~b#size: 7520, 0x406651 0x406852 0x406c1b 0x406294 <nil>",
		"3 ~b#size: 7520, 0x406651 0x406852 0x406c1b 0x406294 <nil>",
		"4 ~b#size: 7520, 0x406651 0x406852 0x406c1b 0x406294 <nil>",
		"6 ~b#size: 0, empty-payload",
		"7 ~b#size: 7520, 0x406651 0x406852 0x406c1b 0x406294 <nil>",
		"8 ~b#size: 0, bad-b-line",
		"9 ~b#size: 0, line-too-long",
		"10 ~b#size: 0, <nil>",
	}
	for _, r := range []struct {
		name string
		wrap func(string) *Scanner
	}{
		{"whole", func(s string) *Scanner { return NewScanner(strings.NewReader(s)) }},
		{"onebyte", func(s string) *Scanner { return NewScanner(iotest.OneByteReader(strings.NewReader(s))) }},
	} {
		t.Run(r.name, func(t *testing.T) {
			sc := r.wrap(input)
			var got []string
			for sc.Scan() {
				rec := sc.Record()
				code := "<nil>"
				var e *Error
				if errors.As(rec.Err, &e) {
					code = string(e.Code)
				}
				got = append(got, fmt.Sprintf("%d %s %s", rec.Line, AppendB(nil, rec.Backtrace), code))
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestScannerReadError(t *testing.T) {
	sc := NewScanner(iotest.TimeoutReader(strings.NewReader("~m#ABAABA==\n" + strings.Repeat("y", 5000))))
	n := 0
	for sc.Scan() {
		n++
	}
	if sc.Err() == nil {
		t.Errorf("read error not reported (%d records)", n)
	}
}

func TestFindRecord(t *testing.T) {
	tests := []struct {
		line, payload string
		kind          byte
		ok            bool
	}{
		{"~m#AB", "AB", KindM, true},
		{"x ~b#size: 1, ~m#AB  \t", "AB", KindM, true},
		{"x ~b#size: 1,", "size: 1,", KindB, true},
		{"\x1b[1;31m~m#A\x1b[0mB", "AB", KindM, true},
		{"~M#AB", "", 0, false},
		{"IF0BmUQugNCkgCnkhdAYpQa6wAAV", "", 0, false},
		{"~m", "", 0, false},
		{"~m#", "", KindM, true},
	}
	for _, tt := range tests {
		p, k, ok := FindRecord([]byte(tt.line))
		if string(p) != tt.payload || k != tt.kind || ok != tt.ok {
			t.Errorf("FindRecord(%q) = %q, %q, %v; want %q, %q, %v", tt.line, p, k, ok, tt.payload, tt.kind, tt.ok)
		}
	}
}
