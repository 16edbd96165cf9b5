package resolve

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/report"
	"github.com/sanitrace/sanitrace/symbolize"
)

// Options configure a Resolver.
type Options struct {
	// Finder finds the modules on disk (binary directories, prefix maps,
	// sysroot, debug-file directories, build-ids). nil means a Finder with
	// the defaults, closed by Close.
	Finder *debuginfo.Finder

	// Cache opens the modules found, each file once, and may be shared
	// by several Resolvers (batch's workers). nil means one of the
	// Resolver's own over Finder, closed by Close: the symbolizer opens
	// the files the Finder's searches chose, so each is read once. An
	// object opened with a warning (damage left out) is used and the
	// warning passed on.
	Cache *modcache.Cache
	// CacheBytes bounds the Resolver's own cache (modcache.Options.MaxBytes:
	// 0 is modcache.DefaultMaxBytes); a shared Cache has its own bound.
	CacheBytes int64
	// BarePCs, when set, symbolizes the frames whose log names no module
	// (libwebsockets ~m# records: bare runtime pcs), given as --obj.
	BarePCs *PCSymbolizer
	// Shipped, when set, is asked first for every module a log names: it
	// knows the binaries that came with the inputs themselves (the files
	// and archive members of a batch run) and returns the one for module
	// (as printed, or its absolute sibling path), buildID (may be empty)
	// and the log named logName. Its Key is what Cache is given.
	Shipped func(module, buildID, logName string) (Shipped, bool)
	// Warn receives one message per unusable module per run, of the form
	// "<module as printed>: <reason>". nil discards them.
	Warn func(msg string)

	// Vmlinux and ModulesDir resolve Linux kernel frames (kernel.go):
	// the kernel image with its symbols and DWARF, and a tree searched
	// for a module's NAME.ko.
	Vmlinux    string
	ModulesDir string
}

// lookup is what the runtime asks llvm-symbolizer for: inline chains,
// demangled linkage names.
var lookup = symbolize.LookupOptions{
	Inlines:   true,
	Demangle:  true,
	Functions: symbolize.FunctionsLinkage,
	Policy:    symbolize.LLVM14,
}

// Resolver fills in report frames. It finds each module a log names once
// per run and takes its object from the module cache for each report
// (opened once per run, unless the cache's bound closed it since). A
// Resolver is not safe for concurrent use.
type Resolver struct {
	opts      Options
	loc       *locator
	cache     *modcache.Cache
	ownFinder bool // loc.finder is the Resolver's own, closed by Close
	ownCache  bool // cache is the Resolver's own, closed by Close

	static  *barePCs              // Options.BarePCs, nil when none
	modules map[moduleKey]*module // by name as printed (after base-name expansion)
	// held are the objects the report being resolved uses, by path: its
	// leases, released when the report is done.
	held map[string]modcache.Lease

	// base name -> absolute module path seen so far in the current log,
	// for ThreadSanitizer's base-name-only frames.
	logName  string
	logPaths map[string]string

	// splitWarned counts, per module path, the split DWARF errors already
	// warned about.
	splitWarned map[string]int

	kimages map[string]*kernelImage // kernel images by module name ("" = vmlinux)
	warned  map[string]bool         // warnOnce's keys
}

type moduleKey struct {
	name, buildID, logDir string
}

// module is one resolution of a printed module name: a file whose object
// the cache opens, or the reason there is none.
type module struct {
	path    string // the file found ("" when none) or a Shipped key
	logPath string
	exec    bool  // ET_EXEC: the module offset is the pc
	pie     bool  // a position-independent executable (Valgrind's frames)
	usable  bool  // the cache has an object for path
	err     error // why it cannot be used; with usable, a warning
}

// New returns a Resolver; Close it to release the modules.
func New(opts Options) *Resolver {
	r := &Resolver{
		static:   newBarePCs(opts.BarePCs),
		opts:     opts,
		cache:    opts.Cache,
		modules:  make(map[moduleKey]*module),
		held:     make(map[string]modcache.Lease),
		logPaths: make(map[string]string),

		splitWarned: make(map[string]int),
		kimages:     make(map[string]*kernelImage),
		warned:      make(map[string]bool),
	}
	finder := opts.Finder
	if finder == nil {
		finder, r.ownFinder = &debuginfo.Finder{}, true
	}
	r.loc = &locator{finder: finder, shipped: opts.Shipped}
	if r.cache == nil {
		r.cache, r.ownCache = modcache.New(modcache.Options{Finder: finder, MaxBytes: opts.CacheBytes}), true
	}
	return r
}

