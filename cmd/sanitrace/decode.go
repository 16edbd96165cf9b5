package main

import "github.com/spf13/cobra"

// Placeholder until the command lands; replaced wholesale by its owner.
func newDecodeCmd() *cobra.Command {
	return &cobra.Command{Use: "decode", Hidden: true}
}
