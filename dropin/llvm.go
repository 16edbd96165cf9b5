package dropin

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/gctune"
	"github.com/sanitrace/sanitrace/internal/termsafe"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/symbolize"
)

// Env is what a face needs from its process: the standard streams, the
// environment and how to open a module.
type Env struct {
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Getenv  func(string) string // nil means no environment
	Open    Opener
	Version string
	Name    string // program name in addr2line's messages (its argv[0]); "" means "addr2line"
	// LLVMVersion is the llvm-symbolizer major version the face answers
	// as unless --llvm-version says otherwise (version.go): 0 means 14.
	// A link named llvm-symbolizer-19 sets it to 19.
	LLVMVersion int
	// LLVMName is the face's name in llvm-symbolizer 19's messages (its
	// argv[0] as invoked); "" means "llvm-symbolizer".
	LLVMName string
	// Fetch gets debug files by build-id when the local rules find none
	// (a debuginfod client); nil means none.
	Fetch debuginfo.Fetcher
	// ReleaseExecutable hands back the resident pages of sanitrace's own
	// executable (internal/startup); a stdin session calls it every
	// executableReleaseEvery hand-backs of the modules' pages. nil means
	// never.
	ReleaseExecutable func()

	// directWriteMin overrides the size from which a batch's answer chunk
	// bypasses the stdout buffer (tests exercise both paths); 0: default.
	directWriteMin int
	// releaseEvery overrides releaseEvery (tests: 1, after every batch);
	// 0: default.
	releaseEvery int
	// batchBytes overrides batchBytes (tests: 1, every batch past it);
	// 0: default.
	batchBytes int
}

