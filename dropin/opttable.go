package dropin

import (
	"fmt"
	"sort"
	"strings"

	"github.com/sanitrace/sanitrace/internal/editdist"
)

// This file models the subset of LLVM's OptTable that llvm-symbolizer 14
// uses (grouped short options on), so that every argument vector is
// accepted, rejected or split exactly as the real tool does it. cl::opt is
// not involved: v14 parses its options with OptTable. The table is v14's
// plus the options llvm-symbolizer 19 added that the face implements
// (--build-id, --cache-size, --color, --debuginfod, --no-debuginfod,
// --filter-markup).

type optKind int

const (
	optFlag             optKind = iota // "--name" exactly
	optJoined                          // "--name=VALUE"
	optSeparate                        // "--name VALUE"
	optJoinedOrSeparate                // "-eVALUE" or "-e VALUE"
)

// optID names what an option means once aliases are resolved.
type optID int

const (
	idUnknown optID = iota
	idAddresses
	idAdjustVMA
	idBasenames
	idDebugFileDirectory
	idDefaultArch
	idDemangle
	idNoDemangle
	idDia
	idDsymHint
	idDwp
	idFallbackDebugPath
	idFunctions
	idFunctionsEq
	idHelp
	idInlines
	idNoInlines
	idObj
	idOutputStyle
	idPrettyPrint
	idPrintSourceContextLines
	idRelativeAddress
	idRelativeNames
	idUntagAddresses
	idNoUntagAddresses
	idVerbose
	idVersion
	idUseSymbolTable // accepted and ignored; see docs/differences.md
	// llvm-symbolizer 19's options.
	idBuildID
	idCacheSize
	idColor
	idColorEq
	idDebuginfod
	idNoDebuginfod
	idFilterMarkup
)

type optInfo struct {
	prefix string
	name   string
	kind   optKind
	id     optID
}

// llvmOptions is llvm-symbolizer 14's Opts.td, aliases resolved.
var llvmOptions = sortOptions([]optInfo{
	{"--", "addresses", optFlag, idAddresses},
	{"--", "adjust-vma=", optJoined, idAdjustVMA},
	{"--", "adjust-vma", optSeparate, idAdjustVMA},
	{"--", "basenames", optFlag, idBasenames},
	{"--", "debug-file-directory=", optJoined, idDebugFileDirectory},
	{"--", "debug-file-directory", optSeparate, idDebugFileDirectory},
	{"--", "default-arch=", optJoined, idDefaultArch},
	{"--", "default-arch", optSeparate, idDefaultArch},
	{"--", "demangle", optFlag, idDemangle},
	{"--", "no-demangle", optFlag, idNoDemangle},
	{"--", "dia", optFlag, idDia},
	{"--", "dsym-hint=", optJoined, idDsymHint},
	{"--", "dsym-hint", optSeparate, idDsymHint},
	{"--", "dwp=", optJoined, idDwp},
	{"--", "dwp", optSeparate, idDwp},
	{"--", "fallback-debug-path=", optJoined, idFallbackDebugPath},
	{"--", "fallback-debug-path", optSeparate, idFallbackDebugPath},
	{"--", "functions", optFlag, idFunctions},
	{"--", "functions=", optJoined, idFunctionsEq},
	{"--", "help", optFlag, idHelp},
	{"--", "inlines", optFlag, idInlines},
	{"--", "no-inlines", optFlag, idNoInlines},
	{"--", "obj=", optJoined, idObj},
	{"--", "obj", optSeparate, idObj},
	{"--", "output-style=", optJoined, idOutputStyle},
	{"--", "output-style", optSeparate, idOutputStyle},
	{"--", "pretty-print", optFlag, idPrettyPrint},
	{"--", "print-source-context-lines=", optJoined, idPrintSourceContextLines},
	{"--", "print-source-context-lines", optSeparate, idPrintSourceContextLines},
	{"--", "relative-address", optFlag, idRelativeAddress},
	{"--", "relativenames", optFlag, idRelativeNames},
	{"--", "untag-addresses", optFlag, idUntagAddresses},
	{"--", "no-untag-addresses", optFlag, idNoUntagAddresses},
	{"--", "verbose", optFlag, idVerbose},
	{"--", "version", optFlag, idVersion},
	{"-", "a", optFlag, idAddresses},
	{"--", "print-address", optFlag, idAddresses},
	{"-", "C", optFlag, idDemangle},
	{"--", "exe=", optJoined, idObj},
	{"--", "exe", optSeparate, idObj},
	{"-", "e", optJoinedOrSeparate, idObj},
	{"-", "e=", optJoined, idObj},
	{"-", "f", optFlag, idFunctions},
	{"-", "f=", optJoined, idFunctionsEq},
	{"-", "h", optFlag, idHelp},
	{"-", "i", optFlag, idInlines},
	{"--", "inlining", optFlag, idInlines},
	{"-", "p", optFlag, idPrettyPrint},
	{"-", "s", optFlag, idBasenames},
	{"-", "v", optFlag, idVersion},
	{"--", "inlining=true", optFlag, idInlines},
	{"--", "inlining=false", optFlag, idNoInlines},
	{"-", "demangle=true", optFlag, idDemangle},
	{"-", "demangle=false", optFlag, idNoDemangle},
	// llvm-symbolizer 19's (issue 26); v14 rejects them.
	{"--", "build-id=", optJoined, idBuildID},
	{"--", "build-id", optSeparate, idBuildID},
	{"--", "cache-size=", optJoined, idCacheSize},
	{"--", "cache-size", optSeparate, idCacheSize},
	{"--", "color", optFlag, idColor},
	{"--", "color=", optJoined, idColorEq},
	{"--", "debuginfod", optFlag, idDebuginfod},
	{"--", "no-debuginfod", optFlag, idNoDebuginfod},
	{"--", "filter-markup", optFlag, idFilterMarkup},
	// Not in v14 (v14 rejects it); docs/cli.md asks for it to be accepted.
	{"--", "use-symbol-table", optFlag, idUseSymbolTable},
	{"--", "use-symbol-table=true", optFlag, idUseSymbolTable},
})

