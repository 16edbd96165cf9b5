package parse

import (
	"bytes"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// format is one log format the scanner reads besides the sanitizer
// runtimes' reports (scanner.go): the Linux kernel's, Go's, gdb's, ... Its
// grammar file declares everything the scanner needs of it, and formats
// lists it; nothing else names it. Adding a format is a grammar file and
// its row in formats (and its Producer in package report).
type format struct {
	// producer names the format's reports: their Tool is producer.Tool().
	producer report.Producer
	// cues are what a line that starts a report of the format holds,
	// which the per-line pre-filter (maybeReport) looks for: only lines
	// with a cue of some format are shown to the starters.
	cues cues
	// start recognises a report's first line (start in dump.go). What it
	// recognises as a headline (a report without a frame on its first
	// line) also ends an open report of any other format, and a sanitizer
	// report, at a line their grammars do not know (endsOpen): a report's
	// end is where another producer's report begins. A format's own
	// headlines inside its reports are its grammar's to judge (Go's
	// nested "panic:", the kernel's "Oops" before its call trace).
	start starter
	// frame reads one frame line of the format, its report's prefix and
	// indentation removed. unwrap.go joins a line that a wrapper broke
	// when the joined line reads as a frame that says more.
	frame func(t string) (report.Frame, bool)
	// telltale, when set, reports whether a frame that frame read
	// outside any report makes its line look like crash output
	// (unreported.go); nil where a format's frame lines are too plain
	// for that ("main.main()", "  3: f").
	telltale func(report.Frame) bool
	// lost, when set, reads one of the format's frame lines standing
	// outside every report (line as read, prefixes and all; prev, the
	// line right before it outside reports, nil when there is none): a
	// frame of an unattached fragment, which damage.go's run of lost
	// frames gathers. back is 1 when the frame began on prev (Go's
	// function line before its location). nil where the format's frames
	// are too plain to be told from program output. A frame without a
	// number has Index -1.
	lost func(line, prev []byte) (f report.Frame, back int, ok bool)
	// title, when set, reads a line outside reports that titles the
	// stack after it (the race detector's "Goroutine 41 (running) created
	// at:"): an unattached fragment's stack titles, besides the
	// sanitizers' (classifyTitle).
	title func(t string) (role, detail string, ok bool)
	// prefix, when set, measures a line prefix the format's logs carry
	// that the common ones (noise.go) do not cover: logcat's before a
	// tombstone. It returns the length of one piece at the start of s, 0
	// when there is none.
	prefix func(s []byte) int
	// lead, when set, reports whether line, read outside reports (t: its
	// known prefix and blanks removed), may turn out to be the first line
	// of a report of the format recognised on one of the leadLines lines
	// after it: the ruler before a Go race or a kernel report, the first
	// piece of a wrapped headline. A passthrough holds such a line back
	// until then.
	lead      func(line, t []byte) bool
	leadLines int
	// back, for a format whose first line has no cue of its own
	// (Valgrind's "==1== Invalid read of size 4"; start is nil), finds a
	// report at its first frame instead: line is a line the pre-filter
	// passed, before(k) the k-th line before it outside reports (false
	// past the last). It returns how many lines back the report starts
	// (0: line is no first frame), the length of the prefix every line of
	// the report carries there, its grammar and report (startBack).
	back func(line []byte, before func(k int) ([]byte, bool)) (k, pfx int, g grammar, r *report.Report)
	// headRest, when set, judges whether a line right after the report's
	// first is its headline's wrapped rest, instead of the rules of
	// unwrap.go: rest is the line without a paste's quote or indentation,
	// last the length the wrapper saw of the first line (wrapLast),
	// carries whether it carries the report's prefix. It returns the rest
	// as joined to the headline, which it has updated; false when it is
	// no rest.
	headRest func(b *builder, rest []byte, last int, carries bool) (string, bool)
	// wrapRest, when set, reports whether n is the wrapped rest of l, a
	// line of the open report that is no frame (carries: n carries the
	// report's prefix); the wrapper's lengths are checked already.
	wrapRest func(l, n string, carries bool) bool
	// unfinished, when set, reports whether l, a line of the open report
	// (prefix and blanks removed), cannot end where it does: the next
	// line is its rest whatever width a wrapper broke it at, when the two
	// read as one frame (2015 KASan's "[<  inlined  >] f+0x1/0x2" always
	// names the inlined function and its file after the offset).
	unfinished func(l string) bool
	// echo, when set, reports whether t, the line right after a sanitizer
	// report's "==PID==ABORTING", is the format's own handler telling the
	// same abort again (Chromium's "Received signal 6"): the sanitizer
	// report takes it, and no report of the format starts there.
	echo func(t string) bool
}

// echoesAbort reports whether t is a format's echo of a sanitizer's abort
// (format.echo).
func echoesAbort(t string) bool {
	for _, f := range formats {
		if f.echo != nil && f.echo(t) {
			return true
		}
	}
	return false
}

// formats in the order their starters are tried: the most specific first.
var formats = []*format{
	&kernelFormat,
	&goFormat,
	&rustFormat,
	&glibcFormat,
	&chromiumFormat,
	&gdbFormat,
	&boostFormat,
	&backtraceFormat,
	&valgrindFormat,
	&androidFormat,
}

// cues are what maybeReport looks for in a line, for one format: a few
// byte searches per line, no allocation.
type cues struct {
	// words are the words right before a colon that start a report
	// ("BUG" for "BUG: KASAN: ..."). "*Sanitizer" is any word that ends
	// in "Sanitizer", "0x*" any that starts with "0x".
	words []string
	// before are bytes that may stand right before a colon where no word
	// does: "'" for glibc's "*** Error in `prog': ...".
	before string
	// marks are texts anywhere in the line.
	marks []mark
	// located are words before a colon that are cues only where a line
	// number and a text follow them: a file name's extension in a
	// location ("go" in "/src/main.go:12 +0x8f"), which many ordinary
	// lines have without that text ("main.go:12: ..."). Looked up as the
	// words are, they cost other lines nothing.
	located []locatedWord
	// starts are texts that begin the line's text, after its blanks and a
	// dmesg stamp ("[  397.649006] "): the "[<" of a kernel frame before
	// 4.x, whose line has no cue word and no mark a search could afford.
	starts []string
}

// locatedWord is a cues.located word and the text after its line number.
type locatedWord struct{ word, after string }

// mark is a text maybeReport searches a line for.
type mark struct {
	text string
	// from: the search is for text[from:], and text[:from] must stand
	// right before its first match; a rare first byte keeps the search
	// fast (" signal " is searched as "gnal ", since ' ' starts many false
	// candidates).
	from int
	// last, when not 0, is the byte the line must end with.
	last byte
}

// prefilter is the cues of every format and of the sanitizers, arranged
// for maybeReport.
type prefilter struct {
	// What may start or end a cue word (cueExact, cuePrefix, cueSuffix by
	// first and last byte), and the second bytes of the prefixes: most
	// words before a colon in a log ("2", "java", a timestamp's "03T04")
	// are let go on these bytes alone (colonWord).
	first, last [256]uint8
	second      [256]bool
	// The exact words, in a hash table by length and first and last byte
	// (wordHash): slot[h] is 1 + the index in words of the first word of
	// hash h, next[i] 1 + that of the next one; after[i] is the text a
	// located word needs after its line number, "" for the others.
	slot     [wordSlots]uint8
	words    []string
	after    []string
	next     []uint8
	suffixes []string // "*Sanitizer"
	prefixes []string // "0x*"
	before   [256]bool
	// The marks: single bytes anywhere (bytes.IndexByte), those a line
	// must end with a byte for (by that byte), and the other texts; the
	// first byte and the first text apart (maybeReport).
	any1     byte
	anyMore  []byte
	isLast   [256]bool
	byLast   [256][]markSearch
	mark1    markSearch
	markMore []markSearch
	more     bool // anyMore or markMore are not empty
	// The starts, the bytes they begin with, and the bytes a line may
	// begin with to have one (those, a blank, a dmesg stamp's '[').
	starts     []string
	startFirst [256]bool
	startLead  [256]bool
	startByte  byte // a byte every start holds, for the Scanner's probes; 0 if none
}

const wordSlots = 512

// Bits of prefilter.first and .last.
const (
	cueExact uint8 = 1 << iota
	cuePrefix
	cueSuffix
)

// wordHash is the hash of a word of n bytes from first to last.
func wordHash(n int, first, last byte) uint {
	return (uint(n)*131 + uint(first)*31 + uint(last)) % wordSlots
}

// markSearch is a mark as maybeReport searches for it: the text from a
// byte chosen as rare (from) on is searched for, and the head before it
// compared where it is found.
type markSearch struct {
	find []byte // text[from:]
	head string // text[:from]
}

// in reports whether the mark is in b.
func (m *markSearch) in(b []byte) bool { return m.index(b) >= 0 }

// index returns where the mark starts in b, or -1.
func (m *markSearch) index(b []byte) int {
	for i := 0; ; {
		// Its first byte, then the rest: on a line, cheaper than
		// bytes.Index where the byte is rare.
		j := bytes.IndexByte(b[i:], m.find[0])
		if j < 0 {
			return -1
		}
		j += i
		if bytes.HasPrefix(b[j:], m.find) && j >= len(m.head) && string(b[j-len(m.head):j]) == m.head {
			return j - len(m.head)
		}
		i = j + 1
	}
}

// prefixedFormats are the formats with a line prefix of their own, set
// once from formats (an init: knownPrefixAt, which reads it, is reached
// from formats' own functions).
var prefixedFormats []*format

func init() {
	for _, f := range formats {
		if f.prefix != nil {
			prefixedFormats = append(prefixedFormats, f)
		}
	}
}

var cueFilter = *newPrefilter(append([]cues{sanitizerCues}, formatCues()...))

func formatCues() []cues {
	cs := make([]cues, len(formats))
	for i, f := range formats {
		cs[i] = f.cues
	}
	return cs
}

func newPrefilter(all []cues) *prefilter {
	pf := &prefilter{}
	seen := map[string]bool{}
	for _, c := range all {
		for _, lw := range c.located {
			pf.addWord(lw.word, lw.after)
		}
		for _, w := range c.words {
			if seen[w] {
				continue
			}
			seen[w] = true
			switch {
			case len(w) > 1 && w[0] == '*':
				pf.suffixes = append(pf.suffixes, w[1:])
				pf.last[w[len(w)-1]] |= cueSuffix
			case len(w) > 1 && w[len(w)-1] == '*':
				pf.prefixes = append(pf.prefixes, w[:len(w)-1])
				pf.first[w[0]] |= cuePrefix
				if len(w) > 2 {
					pf.second[w[1]] = true
				} else { // a one-byte prefix: any second byte
					for i := range pf.second {
						pf.second[i] = true
					}
				}
			default:
				pf.addWord(w, "")
			}
		}
		for i := 0; i < len(c.before); i++ {
			pf.before[c.before[i]] = true
		}
		for _, m := range c.marks {
			if seen["\x00"+m.text+"\x00"+string(m.last)+string(rune('0'+m.from))] {
				continue
			}
			seen["\x00"+m.text+"\x00"+string(m.last)+string(rune('0'+m.from))] = true
			ms := markSearch{find: []byte(m.text[m.from:]), head: m.text[:m.from]}
			switch {
			case m.last != 0:
				pf.isLast[m.last] = true
				pf.byLast[m.last] = append(pf.byLast[m.last], ms)
			case len(m.text) == 1 && pf.any1 == 0:
				pf.any1 = m.text[0]
			case len(m.text) == 1:
				pf.anyMore = append(pf.anyMore, m.text[0])
			case pf.mark1.find == nil:
				pf.mark1 = ms
			default:
				pf.markMore = append(pf.markMore, ms)
			}
		}
	}
	for _, c := range all {
		for _, st := range c.starts {
			pf.starts = append(pf.starts, st)
			pf.startFirst[st[0]] = true
			pf.startLead[st[0]], pf.startLead[' '], pf.startLead['['] = true, true, true
		}
	}
	pf.more = len(pf.anyMore)+len(pf.markMore) > 0
	pf.startByte = commonByte(pf.starts)
	return pf
}

// commonByte returns the last byte of the first text that every text
// holds (of "[<", the '<' rarer than '['), or 0.
func commonByte(texts []string) byte {
	if len(texts) == 0 {
		return 0
	}
	for i := len(texts[0]) - 1; i >= 0; i-- {
		c := texts[0][i]
		all := true
		for _, t := range texts[1:] {
			all = all && strings.IndexByte(t, c) >= 0
		}
		if all {
			return c
		}
	}
	return 0
}

// addWord adds an exact cue word, located when after is not "".
func (pf *prefilter) addWord(w, after string) {
	if w == "" || len(pf.words) == 255 {
		panic("parse: bad cue word or too many: " + w)
	}
	h := wordHash(len(w), w[0], w[len(w)-1])
	pf.words = append(pf.words, w)
	pf.after = append(pf.after, after)
	pf.next = append(pf.next, pf.slot[h])
	pf.slot[h] = uint8(len(pf.words))
	pf.first[w[0]] |= cueExact
}

// maybeReport is the cheap test run on every line outside a report: could
// it start one? A few byte searches, no allocation. Most headlines have a
// colon after a known word ("ERROR:", "AddressSanitizer:", "runtime
// error:", "BUG:", "panic:", "Call Trace:", ...), so one walk over the
// colons replaces a substring search per word; the marks are searched
// for after it.
func maybeReport(b []byte) bool { return maybeReportProbed(b, nil) }

// maybeReportProbed is maybeReport on a line whose probes are lp (nil
// when it has none).
func maybeReportProbed(b []byte, lp *lineProbes) bool {
	n := len(b)
	if n == 0 {
		return false
	}
	pf := &cueFilter
	for i := 0; i < n; {
		c := bytes.IndexByte(b[i:], ':')
		if c < 0 {
			break
		}
		c += i
		if pf.colonWord(b, c) {
			return true
		}
		i = c + 1
	}
	// The first byte and text marks are searched without a loop: the
	// cues of today's formats have no more, and loops over them cost
	// every ordinary line a few percent more instructions (BenchmarkIdle).
	if pf.any1 != 0 && lp.holdsByte(b, pf.any1) {
		return true
	}
	if pf.isLast[b[n-1]] && pf.lastMarked(b) {
		return true
	}
	if pf.mark1.find != nil && pf.mark1.in(b) {
		return true
	}
	if pf.more && pf.moreMarks(b) {
		return true
	}
	return pf.startLead[b[0]] && !(pf.startByte != 0 && lp.lacks(probeStart, b)) && pf.startMarked(b)
}

// startMarked reports whether b's text, after its blanks and a dmesg
// stamp, begins with one of the starts: a few byte tests on most lines.
func (pf *prefilter) startMarked(b []byte) bool {
	i := 0
	for i < len(b) && b[i] == ' ' {
		i++
	}
	if i+1 < len(b) && b[i] == '[' && (b[i+1] == ' ' || isDigit(b[i+1])) {
		// "[  397.649006] " (dmesg): blanks, digits and a dot
		for i++; i < len(b) && (b[i] == ' ' || b[i] == '.' || isDigit(b[i])); i++ {
		}
		if i == len(b) || b[i] != ']' {
			return false
		}
		for i++; i < len(b) && b[i] == ' '; i++ {
		}
	}
	if i >= len(b) || !pf.startFirst[b[i]] {
		return false
	}
	for _, st := range pf.starts {
		if len(b)-i >= len(st) && string(b[i:i+len(st)]) == st {
			return true
		}
	}
	return false
}

// lastMarked searches b for the marks of a line ending in its last byte.
func (pf *prefilter) lastMarked(b []byte) bool {
	for _, m := range pf.byLast[b[len(b)-1]] {
		if m.in(b) {
			return true
		}
	}
	return false
}

// moreMarks searches b for the marks after the first byte and text.
func (pf *prefilter) moreMarks(b []byte) bool {
	for _, c := range pf.anyMore {
		if bytes.IndexByte(b, c) >= 0 {
			return true
		}
	}
	for k := range pf.markMore {
		if pf.markMore[k].in(b) {
			return true
		}
	}
	return false
}

// lineThen reports whether b starts with a line number and then text.
func lineThen(b []byte, text string) bool {
	i := 0
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i > 0 && startsWith(b[i:], text)
}

// colonWord reports whether the word before the colon at b[c] is a cue.
func (pf *prefilter) colonWord(b []byte, c int) bool {
	j := c
	for j > 0 && isIdent(b[j-1]) {
		j--
	}
	if j == c {
		return j > 0 && pf.before[b[j-1]]
	}
	w := b[j:c]
	// Most words before a colon in a log ("2", "java") are let go on
	// their first and last bytes, a timestamp's "03T04" on its second
	// (only prefixes start with a digit).
	f, l := pf.first[w[0]], pf.last[w[len(w)-1]]
	if f|l == 0 || f == cuePrefix && l == 0 && len(w) > 1 && !pf.second[w[1]] {
		return false
	}
	return pf.isCue(w, b[c+1:])
}

// isCue reports whether w, before a colon and rest, is a cue word: exact
// (located: rest is its line number and text), or by its prefix or
// suffix.
func (pf *prefilter) isCue(w, rest []byte) bool {
	first, last := pf.first[w[0]], pf.last[w[len(w)-1]]
	if first&cueExact != 0 {
		for i := pf.slot[wordHash(len(w), w[0], w[len(w)-1])]; i != 0; i = pf.next[i-1] {
			if pf.words[i-1] == string(w) {
				return pf.after[i-1] == "" || lineThen(rest, pf.after[i-1])
			}
		}
	}
	if last&cueSuffix != 0 {
		for _, s := range pf.suffixes {
			if endsWith(w, s) {
				return true
			}
		}
	}
	if first&cuePrefix != 0 {
		for _, p := range pf.prefixes {
			if startsWith(w, p) {
				return true
			}
		}
	}
	return false
}

func endsWith(w []byte, s string) bool {
	if len(w) < len(s) {
		return false
	}
	w = w[len(w)-len(s):]
	for i := len(s) - 1; i >= 0; i-- {
		if w[i] != s[i] {
			return false
		}
	}
	return true
}

func startsWith(w []byte, p string) bool {
	if len(w) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if w[i] != p[i] {
			return false
		}
	}
	return true
}

// startLine runs f's starter on t and names the report after f's
// producer.
func (f *format) startLine(t, prev string) (grammar, *report.Report) {
	if f.start == nil {
		return nil, nil
	}
	g, r := f.start(t, prev)
	if g != nil && r.Tool == "" {
		r.Tool = f.producer.Tool()
	}
	return g, r
}
