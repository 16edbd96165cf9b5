package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"

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
		Args: atLeastOne("a FILE (a batch --format json output)"),
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
	var pe *fs.PathError
	switch {
	case err == nil:
	case errors.As(err, &pe):
		return nil, pe // it names the file already
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, fmt.Errorf("%s: empty or cut short: not a whole batch --format json output", name)
	default:
		return nil, fmt.Errorf("%s: %w", name, jsonProblem(err))
	}
	return d, nil
}

// jsonProblem says what is wrong with a JSON input in the project's words
// (encoding/json speaks of Go struct fields).
func jsonProblem(err error) error {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("not JSON (byte %d: %v)", syn.Offset, err)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "the document"
		}
		return fmt.Errorf("not a batch --format json output: %s is a JSON %s, want %s", field, typ.Value, jsonKind(typ.Type.Kind()))
	}
	return err
}

// jsonKind names a Go kind as the JSON value it decodes from.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	}
	return "a number"
}
