package dropin

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/markup"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/symbolize"
)

// This file is llvm-symbolizer 19's --filter-markup (LLVM's MarkupFilter):
// a log on stdin is copied to stdout with every symbolizer markup element
// replaced by text. Contextual elements (reset, module, mmap) become one
// summary line per module, "[[[ELF module #0x0 "name"; BuildID=… [ranges]]]]";
// a bt element becomes its frames ("    #0.1  0x… func file:line:col
// (module+0x…)", one line per inlined function); a pc element
// "func[file:line]"; a data element the name of the global; a symbol
// element the name demangled. What cannot be resolved is printed as the
// element in square brackets ("[[[bt:1:0x…]]]"), with llvm's error line and
// a caret line on stderr. Modules are found by build-id as llvm finds them
// (.build-id/xx/rest.debug under the debug-file directories, then
// debuginfod; see localDebugFile). The markup itself is read by package
// markup; this file is the output, byte for byte as llvm-symbolizer 19
// writes it, colours included.

// maxFilterLine bounds the line the filter holds in memory. A longer line
// is copied through unchanged (llvm would still look for markup in it).
const maxFilterLine = 4 << 20

// sgrColor is one of raw_ostream's eight colours, as SGR elements and
// highlighting name them; noColor is the default colour.
type sgrColor int8

const (
	noColor      sgrColor = -1
	colorRed     sgrColor = 1
	colorGreen   sgrColor = 2
	colorMagenta sgrColor = 5
	colorBlue    sgrColor = 4
	colorCyan    sgrColor = 6
)

// markupFilter is the state of one --filter-markup run.
type markupFilter struct {
	s         *llvmSession
	out       *bufio.Writer
	errOut    io.Writer
	colors    bool // stdout is coloured (--color, or a terminal)
	errColors bool // stderr is a terminal that takes colours
	parser    markup.Parser
	ctx       markup.Context
	line      string // the line being filtered, with its line ending
	// info is the module summary line being written: the mmaps that follow
	// a module element are folded into its line until something else
	// comes; nil when none is open.
	info *moduleInfoLine
	// The SGR state the log's escapes set: a colour and bold.
	color sgrColor
	bold  bool
	// notFound: build-ids (hex) no file was found for; llvm looks again,
	// and says so again, for every element of such a module.
	notFound map[string]bool
}

type moduleInfoLine struct {
	mod   *markup.Module
	mmaps []*markup.MMap
}

// filterMarkup runs the filter from in to out.
func (s *llvmSession) filterMarkup(in io.Reader, out *bufio.Writer, errOut io.Writer, colors, errColors bool) {
	f := &markupFilter{s: s, out: out, errOut: errOut, colors: colors, errColors: errColors, color: noColor, notFound: map[string]bool{}}
	r := bufio.NewReaderSize(in, stdinBufferSize)
	for {
		line, err := f.readLine(r)
		if line != "" {
			f.filter(line)
		}
		if err != nil {
			break
		}
		if r.Buffered() == 0 {
			out.Flush() // what the log has written so far is out
		}
	}
	f.finish()
}

// readLine reads one line and returns it with a line feed at its end, as
// llvm's getline loop does (also for a last line without one); err is
// io.EOF once the input has ended. A line longer than maxFilterLine is
// copied to stdout as it is read, and "" returned.
func (f *markupFilter) readLine(r *bufio.Reader) (string, error) {
	var long []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(long)+len(chunk) > maxFilterLine {
			return "", f.copyLong(r, long, chunk, err)
		}
		if err == bufio.ErrBufferFull {
			long = append(long, chunk...)
			continue
		}
		if len(long) == 0 && len(chunk) == 0 {
			return "", err
		}
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			chunk = chunk[:len(chunk)-1]
		}
		return string(long) + string(chunk) + "\n", err
	}
}

