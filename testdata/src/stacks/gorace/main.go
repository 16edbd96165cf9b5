// Command gorace has a data race on a counter: the Go race detector's
// report ("WARNING: DATA RACE") for the parser's corpus.
package main

import (
	"fmt"
	"sync"
)

type account struct{ balance int }

func (a *account) deposit(n int) { a.balance += n }

func audit(a *account) int { return a.balance }

func main() {
	a := &account{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); a.deposit(10) }()
	go func() { defer wg.Done(); fmt.Println(audit(a)) }()
	wg.Wait()
}
