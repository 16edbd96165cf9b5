package designcheck

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/sanitrace/sanitrace/"

// TestDesignGraph: every package of the module (commands and test helpers
// aside) has its row in docs/design.md's graph, and the arrows drawn from
// it are exactly its imports within the module; "internal/…" stands for
// any of the internal helper packages.
func TestDesignGraph(t *testing.T) {
	doc, err := os.ReadFile("../../docs/design.md")
	if err != nil {
		t.Fatal(err)
	}
	drawn := graphOf(t, doc)
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../../...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		pkg, ok := strings.CutPrefix(fields[0], module)
		if !ok || skipped(pkg) {
			continue
		}
		var imports []string
		for _, imp := range fields[1:] {
			if p, ok := strings.CutPrefix(imp, module); ok {
				imports = append(imports, p)
			}
		}
		want, ok := drawn[pkg]
		if !ok {
			t.Errorf("docs/design.md's graph has no row for %s (imports %v)", pkg, imports)
			continue
		}
		if got := missing(imports, want); len(got) > 0 {
			t.Errorf("docs/design.md: %s imports %v, not drawn", pkg, got)
		}
		if extra := missing(want, imports); len(extra) > 0 {
			t.Errorf("docs/design.md: %s is drawn importing %v, which it does not", pkg, extra)
		}
	}
}

// skipped: the commands, and the internal packages that only tests import.
func skipped(pkg string) bool {
	switch pkg {
	case "internal/corpustest", "internal/debuginfodtest", "internal/elfbuild", "internal/fixture",
		"internal/golden", "internal/reftool", "internal/sharedtest", "internal/designcheck", "internal/genlog":
		return true
	}
	return strings.HasPrefix(pkg, "internal/cmd/")
}

// missing: the items of a not in b, "internal/…" in b matching any
// internal package.
func missing(a, b []string) []string {
	var out []string
	for _, x := range a {
		found := false
		for _, y := range b {
			if x == y || (y == "internal/…" && strings.HasPrefix(x, "internal/")) {
				found = true
				break
			}
		}
		if !found && x != "internal/…" {
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// graphOf reads the graph block: "row N  pkg ─► dep dep (comment)", more
// arrows on the row's following lines and on one line, and leaf packages
// listed without an arrow.
func graphOf(t *testing.T, doc []byte) map[string][]string {
	start := bytes.Index(doc, []byte("\n```\nrow 1"))
	if start < 0 {
		t.Fatal("docs/design.md: no graph block starting with row 1")
	}
	block := doc[start+5:]
	block = block[:bytes.Index(block, []byte("\n```"))]
	arrow := regexp.MustCompile(`(\S+) ─► ((?:[^─(]|\([^)]*\))*)`)
	comment := regexp.MustCompile(`\([^)]*\)`)
	g := map[string][]string{}
	for _, line := range strings.Split(string(block), "\n") {
		line = regexp.MustCompile(`^row \d+`).ReplaceAllString(line, "")
		if !strings.Contains(comment.ReplaceAllString(line, ""), "─►") {
			for _, p := range strings.Fields(comment.ReplaceAllString(line, "")) {
				if _, ok := g[p]; !ok {
					g[p] = nil
				}
			}
			continue
		}
		// Split a line holding several arrows at each "pkg ─►".
		idx := regexp.MustCompile(`\S+ ─►`).FindAllStringIndex(line, -1)
		for i, at := range idx {
			end := len(line)
			if i+1 < len(idx) {
				end = idx[i+1][0]
			}
			m := arrow.FindStringSubmatch(line[at[0]:end])
			if m == nil {
				continue
			}
			deps := strings.Fields(comment.ReplaceAllString(m[2], ""))
			g[m[1]] = append(g[m[1]], deps...)
		}
	}
	return g
}