func (e *Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// llvmConfig is what an llvm-symbolizer command line asks for.
type llvmConfig struct {
	version   int // the llvm-symbolizer version answered as (version.go)
	obj       string
	style     outputStyle
	lookup    symbolize.LookupOptions
	inlines   bool
	adjustVMA uint64
	basenames bool
	debugDirs []string
	fallback  string // --fallback-debug-path
	dwp       string // --dwp
	// cacheBytes bounds the modules kept open (--cache-size, v19):
	// modcache.Options.MaxBytes.
	cacheBytes int64
	print      printConfig
	inputs     []string
}

// maxQueryLine bounds one stdin line. The sanitizer runtimes send at most
// 16 KiB per request; a longer line is answered as invalid.
const maxQueryLine = 64 << 10

// RunLLVMSymbolizer runs the llvm-symbolizer face on args (without argv[0])
// and returns the exit status.
func RunLLVMSymbolizer(args []string, env Env) int {
	all := expandResponseFiles(append(tokenizeGNU(env.getenv("LLVM_SYMBOLIZER_OPTS")), args...), tokenizeGNU)
	p := parseOptTable(llvmOptions, all)
	bad := false
	if p.missing != "" {
		fmt.Fprintf(env.Stderr, "error: %s: missing argument\n", p.missing)
		bad = true
	}
	for _, u := range p.unknown {
		fmt.Fprintln(env.Stderr, unknownArgError(llvmOptions, u))
		bad = true
	}
	if bad {
		return 1
	}
	if p.has(idHelp) {
		io.WriteString(env.Stdout, llvmHelp)
		return 0
	}
	v, msg := llvmVersion(p, env.LLVMVersion)
	if msg != "" {
		io.WriteString(env.Stderr, msg)
		return 1
	}
	if p.has(idVersion) {
		fmt.Fprintf(env.Stdout, "llvm-symbolizer\nsanitrace %s (llvm-symbolizer %d drop-in)\n", env.Version, v)
		return 0
	}
	cfg, msg := llvmConfigFrom(p)
	cfg.setVersion(v, env.LLVMName)
	if msg != "" {
		io.WriteString(env.Stderr, msg) // v14 prints no newline here
		return 1
	}
	fetch := env.Fetch
	if !p.hasFlag(idDebuginfod, idNoDebuginfod, true) {
		fetch = nil // --no-debuginfod (v19): DEBUGINFOD_URLS is not asked
	}
	s := &llvmSession{
		cfg:     cfg,
		modules: newModules(env.Open, &debuginfo.Finder{DebugDirs: cfg.debugDirs, FallbackDebugPath: cfg.fallback, DWPPath: cfg.dwp, Fetch: fetch}, cfg.cacheBytes),
		stderr:  env.Stderr,
	}
	defer s.modules.close()
	// The face tunes the collector (quietOpen, stdinGCPercent) unless the
	// user set GOGC.
	tuneGC := env.getenv("GOGC") == ""
	s.modules.quietOpen = tuneGC
	out := bufio.NewWriterSize(env.Stdout, stdoutBufferSize)
	defer out.Flush()
	if p.has(idFilterMarkup) {
		// v19 filters before it looks at --build-id, --obj or addresses.
		// The filter is llvm-symbolizer 19's whatever version the face
		// answers queries as: 14 has none.
		s.cfg.lookup.Policy = symbolize.LLVM19
		s.filterMarkup(env.Stdin, out, env.Stderr, markupColors(p, env), llvmHasColors(env.Stderr, env.getenv))
		return 0
	}
	if msg := s.cfg.useBuildID(p); msg != "" {
		io.WriteString(env.Stderr, msg)
		return 1
	}
	if s.openObjFirst(out, env.Stderr) {
		return 1
	}
	s.printer = newPrinter(s.cfg.print, out, env.Stderr)

	if len(cfg.inputs) > 0 {
		s.printer.listBegin()
		s.more = len(cfg.inputs) > 1
		for _, in := range cfg.inputs {
			s.answer(in)
		}
		s.printer.listEnd()
		return 0
	}
	s.errOut = env.Stderr
	if tuneGC {
		// A session's heap is mostly the symbolizer's long-lived index
		// (line tables, function trees, demangled names); what each answer
		// allocates dies at once. The default GOGC=100 lets the heap grow
		// to twice the index before collecting, which on big C++ binaries
		// means peak RSS above llvm-symbolizer's for nothing: stdinGC
		// costs a few percent of CPU and saves a quarter of the peak. It
		// starts once the first batch's module is open (startGC):
		// collecting while a module is opened (tens of MB of inflated
		// sections, all kept) is pure cost, 40-60 ms of a one-address run
		// on a Go binary.
		s.tuneGC = true
		defer func() { s.gc.Stop() }()
	}
	s.releaseEvery = releaseEvery
	if env.releaseEvery > 0 {
		s.releaseEvery = env.releaseEvery
	}
	s.releaseExecutable = env.ReleaseExecutable
	s.batchBytes = batchBytes
	if env.batchBytes > 0 {
		s.batchBytes = env.batchBytes
	}
	direct := env.directWriteMin
	if direct <= 0 {
		direct = directWriteMin
	}
	s.serveStdin(bufio.NewReaderSize(env.Stdin, stdinBufferSize), out, env.Stdout, direct)
	return 0
}

// stdoutBufferSize and stdinBufferSize are large enough that a batch of
// queries read from a file costs a handful of syscalls, not one per line.
const (
	stdoutBufferSize = 256 << 10
	stdinBufferSize  = 64 << 10
)

// releaseEvery is how many stdin queries the modules answer between two
// hand-backs of the pages they read at random (modules.releaseResident):
// rare enough to cost nothing on a sanitizer's pipe, often enough that a
// batch of a hundred thousand queries on a big binary does not end with
// all of its range lists and address tables resident.
const releaseEvery = 4096

// executableReleaseEvery: every this many hand-backs of the modules' pages
// (16,384 queries), the session hands back its own executable's pages too
// (Env.ReleaseExecutable). The start-up's hand-back is not the last word:
// the kernel maps 64 KB around each page of code a session faults in, so
// that cpp-heavy's 100,000 queries ended with 12 MB of the executable
// resident. Handed back every 16,384 queries, its peak RSS is 2.3 MB
// lower, as with every 4,096 (docs/performance.md).
const executableReleaseEvery = 4

// stdinGC is the collector's policy while serving stdin queries: GOGC 35,
// lowered to as little as 20 once the index is big enough that 35% of it
// is more than 10 MB (a big C++ binary's tens of MB of names and DIEs,
// where each point of GOGC is most of a MB of peak RSS), looked at every
// 8 batches. On cpp-heavy (about 50 MB live at the end) 20 rather than
// 25-32 costs 4% of its CPU for 5% of its peak RSS (docs/performance.md).
var stdinGC = gctune.Policy{Headroom: 10 << 20, MinPercent: 20, MaxPercent: 35, Every: 8}

// serveStdin answers one query per input line. Queries that are already
// buffered are answered as a batch, on all CPUs (see batcher), and an answer
// is flushed as soon as no further complete query is buffered: a sanitizer
// runtime writes one query and waits for its answer, so a pipe still gets
// every answer at once, while a file or a burst of queries is answered in
// parallel and written in large blocks.
func (s *llvmSession) serveStdin(r *bufio.Reader, out *bufio.Writer, raw io.Writer, directMin int) {
	b := newBatcher(s, out, raw, directMin)
	for {
		line, tooLong, err := readLine(r, maxQueryLine)
		if line == "" && !tooLong && err != nil {
			break
		}
		b.add(line, tooLong)
		s.sinceRelease++
		if err != nil {
			break
		}
		if b.full() || !completeLineBuffered(r) {
			b.run()
			if s.sinceRelease >= s.releaseEvery {
				b.finishAnswering() // not while lookups read the pages
				s.modules.releaseResident()
				s.releases++
				if s.releaseExecutable != nil && s.releases%executableReleaseEvery == 0 {
					s.releaseExecutable()
				}
				s.sinceRelease = 0
			}
			if s.gc == nil {
				s.startGC() // after the first batch, if not yet
			} else {
				s.gc.Tick()
			}
		}
		if !completeLineBuffered(r) {
			// The next read may block: the reader is waiting for this answer.
			b.drain()
			out.Flush()
		}
	}
	b.run()
	b.drain()
}

// startGC starts the session's collector policy, if it tunes the
// collector and has not started it yet. The batcher starts it before the
// first batch answered in parallel, once that batch's module is open: on a
// big binary the first batch decodes most of what the session keeps (on
// cppcheck's test runner, 140 MB of its 180 MB), and under the default
// GOGC=100 the heap doubled while it did, the session's peak RSS.
// Otherwise it starts after the first batch.
func (s *llvmSession) startGC() {
	if s.tuneGC && s.gc == nil {
		s.gc = gctune.Start(stdinGC)
	}
}

// completeLineBuffered reports whether r already holds a whole line, so
// reading it cannot block.
func completeLineBuffered(r *bufio.Reader) bool {
	n := r.Buffered()
	if n == 0 {
		return false
	}
	b, _ := r.Peek(n)
	return bytes.IndexByte(b, '\n') >= 0
}

// llvmConfigFrom turns parsed options into a configuration, as
// llvm-symbolizer's main does. msg is a fatal error message.
func llvmConfigFrom(p *parsedArgs) (llvmConfig, string) {
	var c llvmConfig
	if a, ok := p.last(idObj); ok {
		c.obj = a.value
	}
	if a, ok := p.last(idOutputStyle); ok {
		switch a.value {
		case "GNU":
			c.style = styleGNU
		case "JSON":
			c.style = styleJSON
		}
	}
	if a, ok := p.last(idAdjustVMA); ok {
		v, ok := parseLLVMInteger(a.value)
		if !ok {
			return c, fmt.Sprintf("%s: expected a non-negative integer, but got '%s'", a.valueSpelling(), a.value)
		}
		c.adjustVMA = v
	}
	if a, ok := p.last(idPrintSourceContextLines); ok {
		v, ok := parseLLVMSigned(a.value)
		if !ok {
			return c, fmt.Sprintf("%s: expected a non-negative integer, but got '%s'", a.valueSpelling(), a.value)
		}
		c.print.contextLines = v
	}
	c.cacheBytes = modcache.DefaultMaxBytes
	if a, ok := p.last(idCacheSize); ok {
		// v19 reads it as a size_t, after the two above.
		v, ok := parseLLVMInteger(a.value)
		if !ok {
			return c, fmt.Sprintf("%s: expected a non-negative integer, but got '%s'", a.valueSpelling(), a.value)
		}
		c.cacheBytes = modcache.Bound(v)
	}
	c.lookup.Functions = symbolize.FunctionsLinkage
	if !p.has(idFunctions) {
		if a, ok := p.last(idFunctionsEq); ok {
			switch a.value {
			case "none":
				c.lookup.Functions = symbolize.FunctionsNone
			case "short":
				c.lookup.Functions = symbolize.FunctionsShort
			}
		}
	}
	c.lookup.Demangle = p.hasFlag(idDemangle, idNoDemangle, true)
	c.inlines = p.hasFlag(idInlines, idNoInlines, true)
	c.lookup.Policy = symbolize.LLVM14
	c.basenames = p.has(idBasenames)
	// llvm-symbolizer: --basenames wins over --relativenames.
	c.lookup.RelativeNames = p.has(idRelativeNames) && !c.basenames
	c.debugDirs = p.all(idDebugFileDirectory)
	if a, ok := p.last(idFallbackDebugPath); ok {
		c.fallback = a.value
	}
	if a, ok := p.last(idDwp); ok {
		c.dwp = a.value
	}
	c.inputs = p.inputs
	c.print.style = c.style
	c.print.printAddress = p.has(idAddresses)
	c.print.pretty = p.has(idPrettyPrint)
	c.print.verbose = p.has(idVerbose)
	c.print.functions = c.lookup.Functions != symbolize.FunctionsNone
	c.print.readSource = func(path string) (io.ReadCloser, error) { return os.Open(path) }
	return c, ""
}

// llvmSession answers queries for one run.
type llvmSession struct {
	cfg     llvmConfig
	modules *modules
	printer printer
	errOut  io.Writer // set in stdin mode: where rejected lines are explained
	stderr  io.Writer // where a query that failed inside sanitrace is said
	// stderrMu: the batch workers may say so at once.
	stderrMu sync.Mutex
	// tuneGC: the session tunes the collector (GOGC is not set), from the
	// end of the first stdin batch on, through gc (nil until then).
	tuneGC bool
	gc     *gctune.Tuner
	// sinceRelease counts the stdin queries since the modules last handed
	// back their resident pages, which they do every releaseEvery;
	// releases counts those hand-backs, every executableReleaseEvery of
	// which releaseExecutable is called too.
	sinceRelease, releaseEvery int
	releases                   int
	releaseExecutable          func()
	// batchBytes: see batcher.limit.
	batchBytes int
	// more: other queries are already waiting (argv, or stdin lines
	// buffered behind this one), so a module opened now serves a batch.
	more bool
}

// answerStdin answers one stdin line. Unlike v14, which echoes a line it
// cannot parse (a runtime reading the pipe then waits forever for the blank
// line), an empty or malformed line gets an unknown answer and a message on
// stderr.
func (s *llvmSession) answerStdin(line string) {
	line = stripNewlines(line)
	q, ok := parseQuery(line, s.cfg.obj)
	if !ok {
		if sq, ok := parseSymbolQuery(line, s.cfg.obj); ok {
			s.answerSymbol(sq, false)
			return
		}
		s.reject(fmt.Sprintf("cannot parse query %q", line))
		if s.cfg.style == styleJSON {
			s.printer.invalid(request{module: q.moduleName()}, line)
		}
		return
	}
	s.answerQuery(q)
}

// stripNewlines drops every CR and LF from line, as v14 does before parsing.
func stripNewlines(line string) string {
	if strings.IndexByte(line, '\r') < 0 && strings.IndexByte(line, '\n') < 0 {
		return line
	}
	return strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' {
			return -1
		}
		return r
	}, line)
}