// sortOptions orders the table as OptTable does: by name, a name sorting
// after every longer name it is a prefix of, so "inlining=true" is tried
// before "inlining".
func sortOptions(t []optInfo) []optInfo {
	sort.SliceStable(t, func(i, j int) bool { return cmpOptionName(t[i].name, t[j].name) < 0 })
	return t
}

func cmpOptionName(a, b string) int {
	la, lb := strings.ToLower(a), strings.ToLower(b)
	switch {
	case la == lb:
		return 0
	case strings.HasPrefix(lb, la):
		return 1
	case strings.HasPrefix(la, lb):
		return -1
	case la < lb:
		return -1
	}
	return 1
}

// parsedArg is one recognised option with its value.
type parsedArg struct {
	id       optID
	spelling string // as matched, e.g. "--adjust-vma=" or "-e"
	value    string
}

// valueSpelling is how llvm names an option whose value it refuses: by
// its joined spelling ("--adjust-vma="), also when the value came as the
// next argument (the separate form is an alias of the joined one).
func (a parsedArg) valueSpelling() string {
	if strings.HasPrefix(a.spelling, "--") && !strings.HasSuffix(a.spelling, "=") {
		return a.spelling + "="
	}
	return a.spelling
}

// parsedArgs is the result of parsing a whole argument vector.
type parsedArgs struct {
	opts    []parsedArg
	inputs  []string
	unknown []string
	missing string // spelling of an option whose value is missing
}

func (p *parsedArgs) has(id optID) bool {
	for _, o := range p.opts {
		if o.id == id {
			return true
		}
	}
	return false
}

// last returns the value of the last occurrence of id.
func (p *parsedArgs) last(id optID) (parsedArg, bool) {
	for i := len(p.opts) - 1; i >= 0; i-- {
		if p.opts[i].id == id {
			return p.opts[i], true
		}
	}
	return parsedArg{}, false
}

// all returns every value of id in order.
func (p *parsedArgs) all(id optID) []string {
	var v []string
	for _, o := range p.opts {
		if o.id == id {
			v = append(v, o.value)
		}
	}
	return v
}

// hasFlag is OptTable's hasFlag(pos, neg, default): the last of the two wins.
func (p *parsedArgs) hasFlag(pos, neg optID, def bool) bool {
	for i := len(p.opts) - 1; i >= 0; i-- {
		switch p.opts[i].id {
		case pos:
			return true
		case neg:
			return false
		}
	}
	return def
}

// parseOptTable parses args as OptTable::ParseArgs with grouped short
// options does. Parsing stops at the first missing argument.
func parseOptTable(table []optInfo, args []string) *parsedArgs {
	p := &parsedArgs{}
	for i := 0; i < len(args); {
		a := args[i]
		if a == "-" || !strings.HasPrefix(a, "-") {
			p.inputs = append(p.inputs, a)
			i++
			continue
		}
		if strings.HasPrefix(a, "--") {
			next, ok := parseLong(table, args, i, p)
			if !ok {
				return p
			}
			i = next
			continue
		}
		next, ok := parseGrouped(table, args, i, p)
		if !ok {
			return p
		}
		i = next
	}
	return p
}

