package render

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/sanitrace/sanitrace/report"
)

// checkSchema decodes out generically and checks it against schema v1 of
// docs/cli.md: every required key present (null allowed where the schema
// says "null when unknown"), with the right JSON type.
func checkSchema(t *testing.T, out []byte) {
	t.Helper()
	if !json.Valid(out) {
		t.Fatalf("not valid JSON:\n%s", out)
	}
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if v, ok := doc["version"].(float64); !ok || v != 1 {
		t.Errorf("version = %v, want 1", doc["version"])
	}
	reports, ok := doc["reports"].([]any)
	if !ok {
		t.Fatalf("reports is %T, want array", doc["reports"])
	}
	for i, ri := range reports {
		r, ok := ri.(map[string]any)
		if !ok {
			t.Fatalf("reports[%d] is %T", i, ri)
		}
		wantString(t, r, "tool", false)
		wantString(t, r, "kind", false)
		stacks, ok := r["stacks"].([]any)
		if !ok {
			t.Fatalf("reports[%d].stacks is %T, want array", i, r["stacks"])
		}
		for _, si := range stacks {
			s := si.(map[string]any)
			wantString(t, s, "title", false)
			if role, _ := s["role"].(string); !validRoles[role] {
				t.Errorf("stack role %q not in the schema", role)
			}
			frames, ok := s["frames"].([]any)
			if !ok {
				t.Fatalf("frames is %T, want array", s["frames"])
			}
			for _, fi := range frames {
				f := fi.(map[string]any)
				wantString(t, f, "pc", true)
				wantString(t, f, "function", true)
				wantString(t, f, "file", true)
				wantNumber(t, f, "line")
				wantNumber(t, f, "column")
				switch f["symbolized"] {
				case "report", "sanitrace", "none":
				default:
					t.Errorf("frame symbolized = %v", f["symbolized"])
				}
				if f["symbolized"] == "none" && (f["function"] != nil || f["file"] != nil) {
					t.Errorf("frame with function/file says symbolized none: %v", f)
				}
			}
		}
		if sh, ok := r["shadow"].(map[string]any); ok {
			for _, rowi := range sh["rows"].([]any) {
				row := rowi.(map[string]any)
				wantString(t, row, "address", false)
				if _, ok := row["bytes"].([]any); !ok {
					t.Errorf("shadow row bytes is %T", row["bytes"])
				}
				if _, ok := row["marked"]; !ok {
					t.Error("shadow row lacks marked")
				}
				if _, ok := row["current"].(bool); !ok {
					t.Error("shadow row lacks current")
				}
			}
			if _, ok := sh["legend"].(map[string]any); !ok {
				t.Error("shadow lacks legend")
			}
		}
		in, ok := r["input"].(map[string]any)
		if !ok {
			t.Fatalf("input is %T", r["input"])
		}
		wantString(t, in, "name", false)
		wantNumber(t, in, "first_line")
		wantNumber(t, in, "last_line")
	}
}

var validRoles = map[string]bool{"access": true, "free": true, "alloc": true,
	"thread": true, "origin": true, "leak": true, "previous": true,
	"mutex": true, "other": true}

func wantString(t *testing.T, m map[string]any, key string, nullable bool) {
	t.Helper()
	v, ok := m[key]
	if !ok {
		t.Errorf("missing required %q in %v", key, m)
		return
	}
	if v == nil && nullable {
		return
	}
	if _, ok := v.(string); !ok {
		t.Errorf("%q is %T, want string", key, v)
	}
}

func wantNumber(t *testing.T, m map[string]any, key string) {
	t.Helper()
	if _, ok := m[key].(float64); !ok {
		t.Errorf("%q is %T (%v), want number", key, m[key], m[key])
	}
}

func TestJSONEmpty(t *testing.T) {
	var b bytes.Buffer
	j := NewJSON(&b)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	checkSchema(t, b.Bytes())
	var doc struct {
		Version int   `json:"version"`
		Reports []any `json:"reports"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc.Reports == nil || len(doc.Reports) != 0 {
		t.Errorf("empty document = %q (%v)", b.String(), err)
	}
}

func TestJSONStreams(t *testing.T) {
	// Each report must be on the writer before the next one is given.
	var b bytes.Buffer
	j := NewJSON(&b)
	r := &report.Report{Tool: "AddressSanitizer", Kind: "SEGV on unknown address"}
	if err := j.Report(r); err != nil {
		t.Fatal(err)
	}
	first := b.Len()
	if first == 0 || !bytes.Contains(b.Bytes(), []byte(`"SEGV on unknown address"`)) {
		t.Fatalf("nothing written after the first report: %q", b.String())
	}
	if err := j.Report(r); err != nil {
		t.Fatal(err)
	}
	if b.Len() <= first {
		t.Fatal("second report not written")
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	checkSchema(t, b.Bytes())
	if err := j.Report(r); err == nil {
		t.Error("Report after Close succeeded")
	}
}

func TestJSONFrameFields(t *testing.T) {
	r := &report.Report{Tool: "ThreadSanitizer", Kind: "data race", Stacks: []report.Stack{{
		Title: "Write of size 8 at 0x10 by main thread:", Role: "access",
		Frames: []report.Frame{
			// TSan prints no pc; the offset is known.
			{Function: "record", File: "/src/r.c", Line: 9, Column: 53, Module: "race", Offset: 0xd0111, HasOffset: true, Inlined: true, Symbolized: report.SymbolizedReport},
			{PC: 0x401136, HasPC: true, Symbolized: report.SymbolizedNone},
		},
	}}}
	var doc struct {
		Reports []struct {
			PID    *int `json:"pid"`
			Stacks []struct {
				Frames []map[string]any `json:"frames"`
			} `json:"stacks"`
		} `json:"reports"`
	}
	if err := json.Unmarshal(renderJSON(t, []*report.Report{r}), &doc); err != nil {
		t.Fatal(err)
	}
	rep := doc.Reports[0]
	if rep.PID != nil {
		t.Errorf("pid = %v, want null for an unknown pid", *rep.PID)
	}
	f0, f1 := rep.Stacks[0].Frames[0], rep.Stacks[0].Frames[1]
	for _, c := range []struct {
		f    map[string]any
		key  string
		want any
	}{
		{f0, "pc", nil}, {f0, "function", "record"}, {f0, "file", "/src/r.c"},
		{f0, "line", 9.0}, {f0, "column", 53.0}, {f0, "module", "race"},
		{f0, "offset", "0xd0111"}, {f0, "inlined", true}, {f0, "symbolized", "report"},
		{f1, "pc", "0x401136"}, {f1, "function", nil}, {f1, "file", nil},
		{f1, "line", 0.0}, {f1, "column", 0.0}, {f1, "module", nil},
		{f1, "offset", nil}, {f1, "inlined", false}, {f1, "symbolized", "none"},
	} {
		if got, ok := c.f[c.key]; !ok || got != c.want {
			t.Errorf("frame %v: %s = %v (present %v), want %v", c.f["function"], c.key, got, ok, c.want)
		}
	}
}