// reject explains a stdin line that is not a query and, in the plain
// styles, answers it as an unknown address so the reader never stalls.
func (s *llvmSession) reject(why string) {
	fmt.Fprintf(s.errOut, "llvm-symbolizer: error: %s\n", why)
	if s.cfg.style != styleJSON {
		s.printer.code(request{}, nil)
	}
}

// answer answers one argv address as v14 does (invalid ones are echoed).
func (s *llvmSession) answer(in string) {
	q, ok := parseQuery(in, s.cfg.obj)
	if !ok {
		if sq, ok := parseSymbolQuery(in, s.cfg.obj); ok && s.answerSymbol(sq, true) {
			return
		}
		s.printer.invalid(request{module: q.moduleName()}, in)
		return
	}
	s.answerQuery(q)
}

func (s *llvmSession) answerQuery(q query) {
	r := request{module: q.moduleName(), addr: q.offset, hasAddr: true}
	addr := q.offset - s.cfg.adjustVMA
	l, err := s.modules.get(q.module)
	defer l.Release()
	if err != nil {
		if !s.printer.moduleError(r, llvmErrorMessage(q.module, err)) {
			return
		}
	}
	mod := l.Obj
	if mod != nil && s.more {
		// An object probes a unit for its first lookups rather than
		// indexing it; with a batch to follow, it indexes at once.
		mod.ExpectManyLookups()
	}
	// --relative-address adds the module's preferred base, which LLVM 14
	// knows only for COFF: for ELF it is 0, so the flag changes nothing
	// (llvm-symbolizer 14 answers "_start" for 0x401080 of a non-PIE
	// executable with or without it).
	s.respond(s.printer, q.cmd, r, mod, addr)
}

