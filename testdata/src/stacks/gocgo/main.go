// Command gocgo crashes inside C code called through cgo: the Go runtime
// prints "SIGSEGV: segmentation violation" with PC= and the goroutine dump.
package main

/*
static int deref(int *p) { return *p; }
static int call_deref(void) { return deref(0); }
*/
import "C"

func run() int { return int(C.call_deref()) }

func main() { println(run()) }
