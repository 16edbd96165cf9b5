package render

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/report"
)

const hostile = "a\rb\x1b[8m\u009b"

// fillStrings sets every string reachable from v (through structs,
// pointers, slices and maps, one element each) to hostile.
func fillStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(hostile)
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fillStrings(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			fillStrings(v.Field(i))
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fillStrings(s.Index(0))
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fillStrings(k)
		fillStrings(e)
		m.SetMapIndex(k, e)
		v.Set(m)
	}
}

// strings collects every string reachable from v with its path.
func collectStrings(v reflect.Value, path string, out map[string]string) {
	switch v.Kind() {
	case reflect.String:
		out[path] = v.String()
	case reflect.Pointer:
		if !v.IsNil() {
			collectStrings(v.Elem(), path, out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			collectStrings(v.Field(i), path+"."+v.Type().Field(i).Name, out)
		}
	case reflect.Slice:
		for i := range v.Len() {
			collectStrings(v.Index(i), path+"[]", out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			collectStrings(k, path+"{key}", out)
			collectStrings(v.MapIndex(k), path+"{value}", out)
		}
	}
}

// TestSafeReportEveryString: every string of the model, however deep, is
// escaped in the copy, and the original keeps its exact text (the JSON
// writers read it).
func TestSafeReportEveryString(t *testing.T) {
	r := &report.Report{}
	fillStrings(reflect.ValueOf(r))
	safe := safeReport(r)
	if safe == r {
		t.Fatal("safeReport returned the hostile report itself")
	}
	got := map[string]string{}
	collectStrings(reflect.ValueOf(safe), "Report", got)
	for path, s := range got {
		if s != `a\x0db\x1b[8m\x9b` {
			t.Errorf("%s = %q: not escaped", path, s)
		}
	}
	orig := map[string]string{}
	collectStrings(reflect.ValueOf(r), "Report", orig)
	for path, s := range orig {
		if s != hostile {
			t.Errorf("%s of the original changed to %q", path, s)
		}
	}
	if len(orig) != len(got) {
		t.Errorf("%d strings in the original, %d in the copy", len(orig), len(got))
	}
	clean := &report.Report{Tool: "AddressSanitizer", Headline: "ERROR: x", Stacks: []report.Stack{{Frames: []report.Frame{{Function: "main"}}}}}
	if safeReport(clean) != clean {
		t.Error("a clean report was copied")
	}
	if f := safeFrame(report.Frame{Function: "f\ao"}); strings.ContainsRune(f.Function, '\a') {
		t.Errorf("safeFrame kept a bell: %q", f.Function)
	}
}
