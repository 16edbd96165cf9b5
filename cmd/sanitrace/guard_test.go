package main

import (
	"bytes"
	"errors"
	"testing"
)

// TestGuard: a panic that reaches a run's edge (a bug of sanitrace's) is
// one line on stderr naming the command line, its text made printable,
// and exit status 2; without a panic the run's own status stands.
func TestGuard(t *testing.T) {
	var stderr bytes.Buffer
	code := func() (code int) {
		defer guard([]string{"/usr/local/bin/sanitrace", "decode", "run\x1b[31m.log"}, &stderr, &code)
		panic(errors.New("runtime error: index out of range [3] with length 3\ngoroutine 1 [running]"))
	}()
	want := `sanitrace: internal error (please report it) in "sanitrace decode run\x1b[31m.log": runtime error: index out of range [3] with length 3 goroutine 1 [running]` + "\n"
	if code != exitUsage || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr.String(), exitUsage, want)
	}
	stderr.Reset()
	code = func() (code int) {
		defer guard([]string{"sanitrace", "version"}, &stderr, &code)
		return exitFound
	}()
	if code != exitFound || stderr.Len() != 0 {
		t.Errorf("no panic: exit %d, stderr %q", code, stderr.String())
	}
}
