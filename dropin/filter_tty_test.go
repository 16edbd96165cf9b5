//go:build linux

package dropin

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/sanitrace/sanitrace/internal/golden"
)

// TestFilterMarkupTerminalLive: with stdout and stderr terminals (TERM
// naming one that takes colours), llvm-symbolizer 19 colours the filtered
// log by default (--color=auto) and its error lines (the "error: " and
// "warning: " prefixes, a wrong number of fields whole, the caret); with
// TERM=dumb neither. The filter prints the same bytes.
func TestFilterMarkupTerminalLive(t *testing.T) {
	needLLVM19(t)
	tree := markupDebugTree(t)
	in := readSample(t, filepath.Join(markupSamples(), "damaged", "undeclared-module.markup.log")) +
		"\033[31m{{{bt:1}}} {{{pc:0x1:ra:x}}} {{{reset:x}}}\n{{{Bt:1:0x2}}}\n"
	args := []string{"--filter-markup", "--debug-file-directory=" + tree}
	for _, term := range []string{"xterm-256color", "dumb"} {
		t.Setenv("TERM", term)
		out, errOut := ptyPair(t)
		cmd := exec.Command(llvmSymbolizer19, args...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(in), out.tty, errOut.tty
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v", llvmSymbolizer19, err)
		}
		wantOut, wantErr := out.text(), errOut.text()

		out, errOut = ptyPair(t)
		env := Env{Stdin: strings.NewReader(in), Stdout: out.tty, Stderr: errOut.tty, Getenv: os.Getenv, Open: OpenEngine}
		RunLLVMSymbolizer(args, env)
		gotOut, gotErr := out.text(), errOut.text()
		if gotOut != wantOut {
			t.Errorf("TERM=%s: stdout differs from llvm-symbolizer-19's\n%s", term, golden.FirstDiff(wantOut, gotOut))
		}
		if gotErr != wantErr {
			t.Errorf("TERM=%s: stderr differs from llvm-symbolizer-19's\n%s", term, golden.FirstDiff(wantErr, gotErr))
		}
		// "\033[0;": llvm's own escapes (the log's are in the lines
		// the errors quote).
		if colored := strings.Contains(wantOut+wantErr, "\033[0;"); colored != (term != "dumb") {
			t.Errorf("TERM=%s: llvm-symbolizer-19 coloured: %v", term, colored)
		}
	}
}

// ptyCapture is a pseudo-terminal (without the \n to \r\n mapping) whose
// screen is recorded.
type ptyCapture struct {
	tty  *os.File
	done chan struct{}
	buf  bytes.Buffer
}

// ptyPair opens two captured terminals, for stdout and stderr (a test
// without pseudo-terminals skips).
func ptyPair(t *testing.T) (*ptyCapture, *ptyCapture) {
	t.Helper()
	return newPTY(t), newPTY(t)
}

func newPTY(t *testing.T) *ptyCapture {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skip("no pseudo-terminal: ", err)
	}
	t.Cleanup(func() { ptmx.Close(); tty.Close() })
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Oflag &^= unix.ONLCR
	if err := unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	c := &ptyCapture{tty: tty, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		io.Copy(&c.buf, ptmx) // until the terminal is hung up (EIO)
	}()
	return c
}

// text hangs the terminal up and returns what it showed.
func (c *ptyCapture) text() string {
	c.tty.Close()
	<-c.done
	return c.buf.String()
}