// respond prints the answer to one query whose module is resolved (mod may
// be nil: an unknown answer). It only reads the session, so batch workers
// call it concurrently, each with its own printer.
//
// A query is the unit of a session's work: a panic of sanitrace's while
// answering one (a bug) costs that query, answered as unknown and said on
// stderr in one line naming the module and address, not the session,
// whose reader (a sanitizer runtime) waits for every answer. The lookup
// runs before anything of the answer is printed.
func (s *llvmSession) respond(p printer, cmd command, r request, mod modcache.Object, addr uint64) {
	defer func() {
		if v := recover(); v != nil {
			s.stderrMu.Lock()
			fmt.Fprintf(s.stderr, "llvm-symbolizer: error: '%s': address 0x%x: %s\n", termsafe.Line(r.module), addr,
				termsafe.Line(fmt.Sprintf("internal error (please report it): %v", v)))
			s.stderrMu.Unlock()
			s.reply(p, cmd, r, nil, addr)
		}
	}()
	s.reply(p, cmd, r, mod, addr)
}

// reply prints the answer to one query (see respond).
func (s *llvmSession) reply(p printer, cmd command, r request, mod modcache.Object, addr uint64) {
	switch cmd {
	case cmdData:
		var d symbolize.DataSymbol
		if mod != nil {
			d, _ = mod.Data(addr)
			if s.cfg.version >= 19 {
				d.DeclFile, d.DeclLine, d.HasDecl = mod.DataDecl(addr)
				if d.Demangled != "" {
					d.Demangled = symbolize.DemangleLLVM19(d.Name)
				}
			}
		}
		if s.cfg.lookup.Demangle && d.Demangled != "" {
			// llvm-symbolizer demangles DATA names too (--demangle).
			d.Name = d.Demangled
		}
		p.data(r, d)
	case cmdFrame:
		p.frame(r, frameLocals(mod, addr))
	default:
		buf := framesPool.Get().(*[]symbolize.Frame)
		frames, own := s.lookup(mod, addr, *buf)
		p.code(r, frames) // the printers keep nothing of frames
		if own {
			*buf = frames[:0]
		}
		framesPool.Put(buf)
	}
}

