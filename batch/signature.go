package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/triage/rules"
)

// SignatureFrames is how many frames a signature holds (ClusterFuzz's
// crash state holds three too).
const SignatureFrames = 3

// Signature is the bucket key of a report under the built-in rules
// (Sign with rules.Defaults).
func Signature(r *report.Report) string { return Sign(r, nil).Key }

// How a signature was made (Sig.From, the bucket's "signature_from").
const (
	FromInApp    = "in-app"    // from the report's in-app frames
	FromFallback = "fallback"  // no in-app frame: from the top frames the rules keep in groups
	FromHeadline = "headline"  // no frame at all: from the file the headline names
	FromNone     = "none"      // nothing to make it from: tool and kind only
	FromCorrupt  = "corrupted" // the report's stacks could not be read (Sig.Corrupted)
)

// Sig is a report's signature and how it was made.
type Sig struct {
	// Key is the bucket key (docs/json.md, "Buckets"):
	// "<tool>:<kind>:<f1>|<f2>|<f3>", the frames being the first in-app
	// frames of the report's first stack that are in groups (package
	// rules: the built-in rules and a --rules file), each reduced to a bare
	// qualified function name. When no frame is in-app, the first frames
	// in groups stand in (the built-in rules keep C library and C++
	// runtime frames in groups but no runtime's); when there is no frame at
	// all (UBSan without print_stacktrace), the source file the headline
	// names, as "@file.c". A corrupted report's key is
	// "corrupted:<tool>:<kind>", apart from every real bucket.
	Key string
	// From says which of these made Key (FromInApp, ...).
	From string
	// Corrupted says why the report's stacks could not be read; "" when
	// they could (corruption).
	Corrupted string
	// user is each frame's in-app verdict, stack by stack (userOf).
	user [][]bool
}

// Sign is r's signature under rs (the built-in rules followed by a
// user's; nil: rules.Defaults alone).
func Sign(r *report.Report, rs *rules.Set) Sig { return sign(r, rs, "") }

// sign is Sign of a report that corrupted, when not "", already says is
// corrupted (a damaged header the scanner repaired).
func sign(r *report.Report, rs *rules.Set, corrupted string) Sig {
	if rs == nil {
		rs = rules.Defaults()
	}
	var out Sig
	p := r.Producer()
	verdicts := make([][]rules.Verdict, len(r.Stacks))
	out.user = make([][]bool, len(r.Stacks))
	for si := range r.Stacks {
		fs := r.Stacks[si].Frames
		verdicts[si] = make([]rules.Verdict, len(fs))
		out.user[si] = make([]bool, len(fs))
		for fi := range fs {
			f := &fs[fi]
			v := rs.Apply(rules.FrameOf(p, f))
			verdicts[si][fi] = v
			out.user[si][fi] = v.InApp
		}
	}
	if corrupted == "" {
		corrupted = corruption(r)
	}
	if corrupted != "" {
		out.Key, out.From, out.Corrupted = "corrupted:"+r.Tool+":"+r.Kind, FromCorrupt, corrupted
		return out
	}
	frames := signatureFrames(r, verdicts, true)
	out.From = FromInApp
	if len(frames) == 0 {
		frames = signatureFrames(r, verdicts, false)
		out.From = FromFallback
	}
	if len(frames) == 0 {
		out.From = FromNone
		if file := headlineFile(r.Headline); file != "" {
			frames = append(frames, "@"+file)
			out.From = FromHeadline
		}
	}
	out.Key = r.Tool + ":" + r.Kind + ":" + strings.Join(frames, "|")
	return out
}

