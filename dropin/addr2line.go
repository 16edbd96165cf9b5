package dropin

import (
	"bufio"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/bits"
	"os"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/llvmnum"
	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/symbolize"
)

// a2lConfig is what an addr2line command line asks for.
type a2lConfig struct {
	exe       string
	section   string
	addresses bool
	functions bool
	inlines   bool
	pretty    bool
	basenames bool
	demangle  bool
	inputs    []string
}

// a2lLongOptions is addr2line.c's long_options table.
var a2lLongOptions = []getoptLong{
	{"addresses", argNone, 'a'},
	{"basenames", argNone, 's'},
	{"demangle", argOptional, 'C'},
	{"exe", argRequired, 'e'},
	{"functions", argNone, 'f'},
	{"inlines", argNone, 'i'},
	{"pretty-print", argNone, 'p'},
	{"recurse-limit", argNone, 'R'},
	{"recursion-limit", argNone, 'R'},
	{"no-recurse-limit", argNone, 'r'},
	{"no-recursion-limit", argNone, 'r'},
	{"section", argRequired, 'j'},
	{"target", argRequired, 'b'},
	{"help", argNone, 'H'},
	{"version", argNone, 'V'},
}

const a2lShortOptions = "ab:Ce:rRsfHhij:pVv"

// bfdTargets are the targets binutils 2.40 on x86-64 Debian accepts for -b.
var bfdTargets = map[string]bool{
	"elf64-x86-64": true, "elf32-i386": true, "elf32-iamcu": true, "elf32-x86-64": true,
	"pei-i386": true, "pe-x86-64": true, "pei-x86-64": true, "elf64-little": true,
	"elf64-big": true, "elf32-little": true, "elf32-big": true, "pe-bigobj-x86-64": true,
	"pe-i386": true, "pdb": true, "srec": true, "symbolsrec": true, "verilog": true,
	"tekhex": true, "binary": true, "ihex": true, "plugin": true, "default": true,
}

// demanglingStyles are the names cplus_demangle_name_to_style knows.
var demanglingStyles = map[string]bool{
	"none": true, "auto": true, "gnu-v3": true, "java": true, "gnat": true, "dlang": true, "rust": true,
}

// a2lStdinChunk is addr2line's fgets buffer: a longer line is read as
// several addresses, as the real tool does.
const a2lStdinChunk = 100 - 1

// RunAddr2line runs the GNU addr2line face on args (without argv[0]) and
// returns the exit status.
func RunAddr2line(args []string, env Env) int {
	name := env.Name
	if name == "" {
		name = "addr2line"
	}
	env.Name = name
	args = expandResponseFiles(args, tokenizeLibiberty)
	cfg := a2lConfig{exe: "a.out"}
	target := ""
	g := getopt{args: args, short: a2lShortOptions, long: a2lLongOptions}
	// The options that only turn something on.
	switches := map[byte]*bool{
		'a': &cfg.addresses, 's': &cfg.basenames, 'f': &cfg.functions, 'i': &cfg.inlines, 'p': &cfg.pretty,
	}
	for {
		c, arg, errMsg, done := g.next()
		if done {
			break
		}
		if errMsg != "" {
			fmt.Fprintf(env.Stderr, "%s: %s\n", name, errMsg)
			fmt.Fprintf(env.Stderr, addr2lineUsage, name)
			return 1
		}
		if on := switches[c]; on != nil {
			*on = true
			continue
		}
		switch c {
		case 'b':
			target = arg
		case 'C':
			cfg.demangle = true
			if arg != "" && !demanglingStyles[arg] {
				fmt.Fprintf(env.Stderr, "%s: unknown demangling style `%s'\n", name, arg)
				return 1
			}
		case 'r', 'R':
			// Recursion limits of the demangler: accepted, nothing to change.
		case 'e':
			cfg.exe = arg
		case 'v', 'V':
			fmt.Fprintf(env.Stdout, "GNU addr2line (sanitrace %s, binutils 2.40 compatible)\n", env.Version)
			return 0
		case 'h', 'H':
			fmt.Fprintf(env.Stdout, addr2lineHelp, name)
			return 0
		case 'j':
			cfg.section = arg
		}
	}
	cfg.inputs = g.positional()
	if target != "" && !bfdTargets[target] {
		fmt.Fprintf(env.Stderr, "%s: %s: invalid bfd target\n", name, cfg.exe)
		return 1
	}
	return runAddr2lineOn(cfg, env)
}

