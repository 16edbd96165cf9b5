package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// style is how a tool lays out its answers.
type style int

const (
	// llvmStyle: function and location lines, a blank line after each
	// address's answer, so answers can be told apart and compared.
	llvmStyle style = iota
	// gnuStyle: function and location lines with nothing between two
	// addresses' answers (addr2line -f -i).
	gnuStyle
)

// tool is one symbolizer the bench runs: where it is and how it is called.
type tool struct {
	name    string
	path    string
	style   style
	args    func(bin string) []string
	version string
}

func (t tool) argv(bin string) []string { return append([]string{t.path}, t.args(bin)...) }

func llvmArgs(bin string) []string { return []string{"--obj=" + bin, "--inlining", "--demangle"} }
func gnuArgs(bin string) []string  { return []string{"-e", bin, "-f", "-i", "-C"} }

// defaultTools is the order tools appear in the report: sanitrace first,
// then the reference it is held to, then the other peers.
const defaultTools = "sanitrace llvm-symbolizer-19 llvm-addr2line-19 llvm-symbolizer-14 gimli-addr2line addr2line eu-addr2line"

// findTools resolves the named tools; a tool that is not installed is
// returned in missing, not as an error, so a run measures what is there.
func findTools(names []string, sanitrace, cache string) (found []tool, missing []string) {
	for _, name := range names {
		t := tool{name: name, style: gnuStyle, args: gnuArgs}
		var want string
		switch name {
		case "sanitrace":
			want, t.style = sanitrace, llvmStyle
			t.args = func(bin string) []string { return append([]string{"symbolize"}, llvmArgs(bin)...) }
		case "sanitrace-addr2line":
			want = sanitrace
			t.args = func(bin string) []string { return append([]string{"addr2line"}, gnuArgs(bin)...) }
		case "llvm-symbolizer-19", "llvm-symbolizer-14":
			want, t.style, t.args = name, llvmStyle, llvmArgs
		case "llvm-addr2line-19", "addr2line", "eu-addr2line":
			want = name
		case "gimli-addr2line":
			want = filepath.Join(cache, "tools", "gimli-addr2line")
		default:
			missing = append(missing, name+" (unknown)")
			continue
		}
		p, err := exec.LookPath(want)
		if err != nil {
			missing = append(missing, name)
			continue
		}
		t.path = p
		t.version = toolVersion(t, cache)
		found = append(found, t)
	}
	return found, missing
}

// toolVersion is the first line a tool prints about its version.
func toolVersion(t tool, cache string) string {
	switch t.name {
	case "gimli-addr2line":
		b, _ := os.ReadFile(filepath.Join(cache, "tools", "gimli-addr2line.version"))
		return "addr2line crate " + strings.TrimSpace(string(b)) + " (Debian librust-addr2line-dev), front end bench/gimli-addr2line"
	case "sanitrace", "sanitrace-addr2line":
		out, _ := exec.Command(t.path, "version").Output()
		return firstLine(string(out))
	}
	out, _ := exec.Command(t.path, "--version").CombinedOutput()
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(strings.ToLower(l), "version") || strings.Contains(l, "addr2line") {
			return strings.TrimSpace(l)
		}
	}
	return firstLine(string(out))
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(l)
}