// framesPool holds the frame buffers of answers printed, for the next
// lookups (symbolize.Object.SymbolizeInto): a batch then allocates no
// frames, which were half of what it allocated on a C program.
var framesPool = sync.Pool{New: func() any { return new([]symbolize.Frame) }}

// frameAppender is the module that can build its frames in a buffer of
// the caller's (*symbolize.Object).
type frameAppender interface {
	SymbolizeInto(buf []symbolize.Frame, addr uint64, opts symbolize.LookupOptions) ([]symbolize.Frame, error)
}

// lookup returns the frames to print for a CODE query, built in buf's
// array when mod can; own says whether they are the caller's to reuse
// once printed (not a slice the module keeps).
func (s *llvmSession) lookup(mod modcache.Object, addr uint64, buf []symbolize.Frame) (frames []symbolize.Frame, own bool) {
	if mod == nil {
		return unknownFrame(), true
	}
	opts := s.cfg.lookup
	opts.Inlines = s.cfg.inlines
	// GNU style without inlining prints the innermost frame of the inline
	// chain (as addr2line does), not the LLVM style's one merged frame.
	gnuInnermost := !s.cfg.inlines && s.cfg.style == styleGNU
	if gnuInnermost {
		opts.Inlines = true
	}
	var err error
	if fa, ok := mod.(frameAppender); ok {
		frames, err = fa.SymbolizeInto(buf[:0], addr, opts)
		own = true
	} else {
		frames, err = mod.Symbolize(addr, opts)
	}
	if err != nil || len(frames) == 0 {
		return unknownFrame(), true
	}
	if gnuInnermost {
		frames = frames[:1]
	}
	if !opts.Inlines {
		frames, own = owned(frames, own), true
		setInvalidStartFile(frames)
	}
	if s.cfg.basenames {
		frames, own = owned(frames, own), true
		setBaseNames(frames)
	}
	return frames, own
}

