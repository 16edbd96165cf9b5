package cxxfilt

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
)

// emptyPackNames is the table of emptyPackCases with what llvm-cxxfilt-14
// and c++filt -i print for each (-update re-records it from the tools).
var emptyPackNames = filepath.Join(golden.Dir("cxxfilt"), "empty-packs.tsv.gz")

// TestEmptyPacks compares both styles with the tools on names with empty
// template parameter packs ("JE") everywhere a list holds them: template
// arguments of functions, classes and nested templates (first, between,
// last, alone, several, inside a pack), and expansions of an empty pack
// among function parameters (of the function and of function pointer
// types) and in template arguments. libiberty takes back the ", " before
// an element only when nothing is printed after it
// ("thread<main::$_0, , void>", "f<>(, int)"); LLVM drops every element
// that prints nothing with its comma.
func TestEmptyPacks(t *testing.T) {
	if golden.Updating() {
		recordNames(t, emptyPackNames, emptyPackCases())
	}
	checkNames(t, emptyPackNames)
}

// emptyPackCases makes the names of TestEmptyPacks, the same on every run:
// a function template, a class template's member and a member template,
// and a function taking a nested class of a class template, whose first
// template argument is a pack (empty or not) that the parameters expand,
// followed by random template arguments with and without packs.
func emptyPackCases() []string {
	r := rand.New(rand.NewPCG(24, 2))
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	args := func(n int) string {
		var b strings.Builder
		for ; n > 0; n-- {
			b.WriteString(pick("i", "JE", "JiE", "JJEE", "JJEiE", "JiJEE", "JicE", "JEJE",
				"1AIJEE", "1AIiJEE", "1AIJEiE", "1AIiE", "N1BIJEEE", "N1BIJiEEE"))
		}
		return b.String()
	}
	params := func() string {
		var b strings.Builder
		for n := 1 + r.IntN(3); n > 0; n-- {
			b.WriteString(pick("i", "DpT_", "DpRKT_", "DpPT_", "RKi", "PFvDpT_E", "PFviDpT_E",
				"PFvDpT_iE", "1AIJDpT_EE", "1AIiJDpT_EiE", "z", "Dp1AIT_E", "DpT_DpT_"))
		}
		return b.String()
	}
	seen := map[string]bool{}
	for len(seen) < 4000 {
		first := pick("JE", "JiE", "JE", "JicE")
		var name string
		switch k := r.IntN(10); {
		case k < 4:
			name = fmt.Sprintf("_Z1fI%s%sEv%s", first, args(r.IntN(5)), params())
		case k < 6:
			name = fmt.Sprintf("_ZN1AI%s%sE1gEv", first, args(r.IntN(5)))
		case k < 8:
			name = fmt.Sprintf("_ZN1AI%s%sE1gIJ%sEEEv%s", first, args(r.IntN(5)), args(r.IntN(3)), params())
		default:
			name = fmt.Sprintf("_Z1fI%sEvN1BI%s%sE1CE", first, args(r.IntN(5)), first)
		}
		seen[name] = true
	}
	names := make([]string, 0, len(seen)+1)
	for n := range seen {
		names = append(names, n)
	}
	// Issue 24's name: std::thread's constructor for a lambda.
	return append(names, "_ZNSt6threadC2IZ4mainE3$_0JEvEEOT_DpOT0_")
}