// Close releases the modules: the Resolver's own cache closes them, a
// shared one keeps them for its other users. It returns the errors of
// closing joined.
func (r *Resolver) Close() error {
	r.release()
	var errs []error
	if r.ownCache {
		errs = append(errs, r.cache.Close())
	}
	r.modules = nil
	if r.ownFinder {
		errs = append(errs, r.loc.finder.Close())
	}
	return errors.Join(errs...)
}

// use returns the object of the module file at path for the report being
// resolved (nil when it cannot be opened), with the cache's error or
// warning; the object is held until the report is done.
func (r *Resolver) use(path string) (modcache.Object, error) {
	l, ok := r.held[path]
	if !ok {
		l = r.cache.Get(path)
		r.held[path] = l
	}
	return l.Obj, l.Err
}

// object is use for a resolved module: nil when it has none.
func (r *Resolver) object(m *module) modcache.Object {
	if !m.usable {
		return nil
	}
	obj, _ := r.use(m.path)
	return obj
}

// release ends the leases of the report just resolved.
func (r *Resolver) release() {
	for path, l := range r.held {
		l.Release()
		delete(r.held, path)
	}
}

// batch is one module's lookups for a report.
type batch struct {
	m   *module
	obj modcache.Object
}

// job is one frame waiting for its module's batch.
type job struct {
	stack, frame int
	addr         uint64
}

// Report symbolizes the frames of rep that the log left unsymbolized,
// in place: one SymbolizeMany per module for the whole report.
// Fragment symbolizes the frames of an unattached fragment as those of a
// sanitizer report: its frame lines are sanitizer frame lines.
func (r *Resolver) Fragment(f *report.Fragment) {
	rep := &report.Report{Stacks: f.Stacks, Input: f.Input}
	r.Report(rep)
	f.Stacks = rep.Stacks
}

func (r *Resolver) Report(rep *report.Report) {
	defer r.release()
	r.kernel(rep)
	ctx := r.context(rep)
	r.globals(rep, ctx)
	// Last, once the frames have names: stacks the fast unwinder cut short.
	defer r.markTruncated(rep, ctx)
	r.prefetch(rep, ctx)
	batches := make(map[*module][]job)
	var order []batch // deterministic batch order
	valgrind := rep.Producer() == report.ProducerValgrind
	for si := range rep.Stacks {
		for fi := range rep.Stacks[si].Frames {
			f := &rep.Stacks[si].Frames[fi]
			if f.Function != "" || f.File != "" {
				if f.Symbolized == "" {
					f.Symbolized = report.SymbolizedReport
				}
				continue
			}
			if f.Symbolized == "" {
				f.Symbolized = report.SymbolizedNone
			}
			var m *module
			var obj modcache.Object
			if f.Module == "" && r.static != nil && r.static.take(f) {
				m, obj = r.static.mod, r.static.obj
			} else {
				if !symbolizable(f.Module) {
					continue
				}
				m = r.module(f.Module, f.BuildID, ctx)
				r.noteUnverified(m, f.BuildID)
				if m.logPath != "" {
					f.Module = m.logPath
				}
				if obj = r.object(m); obj == nil {
					continue
				}
			}
			addr, ok := address(f, m.exec)
			if !ok && valgrind && f.HasPC && !f.HasOffset && m.pie {
				addr, ok = valgrindPIEAddress(f)
			}
			if !ok {
				continue
			}
			if _, seen := batches[m]; !seen {
				order = append(order, batch{m, obj})
			}
			batches[m] = append(batches[m], job{stack: si, frame: fi, addr: addr})
		}
	}
	answers := make(map[[2]int][]symbolize.Frame)
	for _, b := range order {
		jobs := batches[b.m]
		addrs := make([]uint64, len(jobs))
		for i, j := range jobs {
			addrs[i] = j.addr
		}
		res := b.obj.SymbolizeMany(addrs, lookup)
		r.warnSplit(b.m.path, b.obj)
		r.warnSupplementary(b.m.path, b.obj)
		for i, j := range jobs {
			if i < len(res) && known(res[i]) {
				answers[[2]int{j.stack, j.frame}] = res[i]
			} else if name, ok := subName(b.obj, j.addr); ok {
				answers[[2]int{j.stack, j.frame}] = []symbolize.Frame{{Function: name}}
			}
		}
	}
	if len(answers) == 0 {
		return
	}
	for si := range rep.Stacks {
		expandStack(&rep.Stacks[si], si, answers)
	}
	if rep.Markup {
		asLLVM18Runtime(rep)
	}
	summary(rep)
	if rep.Tool == "ThreadSanitizer" {
		stripInterceptorPrefix(rep)
	}
}

