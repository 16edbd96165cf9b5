package cxxfilt

import (
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// An unresolved name's qualifier level with template arguments, the
// "9is_signedIT_E" of "sr3std9is_signedIT_EE5value", is no substitution
// candidate in LLVM or libiberty; the module's parser adds one, so every
// later S<n>_ at or past it names the entry before the one the compiler
// meant ("llvm::Optional<is_signed>" for "llvm::Optional<int>").
//
// The parser's table cannot be edited from outside, so the mangled name is
// rewritten instead: every later reference at or past the extra entry is
// renumbered one up. Where the extra entry sits and which "S...​_" bytes
// are references (and not part of an identifier) is asked of the parser
// itself: it reports a reference past the end of its table with the table's
// length and the reference's offset, so a probe that puts an impossible
// reference at a position tells both.

// probeRef is a substitution reference far past any table.
const probeRef = "SZZZZ_"

// maxProbes bounds the parses one name may cost: a hostile name can hold
// any number of "sr" and "S_" bytes. Real names need a few dozen.
const maxProbes = 256

// srSubsFixed returns name with its references renumbered for each
// templated "sr" qualifier level the module would count, or name itself.
func srSubsFixed(name string, withN bool, opts []demangle.Option) string {
	if !strings.Contains(name, "sr") {
		return name
	}
	from, probes := 0, 0
	for probes < maxProbes {
		j := srTemplatedLevel(name, from, withN)
		if j < 0 {
			return name
		}
		from = j
		probes++
		k, ok := probeTableLen(name[:j+1], j+1, opts)
		if !ok {
			continue
		}
		name = renumberFrom(name, j+1, k-1, opts, &probes)
	}
	return name
}

// srTemplatedLevel returns the offset of the 'I' that starts the template
// arguments of the first templated qualifier level of an "sr" unresolved
// name at or past from, or -1. It reads "sr" <level>+ and "srN" <simple
// type> <level>+, where a level is a length-prefixed identifier.
func srTemplatedLevel(name string, from int, withN bool) int {
	for {
		i := strings.Index(name[from:], "sr")
		if i < 0 {
			return -1
		}
		j := from + i + 2
		from = j
		if j < len(name) && name[j] == 'N' {
			if !withN {
				continue
			}
			// A substitution or template parameter as the type.
			j++
			if j >= len(name) || (name[j] != 'S' && name[j] != 'T') {
				continue
			}
			j++
			for j < len(name) && (isDigit(name[j]) || isUpper(name[j])) {
				j++
			}
			if j >= len(name) || name[j] != '_' {
				continue
			}
			j++
		}
		for j < len(name) && isDigit(name[j]) {
			n := 0
			for j < len(name) && isDigit(name[j]) && n < 1<<20 {
				n = n*10 + int(name[j]-'0')
				j++
			}
			j += n
			if j >= len(name) {
				break
			}
			if name[j] == 'I' {
				return j
			}
		}
	}
}

// probeTableLen parses prefix followed by an impossible reference and
// returns the length of the substitution table there, when the parser
// reached the reference at offset at.
func probeTableLen(prefix string, at int, opts []demangle.Option) (int, bool) {
	_, err := demangle.ToAST(prefix+probeRef, opts...)
	if err == nil {
		return 0, false
	}
	// The message is "substitution index out of range (<id> >= <n>) at
	// <offset>"; it is read by hand, as fmt.Sscanf cost a third of a
	// probe.
	const head = "substitution index out of range ("
	msg := err.Error()
	i := strings.Index(msg, head)
	if i < 0 {
		return 0, false
	}
	rest := msg[i+len(head):]
	_, rest, ok := cutNumber(rest, " >= ")
	if !ok {
		return 0, false
	}
	n, rest, ok := cutNumber(rest, ") at ")
	if !ok {
		return 0, false
	}
	off, rest, ok := cutNumber(rest, "")
	if !ok || rest != "" || off != at+1 {
		return 0, false
	}
	return n, true
}

// cutNumber reads a decimal number at the start of s followed by sep and
// returns it and what follows sep.
func cutNumber(s, sep string) (int, string, bool) {
	j, n := 0, 0
	for j < len(s) && isDigit(s[j]) && n < 1<<40 {
		n = n*10 + int(s[j]-'0')
		j++
	}
	if j == 0 || !strings.HasPrefix(s[j:], sep) {
		return 0, "", false
	}
	return n, s[j+len(sep):], true
}

// renumberFrom adds one to every substitution reference at or past offset
// from whose index is k or more.
func renumberFrom(name string, from, k int, opts []demangle.Option, probes *int) string {
	return itaniumSubst.bump(name, from, k, func(p int) (bool, bool) {
		// Only a reference at or past k costs a parse to tell it from
		// identifier bytes.
		if *probes >= maxProbes {
			return false, false
		}
		*probes++
		_, ok := probeTableLen(name[:p], p, opts)
		return ok, true
	})
}

// ciBaseFixed returns name rewritten for LLVM 14's reading of inheriting
// constructors: it parses the base after "CI1", "CI2"... as a name, which
// adds no table entry for the base type as a whole; the module parses it as
// a type and adds one. Later references at or past that entry are
// renumbered one up (a reference LLVM 14 finds out of range stays out of
// range, and the name is printed mangled, as llvm-symbolizer 14 prints it).
func ciBaseFixed(name string, opts []demangle.Option) string {
	return rewriteEach(name, "CI", func(name string, i int, probes *int) (string, int) {
		if i+3 >= len(name) || name[i+2] < '1' || name[i+2] > '5' {
			return name, i + 2
		}
		*probes++
		before, ok := probeTableLen(name[:i+3], i+3, opts)
		if !ok {
			return name, i + 2
		}
		// The base ends at the 'E' that closes the nested name:
		// the first 'E' after which the parser reads a type.
		for q := i + 3; q < len(name) && *probes < maxProbes; q++ {
			if name[q] != 'E' {
				continue
			}
			*probes++
			// "P" reads as a type (a parameter) but not as a
			// further component of the nested name.
			after, ok := probeTableLen(name[:q+1]+"P", q+2, opts)
			if !ok {
				continue
			}
			if after > before {
				name = renumberFrom(name, q+1, after-1, opts, probes)
			}
			break
		}
		return name, i + 2
	})
}

// rewriteEach calls fix at each offset i where marker stands in name, from
// the left, while the parses spent (probes, which fix counts) stay under
// maxProbes. fix returns the name, rewritten or not, and the offset to look
// on from.
func rewriteEach(name, marker string, fix func(name string, i int, probes *int) (string, int)) string {
	probes := 0
	for from := 0; probes < maxProbes; {
		i := strings.Index(name[from:], marker)
		if i < 0 {
			return name
		}
		name, from = fix(name, from+i, &probes)
	}
	return name
}
