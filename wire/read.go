package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/sanitrace/sanitrace/report"
)

// ReadBatch reads a document that `sanitrace batch --format json` wrote.
// Its error says what is wrong in the project's words (encoding/json's
// speak of Go struct fields).
//
// The schema does not carry the frames' classification, so ReadBatch gives
// each frame its User from the frame's function, file and module as the
// model's classification does (report.ClassIn of the report's tool): the
// one place a frame in its wire form is classified, for the writers of a
// merged run.
func ReadBatch(r io.Reader) (*Batch, error) {
	var doc Batch
	dec := json.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		return nil, documentProblem(err)
	}
	if doc.Version != Version {
		return nil, fmt.Errorf("batch JSON version %d, want %d", doc.Version, Version)
	}
	for ri := range doc.Reports {
		rep := &doc.Reports[ri]
		for si := range rep.Stacks {
			fs := rep.Stacks[si].Frames
			for fi := range fs {
				fs[fi].User = classify(rep.Tool, &fs[fi]) == report.User
			}
		}
	}
	return &doc, nil
}

// classify is report.ClassIn of a frame read back.
func classify(tool string, f *Frame) report.FrameClass {
	pf := report.Frame{Function: orZero(f.Function), File: orZero(f.File), Module: orZero(f.Module)}
	return report.ClassIn(tool, &pf)
}

// orZero is *p, or "" where p is nil (JSON's null).
func orZero(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// documentProblem says what is wrong with a batch JSON input.
func documentProblem(err error) error {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
	)
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("empty or cut short: not a whole batch --format json output")
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
