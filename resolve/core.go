package resolve

import (
	"debug/elf"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/sanitrace/sanitrace/core"
	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/symbolize"
)

// CoreOptions configure Core.
type CoreOptions struct {
	// Finder finds the modules and their debug files; nil means one with
	// the defaults. Its DebugDirs default to the sysroot's, as gdb's do.
	Finder *debuginfo.Finder
	// Exe is the executable the core was dumped from, when it is not
	// where NT_FILE says (--exe).
	Exe string
	// Warn receives one line per module that cannot be used. nil
	// discards them.
	Warn func(msg string)
}

// coreLookup is what core asks the engine: gdb's names (the DWARF's, then
// the symbol tables'), inline chains, demangled.
var coreLookup = symbolize.LookupOptions{
	Inlines:   true,
	Demangle:  true,
	Functions: symbolize.FunctionsLinkage,
	Policy:    symbolize.GDB,
}

// coreModule is one file of NT_FILE with what was found for it.
type coreModule struct {
	rep   core.ModuleReport
	start uint64
	end   uint64
	bias  uint64 // run-time address - link-time address
	obj   *symbolize.Object
	file  *debuginfo.File // the module's file when obj could not be made of it
	cfi   *moduleCFI
	mod   *core.Module
}

// aux vector types
const atEntry = 9

// Core unwinds every thread of c and symbolizes the frames: modules are
// found as decode finds them (prefix maps, binary directories, the
// sysroot, debug-file directories, --exe), verified against the build-id
// in the core's memory of each module, and their CFI drives the unwind.
func Core(c *core.File, opts CoreOptions) *core.Report {
	warn := opts.Warn
	if warn == nil {
		warn = func(string) {}
	}
	finder := opts.Finder
	if finder == nil {
		finder = &debuginfo.Finder{}
		defer finder.Close()
	}
	symOpts := &symbolize.Options{Finder: finder}
	loc := &locator{finder: finder}

	rep := &core.Report{Core: c.Path, Command: c.Command, Signal: c.Signal}
	for _, e := range c.Errors {
		rep.Errors = append(rep.Errors, e.Error())
	}
	mods := coreModules(c)
	entry, hasEntry := c.Aux(atEntry)
	var exe *coreModule
	for _, m := range mods {
		if hasEntry && entry >= m.start && entry < m.end {
			exe = m
		}
	}
	if exe == nil && len(mods) > 0 && !hasEntry {
		exe = mods[0]
	}
	if exe != nil {
		rep.Executable = exe.rep.Path
	}
	prefetchCoreModules(c, mods, loc)
	var umods core.Modules
	for _, m := range mods {
		openCoreModule(c, m, m == exe, opts.Exe, loc, symOpts, warn)
		defer m.close()
		umods = append(umods, m.mod)
		rep.Modules = append(rep.Modules, m.rep)
	}

	crashed := c.CrashingThread()
	if crashed != nil {
		rep.CrashingTID = crashed.TID
	}
	order := make([]*core.Thread, 0, len(c.Threads))
	if crashed != nil {
		order = append(order, crashed)
	}
	for _, t := range c.Threads {
		if t != crashed {
			order = append(order, t)
		}
	}
	for _, t := range order {
		tr := core.ThreadReport{TID: t.TID, Crashed: t == crashed}
		frames, err := core.Unwind(t, umods, c, core.UnwindOptions{})
		if err != nil {
			tr.Err = err.Error()
		}
		tr.Frames = symbolizeCoreFrames(frames, mods)
		rep.Threads = append(rep.Threads, tr)
	}
	return rep
}

