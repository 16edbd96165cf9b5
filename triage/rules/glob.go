package rules

import (
	"regexp"
	"strings"
)

// glob is a compiled pattern: "*" matches any run of characters ("**" too);
// in path-like patterns (module:, path:) "*" stops at "/" and "**" does
// not; "?" is one character ("/" excluded in paths). Every other character
// is itself: "operator[]" is a function name, not a character class.
// Path-like patterns ignore case, as Sentry's do.
type glob struct {
	src string
	// Fast forms of the common patterns; re is the general one.
	kind     globKind
	lit      string
	re       *regexp.Regexp
	need     string // globRegexp: the longest literal run, which a match holds
	pathLike bool   // matched against a foldPath'd value; without "/" against its base name too
}

type globKind uint8

const (
	globExact globKind = iota
	globPrefix
	globSuffix
	globAny
	globContains
	globRegexp
)

func compileGlob(p string, pathLike bool) (*glob, error) {
	g := &glob{src: p, pathLike: pathLike}
	if pathLike {
		p = strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	}
	meta := func(s string) bool { return strings.ContainsAny(s, "*?") }
	switch {
	case p == "*" || p == "**":
		g.kind = globAny
		return g, nil
	case !meta(p):
		g.kind, g.lit = globExact, p
		return g, nil
	case strings.HasSuffix(p, "**") && !meta(strings.TrimSuffix(p, "**")),
		!pathLike && strings.HasSuffix(p, "*") && !meta(strings.TrimSuffix(p, "*")):
		g.kind, g.lit = globPrefix, strings.TrimRight(p, "*")
		return g, nil
	case strings.HasPrefix(p, "**") && !meta(strings.TrimPrefix(p, "**")),
		!pathLike && strings.HasPrefix(p, "*") && !meta(strings.TrimPrefix(p, "*")):
		g.kind, g.lit = globSuffix, strings.TrimLeft(p, "*")
		return g, nil
	}
	if inner, ok := strings.CutPrefix(p, "**"); ok {
		if inner, ok = strings.CutSuffix(inner, "**"); ok && inner != "" && !meta(inner) {
			g.kind, g.lit = globContains, inner
			return g, nil
		}
	}
	for _, run := range strings.FieldsFunc(p, func(r rune) bool { return r == '*' || r == '?' }) {
		if len(run) > len(g.need) {
			g.need = run
		}
	}
	var b strings.Builder
	b.WriteString(`^(?s:`)
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '*' && i+1 < len(p) && p[i+1] == '*':
			b.WriteString(`.*`)
			for i+1 < len(p) && p[i+1] == '*' {
				i++
			}
		case c == '*' && pathLike:
			b.WriteString(`[^/]*`)
		case c == '*':
			b.WriteString(`.*`)
		case c == '?' && pathLike:
			b.WriteString(`[^/]`)
		case c == '?':
			b.WriteString(`.`)
		default:
			j := i
			for j < len(p) && p[j] != '*' && p[j] != '?' {
				j++
			}
			b.WriteString(regexp.QuoteMeta(p[i:j]))
			i = j - 1
		}
	}
	b.WriteString(`)$`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, err
	}
	g.kind, g.re = globRegexp, re
	return g, nil
}

// match reports whether s matches; a path-like pattern's input must be
// normalized (foldPath) by the caller, once per frame.
func (g *glob) match(s string) bool {
	switch g.kind {
	case globExact:
		return s == g.lit
	case globPrefix:
		return strings.HasPrefix(s, g.lit)
	case globSuffix:
		return strings.HasSuffix(s, g.lit)
	case globAny:
		return true
	case globContains:
		return strings.Contains(s, g.lit)
	}
	return strings.Contains(s, g.need) && g.re.MatchString(s)
}

// foldPath is a path as path-like patterns match it: lower case, "/"
// separators.
func foldPath(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, `\`, "/"))
}
