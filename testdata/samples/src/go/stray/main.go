// Command stray prints a progress line without its newline on stdout,
// then panics: with stdout and stderr in one log the panic headline
// follows the stray text on the same line.
package main

import (
	"fmt"
	"os"
)

type config struct{ limits map[string]int }

func load(path string) *config {
	fmt.Printf("loading %s... ", path)
	os.Stdout.Sync()
	return nil
}

func main() {
	c := load("app.conf")
	fmt.Println(c.limits["max"])
}
