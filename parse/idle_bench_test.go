package parse

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkIdle measures the scanner on a log without reports: the cost
// of rejecting ordinary lines, which is most of any real log.
func BenchmarkIdle(b *testing.B) {
	var buf bytes.Buffer
	for buf.Len() < 8<<20 {
		buf.WriteString("[   172] worker 2: request 54425 handled in 2540 us, status=ok path=/api/v1/items/456\n")
		buf.WriteString("2024-01-02T03:04:05.123Z [job 4] step 5: compiling unit_5.c with -O2 -g\n")
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc := NewScanner(bytes.NewReader(data), "idle")
		if _, err := sc.Next(); err != io.EOF {
			b.Fatal(err)
		}
	}
}
