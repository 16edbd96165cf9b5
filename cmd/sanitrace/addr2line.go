package main

import (
	"os"

	"github.com/spf13/cobra"
)

// Placeholder until the command lands; replaced wholesale by its owner.
func newAddr2lineCmd() *cobra.Command {
	return &cobra.Command{Use: "addr2line", Hidden: true}
}

func runAddr2line(args []string, stdin *os.File, stdout, stderr *os.File) int { return exitUsage }
