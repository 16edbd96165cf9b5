//go:build linux

package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/sanitrace/sanitrace/internal/golden"
)

// TestTerminalSession runs decode the way someone at a terminal does:
// stdin, stdout and stderr are a pseudo-terminal (github.com/creack/pty),
// the log is typed (pasted) into it and ended with Ctrl-D. The session
// (the hint on stderr, then the colored report) is compared with a golden;
// with TERM=dumb the same session has no colors, and with a file argument
// there is no hint.
func TestTerminalSession(t *testing.T) {
	for _, k := range []string{"NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"} {
		t.Setenv(k, "")
	}
	log := readFile(t, demoLog)

	t.Setenv("TERM", "xterm-256color")
	colored, _, _ := runCLI(t, "", "decode", "--symbolize=false", "--color=always", demoLog)
	hint := "sanitrace: reading the log from standard input; Ctrl-D ends it\n"
	session := terminalSession(t, log, len(hint+colored), "decode", "--symbolize=false")
	if session != hint+colored {
		t.Errorf("the terminal session is not the hint, then the report as --color=always renders it:\n%q", session)
	}
	golden.Check(t, filepath.Join(golden.Dir("decode"), "terminal-session.golden"), session)

	t.Setenv("TERM", "dumb")
	plain, _, _ := runCLI(t, "", "decode", "--symbolize=false", "--color=never", demoLog)
	if got := terminalSession(t, log, len(hint+plain), "decode", "--symbolize=false"); got != hint+plain {
		t.Errorf("TERM=dumb: the session is not the hint, then the report without colors:\n%q", got)
	}

	t.Setenv("TERM", "xterm-256color")
	if got := terminalSession(t, "", len(colored), "decode", "--symbolize=false", demoLog); got != colored {
		t.Errorf("a file argument at a terminal: the session is not the colored report alone:\n%q", got)
	}
}

// terminalSession runs sanitrace with args on a fresh pseudo-terminal,
// types input into it followed by Ctrl-D once sanitrace has said it reads
// the terminal (or at once when no hint is expected: input is empty), and
// returns everything the terminal showed, once it has shown at least want
// bytes and no more come. Echo and the \n to \r\n mapping are turned off
// so that the session is what sanitrace wrote.
func terminalSession(t *testing.T, input string, want int, args ...string) string {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skip("no pseudo-terminal: ", err)
	}
	defer ptmx.Close()
	tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Lflag &^= unix.ECHO
	tio.Oflag &^= unix.ONLCR
	if err := unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}

	var (
		mu   sync.Mutex
		seen bytes.Buffer
	)
	shown := func() string { mu.Lock(); defer mu.Unlock(); return seen.String() }
	go func() { // the screen: everything sanitrace writes to the terminal
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			seen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	code := make(chan int, 1)
	go func() { code <- run(append([]string{"sanitrace"}, args...), tty, tty, tty) }()

	deadline := time.Now().Add(time.Minute) // a hang guard, not a performance bound
	waitFor := func(what string, ok func() bool) {
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the terminal shows %q", what, shown())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if input != "" {
		waitFor("no hint", func() bool { return strings.Contains(shown(), "Ctrl-D ends it\n") })
		// Typed in lines, as a terminal delivers them; ^D ends the input.
		if _, err := io.WriteString(ptmx, input+"\x04"); err != nil {
			t.Fatal(err)
		}
	}
	var rc int
	waitFor("sanitrace did not finish", func() bool {
		select {
		case rc = <-code:
			return true
		default:
			return false
		}
	})
	if rc != exitFound {
		t.Errorf("exit %d, want 1", rc)
	}
	// What sanitrace wrote is in the terminal's buffer: read until the
	// expected length is there and nothing more comes, then hang up.
	waitFor("the output did not arrive", func() bool { return len(shown()) >= want })
	for last := -1; last != len(shown()); {
		last = len(shown())
		time.Sleep(100 * time.Millisecond)
	}
	tty.Close()
	return shown()
}
