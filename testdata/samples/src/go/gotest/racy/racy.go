// Package racy has a counter updated without a lock: `go test -race`
// reports the race inside the test's output.
package racy

// Counter counts without synchronization.
type Counter struct{ n int }

// Inc adds one.
func (c *Counter) Inc() { c.n++ }

// Value returns the count.
func (c *Counter) Value() int { return c.n }
