package main

import (
	"github.com/spf13/cobra"

	"github.com/sanitrace/sanitrace/batch"
)

func newMergeCmd() *cobra.Command {
	var o batchOutput
	cmd := &cobra.Command{
		Use:   "merge [flags] FILE...",
		Short: "Join batch JSON outputs (shards) into the output of one run",
		Long: `merge reads "sanitrace batch --format json" outputs, such as the shards of one
input set run on many machines (--shard I/N), and writes what the unsharded
run would have written, in any of batch's formats.

Exit status: with --fail-on any or new, 1 as for batch; the default, none,
exits 0, since the shards usually gate already. 2 on a usage error or an
unreadable input.`,
		Args: atLeastOne("a FILE (a batch --format json output)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			baseline, err := o.loadBaseline()
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			doc, err := batch.MergeFiles(args, baseline)
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			if err := o.write(cmd.OutOrStdout(), doc); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			return o.exit(doc)
		},
	}
	o.register(cmd, "none")
	return cmd
}
