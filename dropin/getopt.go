package dropin

import (
	"fmt"
	"strings"
)

// This file is glibc's getopt_long as binutils uses it: options and
// operands may be mixed (operands are collected in order), "--" ends the
// options, short options cluster ("-fiCa", "-fe prog", "-eprog"), long
// options may be abbreviated to a unique prefix, and error messages read
// exactly as glibc's.

type argKind int

const (
	argNone argKind = iota
	argRequired
	argOptional
)

type getoptLong struct {
	name string
	has  argKind
	val  byte
}

type getopt struct {
	args  []string
	short string
	long  []getoptLong

	i        int    // next argument
	cluster  string // rest of a short-option cluster being read
	operands []string
}

// next returns the next option and its argument. errMsg is set (without
// the program name) when the option is invalid; done when options end.
func (g *getopt) next() (c byte, arg, errMsg string, done bool) {
	if g.cluster == "" {
		for {
			if g.i >= len(g.args) {
				return 0, "", "", true
			}
			a := g.args[g.i]
			g.i++
			if a == "--" {
				g.operands = append(g.operands, g.args[g.i:]...)
				g.i = len(g.args)
				return 0, "", "", true
			}
			if strings.HasPrefix(a, "--") {
				return g.longOption(a[2:])
			}
			if len(a) > 1 && a[0] == '-' {
				g.cluster = a[1:]
				break
			}
			g.operands = append(g.operands, a)
		}
	}
	c, g.cluster = g.cluster[0], g.cluster[1:]
	k := strings.IndexByte(g.short, c)
	if k < 0 || c == ':' {
		return c, "", fmt.Sprintf("invalid option -- '%c'", c), false
	}
	if k+1 < len(g.short) && g.short[k+1] == ':' {
		if g.cluster != "" {
			arg, g.cluster = g.cluster, ""
			return c, arg, "", false
		}
		if g.i >= len(g.args) {
			return c, "", fmt.Sprintf("option requires an argument -- '%c'", c), false
		}
		arg = g.args[g.i]
		g.i++
	}
	return c, arg, "", false
}

func (g *getopt) longOption(s string) (c byte, arg, errMsg string, done bool) {
	name, value, hasValue := strings.Cut(s, "=")
	var found *getoptLong
	ambiguous := false
	for k := range g.long {
		o := &g.long[k]
		if o.name == name {
			found, ambiguous = o, false
			break
		}
		if strings.HasPrefix(o.name, name) {
			if found == nil {
				found = o
			} else if found.has != o.has || found.val != o.val {
				ambiguous = true
			}
		}
	}
	if found == nil {
		return '?', "", fmt.Sprintf("unrecognized option '--%s'", s), false
	}
	if ambiguous {
		return '?', "", fmt.Sprintf("option '--%s' is ambiguous", name), false
	}
	switch found.has {
	case argNone:
		if hasValue {
			return '?', "", fmt.Sprintf("option '--%s' doesn't allow an argument", found.name), false
		}
	case argRequired:
		if !hasValue {
			if g.i >= len(g.args) {
				return '?', "", fmt.Sprintf("option '--%s' requires an argument", found.name), false
			}
			value = g.args[g.i]
			g.i++
		}
	}
	return found.val, value, "", false
}

// positional returns the operands: those seen and the unread rest.
func (g *getopt) positional() []string {
	return append(g.operands, g.args[g.i:]...)
}