// copyLong writes a line too long to hold through to stdout: what was
// read of it, then the rest as it comes; err is the last read's.
func (f *markupFilter) copyLong(r *bufio.Reader, read, chunk []byte, err error) error {
	f.endInfoLine()
	f.resetColor()
	f.out.Write(read)
	for {
		f.out.Write(chunk)
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			return err
		}
		if err != bufio.ErrBufferFull {
			f.out.WriteByte('\n') // the input ended inside the line
			return err
		}
		chunk, err = r.ReadSlice('\n')
	}
}

// filter filters one line (with its line ending).
func (f *markupFilter) filter(line string) {
	f.line = line
	f.resetColor()
	nodes := f.parser.Parse(line)
	// A line with a contextual element is not printed as such: what comes
	// before the element is printed only if the element prints something,
	// and what comes after it never.
	for i := range nodes {
		n := &nodes[i]
		if n.Kind == markup.Elem && markup.KindOf(n.Tag).Contextual() {
			f.contextual(n, nodes[:i])
			return
		}
	}
	f.endInfoLine()
	for i := range nodes {
		f.node(&nodes[i])
	}
}

// finish ends the output at the end of the input.
func (f *markupFilter) finish() {
	f.endInfoLine()
	f.resetColor()
	f.ctx.Reset()
}

// lineEnding is the current line's: CR LF if it has one.
func (f *markupFilter) lineEnding() string {
	if strings.HasSuffix(f.line, "\r\n") {
		return "\r\n"
	}
	return "\n"
}

func (f *markupFilter) contextual(n *markup.Node, before []markup.Node) {
	e, err := f.decode(n)
	if err != nil {
		return
	}
	switch e.Kind {
	case markup.KindMMap:
		m, err := f.ctx.Map(&e)
		if err != nil {
			f.report(err)
			return
		}
		if f.info == nil || f.info.mod != m.Module {
			f.endInfoLine()
			f.nodes(before)
			f.beginInfoLine(m.Module)
			f.out.WriteString("; adds")
		}
		f.info.mmaps = append(f.info.mmaps, m)
	case markup.KindReset:
		if f.ctx.Empty() {
			return
		}
		f.endInfoLine()
		f.nodes(before)
		f.raw(n)
		f.out.WriteString(f.lineEnding())
		f.ctx.Reset()
	case markup.KindModule:
		m, err := f.ctx.Declare(&e)
		if err != nil {
			f.report(err)
			return
		}
		f.endInfoLine()
		f.nodes(before)
		f.beginInfoLine(m)
		f.out.WriteString("; BuildID=")
		f.value(fmt.Sprintf("%x", m.BuildID))
	}
}

// decode decodes an element, reporting its warning and its error.
func (f *markupFilter) decode(n *markup.Node) (markup.Element, error) {
	e, err := markup.Decode(n, f.parser.Line())
	if e.Warn != nil {
		f.report(e.Warn)
	}
	if err != nil {
		f.report(err)
	}
	return e, err
}

func (f *markupFilter) beginInfoLine(m *markup.Module) {
	f.highlight()
	f.out.WriteString("[[[ELF module")
	f.value(fmt.Sprintf(" #%#x ", m.ID))
	f.out.WriteByte('"')
	f.value(m.Name)
	f.out.WriteByte('"')
	f.info = &moduleInfoLine{mod: m}
}

func (f *markupFilter) endInfoLine() {
	if f.info == nil {
		return
	}
	ms := f.info.mmaps
	slices.SortStableFunc(ms, func(a, b *markup.MMap) int {
		switch {
		case a.Addr < b.Addr:
			return -1
		case a.Addr > b.Addr:
			return 1
		}
		return 0
	})
	for _, m := range ms {
		if m == ms[0] {
			f.out.WriteByte(' ')
		} else {
			f.out.WriteByte(',')
		}
		f.out.WriteByte('[')
		f.value(fmt.Sprintf("%#x", m.Addr))
		f.out.WriteByte('-')
		f.value(fmt.Sprintf("%#x", m.Last()))
		f.out.WriteString("](")
		f.value(m.Perms)
		f.out.WriteByte(')')
	}
	f.out.WriteString("]]]")
	f.out.WriteString(f.lineEnding())
	f.restoreColor()
	f.info = nil
}

