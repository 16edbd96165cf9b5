package corpustest

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/sharedtest"
)

// testdata/asan_calloc_overflow_gcc_O2.expected_unsymbolized.json is a
// copy of that case's file in the shared corpus.
func TestLoad(t *testing.T) {
	l, err := Load(filepath.Join("testdata", "asan_calloc_overflow_gcc_O2.expected_unsymbolized.json"))
	if err != nil {
		t.Fatal(err)
	}
	if l.ReportCount != 1 || len(l.Reports) != 1 {
		t.Fatalf("report_count %d, %d reports; want 1 and 1", l.ReportCount, len(l.Reports))
	}
	r := l.Reports[0]
	head := []any{r.Tool, r.Severity, Deref(r.PID), r.LineRange, r.HeadlineBugType, r.BugType, r.UBSanCheck == nil, r.Access == nil, r.Shadow == nil}
	wantHead := []any{"AddressSanitizer", "ERROR", 30781, [2]int{2, 9}, "calloc parameters overflow", "calloc-overflow", true, true, true}
	if !reflect.DeepEqual(head, wantHead) {
		t.Errorf("report: got %v, want %v", head, wantHead)
	}
	if r.Summary == nil || r.Summary.Module != "/lib/x86_64-linux-gnu/libasan.so.8" ||
		r.Summary.Raw != "SUMMARY: AddressSanitizer: calloc-overflow (/lib/x86_64-linux-gnu/libasan.so.8+0xb83b7) " {
		t.Errorf("summary: %+v", r.Summary)
	}
	if len(r.Stacks) != 1 || r.Stacks[0].Role != "error" || len(r.Stacks[0].Frames) != 3 {
		t.Fatalf("stacks: %+v", r.Stacks)
	}
	sys, bin := r.Stacks[0].Frames[0], r.Stacks[0].Frames[1]
	if sys.InCase != nil || sys.LLVMSymbolizer != nil || sys.Function != nil || sys.Line != nil || Deref(sys.ModuleOffset) != "0xb83b7" {
		t.Errorf("system frame: %+v", sys)
	}
	want := []LLVMAnswer{{Function: "main", File: ptr("/build/ci/src/calloc_overflow.c"), Line: ptr(19), Column: ptr(20)}}
	if Deref(bin.InCase) != "calloc_overflow" || Deref(bin.PC) != "0x5575bfcde116" || bin.Index != 1 || !reflect.DeepEqual(bin.LLVMSymbolizer, want) {
		t.Errorf("case frame: %+v", bin)
	}
}

func ptr[T any](v T) *T { return &v }

func TestLoadErrors(t *testing.T) {
	for _, name := range []string{"missing.json", "wrong_type.json"} {
		path := filepath.Join("testdata", name)
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("Load(%s): error %v, want one naming the file", name, err)
		}
	}
}

// TestLoadCorpus loads every ground-truth file of the shared corpus: each
// must decode, agree with its own report_count and use only role names
// that Role maps to a role of the report model.
func TestLoadCorpus(t *testing.T) {
	cases := sharedtest.Dir(t, "corpus", "cases")
	paths, err := filepath.Glob(filepath.Join(cases, "*", "expected*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no expected*.json under %s: %v", cases, err)
	}
	model := map[string]bool{"access": true, "free": true, "alloc": true, "thread": true, "origin": true,
		"leak": true, "previous": true, "mutex": true, "other": true}
	reports := 0
	for _, p := range paths {
		l, err := Load(p)
		if err != nil {
			t.Error(err)
			continue
		}
		if l.ReportCount != len(l.Reports) {
			t.Errorf("%s: report_count %d, %d reports", p, l.ReportCount, len(l.Reports))
		}
		reports += len(l.Reports)
		for _, r := range l.Reports {
			for _, s := range r.Stacks {
				if !model[Role(s.Role)] {
					t.Errorf("%s: stack %q: role %q maps to %q", p, s.Title, s.Role, Role(s.Role))
				}
			}
		}
	}
	t.Logf("%d files, %d reports", len(paths), reports)
}
