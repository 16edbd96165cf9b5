package rules

import (
	"path"
	"strings"
	"sync"

	"github.com/sanitrace/sanitrace/report"
)

// Family is the platform family a frame's report comes from, as Sentry's
// family: matcher names it.
type Family uint8

const (
	Native Family = iota // sanitizers, libFuzzer, gdb, glibc, Valgrind, ...
	Go
	Rust
	Kernel
)

var familyNames = [...]string{"native", "go", "rust", "kernel"}

func (f Family) String() string { return familyNames[f] }

// FamilyOf is the family of p's reports.
func FamilyOf(p report.Producer) Family {
	switch p {
	case report.ProducerGoPanic, report.ProducerGoRace:
		return Go
	case report.ProducerRust:
		return Rust
	case report.ProducerKernel:
		return Kernel
	}
	return Native
}

// classNames are the values of class:, one per report.FrameClass.
var classNames = map[string]report.FrameClass{
	"user": report.User, "runtime": report.Runtime, "interceptor": report.Interceptor,
	"libc": report.Libc, "cxx": report.CXXRuntime, "nocode": report.NoCode, "excluded": report.Excluded,
}

// Frame is what rules see of a frame.
type Frame struct {
	Family   Family
	Class    report.FrameClass // the model's classification (report.Producer.Class)
	Function string            // as printed or symbolized, demangled
	Module   string            // the module's path or base name
	Path     string            // the source file
}

// FrameOf is what rules see of f, a frame of a report of p.
func FrameOf(p report.Producer, f *report.Frame) Frame {
	return Frame{Family: FamilyOf(p), Class: p.Class(f), Function: f.Function, Module: f.Module, Path: f.File}
}

// InApp says whether f, a frame of a report of p, is in-app under s (nil:
// Defaults).
func (s *Set) InApp(p report.Producer, f *report.Frame) bool {
	if s == nil {
		s = Defaults()
	}
	return s.Apply(FrameOf(p, f)).InApp
}

// Verdict is what the rules decided for a frame.
type Verdict struct {
	InApp bool // the program's own code: --frames user shows it, signatures count it
	Group bool // counted in a signature when in-app (or in the fallback when no frame is)
}

// Set is an ordered list of rules, applied top to bottom, later rules
// winning. The zero Set has no rules: every frame is in-app and grouped.
// A Set is read-only once built and safe for concurrent use.
type Set struct {
	rules []rule

	// memo holds the verdicts of frames seen before: a run's logs print
	// the same frames again and again, and the rules cost a few
	// microseconds a frame where a lookup costs tens of nanoseconds. At
	// most memoMax entries, so that hostile input cannot grow it.
	mu   sync.RWMutex
	memo map[Frame]Verdict
}

// memoMax bounds Set.memo: a few MB at most.
const memoMax = 1 << 14

// Len is the number of rules.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return len(s.rules)
}

// Then is s followed by next: next's rules win over s's.
func (s *Set) Then(next *Set) *Set {
	out := &Set{}
	if s != nil {
		out.rules = append(out.rules, s.rules...)
	}
	if next != nil {
		out.rules = append(out.rules, next.rules...)
	}
	return out
}

type rule struct {
	matchers []matcher
	app      int8 // +1: +app, -1: -app, 0: unchanged
	group    int8
	line     int
}

type field uint8

const (
	fieldFunction field = iota
	fieldModule
	fieldPath
	fieldFamily
	fieldApp
	fieldClass
)

type matcher struct {
	field    field
	negated  bool
	glob     *glob
	families uint8 // bit per Family
	app      bool
	class    report.FrameClass
}

// view is a frame with its path-like fields normalized once for all rules.
type view struct {
	Frame
	module, moduleBase, path, pathBase string
}

func newView(f Frame) *view {
	v := &view{Frame: f, module: foldPath(f.Module), path: foldPath(f.Path)}
	v.moduleBase = path.Base(v.module)
	v.pathBase = path.Base(v.path)
	return v
}

func (m *matcher) matches(v *view, inApp bool) bool {
	var ok bool
	switch m.field {
	case fieldFunction:
		ok = v.Function != "" && m.glob.match(v.Function)
	case fieldModule:
		ok = v.module != "" && matchPath(m.glob, v.module, v.moduleBase)
	case fieldPath:
		ok = v.path != "" && matchPath(m.glob, v.path, v.pathBase)
	case fieldFamily:
		ok = m.families&(1<<v.Family) != 0
	case fieldApp:
		ok = inApp == m.app
	case fieldClass:
		ok = v.Class == m.class
	}
	return ok != m.negated
}

// matchPath matches a path-like pattern against a whole path, and a
// pattern without "/" against the path's base name too ("libfoo.so*" takes
// "/usr/lib/libfoo.so.1").
func matchPath(g *glob, full, base string) bool {
	if g.match(full) {
		return true
	}
	return !strings.Contains(g.src, "/") && base != full && g.match(base)
}

// Apply runs the rules over f: in-app and grouped unless a rule says not.
func (s *Set) Apply(f Frame) Verdict {
	if s == nil || len(s.rules) == 0 {
		return Verdict{InApp: true, Group: true}
	}
	s.mu.RLock()
	out, ok := s.memo[f]
	s.mu.RUnlock()
	if ok {
		return out
	}
	out = s.apply(f)
	s.mu.Lock()
	if s.memo == nil {
		s.memo = make(map[Frame]Verdict)
	}
	if len(s.memo) < memoMax {
		s.memo[f] = out
	}
	s.mu.Unlock()
	return out
}

func (s *Set) apply(f Frame) Verdict {
	out := Verdict{InApp: true, Group: true}
	v := newView(f)
next:
	for i := range s.rules {
		r := &s.rules[i]
		for j := range r.matchers {
			if !r.matchers[j].matches(v, out.InApp) {
				continue next
			}
		}
		if r.app != 0 {
			out.InApp = r.app > 0
		}
		if r.group != 0 {
			out.Group = r.group > 0
		}
	}
	return out
}
