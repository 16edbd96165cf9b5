package dropin

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/symbolize"
)

// This file is llvm-symbolizer 14's DIPrinter: the LLVM and GNU plain-text
// printers and the JSON printer.

type outputStyle int

const (
	styleLLVM outputStyle = iota
	styleGNU
	styleJSON
)

// request identifies one answer: the module as given and the address as
// given (before --adjust-vma).
type request struct {
	module  string
	addr    uint64
	hasAddr bool
	symbol  string // a query by symbol name (v19): the name, which JSON shows instead of the address
}

type printConfig struct {
	style        outputStyle
	printAddress bool
	pretty       bool
	verbose      bool
	functions    bool // print function names (--functions is not "none")
	contextLines int
	readSource   func(path string) (io.ReadCloser, error)
	// v19: print as llvm-symbolizer 19 (version.go); prog is its name in
	// error lines.
	v19  bool
	prog string
}

type printer interface {
	code(r request, frames []symbolize.Frame)
	data(r request, d symbolize.DataSymbol)
	frame(r request, locals []symbolize.Local)
	invalid(r request, line string)
	// locations answers a CODE query by symbol name (symquery.go).
	locations(r request, locs []symbolize.Frame)
	// moduleError reports a module that could not be read; it returns
	// whether the caller should still print an empty answer.
	moduleError(r request, msg string) bool
	listBegin()
	listEnd()
}

func newPrinter(cfg printConfig, out, errOut io.Writer) printer {
	if cfg.style == styleJSON {
		return &jsonPrinter{cfg: cfg, out: out}
	}
	p := &plainPrinter{cfg: cfg, out: out, errOut: errOut}
	p.writeInto(nil)
	return p
}

// plainPrinter is LLVMPrinter and GNUPrinter.
type plainPrinter struct {
	cfg    printConfig
	out    io.Writer
	errOut io.Writer
	// b is where answers are built: own (one answer, reused, so answers
	// cost no allocation), or the batch chunk being answered (writeInto),
	// the destination itself, so that an answer is not copied again
	// (cpp-heavy's W1 writes 458 MB of answers).
	b   *bytes.Buffer
	own bytes.Buffer
}

func (p *plainPrinter) flush() {
	if p.b != &p.own {
		return // written into the chunk already
	}
	p.out.Write(p.b.Bytes())
	p.b.Reset()
}

// writeInto makes the printer write its answers straight into dst until
// the next call (nil: back to out through its own buffer).
func (p *plainPrinter) writeInto(dst *bytes.Buffer) {
	if dst == nil {
		dst = &p.own
	}
	p.b = dst
}

func (p *plainPrinter) header(r request) {
	if !p.cfg.printAddress || !r.hasAddr {
		return
	}
	p.b.WriteString(hex(r.addr))
	if p.cfg.pretty {
		p.b.WriteString(": ")
	} else {
		p.b.WriteString("\n")
	}
}

func (p *plainPrinter) footer() {
	if p.cfg.style == styleLLVM {
		p.b.WriteString("\n")
	}
}

func (p *plainPrinter) functionName(name string, inlined bool) {
	if !p.cfg.functions {
		return
	}
	if name == "" {
		name = "??"
	}
	if p.cfg.pretty && inlined {
		p.b.WriteString(" (inlined by) ")
	}
	p.b.WriteString(name)
	if p.cfg.pretty {
		p.b.WriteString(" at ")
	} else {
		p.b.WriteString("\n")
	}
}

func (p *plainPrinter) oneFrame(f symbolize.Frame, inlined bool) {
	p.functionName(f.Function, inlined)
	file := f.File
	if file == "" {
		file = "??"
	}
	if p.cfg.verbose {
		p.verboseFrame(file, f)
		return
	}
	p.b.WriteString(file)
	// Numbers are formatted straight into the buffer: strconv.Itoa
	// allocates for every number above 99, two per frame on most lines.
	p.b.Write(strconv.AppendInt(append(p.b.AvailableBuffer(), ':'), int64(f.Line), 10))
	if p.cfg.style == styleLLVM {
		p.b.Write(strconv.AppendInt(append(p.b.AvailableBuffer(), ':'), int64(f.Column), 10))
	} else if f.Discriminator != 0 {
		b := strconv.AppendInt(append(p.b.AvailableBuffer(), " (discriminator "...), int64(f.Discriminator), 10)
		p.b.Write(append(b, ')'))
	}
	p.b.WriteString("\n")
	p.b.WriteString(sourceContext(p.cfg, file, f.Line))
}