// signatureFrames are the signature's frames: the first in-app frames in
// groups, or with inApp false the first frames in groups.
func signatureFrames(r *report.Report, verdicts [][]rules.Verdict, inApp bool) []string {
	var frames []string
	n := len(r.Stacks)
	if n > 1 && r.Stacks[0].FromRegisters() {
		// An oops or WARNING's first "stack" is the faulting pc from the
		// register dump; its callers are the call trace after it.
		n = 2
	} else if n > 0 {
		n = 1
	}
	for si := 0; si < n; si++ {
		before := len(frames) // the frames taken from the stacks before this one
		for fi, f := range r.Stacks[si].Frames {
			if len(frames) == SignatureFrames {
				break
			}
			// A kernel frame printed with "? " is a stale return address
			// the unwinder found on the stack, not a caller: it differs
			// between runs of one bug.
			v := verdicts[si][fi]
			if !v.Group || (inApp && !v.InApp) || f.Unreliable {
				continue
			}
			name := frameKey(r.Tool, f.Function)
			if name == "" {
				if f.Module == "" {
					continue
				}
				name = "[" + path.Base(f.Module) + "]"
			}
			// arm64's call trace starts again at the faulting function.
			if len(frames) == before && before > 0 && frames[before-1] == name {
				continue
			}
			frames = append(frames, name)
		}
	}
	return frames
}

// userOf says whether frame fi of stack si is in-app (wire.BatchReportOf).
func (s *Sig) userOf(si, fi int) bool {
	return si < len(s.user) && fi < len(s.user[si]) && s.user[si][fi]
}

// frameKey is a signature frame's function name: C, C++ and Rust names
// normalised and cut to their last component; Go names, whose tracebacks
// print one qualified spelling everywhere, whole but for type-parameter
// lists and arguments (a method's receiver "(*T)" is part of its name).
func frameKey(tool, fn string) string {
	if tool == report.ToolGoPanic || tool == report.ToolGoRace {
		return NormalizeGoFunction(fn)
	}
	return shortName(NormalizeFunction(fn))
}

