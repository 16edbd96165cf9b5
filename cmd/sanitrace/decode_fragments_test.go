package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/render"
)

// fragmentPaste is a public TSan paste that begins inside a report: the
// tail of the first report (frame #1 of its first stack, three titled
// stacks, its SUMMARY) before the whole second report (index.json).
var fragmentPaste = filepath.Join(repoRoot, "testdata", "samples", "pastes", "public-tsan-null-frames-fragment.log")

// fragmentOnly is the paste's lines up to the first report's SUMMARY: an
// unattached fragment and nothing else.
func fragmentOnly(t *testing.T) string {
	t.Helper()
	lines := strings.SplitAfter(readFile(t, fragmentPaste), "\n")
	return strings.Join(lines[:19], "")
}

// TestDecodeFragmentText: leftover frames are shown once, under a head
// that marks them as an unattached fragment, with their titles and their
// own frame numbers, and are not counted as a report.
func TestDecodeFragmentText(t *testing.T) {
	out, errs, code := runCLI(t, "", "decode", "--color=never", "--symbolize=false", fragmentPaste)
	if code != exitFound {
		t.Fatalf("exit %d, want %d (the second report); stderr:\n%s", code, exitFound, errs)
	}
	if n := strings.Count(out, render.FragmentHead); n != 1 {
		t.Fatalf("%d fragment heads, want 1:\n%s", n, out)
	}
	if !strings.HasPrefix(out, render.FragmentHead+" (lines 1-19): 7 frame lines outside any report") {
		t.Errorf("output does not start with the fragment's head:\n%s", out)
	}
	frag, rest, _ := strings.Cut(out, "WARNING: ThreadSanitizer:")
	for _, want := range []string{
		"    #1 <null> <null> (libtsan.so.0+0x29b3d)\n", // its own number, not #0
		"  Previous read of size 2 at 0x7fffe4dfdde6 by main thread:\n",
		"  As if synchronized via sleep:\n",
		"  Thread T1 (tid=5022, running) created by main thread at:\n",
		"SUMMARY: ThreadSanitizer: data race input/fifo.c:47 in input_fifo\n",
	} {
		if !strings.Contains(frag, want) {
			t.Errorf("fragment lacks %q:\n%s", want, frag)
		}
	}
	if strings.Contains(rest, render.FragmentHead) || strings.Count(out, "WARNING: ThreadSanitizer:") != 1 {
		t.Errorf("the report is not shown once after the fragment:\n%s", out)
	}
	if strings.Contains(errs, "outside any report") {
		t.Errorf("the fragment is shown, yet stderr names it as lost:\n%s", errs)
	}

	// Two inputs: the closing line counts the fragment apart.
	out, _, _ = runCLI(t, "", "decode", "--color=never", "--symbolize=false", fragmentPaste, fragmentPaste)
	if !strings.Contains(out, "2 reports in 2 files, 2 unattached fragments;") {
		t.Errorf("closing line does not count 2 reports and 2 fragments apart:\n%s", out[max(0, len(out)-300):])
	}
}

// TestDecodeFragmentJSON: in JSON a fragment is in "fragments", never in
// "reports"; a log holding only a fragment has no report and is not
// silently clean.
func TestDecodeFragmentJSON(t *testing.T) {
	out, errs, code := runCLI(t, "", "decode", "--format=json", "--symbolize=false", fragmentPaste)
	if code != exitFound {
		t.Fatalf("exit %d; stderr:\n%s", code, errs)
	}
	doc := parseDecodeJSON(t, out)
	if len(doc.Reports) != 1 || len(doc.Fragments) != 1 {
		t.Fatalf("%d reports and %d fragments, want 1 and 1", len(doc.Reports), len(doc.Fragments))
	}
	f := doc.Fragments[0]
	var titles []string
	frames := 0
	for _, s := range f.Stacks {
		titles = append(titles, s.Title)
		frames += len(s.Frames)
	}
	if got := strings.Join(titles, "|"); got != "|Previous read of size 2 at 0x7fffe4dfdde6 by main thread:|As if synchronized via sleep:|Thread T1 (tid=5022, running) created by main thread at:" {
		t.Errorf("stack titles %q", got)
	}
	if frames != 7 || f.Frames != 7 || f.Input.FirstLine != 1 || f.Input.LastLine != 19 || f.Summary == nil {
		t.Errorf("fragment: %d frames (frames %d), lines %d-%d, summary %v", frames, f.Frames, f.Input.FirstLine, f.Input.LastLine, f.Summary)
	}
	if doc.Reports[0].Input.FirstLine != 22 {
		t.Errorf("the report starts on line %d, want 22", doc.Reports[0].Input.FirstLine)
	}

	// Only the fragment: no report, one fragment, said on stderr, exit 1.
	out, errs, code = runCLI(t, fragmentOnly(t), "decode", "--format=json", "--symbolize=false")
	if code != exitFound || !strings.Contains(errs, "looks like a crash but no report could be read") {
		t.Errorf("exit %d, stderr %q: want 1 and the never-silently-clean line", code, errs)
	}
	doc = parseDecodeJSON(t, out)
	if len(doc.Reports) != 0 || len(doc.Fragments) != 1 {
		t.Errorf("%d reports and %d fragments, want 0 and 1", len(doc.Reports), len(doc.Fragments))
	}

	// A log without fragments has no "fragments" key at all.
	out, _, _ = runCLI(t, "", "decode", "--format=json", "--symbolize=false", demoLog)
	if strings.Contains(out, `"fragments"`) {
		t.Errorf("a log without fragments has a fragments key")
	}
}

