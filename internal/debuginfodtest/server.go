// Package debuginfodtest runs the real elfutils debuginfod for tests: it
// serves a directory of ELF files on a loopback port and waits until the
// server has indexed them. Tests skip, saying why, where debuginfod is not
// installed or cannot start.
package debuginfodtest

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Server is a running debuginfod.
type Server struct {
	URL  string // http://127.0.0.1:PORT
	cmd  *exec.Cmd
	done chan struct{}
}

// Start serves dir (scanned with -F) and returns once the server reports
// at least files files scanned. The server is stopped when the test ends.
func Start(tb testing.TB, dir string, files int) *Server {
	tb.Helper()
	bin, err := exec.LookPath("debuginfod")
	if err != nil {
		tb.Skipf("debuginfod (elfutils) not installed: %v", err)
	}
	port, err := freePort()
	if err != nil {
		tb.Skipf("no free loopback port for debuginfod: %v", err)
	}
	db := filepath.Join(tb.TempDir(), "debuginfod.sqlite")
	// One scanner thread (the machine is shared) and no periodic rescans
	// or grooming during a test.
	cmd := exec.Command(bin, "-F", "-p", strconv.Itoa(port), "-d", db, "-c", "1", "-t", "0", "-g", "0", dir)
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		tb.Skipf("debuginfod does not start: %v", err)
	}
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d", port), cmd: cmd, done: make(chan struct{})}
	go func() { cmd.Wait(); close(s.done) }()
	tb.Cleanup(s.Stop)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if n, ok := s.scanned(); ok && n >= files {
			return s
		}
		select {
		case <-s.done:
			tb.Skipf("debuginfod exited at start: %s", strings.TrimSpace(log.String()))
		default:
		}
		if time.Now().After(deadline) {
			tb.Fatalf("debuginfod did not scan %d files of %s within a minute", files, dir)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Stop ends the server and waits for it; later requests are refused.
func (s *Server) Stop() {
	select {
	case <-s.done:
		return
	default:
	}
	s.cmd.Process.Kill()
	<-s.done
}

// scanned reads the server's count of scanned files from /metrics once its
// scan queue is empty.
func (s *Server) scanned() (int, bool) {
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(s.URL + "/metrics")
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	files, pending := -1, -1
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		n, err := strconv.ParseFloat(val, 64)
		if err != nil {
			continue
		}
		switch name {
		case `scanned_files_total{source="file"}`:
			files = int(n)
		case `thread_work_pending{role="scan"}`:
			pending = int(n)
		}
	}
	if files < 0 || pending != 0 {
		return 0, false
	}
	return files, true
}

// freePort asks the kernel for an unused loopback port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
