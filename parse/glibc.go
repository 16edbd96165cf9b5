package parse

import (
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// glibc's output: backtrace_symbols(3) dumps (ParseBacktraceSymbol) and the
// malloc checks' aborts. glibc 2.26 and later print only the message
// ("free(): invalid pointer") before abort(); older ones print
// "*** Error in `./prog': free(): invalid pointer: 0x... ***" followed by
// "======= Backtrace: =========" (backtrace_symbols_fd lines) and
// "======= Memory map: ========" (the process's /proc/self/maps).

// glibcMessages are malloc_printerr's and the fortify checks' messages
// (malloc/malloc.c, debug/*_chk.c) as printed on a line of their own.
var glibcMessages = []string{
	"free(): invalid pointer", "free(): invalid size", "free(): invalid next size (fast)",
	"free(): invalid next size (normal)", "free(): double free detected in tcache 2",
	"free(): unaligned chunk detected in tcache 2", "free(): corrupted unsorted chunks",
	"free(): too many chunks detected in tcache",
	"double free or corruption (top)", "double free or corruption (out)",
	"double free or corruption (!prev)", "double free or corruption (fasttop)",
	"munmap_chunk(): invalid pointer", "realloc(): invalid pointer", "realloc(): invalid old size",
	"realloc(): invalid next size", "malloc(): corrupted top size", "malloc(): memory corruption",
	"malloc(): memory corruption (fast)", "malloc(): unaligned tcache chunk detected",
	"malloc(): unaligned fastbin chunk detected", "malloc(): unsorted double linked list corrupted",
	"malloc(): invalid size (unsorted)", "malloc(): invalid next size (unsorted)",
	"malloc(): smallbin double linked list corrupted", "malloc(): corrupted unsorted chunks",
	"malloc(): mismatching next->prev_size (unsorted)", "malloc_consolidate(): invalid chunk size",
	"malloc_consolidate(): unaligned fastbin chunk detected",
	"corrupted size vs. prev_size", "corrupted size vs. prev_size while consolidating",
	"corrupted double-linked list", "corrupted double-linked list (not small)",
	"*** stack smashing detected ***: terminated", "*** buffer overflow detected ***: terminated",
}

// glibc's aborts and its backtrace_symbols dumps are two formats of one
// producer.
var (
	glibcFormat = format{
		producer: report.ProducerGlibc,
		start:    glibcStart,
		frame:    ParseBacktraceSymbol,
		cues: cues{
			// "*** Error in `./prog': ...", "free(): invalid pointer", "***
			// stack smashing detected ***: terminated", "double free or
			// corruption (out)"; "======= Backtrace: ========="
			words:  []string{"backtrace", "Backtrace"},
			before: "')*",
			marks:  []mark{{text: "double free or corruption", last: ')'}},
		},
	}
	backtraceFormat = format{
		producer: report.ProducerGlibc,
		start:    backtraceStart,
		frame:    ParseBacktraceSymbol,
		cues:     cues{marks: []mark{{text: "[0x", last: ']'}}}, // "./prog(f+0x1c) [0x55...]"
	}
)

type glibcGrammar struct {
	old     bool // "*** Error in" with Backtrace and Memory map sections
	inMaps  bool
	dumping bool // a backtrace_symbols dump, not an abort
}

func glibcStart(t, prev string) (grammar, *report.Report) {
	s := strings.TrimSpace(t)
	if rest, ok := strings.CutPrefix(s, "*** Error in `"); ok {
		// "*** Error in `./prog': free(): invalid pointer: 0x0000000001d3b010 ***"
		_, msg, ok := strings.Cut(rest, "': ")
		if !ok {
			return nil, nil
		}
		msg = strings.TrimSuffix(msg, " ***")
		kind := msg
		if i := strings.LastIndex(msg, ": 0x"); i > 0 {
			kind = msg[:i]
		}
		r := &report.Report{Kind: kind, Headline: s, Message: msg}
		return &glibcGrammar{old: true}, r
	}
	for _, m := range glibcMessages {
		if s == m {
			return &glibcGrammar{}, &report.Report{Kind: m, Headline: s, Message: s}
		}
	}
	return nil, nil
}

// backtraceStart reads a backtrace_symbols dump: its title is the line
// before it ("Backtrace:", "Obtained 5 stack frames.").
func backtraceStart(t, prev string) (grammar, *report.Report) {
	if t == "" || t[len(t)-1] != ']' {
		return nil, nil
	}
	f, ok := ParseBacktraceSymbol(t)
	if !ok || f.Module == "" {
		return nil, nil
	}
	return &glibcGrammar{dumping: true}, backtraceReport(report.ProducerGlibc, prev, f)
}

func (g *glibcGrammar) line(b *builder, t string) verdict {
	s := strings.TrimSpace(t)
	if g.dumping || (g.old && !g.inMaps && b.stack >= 0) {
		if f, ok := ParseBacktraceSymbol(s); ok {
			b.appendFrame(f, "", "", "")
			return vOwn
		}
		if g.dumping {
			return vNotMine
		}
	}
	switch {
	case s == "Aborted" || s == "Aborted (core dumped)":
		return vLast
	case g.old && strings.HasPrefix(s, "======= Backtrace: "):
		b.openStack("Backtrace:", "access", "access")
		return vOwn
	case g.old && strings.HasPrefix(s, "======= Memory map: "):
		b.closeStack()
		g.inMaps = true
		return vOwn
	case g.inMaps && isMapsLine(s):
		return vOwn
	}
	return vNotMine
}

// isMapsLine matches a /proc/PID/maps line: "00400000-00401000 r-xp ...".
func isMapsLine(s string) bool {
	dash := strings.IndexByte(s, '-')
	if dash <= 0 || !allHex(s[:dash]) {
		return false
	}
	sp := strings.IndexByte(s, ' ')
	return sp > dash+1 && allHex(s[dash+1:sp]) && len(s) > sp+5 && (s[sp+1] == 'r' || s[sp+1] == '-')
}

func (g *glibcGrammar) end(b *builder, eof bool) {}

func (g *glibcGrammar) pendingLimit(b *builder) int { return 0 }
