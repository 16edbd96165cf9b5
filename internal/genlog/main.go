// Command genlog writes a large synthetic crash log for throughput and
// memory measurements of "sanitrace decode": real sanitizer reports from
// testdata/reports/ separated by runs of ordinary program output, the way
// they sit in a CI job's log. The output is deterministic for a given size.
//
//	go run ./internal/genlog -size 1G > /tmp/big.log
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	size := flag.String("size", "1G", "bytes to write (suffixes K, M, G)")
	reports := flag.String("reports", "testdata/reports", "directory of *.log reports to interleave")
	noise := flag.Int("noise", 200, "lines of program output between two reports")
	flag.Parse()
	n, err := parseSize(*size)
	if err != nil {
		fmt.Fprintf(os.Stderr, "genlog: -size %q: %v\n", *size, err)
		os.Exit(2)
	}
	if err := write(os.Stdout, n, *reports, *noise); err != nil {
		fmt.Fprintf(os.Stderr, "genlog: %v\n", err)
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("not a size")
	}
	return v * mult, nil
}

func write(out *os.File, size int64, dir string, noise int) error {
	paths, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return fmt.Errorf("no *.log files in %s", dir)
	}
	sort.Strings(paths)
	var reports [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		reports = append(reports, data)
	}
	w := bufio.NewWriterSize(out, 1<<20)
	rng := rand.New(rand.NewSource(1))
	var written int64
	for written < size {
		for i := 0; i < noise; i++ {
			n, _ := fmt.Fprintf(w, "[%6d] worker %d: request %d handled in %d us, status=ok path=/api/v1/items/%d\n",
				written%1000000, i%8, rng.Intn(100000), rng.Intn(5000), rng.Intn(1000))
			written += int64(n)
		}
		n, _ := w.Write(reports[rng.Intn(len(reports))])
		written += int64(n)
	}
	return w.Flush()
}
