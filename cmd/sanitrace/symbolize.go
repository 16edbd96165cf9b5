package main

import (
	"os"

	"github.com/spf13/cobra"
)

// Placeholder until the command lands; replaced wholesale by its owner.
func newSymbolizeCmd() *cobra.Command {
	return &cobra.Command{Use: "symbolize", Hidden: true}
}

func runLLVMSymbolizer(args []string, stdin *os.File, stdout, stderr *os.File) int { return exitUsage }