func (p *plainPrinter) verboseFrame(file string, f symbolize.Frame) {
	b := append(p.b.AvailableBuffer(), "  Filename: "...)
	b = append(append(b, file...), '\n')
	if f.StartLine != 0 {
		b = append(append(append(b, "  Function start filename: "...), f.StartFile...), '\n')
		b = append(strconv.AppendInt(append(b, "  Function start line: "...), int64(f.StartLine), 10), '\n')
	}
	if f.HasStartAddress {
		b = append(strconv.AppendUint(append(b, "  Function start address: 0x"...), f.StartAddress, 16), '\n')
	}
	b = append(strconv.AppendInt(append(b, "  Line: "...), int64(f.Line), 10), '\n')
	b = append(strconv.AppendInt(append(b, "  Column: "...), int64(f.Column), 10), '\n')
	if f.Discriminator != 0 {
		b = append(strconv.AppendInt(append(b, "  Discriminator: "...), int64(f.Discriminator), 10), '\n')
	}
	p.b.Write(b)
}

func (p *plainPrinter) code(r request, frames []symbolize.Frame) {
	p.header(r)
	if len(frames) == 0 {
		frames = []symbolize.Frame{{}}
	}
	for i, f := range frames {
		p.oneFrame(f, i > 0)
	}
	p.footer()
	p.flush()
}

func (p *plainPrinter) data(r request, d symbolize.DataSymbol) {
	p.header(r)
	name := d.Name
	if name == "" {
		name = "??"
	}
	fmt.Fprintf(p.b, "%s\n%d %d\n", name, d.Start, d.Size)
	if p.cfg.v19 {
		// llvm-symbolizer 15+: the declaration (DIGlobal::DeclFile).
		if d.HasDecl {
			fmt.Fprintf(p.b, "%s:%d\n", d.DeclFile, d.DeclLine)
		} else {
			p.b.WriteString("??:?\n")
		}
	}
	p.footer()
	p.flush()
}

func (p *plainPrinter) invalid(r request, line string) {
	p.b.WriteString(line + "\n")
	p.flush()
}

func (p *plainPrinter) moduleError(r request, msg string) bool {
	if p.cfg.v19 {
		io.WriteString(p.errOut, llvm19Error(p.cfg.prog, r.module, msg))
		return true
	}
	fmt.Fprintf(p.errOut, "LLVMSymbolizer: error reading file: %s\n", msg)
	return true
}

func (p *plainPrinter) listBegin() {}
func (p *plainPrinter) listEnd()   {}

// jsonPrinter is llvm-symbolizer's JSONPrinter: one object per stdin line,
// or one array for all argv addresses, printed at the end.
type jsonPrinter struct {
	cfg    printConfig
	out    io.Writer
	list   []jsonValue
	inList bool
	buf    []byte // an answer's bytes, reused
}

func hex(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }

// hexIf is hex(v) when v is known, else "" (JSONPrinter's unknown values).
func hexIf(known bool, v uint64) string {
	if !known {
		return ""
	}
	return hex(v)
}

// answer emits the answer to r: its module, its address when it has one,
// and key's value.
func (p *jsonPrinter) answer(r request, key string, v jsonValue) {
	o := jsonObject{"ModuleName": r.module, key: v}
	if r.symbol != "" {
		o["SymName"] = r.symbol
	} else if r.hasAddr {
		o["Address"] = hex(r.addr)
	}
	p.emit(o)
}

func (p *jsonPrinter) emit(v jsonObject) {
	if p.inList {
		p.list = append(p.list, v)
		return
	}
	p.write(appendJSON(p.buf[:0], v, 0, p.cfg.pretty))
}

// write writes b, an answer, and a newline, and keeps b's room.
func (p *jsonPrinter) write(b []byte) {
	b = append(b, '\n')
	p.out.Write(b)
	p.buf = b
}

func (p *jsonPrinter) code(r request, frames []symbolize.Frame) {
	if p.inList {
		// An element of argv's list, at depth 1.
		p.list = append(p.list, jsonRaw(p.appendCode(nil, r, frames, 1)))
		return
	}
	p.write(p.appendCode(p.buf[:0], r, frames, 0))
}

// appendCode appends, as an object at depth indent, what answer(r,
// "Symbol", the frames' symbol objects) prints, written out member by
// member in llvm::json's sorted order rather than through maps (five
// times the time of the text output; TestJSONCodeFast and FuzzJSONCode
// hold the two to the same bytes).
func (p *jsonPrinter) appendCode(b []byte, r request, frames []symbolize.Frame, indent int) []byte {
	pretty, in := p.cfg.pretty, indent+1
	b = append(b, '{')
	i := 0
	if r.symbol == "" && r.hasAddr {
		b = appendKey(b, "Address", i, in, pretty)
		b = appendQuoteJSON(b, hex(r.addr))
		i++
	}
	b = appendQuoteJSON(appendKey(b, "ModuleName", i, in, pretty), r.module)
	i++
	if r.symbol != "" {
		b = appendQuoteJSON(appendKey(b, "SymName", i, in, pretty), r.symbol)
		i++
	}
	b = appendKey(b, "Symbol", i, in, pretty)
	if len(frames) == 0 {
		b = append(b, "[]"...)
	} else {
		b = append(b, '[')
		for j, f := range frames {
			if j > 0 {
				b = append(b, ',')
			}
			b = p.appendSymbol(appendNewline(b, in+1, pretty), f, in+1)
		}
		b = append(appendNewline(b, in, pretty), ']')
	}
	return append(appendNewline(b, indent, pretty), '}')
}

