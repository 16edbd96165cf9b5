//go:build !man

package main

import "github.com/spf13/cobra"

// addManCmd: the released binary has no man page generator (man.go, built
// with -tags man by "make man").
func addManCmd(*cobra.Command) {}
