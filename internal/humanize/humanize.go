// Package humanize formats quantities for people to read.
package humanize

import (
	"fmt"
	"strconv"
	"strings"
)

// Bytes formats a byte count in binary units: "320 B", "1.5 KiB", "64.1 KiB".
func Bytes(n uint64) string {
	if n < 1024 {
		return strconv.FormatUint(n, 10) + " B"
	}
	v := float64(n)
	for _, unit := range []string{"KiB", "MiB", "GiB", "TiB", "PiB"} {
		v /= 1024
		if v < 1024 {
			return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
		}
	}
	return strconv.FormatFloat(v/1024, 'f', 1, 64) + " EiB"
}

// ParseBytes reads a byte count as people write it on a command line:
// "4096", "64K", "8MiB", "4G", "1.5GB" (K, M, G, T are powers of 1024).
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(t, "B"), "i"), "b")
	mult := 1.0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K', 'k':
			mult = 1 << 10
		case 'M', 'm':
			mult = 1 << 20
		case 'G', 'g':
			mult = 1 << 30
		case 'T', 't':
			mult = 1 << 40
		}
		if mult != 1 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v < 0 || v*mult > 1<<62 {
		return 0, fmt.Errorf("%q: not a byte count (like 512M or 4G)", s)
	}
	return int64(v * mult), nil
}
