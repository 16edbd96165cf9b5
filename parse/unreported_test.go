package parse

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnreported: an input with crash-looking lines and no report is
// named once, at its end, with its first such line; an input with a
// report, or with lines that only resemble a headline, is not.
func TestUnreported(t *testing.T) {
	pastes := filepath.Join("..", "testdata", "samples", "pastes")
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(pastes, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	for _, c := range []struct {
		name, log string
		line      int // 0: not unreported
		text      string
	}{
		// Android Studio's columns before five tombstone frames, no header.
		{"frames only", read("public-android-logcat-studio-frames-only.log"), 1, "9082-9082  DEBUG"},
		{"tombstone", read("public-android-tombstone-raw-arm.log"), 0, ""},
		{"sanitizer frames", "build step 3\n    #0 0x4f1a2b in main /src/a.c:3:5\n    #1 0x7f00 in __libc_start_main\n", 2, "#0 0x4f1a2b in main"},
		// DebugView's columns are a known prefix: the frame is read as
		// without them (a gdb backtrace), so nothing is unreported.
		{"gdb frames behind DebugView's columns", "00000044\t22:39:53\t[19892] #1  0x0000555555555161 in measure (s=0x0) at g.c:3\n", 0, ""},
		{"gdb frames behind unknown columns", "00000044|22:39:53|[19892] #1  0x0000555555555161 in measure (s=0x0) at g.c:3\n", 1, "00000044"},
		// Kernel frames before 4.x ("[<ffffffff...>] f+0x../0x..") have no
		// cue word: a KTSAN stack pasted without its headline, and frames
		// of public-kasan-2015-dmesg-module-frames.log without theirs.
		{"old kernel frames", read("public-ktsan-discriminator-source-lines.log"), 2, "[<ffffffff81158fda>] cpu_stop_signal_done"},
		{"old kernel frames in dmesg", "[  397.649006]  [<ffffffff81a44e70>] dump_stack+0x68/0x88\n[  397.649006]  [<ffffffff814639b3>] kasan_report_error+0x393/0x3c0\n", 1, "[<ffffffff81a44e70>] dump_stack"},
		{"html", "<li>[<a href=\"x\">link</a>]</li>\n", 0, ""},
		{"build log error", "ERROR: cannot open config.yaml: no such file\nwarning: unused variable\n", 0, ""},
		{"comment", "# 3 retries left\nfatal: not a git repository\n", 0, ""},
	} {
		sc := NewScanner(strings.NewReader(c.log), "in.log")
		var got []*Unreported
		sc.OnUnreported(func(u *Unreported) { got = append(got, u) })
		for {
			if _, err := sc.Next(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
		}
		switch {
		case c.line == 0 && len(got) != 0:
			t.Errorf("%s: unreported %v", c.name, got[0])
		case c.line != 0 && len(got) != 1:
			t.Errorf("%s: %d unreported notes, want 1", c.name, len(got))
		case c.line != 0 && (got[0].Line != c.line || !strings.HasPrefix(got[0].Text, c.text) || !strings.HasPrefix(got[0].Error(), "in.log:")):
			t.Errorf("%s: %v; want line %d starting %q", c.name, got[0], c.line, c.text)
		}
	}
}
