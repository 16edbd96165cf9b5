package pipeline

import (
	"bufio"
	"debug/elf"
	"encoding/json"
	"fmt"
	"io"

	"github.com/sanitrace/sanitrace/cfi"
	"github.com/sanitrace/sanitrace/internal/termsafe"
)

// CFI is the flow of `sanitrace cfi`: each ELF file's call frame
// information dumped as readelf 2.40 dumps it, or its rows as JSON.
type CFI struct {
	// JSON writes cfi.DumpJSON's document per file; else Raw chooses
	// readelf's --debug-dump=frames over frames-interp.
	JSON bool
	Raw  bool
	// Out is the buffered output; Run flushes it. Stderr gets one line per
	// file that cannot be opened and per malformed entry.
	Out    *bufio.Writer
	Stderr io.Writer
	// Problem words the error of a file that cannot be opened (nil: the
	// error as it is).
	Problem func(path string, err error) error
}

// Run dumps the files in order ("File: NAME" before each when there are
// several, as readelf does). failed is set when a file could not be
// opened; the error is a *WriteError.
func (c *CFI) Run(paths []string) (failed bool, err error) {
	for _, path := range paths {
		warn := func(err error) {
			fmt.Fprintf(c.Stderr, "sanitrace: cfi: %s: %s\n", termsafe.Line(path), termsafe.Line(err.Error()))
		}
		f, err := elf.Open(path)
		if err != nil {
			if c.Problem != nil {
				err = c.Problem(path, err)
			}
			fmt.Fprintf(c.Stderr, "sanitrace: cfi: %s\n", termsafe.Line(err.Error()))
			failed = true
			continue
		}
		if c.JSON {
			err = json.NewEncoder(c.Out).Encode(cfi.DumpJSON(f, path, warn))
		} else {
			if len(paths) > 1 {
				fmt.Fprintf(c.Out, "\nFile: %s\n", path)
			}
			err = cfi.Dump(c.Out, f, cfi.DumpOptions{Interp: !c.Raw, Warn: warn})
		}
		f.Close()
		if err != nil {
			return failed, &WriteError{err}
		}
	}
	if err := c.Out.Flush(); err != nil {
		return failed, &WriteError{err}
	}
	return failed, nil
}