// TestBatchFragment: batch keeps fragments out of the buckets, lists them
// with their source, and --fail-on any does not fail on one.
func TestBatchFragment(t *testing.T) {
	dir := t.TempDir()
	only := filepath.Join(dir, "only.log")
	if err := os.WriteFile(only, []byte(fragmentOnly(t)), 0o644); err != nil {
		t.Fatal(err)
	}
	both := filepath.Join(dir, "both.log")
	if err := os.WriteFile(both, []byte(readFile(t, fragmentPaste)), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := runBatchJSON(t, exitFound, "batch", "--format=json", "--symbolize=false", dir)
	if len(doc.Reports) != 1 || len(doc.Buckets) != 1 || len(doc.Fragments) != 2 {
		t.Fatalf("%d reports, %d buckets, %d fragments; want 1, 1, 2", len(doc.Reports), len(doc.Buckets), len(doc.Fragments))
	}
	for i, want := range []string{both, only} {
		s := doc.Fragments[i].Source
		if s.Path != want || s.FirstLine != 1 || s.LastLine != 19 || doc.Fragments[i].Frames != 7 {
			t.Errorf("fragment %d: %+v, %d frames; want %s lines 1-19, 7 frames", i, s, doc.Fragments[i].Frames, want)
		}
	}
	// The log with only a fragment: in errors (never silently clean), and
	// no finding for --fail-on any.
	os.Remove(both)
	doc = runBatchJSON(t, exitOK, "batch", "--format=json", "--symbolize=false", dir)
	if len(doc.Reports) != 0 || len(doc.Buckets) != 0 || len(doc.Fragments) != 1 || len(doc.Errors) != 1 {
		t.Errorf("%d reports, %d buckets, %d fragments, %d errors; want 0, 0, 1, 1", len(doc.Reports), len(doc.Buckets), len(doc.Fragments), len(doc.Errors))
	}
	out, _, _ := runCLI(t, "", "batch", "--format=text", "--symbolize=false", dir)
	if !strings.Contains(out, "1 unattached fragment (not reports)") || !strings.Contains(out, "only.log:1-19: 7 frame lines") {
		t.Errorf("batch text does not show the fragment apart:\n%s", out)
	}
	for _, f := range []string{"markdown", "html"} {
		out, _, _ := runCLI(t, "", "batch", "--format="+f, "--symbolize=false", dir)
		if !strings.Contains(out, "1 unattached fragment: frames outside any report, not counted as bugs") {
			t.Errorf("batch %s does not count the fragment apart:\n%.600s", f, out)
		}
	}
}

// frameLabel is the number a text frame line starts with ("#0.1", "#12").
var frameLabel = regexp.MustCompile(`^ *#([0-9]+(?:\.[0-9]+)?) `)

// labels are the frame numbers of the first stack of text: the lines
// from the first frame line to the next line that is none.
func labels(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		m := frameLabel.FindStringSubmatch(l)
		if m == nil {
			if len(out) > 0 {
				break
			}
			continue
		}
		out = append(out, m[1])
	}
	return out
}

