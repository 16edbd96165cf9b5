package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// JSONVersion is the schema version JSON writes (docs/json.md).
const JSONVersion = 1

// JSON writes {"version":1,"reports":[...]} one report at a time: the head
// goes out with the first report (or at Close when there is none), each
// report as soon as it is given, the tail at Close.
type JSON struct {
	w       io.Writer
	started bool
	n       int
	closed  bool
	buf     bytes.Buffer  // one report's bytes, reused
	compact bytes.Buffer  // one report's compact JSON, reused
	enc     *json.Encoder // writes into compact
}

// NewJSON returns a JSON renderer writing to w. Call Close at the end.
func NewJSON(w io.Writer) *JSON {
	j := &JSON{w: w}
	j.enc = json.NewEncoder(&j.compact)
	j.enc.SetEscapeHTML(false) // "<null>" and "=>" read better unescaped
	// Indented by appendIndent, not SetIndent: the same bytes for a third
	// of the work.
	return j
}

// The wire types mirror schema v1. Pointers and omitempty make "unknown"
// come out as null (required fields) or absent (optional ones), as
// docs/json.md specifies field by field. They are exported so that readers
// of the output (tests, tools) decode it with the declaration that wrote it.

// JSONDocument is the whole document. JSON streams it report by report
// (jsonHead, Report, jsonTail) rather than encoding one of these, so it
// only serves readers.
type JSONDocument struct {
	Version int          `json:"version"`
	Reports []JSONReport `json:"reports"`
}

// JSONReport is one report.
type JSONReport struct {
	Tool     string      `json:"tool"`
	Kind     string      `json:"kind"`
	Severity string      `json:"severity,omitempty"`
	PID      *int        `json:"pid"`
	Headline string      `json:"headline"`
	Access   *JSONAccess `json:"access"`
	Location *string     `json:"location"`
	Stacks   []JSONStack `json:"stacks"`
	Shadow   *JSONShadow `json:"shadow"`
	Summary  *string     `json:"summary"`
	Input    JSONInput   `json:"input"`
	Fuzzer   *JSONFuzzer `json:"fuzzer,omitempty"`
	Kernel   *JSONKernel `json:"kernel,omitempty"`
}

// JSONFuzzer is libFuzzer's account of the failing input.
type JSONFuzzer struct {
	Mutations string `json:"mutations,omitempty"`
	BaseUnit  string `json:"base_unit,omitempty"`
	Bytes     string `json:"bytes,omitempty"`
	Text      string `json:"text,omitempty"`
	Artifact  string `json:"artifact,omitempty"`
	Base64    string `json:"base64,omitempty"`
}

// JSONKernel is the context a Linux kernel report prints.
type JSONKernel struct {
	CPU      *int   `json:"cpu"`
	Comm     string `json:"comm,omitempty"`
	Tainted  string `json:"tainted,omitempty"`
	Release  string `json:"release,omitempty"`
	BuildID  string `json:"build_id,omitempty"`
	Hardware string `json:"hardware,omitempty"`
}

// JSONAccess is the faulting access of a report.
type JSONAccess struct {
	Op      string `json:"op"`
	Size    int    `json:"size"`
	Address string `json:"address"`
	Thread  string `json:"thread"`
}

// JSONStack is one stack of a report with the line that introduces it.
type JSONStack struct {
	Title  string      `json:"title"`
	Role   string      `json:"role"`
	Frames []JSONFrame `json:"frames"`
	// PossiblyTruncated says why the stack may end early (docs/json.md).
	PossiblyTruncated string `json:"possibly_truncated,omitempty"`
}

// JSONFrame is a frame in JSON schema v1; other JSON outputs that carry
// frames (the lws heap map) use it so every frame is spelled alike.
type JSONFrame struct {
	PC         *string `json:"pc"`
	Function   *string `json:"function"`
	File       *string `json:"file"`
	Line       int     `json:"line"`
	Column     int     `json:"column"`
	Module     *string `json:"module"`
	Offset     *string `json:"offset"`
	BuildID    string  `json:"build_id,omitempty"`
	Inlined    bool    `json:"inlined"`
	Symbolized string  `json:"symbolized"`
	// Kernel frames: "func+0x1c/0x60" gives the offset into the symbol and
	// the symbol's size; "? " frames are unreliable; <IRQ>/<TASK> markers
	// give the context.
	SymbolOffset *string `json:"symbol_offset,omitempty"`
	SymbolSize   *string `json:"symbol_size,omitempty"`
	Unreliable   bool    `json:"unreliable,omitempty"`
	Context      string  `json:"context,omitempty"`
	// Problem says why a frame was not resolved although it could look so.
	Problem string `json:"problem,omitempty"`
}

// JSONShadow is ASan's shadow-byte dump with its legend.
type JSONShadow struct {
	Rows   []JSONShadowRow   `json:"rows"`
	Legend map[string]string `json:"legend"`
}

// JSONShadowRow is one row of the dump; Marked indexes the [xx] byte.
type JSONShadowRow struct {
	Address string   `json:"address"`
	Bytes   []string `json:"bytes"`
	Marked  *int     `json:"marked"`
	Current bool     `json:"current"`
}

// JSONInput says where in the input a report was found.
type JSONInput struct {
	Name      string `json:"name"`
	FirstLine int    `json:"first_line"`
	LastLine  int    `json:"last_line"`
}

const (
	jsonHead = "{\n  \"version\": 1,\n  \"reports\": ["
	jsonTail = "]\n}\n"
)

