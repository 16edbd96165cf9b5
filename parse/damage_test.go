package parse

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/sharedtest"
	"github.com/sanitrace/sanitrace/report"
)

// parseDamage parses text and returns the reports and the Damage notices.
func parseDamage(t *testing.T, text, name string) ([]*report.Report, []*Damage) {
	t.Helper()
	sc := NewScanner(strings.NewReader(text), name)
	var ds []*Damage
	sc.OnDamage(func(d *Damage) { ds = append(ds, d) })
	out := allReports(t, sc)
	return out, ds
}

// TestDamagedHeader damages the header word of sanitizer reports with NUL
// bytes and invalid UTF-8 (replacing a byte, inserted, two bytes): the
// frames after it make the report unambiguous, so it is read with the same
// tool, kind, pid and stacks as the intact log, and the repair is named.
func TestDamagedHeader(t *testing.T) {
	for _, c := range []struct {
		log, word string
	}{
		{"asan_use_after_free_gcc_O0.symbolized.log", "ERROR"},
		{"asan_use_after_free_gcc_O0.symbolized.log", "AddressSanitizer"},
		{"asan_stack_overflow_gcc_O2.symbolized.log", "ERROR"},
		{"lsan_leak_registry_clang_O0_asan_nopie_dw4.symbolized.log", "LeakSanitizer"},
		{"msan_heap_origin_clang_O0_nopie_dw4.symbolized.log", "MemorySanitizer"},
		{"tsan_lock_order_clang_O0_2ndstack_nopie.symbolized.log", "WARNING"},
		{"tsan_race_global_gcc_O0_dw4.unsymbolized.log", "ThreadSanitizer"},
		{"ubsan_ub_misaligned_clang_O2_dw4.symbolized.log", "runtime error"},
		{"ubsan_ub_signed_overflow_gcc_O0_nostack.symbolized.log", "runtime error"},
	} {
		path := filepath.Join("..", "testdata", "reports", c.log)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		clean := StripEscapes(string(data))
		want, notes := parseDamage(t, clean, c.log)
		if len(want) == 0 || len(notes) != 0 {
			t.Fatalf("%s: %d reports, %d damage notices in the intact log", c.log, len(want), len(notes))
		}
		hasStack := len(want[0].Stacks) > 0
		i := strings.Index(clean, c.word)
		if i < 0 {
			t.Fatalf("%s: no %q", c.log, c.word)
		}
		k := len(c.word) / 2
		for _, d := range []struct{ name, with string }{
			{"nul-for-byte", c.word[:k] + "\x00" + c.word[k+1:]},
			{"nul-inserted", c.word[:k] + "\x00" + c.word[k:]},
			{"bad-utf8-for-byte", c.word[:k] + "\xff" + c.word[k+1:]},
			{"bad-utf8-inserted", c.word[:k] + "\xc3" + c.word[k:]},
			{"bit-flip", c.word[:k] + string([]byte{c.word[k] | 0x80}) + c.word[k+1:]},
			{"two-bytes", c.word[:k] + "\xe2\x28" + c.word[k+2:]},
		} {
			name := c.log + "/" + c.word + "/" + d.name
			got, notes := parseDamage(t, clean[:i]+d.with+clean[i+len(c.word):], name)
			if !hasStack && d.name != "nul-inserted" {
				// Nothing after the headline says it was one: the loss is
				// silent only because no frame was lost.
				if len(notes) != 0 {
					t.Errorf("%s: %d notices for a report without frames", name, len(notes))
				}
				continue
			}
			if len(got) != len(want) {
				t.Errorf("%s: %d reports, want %d (notices %v)", name, len(got), len(want), notes)
				continue
			}
			for j := range got {
				g, w := got[j], want[j]
				if g.Tool != w.Tool || g.Kind != w.Kind || g.PID != w.PID || !reflect.DeepEqual(g.Stacks, w.Stacks) || g.Summary != w.Summary {
					t.Errorf("%s: report %d differs:\n%s", name, j, firstReportDiff(got[j:j+1], want[j:j+1]))
				}
			}
			repaired := len(notes) == 1 && notes[0].Repaired != ""
			if d.name == "nul-inserted" {
				// The NUL is read away with the control bytes: nothing to repair.
				repaired = len(notes) == 0
			} else if strings.HasSuffix(c.word, "Sanitizer") && strings.HasSuffix(d.with, "Sanitizer") {
				// The tool word still ends in "Sanitizer": read as the
				// known tool it is one or two bytes from, no repair.
				repaired = len(notes) == 0
			}
			if !repaired {
				t.Errorf("%s: notices %v", name, notes)
			}
		}
	}
}

// TestLostFrames: frames after a header damaged beyond reading are named,
// with their lines, and nothing else is.
func TestLostFrames(t *testing.T) {
	path := filepath.Join("..", "testdata", "reports", "asan_use_after_free_gcc_O0.symbolized.log")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	clean := StripEscapes(string(data))
	bad := strings.Replace(clean, "ERROR: AddressSanitizer:", "E\x00\x00\x00R: Add\xff\xff\xffSanitizer:", 1)
	got, notes := parseDamage(t, bad+"ordinary output\n"+clean, "log")
	if len(got) != 1 {
		t.Fatalf("%d reports, want the intact copy only", len(got))
	}
	lines := strings.Count(clean, "\n")
	if len(notes) != 1 || notes[0].Repaired != "" || notes[0].First != 4 || notes[0].Frames != 14 || notes[0].Last >= lines {
		t.Fatalf("notices %v", notes)
	}
	if got, want := notes[0].Error(), "log:4-22: 14 stack frame lines outside any report, an unattached fragment left as read (no report header before them; a damaged one?)"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	// Damage far from any frame costs nothing and says nothing.
	_, notes = parseDamage(t, "a\x00b \xff\n"+clean, "log")
	if len(notes) != 0 {
		t.Errorf("notices %v", notes)
	}
}

// TestNoDamageInIntactLogs: no sample or corpus log, intact, has frames
// outside reports or a header to repair.
func TestNoDamageInIntactLogs(t *testing.T) {
	logs, _ := filepath.Glob(filepath.Join("..", "testdata", "reports", "*.log"))
	check := func(t *testing.T, logs []string) {
		for _, p := range logs {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, notes := parseDamage(t, string(data), p); len(notes) > 0 {
				t.Errorf("%s: %v", p, notes)
			}
		}
	}
	check(t, logs)
	t.Run("shared", func(t *testing.T) {
		dir := sharedtest.Dir(t, "corpus", "cases")
		more, _ := filepath.Glob(filepath.Join(dir, "*", "*.log"))
		check(t, more)
	})
}