// setInvalidStartFile is llvm's lookup without inlining (symbolizeCode):
// the start file of a function whose declaration names no file stays
// DILineInfo's "<invalid>", which --verbose prints (JSON prints ""), where
// a lookup with inlining prints "".
func setInvalidStartFile(frames []symbolize.Frame) {
	for i := range frames {
		if frames[i].StartFile == "" {
			frames[i].StartFile = invalidName
		}
	}
}

// setBaseNames leaves the frames' files' directories out (--basenames).
func setBaseNames(frames []symbolize.Frame) {
	for i := range frames {
		frames[i].File = baseName(frames[i].File)
		frames[i].StartFile = baseName(frames[i].StartFile)
	}
}

// owned returns frames, or a copy of them when they are not the caller's
// (own false: a slice the module keeps), so that they can be changed.
func owned(frames []symbolize.Frame, own bool) []symbolize.Frame {
	if own {
		return frames
	}
	return append([]symbolize.Frame(nil), frames...)
}

// invalidName is DILineInfo::BadString, llvm's unknown name.
const invalidName = "<invalid>"

// baseName is llvm::sys::path::filename for the paths DWARF holds.
func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// unknownFrame is the answer for an address nothing names: one frame
// printed as "??". It is built only when needed (every lookup built one).
func unknownFrame() []symbolize.Frame { return []symbolize.Frame{{}} }

// readLine reads one line (without its newline) of at most limit bytes;
// the rest of a longer line is discarded and tooLong set. err is io.EOF
// when the input ended, possibly after a last line without a newline.
func readLine(r *bufio.Reader, limit int) (line string, tooLong bool, err error) {
	// A whole line in the buffer (the usual case) is one allocation.
	if chunk, e := r.ReadSlice('\n'); e == nil && len(chunk) <= limit+1 {
		return string(chunk[:len(chunk)-1]), false, nil
	} else if e != bufio.ErrBufferFull {
		b := chunk
		if len(b) > limit+1 {
			b, tooLong = nil, true
		}
		if e == nil {
			// Too long, but complete.
			return "", tooLong, nil
		}
		return string(b), tooLong, e
	} else if len(chunk) > limit+1 {
		return readLineRest(r, limit, nil, true)
	} else {
		return readLineRest(r, limit, append([]byte(nil), chunk...), false)
	}
}

// readLineRest reads the rest of a line longer than the reader's buffer,
// after b (what was read of it, up to limit+1 bytes).
func readLineRest(r *bufio.Reader, limit int, b []byte, tooLong bool) (string, bool, error) {
	for {
		chunk, e := r.ReadSlice('\n')
		if len(b)+len(chunk) <= limit+1 {
			b = append(b, chunk...)
		} else {
			tooLong = true
		}
		if e == bufio.ErrBufferFull {
			continue
		}
		if e == nil && chunk[len(chunk)-1] == '\n' {
			b = bytes.TrimSuffix(b, []byte("\n"))
			return string(b), tooLong, nil
		}
		// The input ended (or failed) before a newline.
		if e == nil {
			e = io.EOF
		}
		return string(b), tooLong, e
	}
}

// tokenizeGNU splits an options string or response file as LLVM's
// cl::TokenizeGNUCommandLine does (LLVM_SYMBOLIZER_OPTS, @FILE).
func tokenizeGNU(s string) []string { return splitArgs(s, false) }
