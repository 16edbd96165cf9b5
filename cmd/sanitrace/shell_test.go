package main

import (
	"strings"
	"testing"
)

// TestCompletionScripts: "sanitrace completion SHELL" writes a script
// for bash, zsh and fish that asks sanitrace itself (__complete).
func TestCompletionScripts(t *testing.T) {
	for shell, marker := range map[string]string{
		"bash": "complete -o default -F __start_sanitrace sanitrace",
		"zsh":  "#compdef sanitrace",
		"fish": "complete -c sanitrace",
	} {
		out, errs, code := runCLI(t, "", "completion", shell)
		if code != 0 || errs != "" {
			t.Errorf("completion %s: exit %d, stderr %q", shell, code, errs)
		}
		if !strings.Contains(out, marker) || !strings.Contains(out, "__complete") {
			t.Errorf("completion %s lacks %q or __complete:\n%.400s", shell, marker, out)
		}
	}
}

// TestCompletionValues: what the scripts get back from __complete: the
// values of enumerated flags (cobra's flag=value and "flag value" forms,
// the faces' own options), directories or files where those go, nothing
// where nothing fits. The last line is cobra's directive (":4" no file
// completion, ":0" the shell's default, files; ":16" directories only).
func TestCompletionValues(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"decode", "--format", ""}, "text\njson\n:4"},
		{[]string{"decode", "--color="}, "auto\nalways\nnever\n:4"},
		{[]string{"core", "--color="}, "auto\nalways\nnever\n:4"},
		{[]string{"batch", "--format", ""}, "json\nsarif\nmarkdown\nhtml\ntext\n:4"},
		{[]string{"batch", "--fail-on", ""}, "any\nnew\nnone\n:4"},
		{[]string{"batch", "--progress="}, "auto\nalways\nnever\n:4"},
		{[]string{"merge", "--format", ""}, "json\nsarif\nmarkdown\nhtml\ntext\n:4"},
		{[]string{"cfi", "--format", ""}, "text\njson\n:4"},
		{[]string{"lws", "heapmap", "--format", ""}, "text\njson\n:4"},
		{[]string{"symbolize", "--output-style="}, "LLVM\nGNU\nJSON\n:4"},
		{[]string{"symbolize", "--output-style", ""}, "LLVM\nGNU\nJSON\n:4"},
		{[]string{"symbolize", "-f="}, "linkage\nshort\nnone\n:4"},
		{[]string{"symbolize", "--outp"}, "--output-style=\n:6"},
		{[]string{"symbolize", "--obj="}, ":0"},
		{[]string{"symbolize", "--debug-file-directory="}, ":16"},
		{[]string{"symbolize", "--obj=x", "0x10"}, ":4"},
		{[]string{"addr2line", "-e", ""}, ":0"},
		{[]string{"addr2line", "--demangle="}, "auto\ngnu-v3\nrust\njava\ngnat\ndlang\nnone\n:4"},
		{[]string{"decode", ""}, ":0"},          // the logs: files
		{[]string{"decode", "--obj", ""}, ":0"}, // a file
		{[]string{"decode", "--binary-dir", ""}, ":16"},
		{[]string{"decode", "--frames", ""}, "all\nuser\n:4"},
		{[]string{"decode", "--tool", ""}, "address\nasan\nhwaddress\nhwasan\nleak\nlsan\nmemory\nmsan\nthread\ntsan\nubsan\nundefined\n:4"},
		{[]string{"core", "--sysroot", ""}, ":16"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, _, code := runCLI(t, "", append([]string{"__complete"}, tt.args...)...)
			if got := strings.TrimSuffix(out, "\n"); code != 0 || got != tt.want {
				t.Errorf("exit %d, offered\n%s\nwant\n%s", code, got, tt.want)
			}
		})
	}
}