// TestDecodeKeepsFrameNumbers (sanitizer look): the inlined call sanitrace
// finds at a markup {{{bt:0}}} frame is #0.1 above the frame's own #0, and
// the frames after keep their numbers, as llvm-symbolizer 19's
// --filter-markup numbers the same log (testdata/samples/markup/filter);
// the gdb and Chromium looks are held to the same rule by TestDecodeGDBLook
// and render's TestLookSymbolized.
func TestDecodeKeepsFrameNumbers(t *testing.T) {
	dirs, _ := markupDebugDirs(t)
	t.Setenv("DEBUGINFOD_URLS", "")
	log := filepath.Join(markupDir, "logs", "asan-uaf.markup.log")
	out, errs, code := runCLI(t, "", append(append([]string{"decode", "--color=never"}, dirs...), log)...)
	if code != exitFound {
		t.Fatalf("exit %d; stderr:\n%s", code, errs)
	}
	// The filter prints a frame it cannot resolve as [[[bt:N:...]]]: the
	// numbers of the block are the bt elements' and the filter's labels.
	filter := readFile(t, filepath.Join(markupDir, "filter", "asan-uaf.out"))
	var want []string
	bt := regexp.MustCompile(`^\[\[\[bt:([0-9]+):`)
	for _, l := range strings.Split(filter, "\n") {
		if m := frameLabel.FindStringSubmatch(l); m != nil {
			want = append(want, m[1])
		} else if m := bt.FindStringSubmatch(l); m != nil {
			want = append(want, m[1])
		} else if len(want) > 0 {
			break
		}
	}
	if got := labels(out); strings.Join(got, " ") != strings.Join(want, " ") || len(want) < 3 {
		t.Errorf("first stack numbered %v, llvm-symbolizer --filter-markup %v:\n%s", got, want, out)
	}
	if !strings.Contains(out, " in read_id ") || !regexp.MustCompile(`(?m)^    #0\.1 0x[0-9a-f]+ in read_id `).MatchString(out) {
		t.Errorf("the inlined read_id is not #0.1:\n%s", out)
	}
}

// unparsedLog is a public MSan stack (google/sanitizers#343) in which a
// frame lost its newline: the body of #1 starts a line of its own.
var unparsedLog = filepath.Join(repoRoot, "testdata", "reports", "msan_joined_frame_lines_public.log")

// TestDecodeUnparsedFrame: a frame line the grammar cannot read stays in
// its stack as printed, in its place, marked, in text, passthrough and
// JSON (as an unparsed frame with its raw text), and the frame after it
// keeps its number (#2, not #1).
func TestDecodeUnparsedFrame(t *testing.T) {
	const body = "0x7ff96110a852 in _ZN2v88internal8JSObject20UpdateAllocationSiteENS0_6HandleIS1_EENS0_12ElementsKindE"
	for _, args := range [][]string{
		{"decode", "--color=never", "--symbolize=false"},
		{"decode", "--color=never", "--symbolize=false", "--passthrough"},
		{"decode", "--color=never", "--symbolize=false", "--frames=user"},
	} {
		out, errs, code := runCLI(t, "", append(args, unparsedLog)...)
		if code != exitFound {
			t.Fatalf("%v: exit %d; stderr:\n%s", args, code, errs)
		}
		lines := strings.Split(out, "\n")
		k := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, body) })
		if k < 1 || k+1 >= len(lines) {
			t.Fatalf("%v: the unparsed frame line is not shown:\n%s", args, out)
		}
		if lines[k] != "    "+body+render.UnparsedMarker {
			t.Errorf("%v: unparsed frame shown as %q, want it as printed and marked", args, lines[k])
		}
		if !strings.HasPrefix(lines[k-1], "    #0 ") && !strings.Contains(lines[k-1], "#0") {
			t.Errorf("%v: the line before it is %q, want frame #0", args, lines[k-1])
		}
		if !strings.HasPrefix(strings.TrimLeft(lines[k+1], " "), "#2 ") {
			t.Errorf("%v: the frame after it is %q, want #2 as printed", args, lines[k+1])
		}
	}
	out, _, _ := runCLI(t, "", "decode", "--format=json", "--symbolize=false", unparsedLog)
	fs := parseDecodeJSON(t, out).Reports[0].Stacks[0].Frames
	if len(fs) != 3 || !fs[1].Unparsed || fs[1].Raw != body || fs[1].Function != nil || fs[0].Unparsed || fs[2].Unparsed {
		t.Errorf("JSON frames: %+v", fs)
	}
}