// Report writes one report.
func (j *JSON) Report(r *report.Report) error {
	if j.closed {
		return errors.New("render json: report after Close")
	}
	if r == nil {
		return errors.New("render json: nil report")
	}
	b := &j.buf
	b.Reset()
	if !j.started {
		b.WriteString(jsonHead)
		j.started = true
	}
	if j.n > 0 {
		b.WriteByte(',')
	}
	b.WriteString("\n    ")
	j.compact.Reset()
	if err := j.enc.Encode(toJSON(r)); err != nil {
		return fmt.Errorf("render json: report from %s line %d: %w", r.Input.Name, r.Input.FirstLine, err)
	}
	c := j.compact.Bytes()
	c = c[:len(c)-1] // Encode's newline: the separator comes with the next report
	b.Write(appendIndent(b.AvailableBuffer(), c, "    ", "  "))
	j.n++
	if _, err := j.w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("render json: %w", err)
	}
	return nil
}

// Close writes the end of the document. It does not close the writer.
func (j *JSON) Close() error {
	if j.closed {
		return nil
	}
	j.closed = true
	out := jsonTail
	switch {
	case !j.started:
		out = jsonHead + jsonTail
	case j.n > 0:
		out = "\n  " + jsonTail
	}
	if _, err := io.WriteString(j.w, out); err != nil {
		return fmt.Errorf("render json: %w", err)
	}
	return nil
}

func toJSON(r *report.Report) JSONReport {
	out := JSONReport{
		Tool:     r.Tool,
		Kind:     r.Kind,
		Severity: r.Severity,
		Headline: r.Headline,
		Stacks:   []JSONStack{},
		Input:    JSONInput{Name: r.Input.Name, FirstLine: r.Input.FirstLine, LastLine: r.Input.LastLine},
	}
	if r.PID != 0 {
		pid := r.PID
		out.PID = &pid
	}
	if a := r.Access; a != nil {
		out.Access = &JSONAccess{Op: a.Op, Size: a.Size, Address: a.Address, Thread: a.Thread}
	}
	if len(r.Location) > 0 {
		var b strings.Builder
		for i, l := range r.Location {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(l.Text)
		}
		loc := b.String()
		out.Location = &loc
	}
	if r.Summary.Text != "" {
		s := r.Summary.Text
		out.Summary = &s
	}
	for _, s := range r.Stacks {
		js := JSONStack{Title: s.Title, Role: s.Role, Frames: []JSONFrame{}, PossiblyTruncated: s.Truncated}
		if js.Role == "" {
			js.Role = "other"
		}
		for _, f := range s.Frames {
			js.Frames = append(js.Frames, toJSONFrame(f))
		}
		out.Stacks = append(out.Stacks, js)
	}
	if fz := r.Fuzzer; fz != nil {
		out.Fuzzer = &JSONFuzzer{Mutations: fz.Mutations, BaseUnit: fz.BaseUnit, Bytes: fz.Bytes, Text: fz.Text, Artifact: fz.Artifact, Base64: fz.Base64}
	}
	if k := r.Kernel; k != nil {
		out.Kernel = &JSONKernel{Comm: k.Comm, Tainted: k.Tainted, Release: k.Release, BuildID: k.BuildID, Hardware: k.Hardware}
		if k.CPU >= 0 {
			cpu := k.CPU
			out.Kernel.CPU = &cpu
		}
	}
	if sh := r.Shadow; sh != nil {
		js := &JSONShadow{Rows: []JSONShadowRow{}, Legend: map[string]string{}}
		for _, row := range sh.Rows {
			jr := JSONShadowRow{Address: row.Address, Bytes: row.Bytes, Current: row.Current}
			if jr.Bytes == nil {
				jr.Bytes = []string{}
			}
			if row.Marked >= 0 && row.Marked < len(row.Bytes) {
				m := row.Marked
				jr.Marked = &m
			}
			js.Rows = append(js.Rows, jr)
		}
		for k, v := range sh.Legend {
			js.Legend[k] = v
		}
		out.Shadow = js
	}
	return out
}

// JSONFrames converts frames of the model to their JSON form.
func JSONFrames(fs []report.Frame) []JSONFrame {
	out := make([]JSONFrame, len(fs))
	for i, f := range fs {
		out[i] = toJSONFrame(f)
	}
	return out
}

func toJSONFrame(f report.Frame) JSONFrame {
	jf := JSONFrame{
		Line:       f.Line,
		Column:     f.Column,
		BuildID:    f.BuildID,
		Inlined:    f.Inlined,
		Symbolized: f.Symbolized,
	}
	if f.HasPC {
		jf.PC = hexPtr(f.PC)
	}
	if f.Function != "" {
		jf.Function = strPtr(f.Function)
	}
	if f.File != "" {
		jf.File = strPtr(f.File)
	}
	if f.Module != "" {
		jf.Module = strPtr(f.Module)
	}
	if f.HasOffset {
		jf.Offset = hexPtr(f.Offset)
	}
	if f.HasSymbolSize {
		jf.SymbolOffset = hexPtr(f.SymbolOffset)
		jf.SymbolSize = hexPtr(f.SymbolSize)
	}
	jf.Unreliable, jf.Context, jf.Problem = f.Unreliable, f.Context, f.Problem
	switch jf.Symbolized {
	case report.SymbolizedReport, report.SymbolizedSanitrace, report.SymbolizedNone:
	default:
		// The schema allows three values; infer the honest one.
		jf.Symbolized = report.SymbolizedNone
		if f.Function != "" || f.File != "" {
			jf.Symbolized = report.SymbolizedReport
		}
	}
	return jf
}

func strPtr(s string) *string { return &s }

func hexPtr(v uint64) *string {
	s := fmt.Sprintf("0x%x", v)
	return &s
}
