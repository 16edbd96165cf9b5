package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestFlagEdges: every command's flags behave alike: enumerated values in
// any case, --color and --progress only with "=", numbers and booleans
// reported in our words, commands that only group others failing on an
// unknown name.
func TestFlagEdges(t *testing.T) {
	elfFile := fixtureDir + "/c-O2-dw5-pie"
	lwsLog := filepath.Join(repoRoot, "testdata", "lws", "heapmap-sample.log")
	tests := []struct {
		name     string
		args     []string
		wantCode int
		stderr   string // the whole stderr, "" for none
		stdout   string // a substring of stdout
	}{
		// Enumerated values match without regard to case.
		{name: "decode --format JSON", args: []string{"decode", "--format", "JSON", "--symbolize=false", demoLog}, wantCode: 1, stdout: `"reports": [`},
		{name: "decode --format=Text", args: []string{"decode", "--format=Text", "--symbolize=false", demoLog}, wantCode: 1, stdout: "heap-use-after-free"},
		{name: "decode --color=ALWAYS", args: []string{"decode", "--color=ALWAYS", "--symbolize=false", demoLog}, wantCode: 1, stdout: "\x1b["},
		{name: "batch uppercase enums", args: []string{"batch", "--format", "Markdown", "--fail-on", "NONE", "--progress=Never", "--symbolize=false", demoLog}, wantCode: 0, stdout: "|"},
		{name: "cfi --format JSON", args: []string{"cfi", "--format", "JSON", elfFile}, wantCode: 0, stdout: `"sections"`},
		{name: "lws heapmap --format JSON", args: []string{"lws", "heapmap", "--format", "JSON", lwsLog}, stdout: `"backtraces"`},

		// A bad value names the flag and the choices.
		{name: "bad enum", args: []string{"batch", "--fail-on", "sometimes", demoLog}, wantCode: 2,
			stderr: "sanitrace: --fail-on \"sometimes\": want any, new or none\n"},
		{name: "enum without value", args: []string{"decode", "--format"}, wantCode: 2,
			stderr: "sanitrace: --format needs a value: text or json\n"},

		// --color and --progress take their value only after "=": the
		// next argument is never swallowed (the log is not read).
		{name: "--color VALUE", args: []string{"decode", "--color", "always", demoLog}, wantCode: 2,
			stderr: "sanitrace: --color takes its value after '=': --color=auto, --color=always or --color=never\n"},
		{name: "--color FILE", args: []string{"decode", "--color", demoLog}, wantCode: 2,
			stderr: "sanitrace: --color takes its value after '=': --color=auto, --color=always or --color=never\n"},
		{name: "--color last", args: []string{"core", "--color"}, wantCode: 2,
			stderr: "sanitrace: --color takes its value after '=': --color=auto, --color=always or --color=never\n"},
		{name: "--progress VALUE", args: []string{"batch", "--progress", "never", demoLog}, wantCode: 2,
			stderr: "sanitrace: --progress takes its value after '=': --progress=auto, --progress=always or --progress=never\n"},

		// Numbers and booleans in our words, not strconv's.
		{name: "not a number", args: []string{"decode", "--source-context", "three", demoLog}, wantCode: 2,
			stderr: "sanitrace: --source-context \"three\": want a whole number\n"},
		{name: "out of range", args: []string{"decode", "--source-context", "99999999999999999999", demoLog}, wantCode: 2,
			stderr: "sanitrace: --source-context \"99999999999999999999\": want a whole number in range\n"},
		{name: "short flag", args: []string{"batch", "-j", "x", demoLog}, wantCode: 2,
			stderr: "sanitrace: -j/--jobs \"x\": want a whole number\n"},
		{name: "not a boolean", args: []string{"decode", "--symbolize=maybe", demoLog}, wantCode: 2,
			stderr: "sanitrace: --symbolize \"maybe\": want true or false\n"},

		// Arguments in our words.
		{name: "core without a file", args: []string{"core"}, wantCode: 2,
			stderr: "sanitrace: core needs a CORE file (usage: sanitrace core [flags] CORE)\n"},
		{name: "core with two", args: []string{"core", "a", "b"}, wantCode: 2,
			stderr: "sanitrace: core takes a single argument, a CORE file; got 2 (usage: sanitrace core [flags] CORE)\n"},
		{name: "batch without a path", args: []string{"batch"}, wantCode: 2,
			stderr: "sanitrace: batch needs a PATH (a log, a directory, an archive or -) (usage: sanitrace batch [flags] PATH...)\n"},

		// Commands that group others.
		{name: "lws bogus", args: []string{"lws", "bogus"}, wantCode: 2,
			stderr: "sanitrace: lws has no command \"bogus\": want decode or heapmap (usage: sanitrace lws [flags])\n"},
		{name: "lws alone", args: []string{"lws"}, wantCode: 0, stdout: "heapmap"},
		{name: "completion bogus", args: []string{"completion", "bogus"}, wantCode: 2,
			stderr: "sanitrace: completion has no command \"bogus\": want bash, fish, powershell or zsh (usage: sanitrace completion [flags])\n"},
		{name: "help bogus", args: []string{"help", "lws", "bogus"}, wantCode: 2,
			stderr: "sanitrace: help has no topic \"lws bogus\" (the topics are the commands) (usage: sanitrace help [command] [flags])\n"},
		{name: "help lws heapmap", args: []string{"help", "lws", "heapmap"}, wantCode: 0, stdout: "distinct backtrace"},
		{name: "unknown command", args: []string{"bogus"}, wantCode: 2},
		{name: "version with an argument", args: []string{"version", "x"}, wantCode: 2,
			stderr: "sanitrace: version takes no arguments, got \"x\" (usage: sanitrace version [flags])\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runCLI(t, "", tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, errs)
			}
			if tt.stderr != "" && errs != tt.stderr {
				t.Errorf("stderr:\n%q\nwant\n%q", errs, tt.stderr)
			}
			if strings.Contains(errs, "strconv") || strings.Contains(errs, "invalid argument") {
				t.Errorf("Go's words on stderr: %q", errs)
			}
			if !strings.Contains(out, tt.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, out)
			}
			if tt.wantCode == 2 && out != "" {
				t.Errorf("a usage error printed output:\n%s", out)
			}
		})
	}
}

