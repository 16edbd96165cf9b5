package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// logSpec says how a bench log is made: which reports, how much program
// output between two of them, how big, from which seed.
type logSpec struct {
	reports   []string // files whose whole text is one report each; none: program output only
	maxGap    int      // program output lines between two reports: uniform in [0, maxGap]
	size      int64    // bytes: the log stops at the first line boundary past it
	seed      uint64
	sourceDir []string
}

// defaultReportDirs are where reports come from: the shared corpus's real
// runtime output when it is there, else the project's own sample reports.
func defaultReportDirs() []string {
	if fi, err := os.Stat("../shared/corpus/cases"); err == nil && fi.IsDir() {
		return []string{"../shared/corpus/cases"}
	}
	return []string{"testdata/reports"}
}

// findReports lists every *.log under dirs, sorted, so the draw is the
// same on every machine with the same files.
func findReports(dirs []string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && strings.HasSuffix(p, ".log") {
				out = append(out, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("no *.log reports under %s", strings.Join(dirs, ", "))
	}
	return out, nil
}

// writeLog writes the log and says how many reports it holds.
func writeLog(w io.Writer, spec logSpec) (reports int, err error) {
	texts := make([][]byte, len(spec.reports))
	for i, p := range spec.reports {
		if texts[i], err = os.ReadFile(p); err != nil {
			return 0, err
		}
		if n := len(texts[i]); n > 0 && texts[i][n-1] != '\n' {
			texts[i] = append(texts[i], '\n')
		}
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	rng := newSplitMix64(spec.seed)
	var written int64
	var line []byte
	for written < spec.size {
		gap := int(rng.below(uint64(spec.maxGap) + 1))
		if len(texts) == 0 {
			gap = 64
		}
		for range gap {
			line = programLine(line[:0], &rng, written)
			bw.Write(line)
			written += int64(len(line))
		}
		if len(texts) > 0 && written < spec.size {
			t := texts[rng.below(uint64(len(texts)))]
			bw.Write(t)
			written += int64(len(t))
			reports++
		}
	}
	return reports, bw.Flush()
}

// programLine appends one line of ordinary program output, the kinds a CI
// job's log is made of between crashes: service logs, test runner lines,
// build lines, numbers. None looks like a report.
func programLine(b []byte, rng *splitMix64, at int64) []byte {
	r := func(n uint64) uint64 { return rng.below(n) }
	switch r(6) {
	case 0:
		return fmt.Appendf(b, "2026-11-21T16:%02d:%02d.%06dZ INFO  [worker-%d] request id=%016x path=/api/v1/items/%d status=200 bytes=%d dur=%dus\n",
			r(60), r(60), r(1000000), r(16), rng.next(), r(100000), r(65536), r(50000))
	case 1:
		return fmt.Appendf(b, "[%8d.%06d] cache: hit ratio %d.%02d%%, %d entries, %d evictions\n",
			at>>16, r(1000000), r(100), r(100), r(1<<20), r(5000))
	case 2:
		suite, test := r(40), r(300)
		return fmt.Appendf(b, "[ RUN      ] Suite%d.Case%d\n[       OK ] Suite%d.Case%d (%d ms)\n", suite, test, suite, test, r(2000))
	case 3:
		return fmt.Appendf(b, "  CC       src/module%d/file%d.o\n", r(50), r(400))
	case 4:
		return fmt.Appendf(b, "step %d: loss=%d.%04d grad_norm=%d.%03d lr=0.000%d\n", r(1000000), r(10), r(10000), r(100), r(1000), r(9)+1)
	}
	return fmt.Appendf(b, "checksum 0x%08x over %d blocks: ok\n", uint32(rng.next()), r(1<<16))
}

func cmdMklog(args []string) error {
	fs := flag.NewFlagSet("mklog", flag.ExitOnError)
	out := fs.String("o", "", "output file (required)")
	size := fs.Int64("size-mib", 512, "size in MiB")
	seed := fs.Uint64("seed", 1, "seed")
	gap := fs.Int("gap", 16, "at most this many lines of program output between two reports")
	noiseOnly := fs.Bool("no-reports", false, "program output only")
	dirs := fs.String("reports", "", "directories of *.log reports, comma-separated (default ../shared/corpus/cases, else testdata/reports)")
	fs.Parse(args)
	if *out == "" {
		return fmt.Errorf("-o is required")
	}
	spec := logSpec{maxGap: *gap, size: *size << 20, seed: *seed}
	if !*noiseOnly {
		spec.sourceDir = fields(*dirs)
		if len(spec.sourceDir) == 0 {
			spec.sourceDir = defaultReportDirs()
		}
		var err error
		if spec.reports, err = findReports(spec.sourceDir); err != nil {
			return err
		}
	}
	n, err := makeLog(*out, spec)
	if err == nil {
		fmt.Fprintf(os.Stderr, "%s: %d MiB, %d reports\n", *out, *size, n)
	}
	return err
}

// makeLog writes spec to path through a temporary file.
func makeLog(path string, spec logSpec) (int, error) {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return 0, err
	}
	n, err := writeLog(f, spec)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	return n, os.Rename(path+".tmp", path)
}