// appendSymbol appends symbol(f) at depth indent, its members in sorted
// order.
func (p *jsonPrinter) appendSymbol(b []byte, f symbolize.Frame, indent int) []byte {
	pretty, in := p.cfg.pretty, indent+1
	b = append(b, '{')
	b = strconv.AppendInt(appendKey(b, "Column", 0, in, pretty), int64(f.Column), 10)
	b = strconv.AppendInt(appendKey(b, "Discriminator", 1, in, pretty), int64(f.Discriminator), 10)
	b = appendQuoteJSON(appendKey(b, "FileName", 2, in, pretty), f.File)
	b = appendQuoteJSON(appendKey(b, "FunctionName", 3, in, pretty), f.Function)
	b = strconv.AppendInt(appendKey(b, "Line", 4, in, pretty), int64(f.Line), 10)
	if src := sourceContext(p.cfg, f.File, f.Line); src != "" {
		b = appendQuoteJSON(appendKey(b, "Source", 5, in, pretty), src)
	}
	b = appendQuoteJSON(appendKey(b, "StartAddress", 6, in, pretty), hexIf(f.HasStartAddress, f.StartAddress))
	b = appendQuoteJSON(appendKey(b, "StartFileName", 7, in, pretty), jsonName(f.StartFile))
	b = strconv.AppendInt(appendKey(b, "StartLine", 8, in, pretty), int64(f.StartLine), 10)
	return append(appendNewline(b, indent, pretty), '}')
}

// symbol is one entry of the "Symbol" array.
func (p *jsonPrinter) symbol(f symbolize.Frame) jsonObject {
	o := jsonObject{
		"FunctionName":  f.Function,
		"StartFileName": jsonName(f.StartFile),
		"StartLine":     f.StartLine,
		"StartAddress":  hexIf(f.HasStartAddress, f.StartAddress),
		"FileName":      f.File,
		"Line":          f.Line,
		"Column":        f.Column,
		"Discriminator": f.Discriminator,
	}
	if src := sourceContext(p.cfg, f.File, f.Line); src != "" {
		o["Source"] = src
	}
	return o
}

// jsonName is a name as JSONPrinter prints it: llvm's unknown name as "".
func jsonName(s string) string {
	if s == invalidName {
		return ""
	}
	return s
}

func (p *jsonPrinter) data(r request, d symbolize.DataSymbol) {
	p.answer(r, "Data", jsonObject{"Name": d.Name, "Start": hex(d.Start), "Size": hex(d.Size)})
}

func (p *jsonPrinter) invalid(r request, line string) {
	p.answer(r, "Error", jsonObject{"Message": "unable to parse arguments: " + line})
}

func (p *jsonPrinter) moduleError(r request, msg string) bool {
	p.answer(r, "Error", jsonObject{"Message": msg})
	return false
}

func (p *jsonPrinter) listBegin() { p.inList, p.list = true, nil }

func (p *jsonPrinter) listEnd() {
	p.write(appendJSON(p.buf[:0], p.list, 0, p.cfg.pretty))
	p.inList, p.list = false, nil
}

// sourceContext is llvm-symbolizer's SourceCode::format: contextLines
// lines centred on line, numbered, the line itself marked with ">".
func sourceContext(cfg printConfig, file string, line int) string {
	n := cfg.contextLines
	if n <= 0 || cfg.readSource == nil {
		return ""
	}
	rc, err := cfg.readSource(file)
	if err != nil {
		return ""
	}
	defer rc.Close()
	first := max(1, line-n/2)
	last := first + n - 1
	width := 0
	for v := 1; v < last; v *= 10 {
		width++ // ceil(log10(last))
	}
	var b strings.Builder
	r := bufio.NewReader(rc)
	for l := 1; l <= last; l++ {
		text, err := r.ReadString('\n')
		if text == "" && err != nil {
			break
		}
		if l >= first {
			text = strings.TrimSuffix(text, "\n")
			text = strings.TrimSuffix(text, "\r")
			fmt.Fprintf(&b, "%*d", width, l)
			if l == line {
				b.WriteString(" >: ")
			} else {
				b.WriteString("  : ")
			}
			b.WriteString(text + "\n")
		}
		if err != nil {
			break
		}
	}
	return b.String()
}