// prefetchCoreModules asks the debuginfod servers, for all modules at
// once, what openCoreModule would ask them one module after the other: the
// binary a module's path does not lead to (by the build-id in the core)
// and the debug file of a binary without DWARF. The downloads land in the
// client's cache, where the sequential pass then finds them; the files
// opened here are closed again, so nothing is shared between the two.
func prefetchCoreModules(c *core.File, mods []*coreModule, loc *locator) {
	if loc.finder.Fetch == nil || len(mods) < 2 {
		return
	}
	ids := make([]string, len(mods))
	for i, m := range mods {
		id, _ := c.BuildIDAt(m.rep.Base)
		ids[i] = hex.EncodeToString(id)
	}
	fanOut(len(mods), maxParallelOpens, func(i int) {
		if ids[i] == "" {
			return // not an ELF image in memory: nothing to ask for
		}
		l, err := loc.locate(mods[i].rep.Path, ids[i], context{})
		if err != nil {
			return
		}
		f, err := loc.finder.Open(l.path)
		if err != nil {
			return
		}
		defer f.Close()
		if !f.HasDWARF() {
			if df, err := loc.finder.DebugFile(f); err == nil {
				df.Close()
			}
		}
	})
}

// coreModules groups NT_FILE's mappings by file, in address order.
func coreModules(c *core.File) []*coreModule {
	var out []*coreModule
	byPath := make(map[string]*coreModule)
	hasBase := make(map[*coreModule]bool)
	for _, mp := range c.Mappings {
		m, ok := byPath[mp.Path]
		if !ok {
			m = &coreModule{rep: core.ModuleReport{Path: mp.Path, Base: mp.Start}, start: mp.Start, end: mp.End}
			byPath[mp.Path] = m
			out = append(out, m)
		}
		m.start, m.end = min(m.start, mp.Start), max(m.end, mp.End)
		if mp.Offset == 0 && !hasBase[m] {
			// The ELF header is mapped from offset 0.
			m.rep.Base, hasBase[m] = mp.Start, true
		}
	}
	for _, m := range out {
		if !hasBase[m] {
			m.rep.Base = m.start
		}
	}
	for _, m := range out {
		m.mod = &core.Module{Path: m.rep.Path, Start: m.start, End: m.end}
	}
	return out
}

func (m *coreModule) close() {
	if m.obj != nil {
		m.obj.Close()
	}
	m.file.Close()
}