func runAddr2lineOn(cfg a2lConfig, env Env) int {
	if msg, ok := checkA2LFile(cfg.exe); !ok {
		if msg != "" {
			fmt.Fprintf(env.Stderr, "%s: %s\n", env.Name, msg)
		}
		return 1
	}
	// The headers as the engine reads them: a damaged header costs what
	// depends on it, not the file (bfd refuses some such files whole;
	// docs/differences.md).
	df, err := debuginfo.Open(cfg.exe)
	if err != nil {
		fmt.Fprintf(env.Stderr, "%s: %s: file format not recognized\n", env.Name, cfg.exe)
		return 1
	}
	defer df.Close()
	ef := df.ELF
	var sec *elf.Section
	if cfg.section != "" {
		if sec = ef.Section(cfg.section); sec == nil {
			fmt.Fprintf(env.Stderr, "%s: %s: cannot find section %s\n", env.Name, cfg.exe, cfg.section)
			return 1
		}
	}
	finder := &debuginfo.Finder{Fetch: env.Fetch}
	defer finder.Close()
	mod, err := env.Open(cfg.exe, finder)
	if err != nil {
		// The ELF file opened, so this is a debug-information problem:
		// addr2line answers ?? for everything in that case, silently when
		// the file has no symbols at all (a stripped file).
		if !bare(err) {
			fmt.Fprintf(env.Stderr, "%s: %s: %v\n", env.Name, cfg.exe, err)
		}
		mod = nil
	} else {
		defer mod.Close()
	}
	a := &a2lSession{cfg: cfg, elf: ef, section: sec, mod: mod, is32: ef.Class == elf.ELFCLASS32}
	out := bufio.NewWriterSize(env.Stdout, stdoutBufferSize)
	defer out.Flush()
	if len(cfg.inputs) > 0 {
		for _, in := range cfg.inputs {
			a.translate(out, a.address(in))
		}
		return 0
	}
	r := bufio.NewReaderSize(env.Stdin, stdinBufferSize)
	for {
		chunk, err := readChunk(r, a2lStdinChunk)
		if chunk == "" && err != nil {
			break
		}
		a.translate(out, a.address(chunk))
		// "fflush() is essential for using this command as a server child
		// process" (addr2line.c): a client that waits for this answer gets
		// it now; queries already buffered are answered in one write.
		if !completeLineBuffered(r) {
			out.Flush()
		}
		if err != nil {
			break
		}
	}
	return 0
}

// checkA2LFile is addr2line's get_file_size check; ok is false when the
// file cannot be used (an empty file fails silently).
func checkA2LFile(path string) (msg string, ok bool) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("'%s': No such file", path), false
	case err != nil:
		var pe *fs.PathError
		reason := err.Error()
		if errors.As(err, &pe) {
			reason = capitalize(pe.Err.Error())
		}
		return fmt.Sprintf("Warning: could not locate '%s'.  reason: %s", path, reason), false
	case fi.IsDir():
		return fmt.Sprintf("Warning: '%s' is a directory", path), false
	case !fi.Mode().IsRegular():
		return fmt.Sprintf("Warning: '%s' is not an ordinary file", path), false
	case fi.Size() < 1:
		return "", false
	}
	return "", true
}

type a2lSession struct {
	cfg     a2lConfig
	elf     *elf.File
	section *elf.Section
	mod     modcache.Object
	is32    bool
	symbols map[string]uint64 // by name, read on first use
	out     []byte            // translate's answer, reused
}

// address is how addr2line 2.40 reads an address: "symbol[+offset]" when
// the part before '+' names a symbol (an empty name stands for 0), else a
// hexadecimal number.
func (a *a2lSession) address(s string) uint64 {
	name, off, plus := strings.Cut(strings.TrimSuffix(s, "\n"), "+")
	if name == "" && plus {
		return strtoul0(off)
	}
	if v, ok := a.symbol(name); ok {
		return v + strtoul0(off)
	}
	return scanVMA(s)
}

// symbol returns the value of the first symbol called name.
func (a *a2lSession) symbol(name string) (uint64, bool) {
	if name == "" {
		return 0, false
	}
	if a.symbols == nil {
		a.symbols = map[string]uint64{}
		syms, err := a.elf.Symbols()
		if err != nil || len(syms) == 0 {
			syms, _ = a.elf.DynamicSymbols()
		}
		for _, s := range syms {
			if _, dup := a.symbols[s.Name]; !dup {
				a.symbols[s.Name] = s.Value
			}
		}
	}
	v, ok := a.symbols[name]
	return v, ok
}