// NormalizeGoFunction is a Go function name as a signature holds it:
// "main.(*Map[...]).Get(0xc000010000, ...)" becomes "main.(*Map).Get",
// "main.main.func1()" "main.main.func1". The "+0x" offset, the
// type-parameter lists and a trailing argument list are dropped.
func NormalizeGoFunction(name string) string {
	s := strings.TrimSpace(name)
	if i := strings.Index(s, "+0x"); i > 0 {
		s = s[:i]
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '[' {
			i = skipBalanced(s, i, '[', ']')
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	s = b.String()
	// The argument list is the last parenthesised group, after the
	// function's name (a receiver's group follows a '.').
	if strings.HasSuffix(s, ")") {
		if i := strings.LastIndexByte(s, '('); i > 0 && s[i-1] != '.' {
			s = s[:i]
		}
	}
	return s
}

// shortName is the last component of a qualified name ("ui::area_of" ->
// "area_of", "main::$_0::operator()" -> "operator()"): a runtime that
// symbolizes itself with libbacktrace (gcc's) prints DWARF's short name,
// llvm-symbolizer and sanitrace the demangled linkage name, and one bug
// must get one signature from both.
func shortName(s string) string {
	depth, cut := 0, -1
	for i := 0; i+1 < len(s); i++ {
		switch s[i] {
		case '{', '(', '<':
			depth++
		case '}', ')', '>':
			depth--
		case ':':
			if depth == 0 && s[i+1] == ':' {
				cut = i + 2
			}
		}
		if n := operatorAt(s, i); n > 0 {
			break // "ns::operator<": the operator's own symbols are no brackets
		}
	}
	if cut < 0 {
		return s
	}
	return s[cut:]
}

// BucketID is the short stable id of a signature: the first 12 hex digits
// of its SHA-256.
func BucketID(signature string) string {
	sum := sha256.Sum256([]byte(signature))
	return hex.EncodeToString(sum[:6])
}

// lazyRE is a regexp compiled on its first use: package batch is linked
// into every command, and its regexps compiled at init cost each process
// (a one-address symbolize included) start-up time only batch and merge
// use.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// headlineRE finds the "file:line:col: runtime error:" location of UBSan.
var headlineRE = lazyRE(`^([^\s:]+):\d+(?::\d+)?: runtime error:`)

func headlineFile(h string) string {
	m := headlineRE().FindStringSubmatch(h)
	if m == nil {
		return ""
	}
	return path.Base(m[1])
}

var (
	// cloneRE: what compilers append to a function they cloned or split,
	// as a demangler prints it (" [clone .constprop.0]") and as a symbol
	// table spells it (".constprop.0", ".isra.0", ".part.1", ".cold").
	cloneRE       = lazyRE(`\s*\[clone [^\]]*\]`)
	cloneSuffixRE = lazyRE(`\.(?:constprop|isra|part|cold|lto_priv|llvm|localalias|clone|specialized)(?:\.[0-9A-Za-z_]+)*$`)
	abiTagRE      = lazyRE(`\[abi:[^\]]*\]`)
)

// NormalizeFunction reduces a demangled function name to what is stable
// across compilers, optimisation levels and builds: no parameters, template
// arguments, return type, ABI tags, clone suffixes, anonymous-namespace
// markers or "+0x" offsets. "int ns::(anonymous namespace)::f<int>(int) const"
// becomes "ns::f"; operator names keep their symbol ("ns::T::operator<<").
func NormalizeFunction(name string) string {
	s := strings.TrimSpace(name)
	if i := strings.Index(s, "+0x"); i > 0 {
		s = s[:i]
	}
	s = cloneRE().ReplaceAllString(s, "")
	s = abiTagRE().ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "(anonymous namespace)::", "")
	s = strings.ReplaceAll(s, "`anonymous namespace'::", "")
	s = stripNested(s)
	s = dropReturnType(strings.TrimSpace(s))
	for {
		t := cloneSuffixRE().ReplaceAllString(s, "")
		if t == s {
			break
		}
		s = t
	}
	return strings.TrimSpace(s)
}

// operatorAt reports the length of an operator name starting at s[i:]
// ("operator<<", "operator()", "operator new[]"), 0 when there is none.
func operatorAt(s string, i int) int {
	const op = "operator"
	if !strings.HasPrefix(s[i:], op) {
		return 0
	}
	if i > 0 && isIdent(s[i-1]) {
		return 0
	}
	j := i + len(op)
	if j < len(s) && isIdent(s[j]) {
		return 0 // "operatorFoo" is an identifier
	}
	rest := s[j:]
	for _, sym := range []string{"<=>", "<<=", ">>=", "->*", "<<", ">>", "<=", ">=", "->", "()", "[]", "==", "!=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "=", ","} {
		if strings.HasPrefix(rest, sym) {
			return len(op) + len(sym)
		}
	}
	for _, w := range []string{" new[]", " delete[]", " new", " delete"} {
		if strings.HasPrefix(rest, w) {
			return len(op) + len(w)
		}
	}
	return len(op) // a conversion operator: its type follows, dropped with the rest
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// stripNested removes template argument lists and the parameter list (with
// everything after it: cv and ref qualifiers), keeping operator names and
// lambda names ("{lambda()#1}", "$_0") as they are.
func stripNested(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if n := operatorAt(s, i); n > 0 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		switch s[i] {
		case '<':
			i = skipBalanced(s, i, '<', '>')
			continue
		case '{':
			j := skipBalanced(s, i, '{', '}')
			b.WriteString(s[i:j])
			i = j
			continue
		case '\'':
			// llvm's demangler names lambdas 'lambda'(...) and unnamed
			// types 'unnamed'; the parameters belong to the name.
			if k := strings.IndexByte(s[i+1:], '\''); k >= 0 {
				j := i + 1 + k + 1
				if j < len(s) && s[j] == '(' {
					j = skipBalanced(s, j, '(', ')')
				}
				b.WriteString(s[i:j])
				i = j
				continue
			}
		case '(':
			return b.String()
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// skipBalanced returns the index after the bracket that closes s[i].
func skipBalanced(s string, i int, open, close byte) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}

// dropReturnType keeps the last space-separated word, the qualified name
// (a function template's demangled name starts with its return type),
// unless the space belongs to an operator name or a lambda's braces.
func dropReturnType(s string) string {
	cut := -1
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ' ':
			if depth == 0 && !strings.HasSuffix(s[:i], "operator") {
				cut = i
			}
		}
	}
	if cut < 0 {
		return s
	}
	return s[cut+1:]
}

// isHeapDump: a libwebsockets heap dump is a report but not a bug.
func isHeapDump(tool, kind string) bool {
	return report.IsHeapDump(&report.Report{Tool: tool, Kind: kind})
}
