package dropin

import (
	hexenc "encoding/hex"
	"strings"

	"github.com/sanitrace/sanitrace/internal/llvmnum"
)

// command is the kind of an llvm-symbolizer query line.
type command int

const (
	cmdCode command = iota
	cmdData
	cmdFrame
)

// query is one parsed llvm-symbolizer request.
type query struct {
	cmd    command
	module string // what the module cache opens: a path, or "BUILDID:<hex>"
	shown  string // the module as answers name it, when not module
	offset uint64
}

// moduleName is the module as the answer's ModuleName shows it: for a
// BUILDID: query, the build-id in hex (as newer llvm-symbolizers print it).
func (q query) moduleName() string {
	if q.shown != "" {
		return q.shown
	}
	return q.module
}

// buildIDPrefix introduces a module named by its GNU build-id, a query
// form llvm-symbolizer 15 added (14 reads it as a file name): the binary is
// looked up as .build-id/xx/rest.debug under the debug-file directories.
const buildIDPrefix = "BUILDID:"

// parseQuery is llvm-symbolizer 14's parseCommand. obj is the --obj value
// ("" when the module comes from the line). It returns the module name
// parsed so far even when the line is invalid: the JSON error object
// reports it.
func parseQuery(line, obj string) (q query, ok bool) {
	q.cmd, line = cutCommand(line)
	pos := line
	if obj == "" {
		pos = skipDelims(pos)
		// Newer llvm-symbolizers also take "FILE:" before a path and
		// "BUILDID:<hex>" instead of one.
		pos = strings.TrimPrefix(pos, "FILE:")
		if rest, ok := strings.CutPrefix(pos, buildIDPrefix); ok {
			n := indexDelim(rest)
			id := rest[:n]
			if _, err := hexenc.DecodeString(id); err != nil || id == "" {
				return q, false
			}
			q.module, q.shown = buildIDPrefix+strings.ToLower(id), id
			pos = rest[n:]
		} else if pos != "" && (pos[0] == '"' || pos[0] == '\'') {
			quote := pos[0]
			end := strings.IndexByte(pos[1:], quote)
			if end < 0 {
				return q, false
			}
			q.module = pos[1 : 1+end]
			pos = pos[2+end:]
		} else {
			n := indexDelim(pos)
			q.module, pos = pos[:n], pos[n:]
		}
	} else {
		q.module = obj
		if id, ok := strings.CutPrefix(obj, buildIDPrefix); ok {
			q.shown = strings.ToUpper(id) // --build-id: v19 names the module by its id
		}
	}
	pos = skipDelims(pos)
	n := indexDelim(pos)
	off, ok := parseLLVMInteger(pos[:n])
	q.offset = off
	return q, ok
}

// cutCommand takes the command ("CODE ", "DATA ", "FRAME ") off the
// start of a query line; CODE when there is none.
func cutCommand(line string) (command, string) {
	switch {
	case strings.HasPrefix(line, "CODE "):
		return cmdCode, line[len("CODE "):]
	case strings.HasPrefix(line, "DATA "):
		return cmdData, line[len("DATA "):]
	case strings.HasPrefix(line, "FRAME "):
		return cmdFrame, line[len("FRAME "):]
	}
	return cmdCode, line
}

// isDelim reports whether c is one of the separators llvm-symbolizer 14
// uses between a line's words: space, line feed, carriage return (a tab is
// not one). It and the two below are strings.TrimLeft and IndexAny over
// those, written out: a batch parses every stdin line on one goroutine
// while the others wait, and those built their byte set on every call.
func isDelim(c byte) bool { return c == ' ' || c == '\n' || c == '\r' }

func skipDelims(s string) string {
	i := 0
	for i < len(s) && isDelim(s[i]) {
		i++
	}
	return s[i:]
}

// indexDelim returns the index of the first separator in s, len(s) when
// there is none.
func indexDelim(s string) int {
	i := 0
	for i < len(s) && !isDelim(s[i]) {
		i++
	}
	return i
}

// parseLLVMInteger is StringRef::getAsInteger(0, uint64): the radix from
// the prefix, the whole string consumed, no overflow.
func parseLLVMInteger(s string) (uint64, bool) { return llvmnum.ParseUint(s, 0) }

// parseLLVMSigned is getAsInteger for a signed 32-bit int: an optional '-'
// then parseLLVMInteger.
func parseLLVMSigned(s string) (int, bool) {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	v, ok := parseLLVMInteger(s)
	if !ok {
		return 0, false
	}
	if neg {
		if v > 1<<31 {
			return 0, false
		}
		return -int(v), true
	}
	if v > 1<<31-1 {
		return 0, false
	}
	return int(v), true
}