// tsanInterceptorPrefix is what ThreadSanitizer removes from function names
// when it prints a stack (compiler-rt tsan_report.cpp passes it to
// RenderFrame as strip_func_prefix); its SUMMARY line keeps the full name.
const tsanInterceptorPrefix = "__interceptor_"

// stripInterceptorPrefix prints sanitrace's answers in a TSan report the
// way the runtime prints its own: "pthread_mutex_lock", not
// "__interceptor_pthread_mutex_lock".
func stripInterceptorPrefix(rep *report.Report) {
	for si := range rep.Stacks {
		for fi := range rep.Stacks[si].Frames {
			f := &rep.Stacks[si].Frames[fi]
			if f.Symbolized == report.SymbolizedSanitrace {
				f.Function = strings.TrimPrefix(f.Function, tsanInterceptorPrefix)
			}
		}
	}
}

// symbolizable reports whether a module name can be a file: not empty,
// not "<unknown module>", not a pseudo-mapping such as "[stack]" or "[vdso]".
func symbolizable(name string) bool {
	return name != "" && !strings.HasPrefix(name, "<") && !strings.HasPrefix(name, "[")
}

// address is the ELF virtual address to look up for f: its module offset
// (the runtime already printed pc-1), less the parser's Adjust for raw
// return addresses. For an ET_EXEC module the pc is the address too.
func address(f *report.Frame, exec bool) (uint64, bool) {
	var a uint64
	switch {
	case f.HasOffset:
		a = f.Offset
	case f.HasPC && exec:
		a = f.PC
	default:
		return 0, false
	}
	if a < f.Adjust {
		return 0, false
	}
	return a - f.Adjust, true
}

// valgrindPIEBase is where Valgrind (3.x, amd64) maps a position-
// independent executable: its loader puts an ET_DYN executable at two
// thirds of its client range, and anything below 1 MiB, as that comes out
// on amd64, at 0x108000 (coregrind/m_ume/elf.c). Its "??? (in /path/prog)"
// frames of a PIE are placed with it; shared libraries' bases are not in
// the log and their frames stay as printed.
const valgrindPIEBase = 0x108000

// valgrindPIEAddress is the ELF address of Valgrind frame f in a PIE main
// executable mapped at valgrindPIEBase.
func valgrindPIEAddress(f *report.Frame) (uint64, bool) {
	if f.PC < valgrindPIEBase+f.Adjust {
		return 0, false
	}
	return f.PC - valgrindPIEBase - f.Adjust, true
}

// known reports whether an answer says anything at all.
func known(chain []symbolize.Frame) bool {
	for _, c := range chain {
		if c.Function != "" || c.File != "" {
			return true
		}
	}
	return false
}

// expandStack replaces each answered frame by its inline chain. The
// chain's frames keep the number the log printed for the frame (Index):
// the log's numbering is never changed (render numbers the added inlined
// frames N.1, N.2, ...).
func expandStack(s *report.Stack, si int, answers map[[2]int][]symbolize.Frame) {
	out := make([]report.Frame, 0, len(s.Frames))
	for fi, f := range s.Frames {
		chain, ok := answers[[2]int{si, fi}]
		if !ok {
			out = append(out, f)
			continue
		}
		for ci, c := range chain {
			g := f
			g.Function = c.Function
			g.File = c.File
			g.Line = c.Line
			g.Column = c.Column
			g.Inlined = ci < len(chain)-1
			g.Symbolized = report.SymbolizedSanitrace
			out = append(out, g)
		}
	}
	s.Frames = out
}

