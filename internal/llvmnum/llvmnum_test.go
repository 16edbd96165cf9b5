package llvmnum

import "testing"

func TestParseUint(t *testing.T) {
	for _, c := range []struct {
		s     string
		radix uint64
		want  uint64
		ok    bool
	}{
		{"0x1f", 0, 31, true}, {"0X1F", 0, 31, true}, {"0b101", 0, 5, true}, {"0B1", 0, 1, true},
		{"0o17", 0, 15, true}, {"0O17", 0, 0, false}, {"017", 0, 15, true}, {"08", 0, 0, false},
		{"0", 0, 0, true}, {"10", 0, 10, true}, {"", 0, 0, false}, {"0x", 0, 0, false},
		{"-1", 0, 0, false}, {"+1", 0, 0, false}, {"1 ", 0, 0, false},
		{"0xffffffffffffffff", 0, 1<<64 - 1, true}, {"0x10000000000000000", 0, 0, false},
		{"18446744073709551615", 0, 1<<64 - 1, true}, {"18446744073709551616", 0, 0, false},
		{"007", 10, 7, true}, {"0x7", 10, 0, false}, {"ff", 16, 255, true}, {"0xff", 16, 0, false},
		{"z", 36, 35, true},
	} {
		got, ok := ParseUint(c.s, c.radix)
		if got != c.want || ok != c.ok {
			t.Errorf("ParseUint(%q, %d) = %d, %v; want %d, %v", c.s, c.radix, got, ok, c.want, c.ok)
		}
	}
}
