package pipeline

import (
	"bufio"
	"fmt"
	"io"

	"github.com/sanitrace/sanitrace/core"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/render"
	"github.com/sanitrace/sanitrace/resolve"
)

// Core is the flow of `sanitrace core`: core.Open → resolve.Core (modules,
// CFI, unwinding, names) → render.WriteCore.
type Core struct {
	// Finder locates the modules the core names.
	Finder *debuginfo.Finder
	// Exe is the executable when it is not where the core says (--exe).
	Exe string
	// Format is one of render.CheckCoreFormat's; Options configure it.
	Format  string
	Options render.Options
	// Out is the buffered output; Run flushes it. Stderr gets one line
	// per problem of the core, per module and per thread not unwound to
	// its end.
	Out    *bufio.Writer
	Stderr io.Writer
}

// Run reads the core file at path and writes its threads. The error is
// the core's when it cannot be read as one, else a *WriteError or nil.
func (c *Core) Run(path string) error {
	f, err := core.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	for _, e := range f.Errors {
		fmt.Fprintf(c.Stderr, "sanitrace: %s: %s\n", termsafe.Line(path), termsafe.Line(e.Error()))
	}
	rep := resolve.Core(f, resolve.CoreOptions{
		Finder: c.Finder,
		Exe:    c.Exe,
		Warn:   func(msg string) { fmt.Fprintf(c.Stderr, "sanitrace: %s\n", termsafe.Line(msg)) },
	})
	for _, t := range rep.Threads {
		if t.Err != "" {
			fmt.Fprintf(c.Stderr, "sanitrace: %s: thread %d: %s\n", termsafe.Line(path), t.TID, termsafe.Line(t.Err))
		}
	}
	if err := render.WriteCore(c.Out, c.Format, rep, c.Options); err != nil {
		return &WriteError{err}
	}
	if err := c.Out.Flush(); err != nil {
		return &WriteError{err}
	}
	return nil
}