// context gathers, for base-name-only module references, the absolute
// paths that the report (and the log before it) print for the same names.
func (r *Resolver) context(rep *report.Report) context {
	name := rep.Input.Name
	if name != r.logName {
		r.logName = name
		r.logPaths = make(map[string]string)
	}
	ctx := context{logName: name, siblings: make(map[string]string)}
	switch name {
	case "":
	case "-":
		// stdin: the log's directory is unknown; where decode runs is the
		// best guess (a log is usually decoded where it lies, next to the
		// binaries of its run).
		if wd, err := os.Getwd(); err == nil {
			ctx.logDir = wd
		}
	default:
		ctx.logDir = filepath.Dir(name)
	}
	note := func(p string) {
		if !filepath.IsAbs(p) {
			return
		}
		b := filepath.Base(p)
		if _, ok := ctx.siblings[b]; !ok {
			ctx.siblings[b] = p
		}
		r.logPaths[b] = p
	}
	// Every module the report names: its frames', its SUMMARY's and its
	// TSan globals'.
	for _, s := range rep.Stacks {
		for _, f := range s.Frames {
			note(f.Module)
		}
	}
	note(rep.Summary.Module)
	for _, l := range rep.Location {
		note(l.Module)
	}
	for b, p := range r.logPaths {
		if _, ok := ctx.siblings[b]; !ok {
			ctx.siblings[b] = p
		}
	}
	return ctx
}

// module resolves a printed module name once per run; failures are warned
// about once.
func (r *Resolver) module(name, buildID string, ctx context) *module {
	return r.moduleWarn(name, buildID, ctx, true)
}

// noteUnverified names, once, a system library a frame names without a
// build-id (gcc's runtimes print none) that was found as this machine's own
// copy: its frames are right only if the crashed machine had the same
// build. With a build-id the file was checked against it.
func (r *Resolver) noteUnverified(m *module, buildID string) {
	if buildID == "" && m.usable && r.loc.finder.HostLibrary(m.path) {
		r.warnOnce("unverified\x00"+m.path, m.path+": unverified: the log gives no build-id, so this machine's copy is used as is (right only if the crashed machine had the same build)")
	}
}

// keyOf is the key a printed module name is resolved under.
func (r *Resolver) keyOf(name, buildID string, ctx context) moduleKey {
	key := moduleKey{name: name, buildID: strings.ToLower(buildID)}
	if abs, ok := ctx.siblings[name]; ok && !strings.Contains(name, "/") {
		key.name = abs
	}
	if !filepath.IsAbs(key.name) {
		key.logDir = ctx.logDir
	}
	return key
}

// moduleWarn is module; without warn, a module that cannot be used is
// neither warned about nor remembered (the truncation check looks at
// modules whose frames the log already named, which need not be here).
func (r *Resolver) moduleWarn(name, buildID string, ctx context, warn bool) *module {
	key := r.keyOf(name, buildID, ctx)
	if m, ok := r.modules[key]; ok {
		return m
	}
	m := r.record(r.locateOpen(name, buildID, ctx))
	if !warn && !m.usable {
		return m
	}
	r.remember(key, name, m)
	return m
}

// remember records the resolution of a printed name and warns about a
// failure. What was left out of a file that still answers is said once
// per file, however many printed names lead to it (a TSan report names
// its module with and without a build-id).
func (r *Resolver) remember(key moduleKey, name string, m *module) {
	r.modules[key] = m
	switch {
	case m.err == nil || r.opts.Warn == nil:
	case m.usable && m.path != "":
		r.warnOnce("damage:"+m.path, name+": "+m.err.Error())
	default:
		r.opts.Warn(name + ": " + m.err.Error())
	}
}

// opening is a module located and opened but not yet recorded.
type opening struct {
	loc    located
	locErr error
	lease  modcache.Lease
}

// locateOpen finds a module and takes its object from the cache. It only
// reads the Resolver, so several may run at once (prefetch).
func (r *Resolver) locateOpen(name, buildID string, ctx context) opening {
	loc, err := r.loc.locate(name, buildID, ctx)
	if err != nil {
		return opening{locErr: err}
	}
	return opening{loc: loc, lease: r.cache.Get(loc.path)}
}

