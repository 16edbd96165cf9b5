package main

import "github.com/spf13/cobra"

// Placeholder until the command lands; replaced wholesale by its owner.
func newLWSCmd() *cobra.Command {
	return &cobra.Command{Use: "lws", Hidden: true}
}
