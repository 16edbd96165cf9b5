package resolve

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/symbolize"
)

// PCSymbolizer symbolizes bare runtime pcs, which name no module
// (libwebsockets ~m#/~b# records), against one ELF file named on the
// command line (--obj). It knows the load address (--base) the pcs are relative
// to and the executable segments of the file: a heap dump mixes pcs of the
// executable, libc and libwebsockets.so, and only pcs that fall inside
// these segments are looked up, instead of being matched to whatever symbol
// of the file lies nearest. A PCSymbolizer is not safe for concurrent use.
type PCSymbolizer struct {
	obj   *symbolize.Object
	path  string
	base  uint64
	text  [][2]uint64                  // executable PT_LOAD segments [start, end)
	cache map[uint64][]symbolize.Frame // by looked-up address; bounded, see Lookup
}

// pcCacheMax bounds the lookup cache; heap dumps repeat few distinct pcs.
const pcCacheMax = 1 << 16

// pcLookup is what the lws commands have always asked for: inline
// chains, demangled names.
var pcLookup = symbolize.LookupOptions{Inlines: true, Demangle: true}

// OpenPCSymbolizer opens path as the module of pcs loaded at base, its debug
// files found by finder (nil: the defaults). As with an Opener, a module
// returned together with an error is usable (e.g. a symbol table without
// DWARF) and the error is a warning; a nil module means it cannot be used
// at all.
func OpenPCSymbolizer(path string, base uint64, finder *debuginfo.Finder) (*PCSymbolizer, error) {
	var f *debuginfo.File
	var err error
	if finder != nil {
		f, err = finder.Open(path)
	} else {
		f, err = debuginfo.Open(path)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	text := f.ExecRanges()
	obj, err := symbolize.OpenFile(f, &symbolize.Options{Finder: finder})
	if obj == nil {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s: cannot be opened", path)
		}
		return nil, err
	}
	m := &PCSymbolizer{obj: obj, path: path, base: base, text: text, cache: make(map[uint64][]symbolize.Frame)}
	if err == nil {
		err = obj.Damage() // a warning: the rest of the file answers
	}
	return m, err
}

// Path is the file as it was named.
func (m *PCSymbolizer) Path() string { return m.path }

// Close releases the file.
func (m *PCSymbolizer) Close() error { return m.obj.Close() }

// Address returns the link-time address to look up for a runtime pc: the
// pc less the load address and less adjust (1 for a return address, so
// that the address falls inside the call instruction and gives the call's
// line and inline chain). ok is false when that address lies outside the
// module's executable segments.
func (m *PCSymbolizer) Address(pc, adjust uint64) (addr uint64, ok bool) {
	if pc < m.base || pc-m.base < adjust {
		return 0, false
	}
	addr = pc - m.base - adjust
	for _, r := range m.text {
		if addr >= r[0] && addr < r[1] {
			return addr, true
		}
	}
	return 0, false
}

// Offset is the pc's offset in the module (the pc less the load address),
// as the decode JSON's "offset" gives it.
func (m *PCSymbolizer) Offset(pc uint64) uint64 { return pc - m.base }

// Lookup symbolizes a runtime pc (see Address for adjust): its inline
// chain, innermost first, or nil when the pc is outside the module or
// nothing is known about it.
func (m *PCSymbolizer) Lookup(pc, adjust uint64) []symbolize.Frame {
	addr, ok := m.Address(pc, adjust)
	if !ok {
		return nil
	}
	if f, ok := m.cache[addr]; ok {
		return f
	}
	f, err := m.obj.Symbolize(addr, pcLookup)
	if err != nil {
		f = nil
	}
	if len(m.cache) >= pcCacheMax {
		clear(m.cache)
	}
	m.cache[addr] = f
	return f
}

// Frames symbolizes a libwebsockets backtrace (runtime return addresses,
// innermost first) into model frames: each pc's inline chain expanded
// innermost first; pcs inside the module get Module and Offset; pcs it
// knows nothing about stay one frame with Symbolized "none".
func (m *PCSymbolizer) Frames(pcs []uint64) []report.Frame {
	var out []report.Frame
	for _, pc := range pcs {
		base := report.Frame{Index: len(out), PC: pc, HasPC: true, Adjust: 1, Symbolized: report.SymbolizedNone}
		if _, ok := m.Address(pc, 1); ok {
			base.Module, base.Offset, base.HasOffset = m.path, m.Offset(pc), true
		}
		chain := m.Lookup(pc, 1)
		if len(chain) == 0 {
			out = append(out, base)
			continue
		}
		for _, c := range chain {
			f := base
			f.Index = len(out)
			f.Function, f.File, f.Line, f.Column, f.Inlined = c.Function, c.File, c.Line, c.Column, c.Inlined
			if f.Function != "" || f.File != "" {
				f.Symbolized = report.SymbolizedSanitrace
			}
			out = append(out, f)
		}
	}
	return out
}

// ParseLoadAddress reads a --base value: hex, with or without 0x (load
// addresses are always written in hex, e.g. in /proc/PID/maps). "" is 0.
func ParseLoadAddress(s string) (uint64, error) {
	if s == "" {
		return 0, nil
	}
	t := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	v, err := strconv.ParseUint(t, 16, 64)
	if err != nil {
		return 0, fmt.Errorf("--base %q: not a hex address", s)
	}
	return v, nil
}

// barePCs is a PCSymbolizer as a Resolver uses it: one more module,
// for the frames that name none.
type barePCs struct {
	m   *PCSymbolizer
	mod *module
	obj modcache.Object
}

func newBarePCs(m *PCSymbolizer) *barePCs {
	if m == nil {
		return nil
	}
	return &barePCs{m: m, mod: &module{path: m.path, exec: true, usable: true}, obj: m.obj}
}

// take claims a frame without a module whose pc (less its Adjust) lies in
// the module's executable segments: the frame gets the module's path and
// its offset in it, and reports whether it was claimed.
func (s *barePCs) take(f *report.Frame) bool {
	if !f.HasPC {
		return false
	}
	if _, ok := s.m.Address(f.PC, f.Adjust); !ok {
		return false
	}
	f.Module, f.Offset, f.HasOffset = s.m.path, s.m.Offset(f.PC), true
	return true
}
