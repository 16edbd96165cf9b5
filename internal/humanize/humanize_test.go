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