func (f *markupFilter) nodes(ns []markup.Node) {
	for i := range ns {
		f.node(&ns[i])
	}
}

// node prints a node that is not a contextual element.
func (f *markupFilter) node(n *markup.Node) {
	switch n.Kind {
	case markup.SGR:
		f.sgr(n.Text)
		return
	case markup.Text:
		f.out.WriteString(n.Text)
		return
	}
	if !markup.ValidTag(n.Tag) {
		f.report(&markup.Error{Code: markup.ErrBadTag, Line: f.parser.Line(), Col: n.TagPos(), Msg: "tags must be all lowercase characters"})
		return
	}
	switch markup.KindOf(n.Tag) {
	case markup.KindSymbol:
		if e, err := f.decode(n); err == nil {
			f.highlight()
			f.out.WriteString(demangleMarkup(e.Name))
			f.restoreColor()
		}
	case markup.KindPC:
		f.pc(n)
	case markup.KindBT:
		f.backtrace(n)
	case markup.KindData:
		f.data(n)
	default:
		f.out.WriteString(n.Text) // hexdict, dumpfile, unknown tags: as they are
	}
}

// demangleMarkup is llvm::demangle, which a symbol element's name goes
// through whatever --demangle says: an Itanium or Rust name, or one with
// an extra leading underscore (Mach-O's), demangled.
func demangleMarkup(name string) string {
	if d := symbolize.DemangleLLVM19(name); d != name {
		return d
	}
	if rest, ok := strings.CutPrefix(name, "_"); ok {
		if d := symbolize.DemangleLLVM19(rest); d != rest {
			return d
		}
	}
	return name
}

// locate decodes a bt, pc or data element and finds its module: ok is
// false when it cannot be symbolized, which has been said and printed.
// The lease's Obj is nil for a module that failed to open earlier (llvm
// answers nothing then, and says nothing more); the caller releases it.
func (f *markupFilter) locate(n *markup.Node) (e markup.Element, loc markup.Location, mod modcache.Lease, ok bool) {
	e, err := f.decode(n)
	if err != nil {
		return e, loc, mod, false
	}
	loc, err = f.ctx.Locate(&e)
	if err != nil {
		f.report(err)
		f.raw(n)
		return e, loc, mod, false
	}
	id := fmt.Sprintf("%x", loc.Module().BuildID)
	key, local := f.localDebugFile(id)
	if !local && f.notFound[id] {
		f.failure(n, "could not find build ID")
		return e, loc, mod, false
	}
	mod, err = f.s.modules.get(key)
	if err != nil {
		var noID *buildIDNotFound
		if errors.As(err, &noID) {
			f.notFound[id] = true
			f.failure(n, "could not find build ID")
		} else {
			f.failure(n, llvmErrorMessage(key, err))
		}
		mod.Release()
		return e, loc, modcache.Lease{}, false
	}
	return e, loc, mod, true
}

// localDebugFile is where the module with build-id id (hex) is read from:
// as llvm's LocalBuildIDFetcher finds it, the first .build-id/xx/rest.debug
// that exists under the debug-file directories (/usr/lib/debug when none is
// given), whatever build-id it carries (unlike BUILDID: queries, which
// check it); else the module cache's BUILDID: key, which asks debuginfod.
func (f *markupFilter) localDebugFile(id string) (key string, local bool) {
	dirs := f.s.cfg.debugDirs
	if len(dirs) == 0 {
		dirs = []string{debuginfo.DefaultDebugDir}
	}
	for _, d := range dirs {
		p := d + "/.build-id/" + id[:2] + "/" + id[2:] + ".debug"
		if _, err := os.Stat(p); err == nil {
			return p, true
		}
	}
	return buildIDPrefix + id, false
}

// failure is llvm's symbolizeFailure: the error, then the element raw.
func (f *markupFilter) failure(n *markup.Node, msg string) {
	f.errPrefix("error: ")
	io.WriteString(f.errOut, msg+"\n")
	f.raw(n)
}