// TestErrorsNameTheInputOnce: an unreadable input is named once, not as
// "read X: read X: ...", and Go's decoder texts do not reach the user.
func TestErrorsNameTheInputOnce(t *testing.T) {
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "out.json")
	if err := os.WriteFile(notJSON, []byte("[1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing")
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string // a substring of stderr
	}{
		{[]string{"decode", "--symbolize=false", dir}, dir + ": is a directory"},
		{[]string{"lws", "decode", dir}, "sanitrace: lws: read " + dir + ": is a directory\n"},
		{[]string{"cfi", dir}, "sanitrace: cfi: read " + dir + ": is a directory\n"},
		{[]string{"cfi", demoLog}, "sanitrace: cfi: " + demoLog + ": not an ELF file\n"},
		{[]string{"cfi", empty}, "sanitrace: cfi: " + empty + ": not an ELF file (too short)\n"},
		{[]string{"decode", "--obj", missing}, "sanitrace: --obj: open " + missing + ": no such file or directory\n"},
		{[]string{"decode", "--obj", demoLog}, "sanitrace: --obj: " + demoLog + ": not an ELF file\n"},
		{[]string{"core", dir}, "sanitrace: read " + dir + ": is a directory\n"},
		{[]string{"merge", dir}, "sanitrace: read " + dir + ": is a directory\n"},
		{[]string{"merge", notJSON}, "sanitrace: " + notJSON + ": not a batch --format json output: the document is a JSON array, want an object\n"},
		{[]string{"batch", "--baseline", notJSON, demoLog}, "sanitrace: --baseline " + notJSON + ": not a batch --format json output: the document is a JSON array, want an object\n"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, errs, code := runCLI(t, "", tt.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errs, tt.want) {
				t.Errorf("stderr:\n%s\nwant it to hold %q", errs, tt.want)
			}
			for _, l := range lines(errs) {
				name := tt.args[len(tt.args)-1]
				if strings.Count(l, name+":") > 1 || strings.Count(l, "read "+name) > 1 {
					t.Errorf("%q names the input more than once", l)
				}
				if strings.Contains(l, "Go struct") || strings.Contains(l, "magic number") {
					t.Errorf("Go's words: %q", l)
				}
			}
		})
	}
}