// TestDecodeOtherFormatsFragments: Go race frames and kernel frames
// outside a report (public pastes that begin inside a report, or hold
// one stack of it) are one unattached fragment each, in the producer's
// own lines, never a report.
func TestDecodeOtherFormatsFragments(t *testing.T) {
	pastes := filepath.Join(repoRoot, "testdata", "samples", "pastes")
	for _, c := range []struct {
		log     string
		reports int
		head    string
		lines   []string
	}{
		{"public-go-race-failed-restore-gotest.log", 1, " (lines 1-7): 3 frame lines outside any report", []string{
			"  Goroutine 41 (running) created at:\n",
			"    testing.tRunner()\n        /nix/store/vwkz5x8x1k82s6y7br5i5lf2x9adjrr9-go-1.17.10/share/go/src/testing/testing.go:1259 +0x22f\n",
		}},
		{"public-ktsan-discriminator-source-lines.log", 0, " (lines 1-5): 3 frame lines outside any report", []string{
			"  Write at 0xffff8804865cfd1c of size 1 by thread 9 on CPU 0:\n",
			"    [<ffffffff811595c6>] cpu_stopper_thread+0x56/0x1f0 kernel/stop_machine.c:452 (discriminator 8)\n",
		}},
	} {
		log := filepath.Join(pastes, c.log)
		out, errs, code := runCLI(t, "", "decode", "--color=never", "--symbolize=false", log)
		if code != exitFound {
			t.Errorf("%s: exit %d; stderr:\n%s", c.log, code, errs)
		}
		if n := strings.Count(out, render.FragmentHead); n != 1 || !strings.HasPrefix(out, render.FragmentHead+c.head) {
			t.Errorf("%s: %d fragment heads, want 1 first with %q:\n%s", c.log, n, c.head, out)
		}
		for _, l := range c.lines {
			if !strings.Contains(out, l) {
				t.Errorf("%s: no %q in\n%s", c.log, l, out)
			}
		}
		out, _, _ = runCLI(t, "", "decode", "--format=json", "--symbolize=false", log)
		doc := parseDecodeJSON(t, out)
		if len(doc.Reports) != c.reports || len(doc.Fragments) != 1 || len(doc.Fragments[0].Stacks) != 1 || len(doc.Fragments[0].Stacks[0].Frames) != 3 {
			t.Errorf("%s: JSON has %d reports and %d fragments, want %d and one of one stack of 3 frames", c.log, len(doc.Reports), len(doc.Fragments), c.reports)
		}
	}
}

// TestDecodeOddFrameLines: frame lines of real runtimes in shapes the
// plain grammar does not expect are read into their stacks, in JSON and
// text, from the CLI: TSan frames printed without "#N" (a
// stack_trace_format without "#%n"), and a frame behind another writer's
// text on its line (an ASan report beside a progress printer).
func TestDecodeOddFrameLines(t *testing.T) {
	type stack struct {
		frames        int
		first, module string // module "": not checked
	}
	for _, tc := range []struct {
		log    string
		stacks []stack
		text   string // a line the text output holds
	}{
		{"made-tsan-unnumbered-clang14.log",
			[]stack{{2, "bump", "race-tsan14"}, {2, "bump", "race-tsan14"}, {2, "pthread_create", "race-tsan14"}},
			"    #1 worker /build/ci/samples/src/valgrind/race.c:16:2 (race-tsan14+0xd015f)"},
		{"made-asan-glued-frames-clang14.log",
			[]stack{{5, "use", ""}, {2, "free", ""}, {2, "__interceptor_malloc", ""}},
			"    #0 0x5652f3858eea in use /build/ci/samples/src/c/uafglue.c:8:9"},
	} {
		log := filepath.Join(repoRoot, "testdata", "samples", "pastes", tc.log)
		out, errs, code := runCLI(t, "", "decode", "--format=json", "--symbolize=false", log)
		if code != exitFound {
			t.Fatalf("%s: exit %d; stderr:\n%s", tc.log, code, errs)
		}
		doc := parseDecodeJSON(t, out)
		if len(doc.Reports) != 1 || len(doc.Reports[0].Stacks) != len(tc.stacks) {
			t.Fatalf("%s: want one report of %d stacks:\n%s", tc.log, len(tc.stacks), out)
		}
		for i, want := range tc.stacks {
			s := doc.Reports[0].Stacks[i]
			f := s.Frames
			if len(f) != want.frames || f[0].Function == nil || *f[0].Function != want.first ||
				want.module != "" && (f[0].Module == nil || *f[0].Module != want.module) {
				t.Errorf("%s: stack %d (%s): %+v; want %d frames from %s", tc.log, i, s.Title, f, want.frames, want.first)
			}
		}
		text, _, _ := runCLI(t, "", "decode", "--color=never", "--symbolize=false", log)
		if !strings.Contains(text, tc.text) {
			t.Errorf("%s: text output lacks %q:\n%s", tc.log, tc.text, text)
		}
	}
}