// frames returns the frames of a module-relative address as llvm's
// symbolizeInlinedCode (inlines) or symbolizeCode answers them, at least
// one; nil when the module failed to open.
func (f *markupFilter) frames(mod modcache.Object, addr uint64, inlines bool) []symbolize.Frame {
	if mod == nil {
		return nil
	}
	opts := f.s.cfg.lookup
	opts.Inlines = inlines
	frames, err := mod.Symbolize(addr, opts)
	if err != nil || len(frames) == 0 {
		return unknownFrame()
	}
	if f.s.cfg.basenames {
		frames = owned(frames, false)
		setBaseNames(frames)
	}
	return frames
}

// known is DILineInfo's operator bool: anything differs from an unknown
// frame.
func known(fr symbolize.Frame) bool {
	return fr.Function != "" || fr.File != "" || fr.StartFile != "" || fr.Line != 0 || fr.Column != 0 ||
		fr.StartLine != 0 || fr.Discriminator != 0
}

// orInvalid is llvm's DILineInfo::BadString for an unknown name.
func orInvalid(s string) string {
	if s == "" {
		return invalidName
	}
	return s
}

func (f *markupFilter) backtrace(n *markup.Node) {
	e, loc, mod, ok := f.locate(n)
	defer mod.Release()
	if !ok {
		return
	}
	frames := f.frames(mod.Obj, loc.Offset, true)
	f.highlight()
	num := fmt.Sprintf("%6s", "#"+strconv.FormatUint(e.Frame, 10))
	hash := strings.IndexByte(num, '#') + 1
	for i, fr := range frames {
		f.out.WriteString(num[:hash])
		f.value(num[hash:])
		if i == len(frames)-1 {
			f.out.WriteString("   ")
		} else {
			f.out.WriteByte('.')
			f.value(fmt.Sprintf("%-2d", i+1))
		}
		f.value(fmt.Sprintf(" 0x%016x ", loc.Addr))
		if known(fr) {
			f.value(orInvalid(fr.Function))
			f.values(" ", orInvalid(fr.File), ":", strconv.Itoa(fr.Line), ":", strconv.Itoa(fr.Column), " ")
		}
		f.values("(", loc.Module().Name, "+", fmt.Sprintf("%#x", loc.Offset), ")")
		if i != len(frames)-1 {
			f.out.WriteString(f.lineEnding())
		}
	}
	f.restoreColor()
}

func (f *markupFilter) pc(n *markup.Node) {
	_, loc, mod, ok := f.locate(n)
	defer mod.Release()
	if !ok {
		return
	}
	frames := f.frames(mod.Obj, loc.Offset, false)
	if len(frames) == 0 || !known(frames[0]) {
		f.raw(n)
		return
	}
	fr := frames[0]
	f.highlight()
	f.value(orInvalid(fr.Function))
	f.values("[", orInvalid(fr.File), ":", strconv.Itoa(fr.Line), "]")
	f.restoreColor()
}

func (f *markupFilter) data(n *markup.Node) {
	_, loc, mod, ok := f.locate(n)
	defer mod.Release()
	if !ok {
		return
	}
	name := invalidName
	if mod.Obj != nil {
		if d, found := mod.Obj.Data(loc.Offset); found && d.Name != "" {
			name = d.Name
			if f.s.cfg.lookup.Demangle && d.Demangled != "" {
				name = d.Demangled
			}
		}
	}
	f.highlight()
	f.out.WriteString(name)
	f.restoreColor()
}

// raw prints an element as llvm's printRawElement: "[[[tag:field…]]]".
func (f *markupFilter) raw(n *markup.Node) {
	f.highlight()
	f.out.WriteString("[[[")
	f.value(n.Tag)
	for _, fl := range n.Fields {
		f.out.WriteByte(':')
		f.value(fl)
	}
	f.out.WriteString("]]]")
	f.restoreColor()
}

