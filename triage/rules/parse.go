package rules

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode/utf8"
)

// SyntaxError is a malformed rule: the file, the 1-based line and what is
// wrong with it.
type SyntaxError struct {
	File string
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// maxLine bounds a rule's line: a longer one is an error, not a
// reallocation without end.
const maxLine = 64 << 10

// ReadFile parses the rules file at name.
func ReadFile(name string) (*Set, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(name, f)
}

// Parse reads rules from r, named name in errors. It stops at the first
// malformed line, returning a *SyntaxError.
func Parse(name string, r io.Reader) (*Set, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	set := &Set{}
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if line == 1 {
			text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf")) // a BOM
		}
		if !utf8.Valid(text) {
			return nil, &SyntaxError{name, line, "not valid UTF-8"}
		}
		r, ok, msg := parseRule(string(text))
		if msg != "" {
			return nil, &SyntaxError{name, line, msg}
		}
		if ok {
			r.line = line
			set.rules = append(set.rules, r)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &SyntaxError{name, line + 1, fmt.Sprintf("line longer than %d bytes", maxLine)}
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return set, nil
}

// matcherFields are the matcher names, Sentry's "stack." spellings with
// them.
var matcherFields = map[string]field{
	"function": fieldFunction, "stack.function": fieldFunction,
	"module": fieldModule, "stack.module": fieldModule, "package": fieldModule, "stack.package": fieldModule,
	"path": fieldPath, "stack.abs_path": fieldPath, "abs_path": fieldPath,
	"family": fieldFamily, "app": fieldApp, "stack.app": fieldApp, "class": fieldClass,
}

// parseRule parses one line: ok is false for a blank or comment line, msg
// says what is wrong.
func parseRule(text string) (r rule, ok bool, msg string) {
	toks, msg := tokenize(text)
	if msg != "" || len(toks) == 0 {
		return rule{}, false, msg
	}
	for _, t := range toks {
		if t.action {
			if msg := r.addAction(t.text); msg != "" {
				return rule{}, false, msg
			}
			continue
		}
		if r.app != 0 || r.group != 0 {
			return rule{}, false, fmt.Sprintf("matcher %q after an action: matchers come first", t.text)
		}
		m, msg := parseMatcher(t)
		if msg != "" {
			return rule{}, false, msg
		}
		r.matchers = append(r.matchers, m)
	}
	// The cheap matchers first: a rule stops at its first miss, and most
	// rules of a set miss most frames on their family or class.
	sort.SliceStable(r.matchers, func(i, j int) bool { return r.matchers[i].glob == nil && r.matchers[j].glob != nil })
	switch {
	case len(r.matchers) == 0:
		return rule{}, false, "no matcher before the actions (want e.g. function:NAME -app)"
	case r.app == 0 && r.group == 0:
		return rule{}, false, "no action (want +app, -app, +group or -group after the matchers)"
	}
	return r, true, ""
}

func (r *rule) addAction(a string) string {
	var dst *int8
	switch strings.TrimLeft(a, "+-") {
	case "app":
		dst = &r.app
	case "group":
		dst = &r.group
	}
	if dst == nil || len(a) < 2 || (a[0] != '+' && a[0] != '-') {
		switch {
		case strings.HasPrefix(a, "^") || strings.HasPrefix(a, "v"):
			return fmt.Sprintf("range action %q is not supported (want +app, -app, +group or -group)", a)
		case strings.Contains(a, "="):
			return fmt.Sprintf("variable action %q is not supported (want +app, -app, +group or -group)", a)
		}
		return fmt.Sprintf("unknown action %q (want +app, -app, +group or -group)", a)
	}
	v := int8(1)
	if a[0] == '-' {
		v = -1
	}
	if *dst != 0 && *dst != v {
		return fmt.Sprintf("action %q contradicts an earlier one of the rule", a)
	}
	*dst = v
	return ""
}

func parseMatcher(t token) (matcher, string) {
	m := matcher{negated: t.negated}
	fd, ok := matcherFields[t.name]
	if !ok {
		return m, fmt.Sprintf("unknown matcher %q (want function:, module:, path:, family:, app: or class:)", t.name+":")
	}
	m.field = fd
	if t.text == "" {
		return m, fmt.Sprintf("%s: has no pattern", t.name)
	}
	switch fd {
	case fieldFamily:
		for _, name := range strings.Split(t.text, ",") {
			f, ok := familyByName(strings.TrimSpace(name))
			if !ok {
				return m, fmt.Sprintf("unknown family %q (want native, go, rust, kernel or all, comma-separated)", name)
			}
			m.families |= f
		}
	case fieldApp:
		switch strings.ToLower(t.text) {
		case "yes", "true", "1":
			m.app = true
		case "no", "false", "0":
		default:
			return m, fmt.Sprintf("app:%s: want app:yes or app:no", t.text)
		}
	case fieldClass:
		c, ok := classNames[t.text]
		if !ok {
			return m, fmt.Sprintf("unknown class %q (want user, runtime, interceptor, libc, cxx or nocode)", t.text)
		}
		m.class = c
	default:
		g, err := compileGlob(t.text, fd != fieldFunction)
		if err != nil {
			return m, fmt.Sprintf("%s:%s: %v", t.name, t.text, err)
		}
		m.glob = g
	}
	return m, ""
}

func familyByName(name string) (uint8, bool) {
	if name == "all" {
		return 0xff, true
	}
	for i, n := range familyNames {
		if n == name {
			return 1 << i, true
		}
	}
	return 0, false
}

// token is one word of a rule: an action ("-app") or a matcher
// ("!function:foo*", its value unquoted).
type token struct {
	action  bool
	negated bool
	name    string
	text    string
}

// tokenize splits a line into words: spaces separate them, a "#" outside
// quotes starts a comment, and a matcher's value may be double-quoted
// (function:"operator new", with \" and \\ inside).
func tokenize(s string) ([]token, string) {
	var toks []token
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++
		}
		if i == len(s) || s[i] == '#' {
			return toks, ""
		}
		start := i
		if s[i] == '+' || s[i] == '-' || s[i] == '^' || (s[i] == 'v' && i+1 < len(s) && (s[i+1] == '+' || s[i+1] == '-')) {
			for i < len(s) && s[i] != ' ' && s[i] != '\t' {
				i++
			}
			toks = append(toks, token{action: true, text: s[start:i]})
			continue
		}
		t := token{}
		if s[i] == '!' {
			t.negated = true
			i++
		}
		colon := strings.IndexByte(s[i:], ':')
		space := strings.IndexAny(s[i:], " \t")
		if colon < 0 || (space >= 0 && space < colon) {
			end := len(s)
			if space >= 0 {
				end = i + space
			}
			word := s[start:end]
			if strings.Contains(word, "=") {
				return nil, fmt.Sprintf("variable action %q is not supported (want +app, -app, +group or -group)", word)
			}
			return nil, fmt.Sprintf("%q is neither a matcher (name:pattern) nor an action (+app, -app, +group, -group)", word)
		}
		t.name = s[i : i+colon]
		i += colon + 1
		if i < len(s) && s[i] == '"' {
			var b strings.Builder
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				if c == '\\' && i+1 < len(s) {
					b.WriteByte(s[i+1])
					i += 2
					continue
				}
				i++
				if c == '"' {
					closed = true
					break
				}
				b.WriteByte(c)
			}
			if !closed {
				return nil, fmt.Sprintf("%s: quoted pattern without its closing \"", t.name)
			}
			if i < len(s) && s[i] != ' ' && s[i] != '\t' {
				return nil, fmt.Sprintf("%s: text right after the closing quote", t.name)
			}
			t.text = b.String()
		} else {
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' {
				j++
			}
			t.text = s[i:j]
			i = j
		}
		toks = append(toks, t)
	}
}
