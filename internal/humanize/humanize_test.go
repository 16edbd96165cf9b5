package humanize

import "testing"

func TestBytes(t *testing.T) {
	for _, tt := range []struct {
		n    uint64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1.0 KiB"}, {1536, "1.5 KiB"}, {65600, "64.1 KiB"}, {3 << 30, "3.0 GiB"}, {1<<64 - 1, "16.0 EiB"}} {
		if got := Bytes(tt.n); got != tt.want {
			t.Errorf("Bytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"4096", 4096, true}, {"64K", 64 << 10, true}, {"8MiB", 8 << 20, true}, {"4G", 4 << 30, true},
		{"1.5GB", 3 << 29, true}, {"2t", 2 << 40, true}, {"", 0, false}, {"-1", 0, false}, {"lots", 0, false},
	} {
		got, err := ParseBytes(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
