package debuginfodtest

import (
	"net"
	"sync"
	"testing"
)

// Silent returns the URL of a server on a loopback port that accepts
// connections and never answers (a stalled debuginfod), held open until
// the test ends. The test skips when no loopback listener can be made.
func Silent(tb testing.TB) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Skipf("no loopback listener: %v", err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, conn)
			mu.Unlock()
		}
	}()
	tb.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	})
	return "http://" + l.Addr().String()
}
