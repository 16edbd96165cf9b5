package resolve

import "sync"

// fanOut runs f(0) … f(n-1) on goroutines, at most max at once, and waits
// for them. A panic in one (a bug) is raised again in the caller's
// goroutine once all are done, so that the caller's edge (a command's, a
// batch worker's) turns it into an error naming the input: on a goroutine
// of its own it would end the process.
func fanOut(n, max int, f func(i int)) {
	sem := make(chan struct{}, max)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var panicked any
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			defer func() {
				if p := recover(); p != nil {
					mu.Lock()
					if panicked == nil {
						panicked = p
					}
					mu.Unlock()
				}
			}()
			f(i)
		}()
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
}