// openCoreModule finds m's file, checks its build-id against the core's,
// opens it for symbols and CFI and attaches it to the core's memory.
func openCoreModule(c *core.File, m *coreModule, isExe bool, exePath string, loc *locator, symOpts *symbolize.Options, warn func(string)) {
	id, idErr := c.BuildIDAt(m.rep.Base)
	want := hex.EncodeToString(id)
	m.rep.BuildID = want
	// Text from the core's own program headers, until the file says more.
	m.mod.Text = c.ExecRanges(m.start, m.end)

	var path string
	var err error
	if isExe && exePath != "" {
		path = exePath
		if want != "" {
			if f, ferr := loc.finder.Open(exePath); ferr != nil {
				err = ferr
			} else if got := hex.EncodeToString(f.BuildID); got != want {
				f.Close()
				err = fmt.Errorf("--exe %s: build-id mismatch: core has %s, file has %s", exePath, want, orNone(got))
			} else {
				loc.finder.Keep(f)
			}
		}
	} else {
		var l located
		l, err = loc.locate(m.rep.Path, want, context{})
		path = l.path
		if err == nil && want == "" {
			m.rep.BuildID = l.info.BuildID
		}
	}
	if err != nil {
		m.rep.Err = err.Error()
		// Not for files that are no ELF image (/dev/zero, a memfd, the
		// locale archive): nothing to symbolize there.
		if idErr == nil || looksELF(c, m.rep.Base) {
			warn(m.rep.Path + ": " + err.Error())
		}
		return
	}
	m.rep.Found = path
	f, err := loc.finder.Open(path)
	if err != nil {
		m.rep.Err = err.Error()
		warn(m.rep.Path + ": " + err.Error())
		return
	}
	// The object owns f; the core reads the file's pages it omitted from
	// the same bytes, until Core closes the objects.
	c.AttachFile(m.rep.Path, f)
	first, text := loadLayout(f.ELF)
	m.bias = m.rep.Base - first
	if len(text) > 0 {
		m.mod.Text = m.mod.Text[:0]
		for _, t := range text {
			m.mod.Text = append(m.mod.Text, [2]uint64{t[0] + m.bias, t[1] + m.bias})
		}
	}
	obj, oerr := symbolize.OpenFile(f, symOpts)
	if obj != nil {
		m.obj = obj
	} else {
		m.file = f // the unwinder still reads it
	}
	if obj == nil && oerr != nil && !errors.Is(oerr, symbolize.ErrNoDebugInfo) {
		warn(m.rep.Path + ": " + oerr.Error())
	}
	if derr := obj.Damage(); derr != nil {
		warn(m.rep.Path + ": " + derr.Error())
	}
	var debug *elf.File
	if obj != nil && obj.DebugFile() != nil {
		debug = obj.DebugFile().ELF
	}
	t, cerr := openModuleCFI(f.ELF, debug, m.bias)
	if cerr != nil {
		warn(fmt.Sprintf("%s: call frame information: %v", m.rep.Path, cerr))
	}
	if t != nil {
		m.cfi = t
		m.mod.CFI = t
	}
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// looksELF reports whether the core holds an ELF header at addr: a module
// worth warning about when its file is missing (unlike /dev/zero or a
// deleted memfd).
func looksELF(c *core.File, addr uint64) bool {
	var b [4]byte
	_, err := c.ReadCoreAt(b[:], addr)
	return err == nil && string(b[:]) == elf.ELFMAG
}

// loadLayout returns an ELF file's link-time base (its first PT_LOAD's
// page) and the link-time ranges of its executable segments.
func loadLayout(f *elf.File) (uint64, [][2]uint64) {
	var first uint64
	have := false
	var text [][2]uint64
	for _, p := range f.Progs {
		if p.Type != elf.PT_LOAD {
			continue
		}
		if !have {
			first, have = p.Vaddr&^0xfff, true
		}
		if p.Flags&elf.PF_X != 0 {
			text = append(text, [2]uint64{p.Vaddr, p.Vaddr + p.Memsz})
		}
	}
	return first, text
}

// symbolizeCoreFrames turns physical frames into model frames: each
// expanded into its inline chain (innermost first, sharing the pc).
func symbolizeCoreFrames(frames []core.Frame, mods []*coreModule) []core.ReportFrame {
	var out []core.ReportFrame
	for _, f := range frames {
		base := core.ReportFrame{
			Frame:     report.Frame{Index: -1, PC: f.PC, HasPC: true, Symbolized: report.SymbolizedNone},
			Kind:      f.Kind,
			UnwoundBy: f.UnwoundBy,
			CFA:       f.CFA,
		}
		m := findCoreModule(mods, f.LookupPC)
		if m == nil {
			out = append(out, base)
			continue
		}
		base.Module = m.rep.Path
		base.Offset, base.HasOffset = f.PC-m.rep.Base, true
		if f.Kind == core.KindSigtramp {
			// gdb's name for the frame of the signal trampoline.
			base.Function = "<signal handler called>"
			base.Symbolized = report.SymbolizedSanitrace
			out = append(out, base)
			continue
		}
		addr := f.LookupPC - m.bias
		var chain []symbolize.Frame
		if m.obj != nil {
			chain, _ = m.obj.Symbolize(addr, coreLookup)
		}
		if !known(chain) {
			if name, ok := m.cfi.subName(addr); ok {
				chain = []symbolize.Frame{{Function: name}}
			}
		}
		if !known(chain) {
			out = append(out, base)
			continue
		}
		for i, c := range chain {
			g := base
			g.Function, g.File, g.Line, g.Column = c.Function, c.File, c.Line, c.Column
			g.Inlined = i < len(chain)-1
			g.Symbolized = report.SymbolizedSanitrace
			if g.Inlined {
				g.Kind = core.KindInline
			}
			out = append(out, g)
		}
	}
	return out
}

func findCoreModule(mods []*coreModule, pc uint64) *coreModule {
	for _, m := range mods {
		if pc >= m.start && pc < m.end {
			return m
		}
	}
	return nil
}

// SubName is the name of code that neither DWARF nor a symbol covers but
// an FDE does: sub_ and the FDE's start as an offset in the module, hex.
func SubName(start uint64) string {
	return "sub_" + strings.TrimPrefix(fmt.Sprintf("%x", start), "0x")
}
