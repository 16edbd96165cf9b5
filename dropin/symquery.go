package dropin

import (
	"fmt"
	"github.com/sanitrace/sanitrace/modcache"
	"strings"

	"github.com/sanitrace/sanitrace/internal/llvmnum"
	"github.com/sanitrace/sanitrace/markup"
	"github.com/sanitrace/sanitrace/symbolize"
)

// Queries by symbol name, which llvm-symbolizer 18 added: where v14 finds
// no number ("main", "prog main+0x10", "CODE prog _Z3foov"), v18+ reads
// the word as a symbol, optionally followed by +OFFSET, and answers with
// the location of every function of that name (DATA and FRAME queries
// look at address OFFSET instead). The face answers such lines as v19
// does; every other line keeps v14's reading.

// symbolQuery is a query by symbol name.
type symbolQuery struct {
	cmd    command
	module string // what the module cache opens
	shown  string // the module as answers name it
	symbol string
	offset uint64
}

// parseSymbolQuery reads line as llvm-symbolizer 19's parseCommand does
// and reports whether it is a query by symbol name. obj is the --obj (or
// --build-id) module, "" when the line names it.
func parseSymbolQuery(line, obj string) (q symbolQuery, ok bool) {
	q.cmd, line = cutCommand(line)
	var file, buildID bool
	for line != "" {
		line = trimSpaceLeft(line)
		if rest, ok := strings.CutPrefix(line, "FILE:"); ok && !file && !buildID {
			file, line = true, rest
			continue
		}
		if rest, ok := strings.CutPrefix(line, buildIDPrefix); ok && !file && !buildID {
			buildID, line = true, rest
			continue
		}
		if strings.HasPrefix(line, "FILE:") || strings.HasPrefix(line, buildIDPrefix) {
			return q, false // a second prefix
		}
		break
	}
	switch {
	case file || buildID:
		line = trimSpaceLeft(line)
		if line == "" || obj != "" {
			return q, false
		}
		var name string
		if name, line = spaceDelimitedWord(line); name == "" {
			return q, false
		}
		if !buildID {
			q.module = name
			break
		}
		id, ok := markup.ParseBuildID(name)
		if !ok {
			return q, false
		}
		q.module, q.shown = fmt.Sprintf("%s%x", buildIDPrefix, id), fmt.Sprintf("%X", id)
	case obj == "":
		if q.module, line = spaceDelimitedWord(line); q.module == "" {
			return q, false
		}
	default:
		q.module = obj
		if id, ok := strings.CutPrefix(obj, buildIDPrefix); ok {
			q.shown = strings.ToUpper(id)
		}
	}
	line = strings.Trim(line, " \t\n\v\f\r")
	spec := line[:indexDelim(line)]
	if spec == "" || spec[0] >= '0' && spec[0] <= '9' {
		return q, false // an address, or v19's "expected a number"
	}
	q.symbol = spec
	if plus := strings.LastIndexByte(spec, '+'); plus > 0 && plus < len(spec)-1 {
		if off, ok := llvmnum.ParseUint(spec[plus+1:], 0); ok {
			q.symbol, q.offset = spec[:plus], off
		}
	}
	if q.shown == "" {
		q.shown = q.module
	}
	return q, true
}

// trimSpaceLeft is StringRef::ltrim: spaces, tabs, line feeds, vertical
// tabs, form feeds and carriage returns.
func trimSpaceLeft(s string) string { return strings.TrimLeft(s, " \t\n\v\f\r") }

// spaceDelimitedWord is llvm-symbolizer's getSpaceDelimitedWord: after
// spaces, line feeds and carriage returns, a word up to the next of them,
// or a quoted one ("" when its quote is not closed); rest follows it.
func spaceDelimitedWord(s string) (word, rest string) {
	s = skipDelims(s)
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", s
		}
		return s[1 : 1+end], s[2+end:]
	}
	n := indexDelim(s)
	return s[:n], s[n:]
}

// answerSymbol answers a query by symbol name. On the command line
// (argv), a word that names no symbol of its module is not answered
// (false): v14 echoes such words, and the face keeps that answer for them
// (docs/differences.md).
func (s *llvmSession) answerSymbol(q symbolQuery, argv bool) bool {
	r := request{module: q.shown, symbol: q.symbol}
	l, err := s.modules.get(q.module)
	defer l.Release()
	mod := l.Obj
	if argv && err == nil && mod != nil && q.cmd == cmdCode && len(s.symbolAddresses(mod, q)) == 0 {
		return false
	}
	if err != nil {
		if !s.printer.moduleError(r, llvmErrorMessage(q.module, err)) {
			return true
		}
	}
	switch q.cmd {
	case cmdData, cmdFrame:
		// v19 looks at address OFFSET (minus --adjust-vma); its plain
		// header prints the request's absent address, which came out as 0.
		r.hasAddr = true
		s.respond(s.printer, q.cmd, r, mod, q.offset-s.cfg.adjustVMA)
	default:
		s.printer.locations(r, s.symbolLocations(mod, q))
	}
	return true
}

// symbolAddresses are the addresses of the symbols q names.
func (s *llvmSession) symbolAddresses(mod modcache.Object, q symbolQuery) []uint64 {
	if mod == nil {
		return nil
	}
	return mod.SymbolAddresses(q.symbol, q.offset)
}

// symbolLocations are the answers to a CODE query by symbol name: at the
// address of every symbol of that name, the location as a query without
// inlining gives it, when it has a file.
func (s *llvmSession) symbolLocations(mod modcache.Object, q symbolQuery) []symbolize.Frame {
	opts := s.cfg.lookup
	opts.Inlines = false
	var locs []symbolize.Frame
	for _, a := range s.symbolAddresses(mod, q) {
		frames, err := mod.Symbolize(a, opts)
		if err != nil || len(frames) == 0 || frames[0].File == "" {
			continue
		}
		locs = append(locs, frames[0])
	}
	// locs holds copies of the frames: they are changed in place.
	setInvalidStartFile(locs)
	if s.cfg.basenames {
		setBaseNames(locs)
	}
	return locs
}

// locations prints the locations a query by symbol name found: one frame
// each, then one footer; an unknown answer when there is none.
func (p *plainPrinter) locations(r request, locs []symbolize.Frame) {
	if len(locs) == 0 {
		p.code(r, nil)
		return
	}
	for _, f := range locs {
		p.oneFrame(f, false)
	}
	p.footer()
	p.flush()
}

// locations is the JSON answer to a query by symbol name: a "Loc" array
// of the frames' fields (without source context).
func (p *jsonPrinter) locations(r request, locs []symbolize.Frame) {
	v := make([]jsonValue, 0, len(locs))
	for _, f := range locs {
		o := p.symbol(f)
		delete(o, "Source")
		v = append(v, o)
	}
	p.answer(r, "Loc", v)
}
