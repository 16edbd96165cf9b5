package wire

import (
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Version is the schema version of every document (docs/json.md).
const Version = 1

// The types mirror schema v1. Pointers and omitempty make "unknown" come
// out as null (required keys) or absent (optional ones), as docs/json.md
// specifies key by key.

// Reports is the document of `sanitrace decode --format json`. The
// decode writer streams it report by report rather than encoding one of
// these, so it only serves readers.
type Reports struct {
	Version int      `json:"version"`
	Reports []Report `json:"reports"`
	// Fragments are the input's unattached fragments; absent when it
	// had none. FragmentsOmitted counts those past the writer's bound.
	Fragments        []Fragment `json:"fragments,omitempty"`
	FragmentsOmitted int        `json:"fragments_omitted,omitempty"`
}

// Fragment is an unattached fragment (report.Fragment): frames outside
// every report, with the titles between them. It is not a report and has
// no tool or kind (docs/json.md).
type Fragment struct {
	Stacks []Stack `json:"stacks"`
	// Frames counts the fragment's frame lines; the stacks hold the first
	// of them.
	Frames  int     `json:"frames"`
	Summary *string `json:"summary"`
	Input   Input   `json:"input"`
}

// FragmentOf is the schema v1 form of an unattached fragment.
func FragmentOf(f *report.Fragment) Fragment {
	out := Fragment{
		Stacks: stacksOf(f.Stacks),
		Frames: f.Frames,
		Input:  Input{Name: f.Input.Name, FirstLine: f.Input.FirstLine, LastLine: f.Input.LastLine},
	}
	if f.Summary != "" {
		s := f.Summary
		out.Summary = &s
	}
	return out
}

// stacksOf converts the stacks of a report or fragment.
func stacksOf(stacks []report.Stack) []Stack {
	out := make([]Stack, 0, len(stacks))
	for _, s := range stacks {
		js := Stack{Title: s.Title, Role: s.Role, Frames: make([]Frame, 0, len(s.Frames)), Marker: s.Marker, PossiblyTruncated: s.Truncated}
		if js.Role == "" {
			js.Role = "other"
		}
		for _, f := range s.Frames {
			js.Frames = append(js.Frames, FrameOf(f))
		}
		out = append(out, js)
	}
	return out
}

// Report is one report.
type Report struct {
	Tool     string  `json:"tool"`
	Kind     string  `json:"kind"`
	Severity string  `json:"severity,omitempty"`
	PID      *int    `json:"pid"`
	Headline string  `json:"headline"`
	Access   *Access `json:"access"`
	Location *string `json:"location"`
	Stacks   []Stack `json:"stacks"`
	Shadow   *Shadow `json:"shadow"`
	Summary  *string `json:"summary"`
	Input    Input   `json:"input"`
	Fuzzer   *Fuzzer `json:"fuzzer,omitempty"`
	Kernel   *Kernel `json:"kernel,omitempty"`
}

// Fuzzer is libFuzzer's account of the failing input.
type Fuzzer struct {
	Mutations string `json:"mutations,omitempty"`
	BaseUnit  string `json:"base_unit,omitempty"`
	Bytes     string `json:"bytes,omitempty"`
	Text      string `json:"text,omitempty"`
	Artifact  string `json:"artifact,omitempty"`
	Base64    string `json:"base64,omitempty"`
}

// Kernel is the context a Linux kernel report prints.
type Kernel struct {
	CPU      *int   `json:"cpu"`
	Comm     string `json:"comm,omitempty"`
	Tainted  string `json:"tainted,omitempty"`
	Release  string `json:"release,omitempty"`
	BuildID  string `json:"build_id,omitempty"`
	Hardware string `json:"hardware,omitempty"`
}

// Access is the faulting access of a report.
type Access struct {
	Op      string `json:"op"`
	Size    int    `json:"size"`
	Address string `json:"address"`
	Thread  string `json:"thread"`
}

// Stack is one stack of a report with the line that introduces it.
type Stack struct {
	Title  string  `json:"title"`
	Role   string  `json:"role"`
	Frames []Frame `json:"frames"`
	// Marker is the line printed in place of frames that could not be
	// given (docs/json.md); then Frames is empty.
	Marker string `json:"marker,omitempty"`
	// PossiblyTruncated says why the stack may end early (docs/json.md).
	PossiblyTruncated string `json:"possibly_truncated,omitempty"`
}

// Frame is a frame in schema v1; every document that carries frames (a
// core's threads, the lws heap map) spells them with it.
//
// User, the one field the schema does not have, says that the frame is
// the program's own code (report.ClassIn of the report's tool gives
// report.User). It is set in batch documents only, from the model by
// BatchReportOf and by ReadBatch for a document read back, so that the
// writers of a batch run (SARIF's location, the HTML page) classify no
// frame again.
type Frame struct {
	PC         *string `json:"pc"`
	Function   *string `json:"function"`
	File       *string `json:"file"`
	Line       int     `json:"line"`
	Column     int     `json:"column"`
	Module     *string `json:"module"`
	Offset     *string `json:"offset"`
	BuildID    string  `json:"build_id,omitempty"`
	Inlined    bool    `json:"inlined"`
	User       bool    `json:"-"` // not in the schema: see above
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
	// Unparsed: a frame line the parser could not read, given as Raw, the
	// line as printed (docs/json.md); the other fields are unknown.
	Unparsed bool   `json:"unparsed,omitempty"`
	Raw      string `json:"raw,omitempty"`
}

// Shadow is ASan's shadow-byte dump with its legend.
type Shadow struct {
	Rows   []ShadowRow       `json:"rows"`
	Legend map[string]string `json:"legend"`
}

// ShadowRow is one row of the dump; Marked indexes the [xx] byte.
type ShadowRow struct {
	Address string   `json:"address"`
	Bytes   []string `json:"bytes"`
	Marked  *int     `json:"marked"`
	Current bool     `json:"current"`
}

// Input says where in the input a report was found.
type Input struct {
	Name      string `json:"name"`
	FirstLine int    `json:"first_line"`
	LastLine  int    `json:"last_line"`
}

// ReportOf is the schema v1 form of a report, as decode writes it.
func ReportOf(r *report.Report) Report {
	out := Report{
		Tool:     r.Tool,
		Kind:     r.Kind,
		Severity: r.Severity,
		Headline: r.Headline,
		Input:    Input{Name: r.Input.Name, FirstLine: r.Input.FirstLine, LastLine: r.Input.LastLine},
	}
	if r.PID != 0 {
		pid := r.PID
		out.PID = &pid
	}
	if a := r.Access; a != nil {
		out.Access = &Access{Op: a.Op, Size: a.Size, Address: a.Address, Thread: a.Thread}
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
	out.Stacks = stacksOf(r.Stacks)
	if fz := r.Fuzzer; fz != nil {
		out.Fuzzer = &Fuzzer{Mutations: fz.Mutations, BaseUnit: fz.BaseUnit, Bytes: fz.Bytes, Text: fz.Text, Artifact: fz.Artifact, Base64: fz.Base64}
	}
	if k := r.Kernel; k != nil {
		out.Kernel = &Kernel{Comm: k.Comm, Tainted: k.Tainted, Release: k.Release, BuildID: k.BuildID, Hardware: k.Hardware}
		if k.CPU >= 0 {
			cpu := k.CPU
			out.Kernel.CPU = &cpu
		}
	}
	if sh := r.Shadow; sh != nil {
		js := &Shadow{Rows: make([]ShadowRow, 0, len(sh.Rows)), Legend: make(map[string]string, len(sh.Legend))}
		for _, row := range sh.Rows {
			jr := ShadowRow{Address: row.Address, Bytes: row.Bytes, Current: row.Current}
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

// FramesOf converts frames of the model to their schema v1 form.
func FramesOf(fs []report.Frame) []Frame {
	out := make([]Frame, len(fs))
	for i, f := range fs {
		out[i] = FrameOf(f)
	}
	return out
}

// FrameOf is the schema v1 form of a frame of the model.
func FrameOf(f report.Frame) Frame {
	jf := Frame{
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
	if f.Unparsed {
		jf.Unparsed, jf.Raw = true, strings.TrimSpace(f.Raw)
	}
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

// hex spells an address, pc or offset as the schema does: lower-case hex
// with 0x.
func hex(v uint64) string {
	var b [18]byte // "0x" and 16 digits: the string is the one allocation
	return string(strconv.AppendUint(append(b[:0], "0x"...), v, 16))
}

func hexPtr(v uint64) *string {
	s := hex(v)
	return &s
}
