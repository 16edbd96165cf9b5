package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestCLIDoc keeps docs/cli.md, the contract the code cites, true: every
// long flag its section of a command names exists on that command (for
// lws, on one of its subcommands). The drop-in faces' flags are checked
// against their reference tools instead (dropin's option tables).
func TestCLIDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	root := newRootCmd(strings.NewReader(""), io.Discard, io.Discard)
	heading := regexp.MustCompile("^## `sanitrace ([a-z0-9]+)")
	flagRE := regexp.MustCompile("(?:^|[\\s`(/])--([a-z][a-z0-9-]*)")
	// Another tool's command line quoted in the text (readelf's) is not ours.
	quoted := regexp.MustCompile("`(?:readelf|llvm-symbolizer|addr2line) [^`]*`")
	checked := map[string]int{}
	var cmd string
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "## ") {
			cmd = ""
			if m := heading.FindStringSubmatch(line); m != nil {
				cmd = m[1]
			}
			if cmd == "symbolize" || cmd == "addr2line" {
				cmd = ""
			}
		}
		if cmd == "" {
			continue
		}
		c, _, err := root.Find([]string{cmd})
		if err != nil || c.Name() != cmd {
			t.Errorf("docs/cli.md names command %q, which does not exist", cmd)
			cmd = ""
			continue
		}
		for _, m := range flagRE.FindAllStringSubmatch(quoted.ReplaceAllString(line, ""), -1) {
			if !hasFlag(c, m[1]) {
				t.Errorf("docs/cli.md: %q has no flag --%s", cmd, m[1])
			}
			checked[cmd]++
		}
	}
	for _, want := range []string{"decode", "batch", "core", "cfi", "lws", "merge"} {
		if checked[want] == 0 {
			t.Errorf("docs/cli.md: no flag of %q checked; did its heading change?", want)
		}
	}
}

// hasFlag: c or one of its subcommands has the long flag name.
func hasFlag(c *cobra.Command, name string) bool {
	if c.Flags().Lookup(name) != nil || c.InheritedFlags().Lookup(name) != nil {
		return true
	}
	for _, sub := range c.Commands() {
		if hasFlag(sub, name) {
			return true
		}
	}
	return false
}
