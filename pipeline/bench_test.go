package pipeline

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/render"
)

// denseLog is a report-dense log made of the sanitizer reports of
// testdata/reports, each after a few lines of program output, repeated
// to about size bytes (the shape of benchrun's dense logs, small enough
// for a benchmark's loop).
func denseLog(b *testing.B, size int) []byte {
	files, _ := filepath.Glob("../testdata/reports/*san*.log")
	if len(files) == 0 {
		b.Skip("no reports in testdata/reports")
	}
	var reports [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		reports = append(reports, data)
	}
	var log bytes.Buffer
	for i := 0; log.Len() < size; i++ {
		for j := range i % 7 {
			fmt.Fprintf(&log, "[worker %d] step %d of the job finished in %d ms\n", i%5, j, i*j%977)
		}
		log.Write(reports[i%len(reports)])
	}
	return log.Bytes()
}

// BenchmarkDecodeDense: decode --symbolize=false of a report-dense log,
// text and JSON; MB/s is of the log read. Profile with
// go test ./pipeline -run X -bench DecodeDense -cpuprofile cpu.out.
// SANITRACE_BENCH_LOG names a log to read instead (the bench's own dense
// logs of real reports, or a slice of one: bench/README.md).
func BenchmarkDecodeDense(b *testing.B) {
	var log []byte
	if name := os.Getenv("SANITRACE_BENCH_LOG"); name != "" {
		var err error
		if log, err = os.ReadFile(name); err != nil {
			b.Fatal(err)
		}
	} else {
		log = denseLog(b, 8<<20)
	}
	b.ResetTimer()
	for _, format := range []string{"text", "json"} {
		b.Run(format, func(b *testing.B) {
			b.SetBytes(int64(len(log)))
			b.ReportAllocs()
			for range b.N {
				bw := bufio.NewWriter(io.Discard)
				w, err := render.New(format, bw, render.Options{})
				if err != nil {
					b.Fatal(err)
				}
				d := &Decode{Writer: w, Out: bw, Stdin: bytes.NewReader(log), Stderr: io.Discard}
				if _, err := d.Run(nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
