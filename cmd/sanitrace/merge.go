package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/sanitrace/sanitrace/batch"
	"github.com/sanitrace/sanitrace/render"
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
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.check(); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			baseline, err := o.loadBaseline()
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			var docs []*render.BatchDocument
			for _, a := range args {
				d, err := readBatchJSON(a)
				if err != nil {
					return &exitError{code: exitUsage, err: err}
				}
				docs = append(docs, d)
			}
			doc, err := batch.Merge(docs, baseline)
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

func readBatchJSON(name string) (*render.BatchDocument, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := render.ReadBatchJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return d, nil
}