// translate answers one address as addr2line.c's translate_addresses.
func (a *a2lSession) translate(w io.Writer, pc uint64) {
	b := a.out[:0]
	if a.is32 {
		pc &= 0xffffffff
	}
	if a.cfg.addresses {
		width := 16
		if a.is32 {
			width = 8
		}
		b = appendHexWidth(append(b, "0x"...), pc, width)
		if a.cfg.pretty {
			b = append(b, ": "...)
		} else {
			b = append(b, '\n')
		}
	}
	frames := a.lookup(pc)
	if frames == nil {
		if a.cfg.functions {
			if a.cfg.pretty {
				b = append(b, "?? "...)
			} else {
				b = append(b, "??\n"...)
			}
		}
		b = append(b, "??:0\n"...)
		a.out = b
		w.Write(b)
		return
	}
	// bfd_find_inliner_info does not report discriminators: the callers'
	// lines carry the innermost frame's one.
	disc := frames[0].Discriminator
	for i, f := range frames {
		if i > 0 && a.cfg.pretty {
			b = append(b, " (inlined by) "...)
		}
		if a.cfg.functions {
			name := f.Function
			if name == "" {
				name = "??"
			}
			b = append(b, name...)
			if a.cfg.pretty {
				b = append(b, " at "...)
			} else {
				b = append(b, '\n')
			}
		}
		file := f.File
		if file == "" && !f.FileKnown {
			file = "??"
		} else if a.cfg.basenames {
			file = baseName(file)
		}
		b = append(append(b, file...), ':')
		switch {
		case f.Line == 0:
			b = append(b, '?')
		case disc != 0:
			b = strconv.AppendInt(b, int64(f.Line), 10)
			b = strconv.AppendInt(append(b, " (discriminator "...), int64(disc), 10)
			b = append(b, ')')
		default:
			b = strconv.AppendInt(b, int64(f.Line), 10)
		}
		b = append(b, '\n')
	}
	a.out = b
	w.Write(b)
}

// appendHexWidth appends v in lowercase hex, zero-padded to width digits
// (printf's %0*x).
func appendHexWidth(b []byte, v uint64, width int) []byte {
	var digits [16]byte
	d := strconv.AppendUint(digits[:0], v, 16)
	for n := len(d); n < width; n++ {
		b = append(b, '0')
	}
	return append(b, d...)
}

// lookup returns the frames for pc (innermost first), or nil when
// addr2line would say it found nothing.
func (a *a2lSession) lookup(pc uint64) []symbolize.Frame {
	addr := pc
	if a.section != nil {
		if pc >= a.section.Size {
			return nil
		}
		addr = a.section.Addr + pc
	} else if !allocatedSection(a.elf, addr) {
		return nil
	}
	if a.mod == nil {
		return nil
	}
	frames, err := a.mod.Symbolize(addr, symbolize.LookupOptions{
		Inlines:   a.cfg.inlines,
		Demangle:  a.cfg.demangle,
		Functions: symbolize.FunctionsLinkage,
		Policy:    symbolize.GNU240,
	})
	if err != nil || len(frames) == 0 {
		return nil
	}
	if f := frames[0]; f.Function == "" && f.File == "" && !f.FileKnown && f.Line == 0 {
		return nil
	}
	if !a.cfg.inlines {
		frames = frames[:1]
	}
	return frames
}

// scanVMA is binutils 2.40's bfd_scan_vma(s, NULL, 16): leading space, an
// optional 0x, then hex digits up to the first other byte; no sign;
// overflow saturates.
func scanVMA(s string) uint64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	var v uint64
	overflow := false
	for i := 0; i < len(s) && isHex(s[i]); i++ {
		d, _ := llvmnum.Digit(s[i])
		if v > (^uint64(0)-d)/16 {
			overflow = true
		}
		v = v*16 + d
	}
	if overflow {
		return ^uint64(0)
	}
	return v
}

// strtoul0 is strtoul(s, NULL, 0) for the offset of "symbol+offset".
func strtoul0(s string) uint64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	base := uint64(10)
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isHex(s[2]):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base = 8
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d, ok := llvmnum.Digit(s[i])
		if !ok || d >= base {
			break
		}
		hi, lo := bits.Mul64(v, base)
		lo, carry := bits.Add64(lo, d, 0)
		if hi != 0 || carry != 0 {
			return ^uint64(0)
		}
		v = lo
	}
	if neg {
		v = -v
	}
	return v
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// readChunk is fgets with a buffer of limit+1 bytes: a line, or its next
// limit bytes when it is longer.
func readChunk(r *bufio.Reader, limit int) (string, error) {
	var b []byte
	for len(b) < limit {
		c, err := r.ReadByte()
		if err != nil {
			return string(b), err
		}
		b = append(b, c)
		if c == '\n' {
			break
		}
	}
	return string(b), nil
}