// record turns an opening into the module of a printed name, holding its
// object for the report.
func (r *Resolver) record(o opening) *module {
	if o.locErr != nil {
		return &module{err: o.locErr}
	}
	path := o.loc.path
	if _, held := r.held[path]; held {
		o.lease.Release()
	} else {
		r.held[path] = o.lease
	}
	obj := o.lease.Obj
	return &module{path: path, logPath: o.loc.logPath, exec: o.loc.info.Exec, pie: o.loc.info.PIE, usable: obj != nil, err: openError(path, obj, o.lease.Err)}
}

// openError is what to say about the module file at path as the cache
// opened it: why there is no object, or the parts of one that were left
// out as damaged (a warning: the rest answers); nil when it is sound.
func openError(path string, obj modcache.Object, err error) error {
	switch {
	case obj == nil && errors.Is(err, symbolize.ErrNoDebugInfo):
		return fmt.Errorf("no debug info (%s has neither DWARF nor a symbol table)", path)
	case obj != nil && err == nil:
		return obj.Damage()
	}
	return err
}

// maxParallelOpens bounds the modules prefetch opens at once.
const maxParallelOpens = 8

// prefetch locates and opens at once the modules rep's frames name that
// this run has not resolved yet, when a debuginfod server may have to be
// asked for them: the downloads for one report overlap instead of queuing
// behind each other. The results are recorded, and failures warned about,
// in the order the frames name the modules, as module would.
func (r *Resolver) prefetch(rep *report.Report, ctx context) {
	if r.loc.finder.Fetch == nil {
		return
	}
	type want struct {
		name, buildID string
		key           moduleKey
	}
	var todo []want
	seen := make(map[moduleKey]bool)
	for si := range rep.Stacks {
		for _, f := range rep.Stacks[si].Frames {
			if f.Function != "" || f.File != "" || !symbolizable(f.Module) {
				continue
			}
			key := r.keyOf(f.Module, f.BuildID, ctx)
			if _, ok := r.modules[key]; ok || seen[key] {
				continue
			}
			seen[key] = true
			todo = append(todo, want{f.Module, f.BuildID, key})
		}
	}
	if len(todo) < 2 {
		return
	}
	opened := make([]opening, len(todo))
	fanOut(len(todo), maxParallelOpens, func(i int) {
		opened[i] = r.locateOpen(todo[i].name, todo[i].buildID, ctx)
	})
	for i, w := range todo {
		r.remember(w.key, w.name, r.record(opened[i]))
	}
}

// warnSupplementary reports, once per module, a dwz supplementary file
// that could not be used: names and inlined calls kept there are missing.
func (r *Resolver) warnSupplementary(path string, obj modcache.Object) {
	if err := obj.SupplementaryError(); err != nil {
		r.warnOnce("sup\x00"+path, fmt.Sprintf("%s: %v; frames lack the names and inlined calls kept there", path, err))
	}
}

// warnSplit reports, once each, the split units of the module at path
// whose .dwo could not be read (their frames have no inlined calls, and
// a user should know why) and the .dwo and .dwp files used with damaged
// parts left out.
func (r *Resolver) warnSplit(path string, obj modcache.Object) {
	if r.opts.Warn == nil {
		return
	}
	errs := obj.SplitDWARFErrors()
	done := r.splitWarned[path]
	for _, err := range errs[min(done, len(errs)):] {
		var de *symbolize.DamageError
		if errors.As(err, &de) {
			// A .dwo or .dwp used without its damaged parts, as
			// the module's own damage is reported.
			r.opts.Warn(fmt.Sprintf("%s: split DWARF: %v", path, err))
			continue
		}
		r.opts.Warn(fmt.Sprintf("%s: split DWARF: %v; frames there lack inlined calls", path, err))
	}
	r.splitWarned[path] = len(errs)
}

// subName names code that neither DWARF nor a symbol covers after the FDE
// that does (docs/cli.md, "Function names for code without symbols").
func subName(obj modcache.Object, addr uint64) (string, bool) {
	start, ok := obj.FuncStart(addr)
	if !ok {
		return "", false
	}
	return SubName(start), true
}
