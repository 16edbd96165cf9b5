// Command gopanic fails in the ways the Go runtime reports with a goroutine
// dump, chosen by its argument: "panic" (a custom panic in a goroutine
// while others wait), "nil" (a nil pointer dereference: the runtime's
// SIGSEGV panic), "map" (concurrent map writes: fatal error), "deadlock".
package main

import (
	"os"
	"sync"
	"time"
)

type node struct{ next *struct{ pad, val int } }

func walk(n *node) int { return n.next.val }

func worker(id int, ch chan int) {
	for v := range ch {
		if v == 3 {
			panic("worker: bad value 3")
		}
	}
}

func main() {
	switch os.Args[1] {
	case "panic":
		ch := make(chan int)
		var mu sync.Mutex
		mu.Lock()
		go func() { mu.Lock() }()
		go worker(1, ch)
		ch <- 1
		ch <- 3
		time.Sleep(time.Second)
	case "nil":
		println(walk(&node{}))
	case "map":
		m := map[int]int{}
		for i := 0; i < 4; i++ {
			go func() {
				for j := 0; ; j++ {
					m[j%64] = j
				}
			}()
		}
		time.Sleep(5 * time.Second)
	case "deadlock":
		ch := make(chan int)
		<-ch
	}
}