// values prints highlighted text alternating with values: the strings
// at even positions are the text, at odd ones the values.
func (f *markupFilter) values(parts ...string) {
	for i, p := range parts {
		if i%2 == 1 {
			f.value(p)
		} else {
			f.out.WriteString(p)
		}
	}
}

// value prints a value inside highlighted text (printValue).
func (f *markupFilter) value(s string) {
	f.changeColor(colorGreen, f.bold)
	f.out.WriteString(s)
	f.highlight()
}

// sgr applies an SGR escape of the log to the colour state; the escape
// itself is not copied (llvm writes its own when colouring).
func (f *markupFilter) sgr(esc string) {
	switch esc {
	case "\033[0m":
		f.resetColor()
	case "\033[1m":
		f.bold = true
		if f.colors {
			f.out.WriteString("\033[1m")
		}
	default: // ESC[3Xm: the Parser passes no other escape
		f.color = sgrColor(esc[3] - '0')
		f.changeColor(f.color, false)
	}
}

// highlight starts highlighted text: blue, or cyan on blue.
func (f *markupFilter) highlight() {
	c := colorBlue
	if f.color == colorBlue {
		c = colorCyan
	}
	f.changeColor(c, f.bold)
}

// restoreColor goes back to the log's colour state after highlighted text.
func (f *markupFilter) restoreColor() {
	if !f.colors {
		return
	}
	if f.color != noColor {
		f.changeColor(f.color, f.bold)
		return
	}
	f.out.WriteString("\033[0m")
	if f.bold {
		f.out.WriteString("\033[1m")
	}
}

// resetColor resets the colour state (at each line, and on ESC[0m).
func (f *markupFilter) resetColor() {
	if f.color == noColor && !f.bold {
		return
	}
	f.color, f.bold = noColor, false
	if f.colors {
		f.out.WriteString("\033[0m")
	}
}

func (f *markupFilter) changeColor(c sgrColor, bold bool) {
	if !f.colors {
		return
	}
	f.out.WriteString(ansiColor(c, bold))
}

// ansiColor is raw_ostream::changeColor's escape for one of the eight
// colours.
func ansiColor(c sgrColor, bold bool) string {
	if bold {
		return "\033[0;1;3" + string(rune('0'+c)) + "m"
	}
	return "\033[0;3" + string(rune('0'+c)) + "m"
}

// report prints a markup problem as llvm does: "error: " or "warning: ",
// the message, the line, and a caret under the byte it is about. A wrong
// number of fields is coloured whole on a terminal, other messages only
// in their prefix (llvm's WithColor uses).
func (f *markupFilter) report(err error) {
	var e *markup.Error
	if !errors.As(err, &e) {
		f.errPrefix("error: ")
		io.WriteString(f.errOut, err.Error()+"\n")
		return
	}
	prefix, c := "error: ", colorRed
	if e.Warning {
		prefix, c = "warning: ", colorMagenta
	}
	var b strings.Builder
	if f.errColors && e.Code == markup.ErrFieldCount && !strings.HasPrefix(e.Msg, "expected at ") {
		b.WriteString(ansiColor(c, true) + prefix + e.Msg + "\n\033[0m")
	} else {
		if f.errColors {
			b.WriteString(ansiColor(c, true) + prefix + "\033[0m")
		} else {
			b.WriteString(prefix)
		}
		b.WriteString(e.Msg + "\n")
	}
	b.WriteString(f.line)
	b.WriteString(strings.Repeat(" ", e.Col))
	if f.errColors {
		b.WriteString(ansiColor(colorGreen, false) + "^\033[0m")
	} else {
		b.WriteByte('^')
	}
	b.WriteByte('\n')
	io.WriteString(f.errOut, b.String())
}

// errPrefix writes llvm's "error: " prefix, red and bold on a terminal.
func (f *markupFilter) errPrefix(p string) {
	if f.errColors {
		p = ansiColor(colorRed, true) + p + "\033[0m"
	}
	io.WriteString(f.errOut, p)
}
