package decompress

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
)

// benchLog builds a log shaped like an lws heap dump: ~m# lines with
// realistic 64-bit backtraces, every fourth line an ordinary log line, some
// records behind an lws log prefix.
func benchLog(size int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	var buf bytes.Buffer
	for i := 0; buf.Len() < size; i++ {
		if i%4 == 3 {
			buf.WriteString("[2024/05/01 12:00:03:1377] N: lws_http_action: [wsisrv|0|adopted]: GET /index.html\n")
			continue
		}
		bt := Backtrace{Size: r.Uint64N(1 << 16)}
		for j := 0; j < 6+r.IntN(6); j++ {
			base := []uint64{0x7f3a9c21a000, 0x5581e3a01000, 0x7f3a9be29000}[r.IntN(3)]
			bt.PCs = append(bt.PCs, base+r.Uint64N(1<<18))
		}
		if i%8 == 1 {
			buf.WriteString("[2024/05/01 12:00:05:0188] N: ")
		}
		line, _ := AppendLine(nil, bt)
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// BenchmarkDecodeLog measures what `sanitrace lws decode` does per input
// byte: scan, decode every record and format its ~b# line into a buffered
// writer.
func BenchmarkDecodeLog(b *testing.B) {
	log := benchLog(16 << 20)
	b.SetBytes(int64(len(log)))
	b.ResetTimer()
	for b.Loop() {
		sc := NewScanner(bytes.NewReader(log))
		w := bufio.NewWriterSize(io.Discard, 64<<10)
		var out []byte
		for sc.Scan() {
			rec := sc.Record()
			if rec.Err != nil {
				b.Fatal(rec.Err)
			}
			out = AppendB(out[:0], rec.Backtrace)
			out = append(out, '\n')
			w.Write(out)
		}
		if err := sc.Err(); err != nil {
			b.Fatal(err)
		}
		w.Flush()
	}
}

// BenchmarkDecodePayload isolates base64 and bitstream decoding.
func BenchmarkDecodePayload(b *testing.B) {
	payload := []byte("UL386nCGitBe/nU4Q0caL386nCGcRxeqwPHQEkCkEFNBoAtS5JFqQoIxOuqln39boAhYDEGAADg=")
	var d Decoder
	b.SetBytes(int64(len(payload)))
	for b.Loop() {
		if _, err := d.DecodePayload(payload); err != nil {
			b.Fatal(err)
		}
	}
}
