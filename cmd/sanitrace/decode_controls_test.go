package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sanitrace/sanitrace/internal/fixture"
)

// everyControl is every control character a log line can carry to a
// terminal but tab, line feed, ESC and NUL (the scanner drops escape
// sequences and NULs: they come in the summary line): C0, DEL, every C1
// in UTF-8 (U+0085 and U+009B among them) and a bare 0x9b, which an 8-bit
// terminal takes for CSI.
func everyControl() string {
	var b strings.Builder
	for c := rune(1); c < 0x20; c++ {
		if c != '\t' && c != '\n' && c != 0x1b {
			b.WriteRune(c)
		}
	}
	b.WriteByte(0x7f)
	for c := rune(0x80); c < 0xa0; c++ {
		b.WriteRune(c)
	}
	b.WriteByte(0x9b)
	return b.String()
}

// controlLog is a real ASan report (gcc 12, testdata/reports) with every
// control character in its headline, its frames' function names and
// paths and its summary, and a line of the program's own with some.
func controlLog(t *testing.T) (log, programLine string) {
	src, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "reports", "asan_use_after_free_gcc_O0.symbolized.log"))
	if err != nil {
		t.Fatal(err)
	}
	ctl := everyControl()
	programLine = "program: \a\rrewrote \x1b]0;title\a\u009b2J this line\n"
	var out []string
	for _, l := range strings.Split(string(src), "\n") {
		switch {
		case strings.Contains(l, " in session_"):
			l = strings.Replace(l, " in session_", " in se"+ctl+"ssion_", 1)
			l = strings.Replace(l, "/build/ci/src/", "/build/ci/s"+ctl+"rc/", 1)
		case strings.Contains(l, "ERROR: AddressSanitizer"):
			l = strings.Replace(l, "heap-use-after-free on", "heap-use-after-free"+ctl+" on", 1)
		case strings.HasPrefix(l, "SUMMARY:"):
			l += ctl + "\x00\x1b[2J\x1b]8;;https://x.test/\x1b\\end"
		}
		out = append(out, l)
	}
	return programLine + strings.Join(out, "\n"), programLine
}

// sgr matches the color sequences sanitrace writes itself.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// rawControl names the first control character of out that must not reach
// a terminal raw, or "".
func rawControl(out string) string {
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == '\n' || r == '\t':
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return fmt.Sprintf("%U after %q", r, out[max(0, i-40):i])
		case r == utf8.RuneError && n == 1 && out[i] >= 0x80 && out[i] < 0xa0:
			return fmt.Sprintf("bare byte %#x after %q", out[i], out[max(0, i-40):i])
		}
		i += n
	}
	return ""
}

