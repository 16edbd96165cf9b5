package markup

import "strings"

// NodeKind says what a Node of a line is.
type NodeKind uint8

const (
	// Text is text outside markup, to be written as it is.
	Text NodeKind = iota
	// SGR is one of the ANSI escapes the format allows between elements:
	// ESC[0m (reset), ESC[1m (bold), ESC[30m to ESC[37m (colours).
	SGR
	// Elem is a {{{tag:field:…}}} element.
	Elem
)

// Node is one piece of a line: text, an SGR escape or an element. Its
// strings are substrings of the line.
type Node struct {
	Kind   NodeKind
	Text   string // the bytes of the line the node covers
	Pos    int    // where Text starts in the line
	Tag    string // Elem: the tag, as written (ValidTag says whether llvm accepts it)
	Fields []string
}

// TagPos is where an element's tag starts in the line.
func (n *Node) TagPos() int { return n.Pos + len("{{{") }

// TagEnd is where an element's tag ends in the line (llvm's caret for a
// wrong number of fields).
func (n *Node) TagEnd() int { return n.TagPos() + len(n.Tag) }

// FieldPos is where field i starts in the line.
func (n *Node) FieldPos(i int) int {
	p := n.TagEnd() + 1
	for _, f := range n.Fields[:i] {
		p += len(f) + 1
	}
	return p
}

// ValidTag reports whether tag is made of lower-case ASCII letters only,
// as llvm requires of a tag before it interprets or copies an element.
func ValidTag(tag string) bool {
	for i := 0; i < len(tag); i++ {
		if tag[i] < 'a' || tag[i] > 'z' {
			return false
		}
	}
	return true
}

// Parser splits lines into nodes. Its buffers are reused from line to
// line, so the nodes of a line (and their Fields) are valid until the next
// call of Parse. The zero Parser is ready to use.
type Parser struct {
	nodes  []Node
	fields []string
	line   int
}

// Line is the number of the last line parsed, counting from 1.
func (p *Parser) Line() int { return p.line }

// Parse splits line (with its line ending, if any) into nodes, in order;
// their texts concatenated give the line back. An element is the first
// "{{{" followed by a "}}}"; when its tag is empty it is text, and the
// search goes on after it.
func (p *Parser) Parse(line string) []Node {
	p.line++
	p.nodes, p.fields = p.nodes[:0], p.fields[:0]
	off := 0
	for off < len(line) {
		start, end, ok := nextElement(line, off)
		if !ok {
			p.outside(line, off, len(line))
			break
		}
		p.outside(line, off, start)
		p.element(line, start, end)
		off = end
	}
	return p.nodes
}

// nextElement finds the first element at or after off: "{{{", the first
// "}}}" after it, a non-empty tag.
func nextElement(line string, off int) (start, end int, ok bool) {
	for {
		b := strings.Index(line[off:], "{{{")
		if b < 0 {
			return 0, 0, false
		}
		b += off
		e := strings.Index(line[b+3:], "}}}")
		if e < 0 {
			return 0, 0, false
		}
		e += b + 6
		if line[b+3] != ':' && b+3 != e-3 {
			return b, e, true
		}
		off = e // an empty tag: text, look further
	}
}

// element adds the element line[start:end].
func (p *Parser) element(line string, start, end int) {
	content := line[start+3 : end-3]
	tag, rest, hasFields := strings.Cut(content, ":")
	first := len(p.fields)
	if hasFields {
		for {
			f, more, ok := strings.Cut(rest, ":")
			p.fields = append(p.fields, f)
			if !ok {
				break
			}
			rest = more
		}
	}
	p.nodes = append(p.nodes, Node{Kind: Elem, Text: line[start:end], Pos: start, Tag: tag, Fields: p.fields[first:len(p.fields):len(p.fields)]})
}

// outside adds line[from:to], text outside elements, split at the SGR
// escapes it holds.
func (p *Parser) outside(line string, from, to int) {
	for from < to {
		s, e, ok := nextSGR(line[:to], from)
		if !ok {
			break
		}
		if s > from {
			p.nodes = append(p.nodes, Node{Kind: Text, Text: line[from:s], Pos: from})
		}
		p.nodes = append(p.nodes, Node{Kind: SGR, Text: line[s:e], Pos: s})
		from = e
	}
	if from < to {
		p.nodes = append(p.nodes, Node{Kind: Text, Text: line[from:to], Pos: from})
	}
}

// nextSGR finds the first ESC[0m, ESC[1m or ESC[30m–ESC[37m in s at or
// after off.
func nextSGR(s string, off int) (start, end int, ok bool) {
	for i := off; i < len(s); i++ {
		if s[i] != '\033' {
			continue
		}
		if n := sgrLen(s[i:]); n > 0 {
			return i, i + n, true
		}
	}
	return 0, 0, false
}

// sgrLen is the length of the SGR escape s starts with, 0 if none.
func sgrLen(s string) int {
	if len(s) < 4 || s[1] != '[' {
		return 0
	}
	switch {
	case (s[2] == '0' || s[2] == '1') && s[3] == 'm':
		return 4
	case s[2] == '3' && len(s) >= 5 && s[3] >= '0' && s[3] <= '7' && s[4] == 'm':
		return 5
	}
	return 0
}