// TestColorEnvironment: the auto rule's table (the terminal side is
// TestTerminalSession's).
func TestColorEnvironment(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{nil, false}, // not a terminal
		{map[string]string{"FORCE_COLOR": "1"}, true},
		{map[string]string{"FORCE_COLOR": "3"}, true},
		{map[string]string{"FORCE_COLOR": "0"}, false},
		{map[string]string{"FORCE_COLOR": "false"}, false},
		{map[string]string{"CLICOLOR_FORCE": "1"}, true},
		{map[string]string{"CLICOLOR_FORCE": "0"}, false},
		{map[string]string{"FORCE_COLOR": "1", "TERM": "dumb"}, true},
		{map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, false},
		{map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, false},
		{map[string]string{"TERM": "dumb"}, false},
	}
	for _, tt := range tests {
		got := wantDecoration(&bytes.Buffer{}, func(k string) string { return tt.env[k] })
		if got != tt.want {
			t.Errorf("%v: colors %v, want %v", tt.env, got, tt.want)
		}
	}
	// End to end, through decode's --color=auto.
	t.Setenv("NO_COLOR", "")
	t.Setenv("FORCE_COLOR", "1")
	if out, _, _ := runCLI(t, "", "decode", "--symbolize=false", demoLog); !strings.Contains(out, "\x1b[") {
		t.Errorf("FORCE_COLOR=1: no colors")
	}
	t.Setenv("FORCE_COLOR", "")
	t.Setenv("CLICOLOR_FORCE", "1")
	if out, _, _ := runCLI(t, "", "decode", "--symbolize=false", demoLog); !strings.Contains(out, "\x1b[") {
		t.Errorf("CLICOLOR_FORCE=1: no colors")
	}
	t.Setenv("NO_COLOR", "1")
	if out, _, _ := runCLI(t, "", "decode", "--symbolize=false", demoLog); strings.Contains(out, "\x1b[") {
		t.Errorf("NO_COLOR=1 with CLICOLOR_FORCE=1: colors")
	}
	if out, _, _ := runCLI(t, "", "decode", "--symbolize=false", "--color=always", demoLog); !strings.Contains(out, "\x1b[") {
		t.Errorf("--color=always with NO_COLOR=1: no colors (the flag wins)")
	}
}

// TestEnvironmentDefaults: SANITRACE_BINARY_DIR and SANITRACE_PREFIX_MAP
// stand for --binary-dir and --prefix-map when those are not given; a
// flag replaces the variable.
func TestEnvironmentDefaults(t *testing.T) {
	bins := t.TempDir()
	data, err := os.ReadFile(filepath.Join(demoDir, "session"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bins, "session"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	log := demoLogAway(t)
	if ok, _ := demoSessionSymbolized(t, log); ok {
		t.Fatal("the demo binary was found without being pointed at")
	}
	t.Setenv("SANITRACE_BINARY_DIR", t.TempDir()+string(filepath.ListSeparator)+bins)
	if ok, errs := demoSessionSymbolized(t, log); !ok {
		t.Errorf("SANITRACE_BINARY_DIR: the binary in its second directory was not used; stderr:\n%s", errs)
	}
	if ok, _ := demoSessionSymbolized(t, "--binary-dir", t.TempDir(), log); ok {
		t.Errorf("--binary-dir did not replace SANITRACE_BINARY_DIR")
	}
	t.Setenv("SANITRACE_BINARY_DIR", "")

	t.Setenv("SANITRACE_PREFIX_MAP", demoMap)
	if ok, errs := demoSessionSymbolized(t, log); !ok {
		t.Errorf("SANITRACE_PREFIX_MAP: the binary was not found through it; stderr:\n%s", errs)
	}
	t.Setenv("SANITRACE_PREFIX_MAP", "nothing")
	_, errs, code := runCLI(t, "", "decode", log)
	if code != exitUsage || errs != "sanitrace: SANITRACE_PREFIX_MAP: prefix map \"nothing\": want FROM=TO\n" {
		t.Errorf("a bad SANITRACE_PREFIX_MAP: exit %d, stderr %q", code, errs)
	}
	if ok, _ := demoSessionSymbolized(t, "--prefix-map", demoMap, log); !ok {
		t.Errorf("--prefix-map did not replace a bad SANITRACE_PREFIX_MAP")
	}
}

// TestVersion: "sanitrace version" and --version print the same text,
// from what the toolchain recorded.
func TestVersion(t *testing.T) {
	out, _, code := runCLI(t, "", "version")
	flag, _, code2 := runCLI(t, "", "--version")
	if code != 0 || code2 != 0 || out != flag {
		t.Errorf("version (exit %d):\n%s--version (exit %d):\n%s", code, out, code2, flag)
	}
	if !strings.HasPrefix(out, "sanitrace ") || !strings.Contains(out, "\ngo:     go") {
		t.Errorf("version:\n%s", out)
	}
	info := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Main:      debug.Module{Path: "github.com/sanitrace/sanitrace", Version: "v1.2.0"},
		Settings: []debug.BuildSetting{
			{Key: "CGO_ENABLED", Value: "0"},
			{Key: "vcs.revision", Value: "0123456789abcdef"},
			{Key: "vcs.time", Value: "2026-11-24T20:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	want := "sanitrace v1.2.0\n" +
		"module: github.com/sanitrace/sanitrace v1.2.0\n" +
		"commit: 0123456789abcdef (2026-11-24T20:00:00Z), with uncommitted changes\n" +
		"go:     go1.26.8 " + runtime.GOOS + "/" + runtime.GOARCH + ", CGO_ENABLED=0\n"
	if got := versionText(info, true); got != want {
		t.Errorf("versionText:\n%s\nwant\n%s", got, want)
	}
}