// TestHostileControlsEveryOutput: a log with every control character in
// its frames, paths, headline and summary shows none of them raw in any
// human-facing output (decode text in every color mode, passthrough with
// --sanitize-passthrough, batch text and Markdown, stderr), with the
// frames all there; JSON keeps the exact text; plain passthrough keeps
// the program's own line byte for byte.
func TestHostileControlsEveryOutput(t *testing.T) {
	log, programLine := controlLog(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "hostile.log")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	// batch takes a file for a log when its first 8 KiB are mostly text:
	// the report after a test run's output.
	padded := filepath.Join(dir, "padded.log")
	pad := strings.Repeat("[ RUN      ] SessionTest.Reopen\n[       OK ] SessionTest.Reopen (0 ms)\n", 120)
	if err := os.WriteFile(padded, []byte(pad+log), 0o644); err != nil {
		t.Fatal(err)
	}
	escaped := `se\x01\x02\x03` // the start of an escaped function name
	outputs := map[string][]string{
		"decode never":         {"decode", "--color=never", path},
		"decode always":        {"decode", "--color=always", path},
		"decode user frames":   {"decode", "--color=always", "--frames", "user", path},
		"decode two inputs":    {"decode", "--color=always", path, path},
		"decode sanitize pass": {"decode", "--color=always", "--passthrough", "--sanitize-passthrough", path},
		"batch text":           {"batch", "--format", "text", "--progress=never", padded},
		"batch markdown":       {"batch", "--format", "markdown", "--progress=never", padded},
		"batch html":           {"batch", "--format", "html", "--progress=never", padded},
	}
	for name, args := range outputs {
		t.Run(name, func(t *testing.T) {
			out, errs, code := runCLI(t, "", args...)
			if code == exitUsage {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if c := rawControl(sgr.ReplaceAllString(out, "")); c != "" {
				t.Errorf("raw control on stdout: %q", c)
			}
			if c := rawControl(errs); c != "" {
				t.Errorf("raw control on stderr: %q", c)
			}
			plain := sgr.ReplaceAllString(out, "")
			if strings.Contains(plain, "\x1b") {
				t.Errorf("an escape sequence besides sanitrace's colors:\n%s", plain)
			}
			if !strings.Contains(plain, escaped) {
				t.Errorf("no escaped frame name %q in:\n%s", escaped, plain)
			}
			if strings.HasPrefix(name, "decode") {
				// Every frame is there, the hostile ones with their
				// names, files and lines.
				for _, want := range []string{`ssion_id /build/ci/s\x01`, `rc/use_after_free.c:33`,
					`ssion_close /build/ci/s`, `ssion_open /build/ci/s`, "in main /build/ci/src/use_after_free.c:41",
					`\x9f\x9b on address 0x603000000040`, "SUMMARY: AddressSanitizer: heap-use-after-free"} {
					if !strings.Contains(plain, want) {
						t.Errorf("%q missing from:\n%s", want, plain)
					}
				}
				if n := strings.Count(plain, "    #"); n < 12 {
					t.Errorf("%d frame lines, want the report's 12 (or more)", n)
				}
			}
		})
	}

	t.Run("passthrough keeps the program's lines", func(t *testing.T) {
		out, _, _ := runCLI(t, "", "decode", "--color=never", "--passthrough", path)
		if !strings.HasPrefix(out, programLine) {
			t.Errorf("the program's own line is not given back byte for byte:\n%q", out[:min(len(out), 200)])
		}
		if strings.Contains(out, "\x01\x02") {
			t.Errorf("the report's text is raw in passthrough:\n%q", out)
		}
	})

	t.Run("json keeps the exact text", func(t *testing.T) {
		out, _, _ := runCLI(t, "", "decode", "--format", "json", path)
		doc := parseDecodeJSON(t, out)
		ctl := strings.ToValidUTF8(everyControl(), "\ufffd") // JSON is UTF-8
		found := false
		for _, r := range doc.Reports {
			for _, s := range r.Stacks {
				for _, f := range s.Frames {
					if str(f.Function) == "se"+ctl+"ssion_id" && strings.HasPrefix(str(f.File), "/build/ci/s"+ctl+"rc/") {
						found = true
					}
				}
			}
		}
		if !found {
			t.Errorf("no frame with the exact hostile name and file in the JSON:\n%s", out)
		}
	})

	t.Run("stderr", func(t *testing.T) {
		missing := filepath.Join(dir, "no\r\x07such\u009b[31m.log")
		_, errs, code := runCLI(t, "", "decode", missing)
		if code != exitUsage || !strings.Contains(errs, `no\x0d\x07such\x9b[31m.log`) {
			t.Errorf("exit %d, stderr %q: want the name escaped", code, errs)
		}
		if c := rawControl(errs); c != "" {
			t.Errorf("raw control on stderr: %q", c)
		}
	})
}

// TestHostileCoreCommand: the command line a core's NT_PRPSINFO records
// is the crashed program's own text, and core's text output escapes it.
func TestHostileCoreCommand(t *testing.T) {
	core := fixture.Gunzip(t, filepath.Join(repoRoot, "testdata", "core", "core.gz"))
	cmd := []byte(coreFixtureRun + "/crash")
	if !bytes.Contains(core, cmd) {
		t.Fatal("no command line in the core fixture")
	}
	// Every copy: NT_PRPSINFO's and the mapped files' names.
	core = bytes.ReplaceAll(core, cmd, append(cmd[:len(cmd)-5:len(cmd)-5], "\r\a\x1b\xc2\x9b"...))
	path := filepath.Join(t.TempDir(), "core")
	if err := os.WriteFile(path, core, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, color := range []string{"never", "always"} {
		out, errs, code := runCLI(t, "", "core", "--color="+color, path)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if !strings.Contains(out, "Core was generated by `"+coreFixtureRun+`/\x0d\x07\x1b\x9b'.`) {
			t.Errorf("--color=%s: the command is not escaped:\n%.300q", color, out)
		}
		if c := rawControl(sgr.ReplaceAllString(out, "") + errs); c != "" {
			t.Errorf("--color=%s: raw control: %q", color, c)
		}
	}
}

// TestBatchReadsWhatDecodeReads: a log that decode reads (a torn write's
// NULs before the report, control characters on every line) is a log for
// batch too, not data skipped without a word (campaign finding F3: batch
// found 0 logs and exited 0).
func TestBatchReadsWhatDecodeReads(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "reports", "asan_use_after_free_gcc_O0.symbolized.log"))
	if err != nil {
		t.Fatal(err)
	}
	controls, _ := controlLog(t)
	dir := t.TempDir()
	for name, body := range map[string]string{
		"torn.log":     "test output\x00\x00 torn\n" + string(src),
		"controls.log": controls,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _, _ := runCLI(t, "", "decode", "--format", "json", filepath.Join(dir, name))
		if n := len(parseDecodeJSON(t, out).Reports); n != 1 {
			t.Fatalf("%s: decode finds %d reports, want 1", name, n)
		}
	}
	doc := runBatchJSON(t, exitFound, "batch", "--progress=never", dir)
	if len(doc.Reports) != 2 || doc.Inputs != 2 {
		t.Errorf("batch: %d reports in %d logs, want 2 in 2", len(doc.Reports), doc.Inputs)
	}
}