// accept tries option o against args[i] (which o's spelling prefixes). It
// returns the index after the consumed arguments, or ok=false if o does not
// accept the argument; missing is true when the value is missing, which
// it records in p.
func accept(o optInfo, args []string, i int, p *parsedArgs) (next int, ok, missing bool) {
	sp := o.prefix + o.name
	a := args[i]
	switch o.kind {
	case optFlag:
		if a != sp {
			return 0, false, false
		}
		p.opts = append(p.opts, parsedArg{id: o.id, spelling: sp})
		return i + 1, true, false
	case optJoined:
		p.opts = append(p.opts, parsedArg{id: o.id, spelling: sp, value: a[len(sp):]})
		return i + 1, true, false
	case optSeparate:
		if a != sp {
			return 0, false, false
		}
		if i+1 >= len(args) {
			p.missing = sp
			return 0, false, true
		}
		p.opts = append(p.opts, parsedArg{id: o.id, spelling: sp, value: args[i+1]})
		return i + 2, true, false
	case optJoinedOrSeparate:
		if a != sp {
			p.opts = append(p.opts, parsedArg{id: o.id, spelling: sp, value: a[len(sp):]})
			return i + 1, true, false
		}
		if i+1 >= len(args) {
			p.missing = sp
			return 0, false, true
		}
		p.opts = append(p.opts, parsedArg{id: o.id, spelling: sp, value: args[i+1]})
		return i + 2, true, false
	}
	return 0, false, false
}

func parseLong(table []optInfo, args []string, i int, p *parsedArgs) (int, bool) {
	a := args[i]
	for _, o := range table {
		if !strings.HasPrefix(a, o.prefix+o.name) || o.prefix != "--" {
			continue
		}
		if next, ok, missing := accept(o, args, i, p); ok || missing {
			return next, ok
		}
	}
	p.unknown = append(p.unknown, a)
	return i + 1, true
}

// parseGrouped handles one "-xyz" argument: the longest single-dash option
// it spells, else its first letter as a flag and the rest as a new group.
func parseGrouped(table []optInfo, args []string, i int, p *parsedArgs) (int, bool) {
	args = append([]string(nil), args...) // the group is rewritten in place
	for {
		a := args[i]
		var fallback *optInfo
		for k := range table {
			o := table[k]
			if o.prefix != "-" || !strings.HasPrefix(a, "-"+o.name) {
				continue
			}
			if next, ok, missing := accept(o, args, i, p); ok || missing {
				return next, ok
			}
			if len(o.name) == 1 && o.kind == optFlag {
				fallback = &table[k]
			}
		}
		if fallback != nil && !(len(a) > 2 && a[2] == '=') {
			p.opts = append(p.opts, parsedArg{id: fallback.id, spelling: "-" + fallback.name})
			if len(a) == 2 {
				return i + 1, true
			}
			args[i] = "-" + a[2:]
			continue
		}
		if fallback != nil {
			// "-s=x": v14 reports the whole rest as one unknown argument.
			p.unknown = append(p.unknown, a)
			return i + 1, true
		}
		// An unknown letter: report it and go on with the rest of the group.
		p.unknown = append(p.unknown, a[:2])
		if len(a) == 2 {
			return i + 1, true
		}
		args[i] = "-" + a[2:]
	}
}

// nearest is OptTable::findNearest: the option spelling closest to arg by
// edit distance (names shorter than 4 letters are not candidates).
func nearest(table []optInfo, arg string) (string, int) {
	best, bestS := int(^uint(0)>>1), ""
	for _, o := range table {
		if len(o.name) < 4 {
			continue
		}
		last := o.name[len(o.name)-1]
		delim := last == '=' || last == ':'
		normalized, rhs := arg, ""
		if delim {
			lhs, r, found := strings.Cut(arg, string(last))
			rhs = r
			normalized = lhs
			if found {
				normalized += string(last)
			}
		}
		cand := o.prefix + o.name
		d := editdist.Levenshtein(cand, normalized, -1)
		if rhs == "" && delim {
			d++
		}
		if d < best {
			best, bestS = d, cand+rhs
		}
	}
	return bestS, best
}

// unknownArgError is llvm-symbolizer's message for an unknown argument.
func unknownArgError(table []optInfo, arg string) string {
	if n, d := nearest(table, arg); d <= 1 {
		return fmt.Sprintf("error: unknown argument '%s', did you mean '%s'?", arg, n)
	}
	return fmt.Sprintf("error: unknown argument '%s'", arg)
}
