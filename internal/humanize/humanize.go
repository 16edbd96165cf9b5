// Package humanize formats quantities for people to read.
package humanize

import "strconv"

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
