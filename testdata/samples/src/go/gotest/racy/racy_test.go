package racy

import "testing"

func TestCounter(t *testing.T) {
	var c Counter
	done := make(chan bool)
	go func() {
		c.Inc()
		done <- true
	}()
	c.Inc()
	<-done
	if c.Value() == 0 {
		t.Fatal("no increment")
	}
}

func TestNothing(t *testing.T) {}
