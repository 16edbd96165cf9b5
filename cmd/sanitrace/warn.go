package main

import (
	"fmt"
	"io"
	"sync"

	"github.com/sanitrace/sanitrace/internal/termsafe"
)

// warner writes a command's warnings and errors on stderr, each as one
// "sanitrace: " line made printable (termsafe: module paths, member names
// and servers' errors come from untrusted input), one at a time
// (debuginfod's downloads and batch's workers warn concurrently). Every
// line a command writes on stderr but the stdin hint goes through it.
type warner struct {
	mu sync.Mutex
	w  io.Writer
}

func newWarner(w io.Writer) *warner { return &warner{w: w} }

// warn writes msg.
func (w *warner) warn(msg string) { w.write("", msg) }

// prefixed returns a warn that names who first ("lws: ").
func (w *warner) prefixed(who string) func(string) {
	return func(msg string) { w.write(who, msg) }
}

func (w *warner) write(who, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	fmt.Fprintf(w.w, "sanitrace: %s%s\n", who, termsafe.Line(msg))
}
