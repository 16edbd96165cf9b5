package campaign

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"debug/elf"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sanitrace/sanitrace/internal/mutate"
)

// Seed is one unmutated input of a kind.
type Seed struct {
	// Name is the seed's path under the repository ("testdata/elf/x"),
	// under ../shared ("shared/corpus/..."), or "gen/..." for a seed the
	// campaign makes (archives, lws logs from the vectors).
	Name   string
	Target mutate.Target
	Ext    string // what a mutant's file name ends with (".log", ".tar.gz")
	// Dir is a directory of binaries the log was written with, for
	// --binary-dir ("" for none).
	Dir string
	// Addrs are addresses worth asking a symbolizer about (ELF seeds).
	Addrs []string
	// Core is a core file to unwind with the mutated executable (a CFI
	// seed) or, for a core seed, the executable.
	Core, Exe string
	// CoreArgs are the core command's flags that find the seed's modules;
	// SysRoot is where gdb finds them.
	CoreArgs []string
	SysRoot  string
	// Extra are flags decode needs for this log (a kernel's vmlinux).
	Extra []string
	// Wrap is the compression ("gz", "zst") of Inner, for archives whose
	// mutants are made half of the time inside the compression.
	Wrap  string
	Inner *mutate.Target
	// donor marks the project's own seeds: only they are spliced into
	// others, so that a mutant is the same with or without ../shared.
	donor bool

	baseline *baseline
}

// baseline is the decode of the unmutated seed, for the lost-report rule.
type baseline struct {
	reports []Report
	err     error
}

// Command is one way a kind's mutants are run.
type Command struct {
	Name  string // a short name for figures and signatures: "decode json"
	Path  string
	Args  []string
	Stdin string
	// What is checked.
	JSON    bool // stdout is one JSON text
	Human   bool // stdout is read by people: no raw control bytes
	Lost    bool // decode --format json: the lost-report rule
	Sandbox bool // run in an empty directory: nothing may be written
	Batch   bool // batch's errors (in its JSON) name recovered panics
	// AsDecode: batch --format json, whose reports must be those of the
	// kind's decode --format json run on the same mutant (batch decodes
	// every log as decode does).
	AsDecode bool
	Ref      bool // a reference tool: counted apart, crashes and hangs only
	Go       bool // a Go program: SIGQUIT at the time bound
}

// Env is where a kind finds its seeds and tools.
type Env struct {
	Root      string // the repository
	Shared    string // ../shared, or "" when absent
	Work      string // the kind's working directory
	Sanitrace string
	Tools     map[string]string // reference tools found, by name
}

// Kind is one kind of input of the campaign.
type Kind struct {
	Name  string
	About string
	Seeds func(e *Env) ([]*Seed, error)
	// Edits is how many edits a mutant gets.
	Edits func(r *mutate.Rand) int
	// Commands are the runs of one mutant at in.
	Commands func(e *Env, s *Seed, in string) []Command
}

// Kinds are the campaign's input kinds, in table order.
var Kinds = []*Kind{
	{Name: "elf", About: "ELF files (headers, notes, symbol tables, any byte)", Seeds: elfSeeds,
		Edits: func(r *mutate.Rand) int { return r.Range(1, 3) }, Commands: symbolizeCommands},
	{Name: "dwarf", About: "DWARF sections of real binaries (.debug_info, _abbrev, _line, _str, _rnglists, ...), the rest kept", Seeds: dwarfSeeds,
		Edits: func(r *mutate.Rand) int { return r.Range(1, 2) }, Commands: symbolizeCommands},
	{Name: "cfi", About: "CFI sections (.eh_frame, .eh_frame_hdr, .debug_frame), the rest kept", Seeds: cfiSeeds,
		Edits: func(r *mutate.Rand) int { return r.Range(1, 2) }, Commands: cfiCommands},
	{Name: "core", About: "core files (headers, notes, registers, memory)", Seeds: coreSeeds,
		Edits: func(r *mutate.Rand) int { return r.Range(1, 2) }, Commands: coreCommands},
	{Name: "log", About: "logs of every format the parser reads", Seeds: logSeeds,
		Edits: func(*mutate.Rand) int { return 1 }, Commands: logCommands},
	{Name: "lws", About: "libwebsockets ~m# heap dumps and records", Seeds: lwsSeeds,
		Edits: func(*mutate.Rand) int { return 1 }, Commands: lwsCommands},
	{Name: "archive", About: "tar, tar.gz, tar.zst, zip: nested, bombs, links, unsafe names", Seeds: archiveKindSeeds,
		Edits: func(r *mutate.Rand) int { return r.Range(1, 2) }, Commands: archiveCommands},
	{Name: "markup", About: "symbolizer markup ({{{module}}}, {{{mmap}}}, {{{bt}}}) from sanitizer runtimes, and damaged markup", Seeds: markupSeeds,
		Edits: func(*mutate.Rand) int { return 1 }, Commands: markupCommands},
}

// KindNamed returns the kind called name, or nil.
func KindNamed(name string) *Kind {
	for _, k := range Kinds {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// The reference tools, by the names the figures give them.
var refTools = map[string][]string{
	"llvm-symbolizer-14": {"llvm-symbolizer-14"},
	"llvm-symbolizer-19": {"/usr/bin/llvm-symbolizer-19", "llvm-symbolizer-19"},
	"addr2line":          {"addr2line"},
	"eu-addr2line":       {"eu-addr2line"},
	"eu-stack":           {"eu-stack"},
	"gdb":                {"gdb"},
	"readelf":            {"readelf"},
}

// DWARF and CFI sections the structured kinds mutate.
var (
	dwarfSections = []string{".debug_info", ".debug_abbrev", ".debug_line", ".debug_str", ".debug_line_str",
		".debug_rnglists", ".debug_loclists", ".debug_ranges", ".debug_str_offsets", ".debug_addr", ".debug_aranges"}
	cfiSections = []string{".eh_frame", ".eh_frame_hdr", ".debug_frame"}
)

// walkFiles returns the regular files under dir, sorted, with paths
// relative to base.
func walkFiles(base, dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(filepath.Join(base, dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(base, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}

// elfFiles returns the ELF files of the project's testdata/elf and of
// ../shared's symbolizer sets, read.
func elfFiles(e *Env) ([]*Seed, error) {
	var seeds []*Seed
	add := func(base, rel, name string, donor bool) error {
		data, err := os.ReadFile(filepath.Join(base, rel))
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(data, []byte("\x7fELF")) {
			return nil
		}
		seeds = append(seeds, &Seed{Name: name, Target: mutate.Target{Data: data}, donor: donor,
			Addrs: addresses(data), Dir: filepath.Dir(filepath.Join(base, rel))})
		return nil
	}
	files, err := walkFiles(e.Root, "testdata/elf")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := add(e.Root, f, f, true); err != nil {
			return nil, err
		}
	}
	if e.Shared != "" {
		files, err := walkFiles(e.Shared, "corpus/symbolize")
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if strings.HasSuffix(f, ".txt") || strings.HasSuffix(f, ".json") || strings.HasSuffix(f, ".gz") {
				continue
			}
			if err := add(e.Shared, f, "shared/"+f, false); err != nil {
				return nil, err
			}
		}
	}
	return seeds, nil
}

// addresses picks up to 12 addresses of data worth asking about: the
// start, middle and last byte of functions spread over its symbol table,
// and two that no file maps.
func addresses(data []byte) (out []string) {
	defer func() {
		if recover() != nil { // debug/elf on a seed: not expected, not fatal
			out = []string{"0x0", "0xffffffffffffffff"}
		}
	}()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return []string{"0x0", "0xffffffffffffffff"}
	}
	syms, _ := f.Symbols()
	var funcs []elf.Symbol
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Size > 0 && s.Value != 0 {
			funcs = append(funcs, s)
		}
	}
	slices.SortFunc(funcs, func(a, b elf.Symbol) int { return cmp.Compare(a.Value, b.Value) })
	step := max(1, len(funcs)/4)
	for i := 0; i < len(funcs) && len(out) < 10; i += step {
		s := funcs[i]
		out = append(out, fmt.Sprintf("0x%x", s.Value), fmt.Sprintf("0x%x", s.Value+s.Size/2))
	}
	return append(out, "0x0", "0xffffffffffffffff")
}

func elfSeeds(e *Env) ([]*Seed, error) {
	seeds, err := elfFiles(e)
	for _, s := range seeds {
		if f, err := mutate.ParseELF(s.Target.Data); err == nil {
			s.Target.Fields = f.HeaderFields()
		}
	}
	return seeds, err
}

// sectionSeeds returns the ELF seeds that hold one of names uncompressed,
// each confined to those sections.
func sectionSeeds(e *Env, names []string) ([]*Seed, error) {
	all, err := elfFiles(e)
	if err != nil {
		return nil, err
	}
	var seeds []*Seed
	for _, s := range all {
		f, err := mutate.ParseELF(s.Target.Data)
		if err != nil {
			continue
		}
		ws := f.Windows(names...)
		if len(ws) == 0 {
			continue
		}
		s.Target.Windows = ws
		s.Target.Fields = f.SectionFields(s.Target.Data, ws)
		seeds = append(seeds, s)
	}
	return seeds, nil
}

func dwarfSeeds(e *Env) ([]*Seed, error) { return sectionSeeds(e, dwarfSections) }

func cfiSeeds(e *Env) ([]*Seed, error) {
	seeds, err := sectionSeeds(e, cfiSections)
	if err != nil {
		return nil, err
	}
	// The executable of the project's core: its CFI mutants also unwind
	// the core.
	exe, core, err := projectCore(e)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		return nil, err
	}
	f, err := mutate.ParseELF(data)
	if err != nil {
		return nil, fmt.Errorf("testdata/core/crash.gz: %w", err)
	}
	s := &Seed{Name: "testdata/core/crash.gz", Target: mutate.Target{Data: data}, Core: core, donor: true}
	s.Target.Windows = f.Windows(cfiSections...)
	s.Target.Fields = f.SectionFields(data, s.Target.Windows)
	return append(seeds, s), nil
}

// projectCore unpacks testdata/core's executable and core into the work
// directory once and returns their paths.
func projectCore(e *Env) (exe, core string, err error) {
	dir := filepath.Join(e.Work, "seeds")
	exe, core = filepath.Join(dir, "crash"), filepath.Join(dir, "core")
	for _, p := range [][2]string{{"testdata/core/crash.gz", exe}, {"testdata/core/core.gz", core}} {
		if _, err := os.Stat(p[1]); err == nil {
			continue
		}
		if err := gunzipFile(filepath.Join(e.Root, p[0]), p[1]); err != nil {
			return "", "", err
		}
	}
	return exe, core, nil
}

func gunzipFile(from, to string) error {
	f, err := os.Open(from)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", from, err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	tmp := to + ".tmp"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, zr); err != nil {
		out.Close()
		return fmt.Errorf("%s: %w", from, err)
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, to)
}

func coreSeeds(e *Env) ([]*Seed, error) {
	exe, core, err := projectCore(e)
	if err != nil {
		return nil, err
	}
	var seeds []*Seed
	add := func(name, corePath, exe string, args []string, sysroot string, donor bool) error {
		data, err := os.ReadFile(corePath)
		if err != nil {
			return err
		}
		s := &Seed{Name: name, Target: mutate.Target{Data: data}, Exe: exe, CoreArgs: args, SysRoot: sysroot, donor: donor}
		if f, err := mutate.ParseELF(data); err == nil {
			s.Target.Fields, s.Target.Hot = f.HeaderFields(), f.Notes
		}
		seeds = append(seeds, s)
		return nil
	}
	if err := add("testdata/core/core.gz", core, exe, nil, "", true); err != nil {
		return nil, err
	}
	if e.Shared != "" {
		root := filepath.Join(e.Shared, "corpus", "cores")
		ents, _ := os.ReadDir(root)
		for _, d := range ents {
			var c struct {
				Executable string `json:"executable"`
				BuildDir   string `json:"build_dir"`
			}
			dir := filepath.Join(root, d.Name())
			b, err := os.ReadFile(filepath.Join(dir, "case.json"))
			if err != nil || json.Unmarshal(b, &c) != nil || c.Executable == "" {
				continue
			}
			sysroot := filepath.Join(root, "sysroot")
			args := []string{"--prefix-map", c.BuildDir + "=" + dir, "--sysroot", sysroot}
			if err := add("shared/corpus/cores/"+d.Name()+"/core", filepath.Join(dir, "core"),
				filepath.Join(dir, c.Executable), args, sysroot, false); err != nil {
				return nil, err
			}
		}
	}
	return seeds, nil
}

// textSeed reads a log seed.
func textSeed(base, rel, name string, donor bool) (*Seed, error) {
	data, err := os.ReadFile(filepath.Join(base, rel))
	if err != nil {
		return nil, err
	}
	return &Seed{Name: name, Target: mutate.Target{Data: data, Text: true}, Ext: ".log", donor: donor,
		Dir: filepath.Dir(filepath.Join(base, rel))}, nil
}

func logSeeds(e *Env) ([]*Seed, error) {
	var rels []string
	for _, dir := range []string{"testdata/reports", "testdata/batch", "testdata/gdb", "testdata/kernel", "testdata/demo", "testdata/samples/pastes"} {
		files, err := walkFiles(e.Root, dir)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if strings.HasSuffix(f, ".log") {
				rels = append(rels, f)
			}
		}
	}
	var seeds []*Seed
	kernel := []string{"--vmlinux", filepath.Join(e.Root, "testdata/elf/kernel/vmlinux"),
		"--modules-dir", filepath.Join(e.Root, "testdata/elf/kernel")}
	for _, rel := range rels {
		s, err := textSeed(e.Root, rel, rel, true)
		if err != nil {
			return nil, err
		}
		if strings.Contains(rel, "kernel") {
			s.Extra = kernel
		}
		seeds = append(seeds, s)
	}
	if e.Shared != "" {
		files, err := walkFiles(e.Shared, "corpus/cases")
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if !strings.HasSuffix(f, ".log") {
				continue
			}
			s, err := textSeed(e.Shared, f, "shared/"+f, false)
			if err != nil {
				return nil, err
			}
			seeds = append(seeds, s)
		}
	}
	return seeds, nil
}

func lwsSeeds(e *Env) ([]*Seed, error) {
	var seeds []*Seed
	for _, rel := range []string{"testdata/lws/heapmap-sample.log", "testdata/lws/mixed-device.log"} {
		s, err := textSeed(e.Root, rel, rel, true)
		if err != nil {
			return nil, err
		}
		seeds = append(seeds, s)
	}
	// The vectors' records, one a line, as lws's decoder tool reads them.
	for _, rel := range []string{"testdata/lws/vectors.jsonl", "testdata/lws/noncanonical.jsonl", "testdata/lws/invalid.jsonl"} {
		f, err := os.Open(filepath.Join(e.Root, rel))
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var v struct {
				M string `json:"m"`
			}
			if json.Unmarshal(sc.Bytes(), &v) == nil && v.M != "" {
				b.WriteString(v.M + "\n")
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		name := "gen/lws-" + strings.TrimSuffix(filepath.Base(rel), ".jsonl") + ".log"
		seeds = append(seeds, &Seed{Name: name, Target: mutate.Target{Data: b.Bytes(), Text: true}, Ext: ".log", donor: true})
	}
	return seeds, nil
}

func markupSeeds(e *Env) ([]*Seed, error) {
	files, err := walkFiles(e.Root, "testdata/samples/markup")
	if err != nil {
		return nil, err
	}
	var seeds []*Seed
	for _, f := range files {
		if strings.HasSuffix(f, ".markup.log") {
			s, err := textSeed(e.Root, f, f, true)
			if err != nil {
				return nil, err
			}
			seeds = append(seeds, s)
		}
	}
	return seeds, nil
}

func archiveKindSeeds(e *Env) ([]*Seed, error) {
	seeds, err := archiveSeeds(e.Root)
	for _, s := range seeds {
		s.donor = true
	}
	return seeds, err
}

// sanitrace returns a command of sanitrace.
func sanitrace(e *Env, name string, args ...string) Command {
	return Command{Name: name, Path: e.Sanitrace, Args: args, Go: true}
}

// ref returns a command of the reference tool name, or false when it is
// not installed.
func ref(e *Env, name string, args ...string) (Command, bool) {
	p, ok := e.Tools[name]
	return Command{Name: name, Path: p, Args: args, Ref: true}, ok
}

// addRef appends the reference tool name's command to cmds when the tool
// is installed.
func addRef(cmds []Command, e *Env, name string, args ...string) []Command {
	if c, ok := ref(e, name, args...); ok {
		return append(cmds, c)
	}
	return cmds
}

func symbolizeCommands(e *Env, s *Seed, in string) []Command {
	llvm := append([]string{"--obj", in, "--output-style=JSON"}, s.Addrs...)
	gnu := append([]string{"-e", in, "-f", "-i", "-C", "-a"}, s.Addrs...)
	c1 := sanitrace(e, "symbolize json", append([]string{"symbolize"}, llvm...)...)
	c1.JSON = true
	cmds := []Command{c1, sanitrace(e, "addr2line", append([]string{"addr2line"}, gnu...)...)}
	cmds = addRef(cmds, e, "llvm-symbolizer-14", llvm...)
	cmds = addRef(cmds, e, "llvm-symbolizer-19", llvm...)
	cmds = addRef(cmds, e, "addr2line", gnu...)
	cmds = addRef(cmds, e, "eu-addr2line", gnu...)
	return cmds
}

func cfiCommands(e *Env, s *Seed, in string) []Command {
	j := sanitrace(e, "cfi json", "cfi", "--format", "json", in)
	j.JSON = true
	cmds := []Command{sanitrace(e, "cfi", "cfi", in), sanitrace(e, "cfi raw", "cfi", "--raw", in), j}
	if c, ok := ref(e, "readelf", "-wN", "--debug-dump=frames-interp", "-W", in); ok {
		c.Name = "readelf frames-interp"
		cmds = append(cmds, c)
	}
	if c, ok := ref(e, "readelf", "-wN", "--debug-dump=frames", "-W", in); ok {
		c.Name = "readelf frames"
		cmds = append(cmds, c)
	}
	if s.Core != "" {
		c := sanitrace(e, "core json", "core", "--format", "json", "--exe", in, s.Core)
		c.JSON = true
		cmds = append(cmds, c)
		cmds = addRef(cmds, e, "eu-stack", "--core", s.Core, "--executable", in)
		cmds = addRef(cmds, e, "gdb", gdbArgs("", in, s.Core)...)
	}
	return cmds
}

// gdbArgs runs gdb as a script: no init files, no debuginfod, every
// thread's backtrace.
func gdbArgs(sysroot, exe, core string) []string {
	args := []string{"-nx", "-batch", "-iex", "set debuginfod enabled off", "-iex", "set auto-load no"}
	if sysroot != "" {
		args = append(args, "-iex", "set sysroot "+sysroot)
	}
	return append(args, "-ex", "thread apply all bt", exe, core)
}

func coreCommands(e *Env, s *Seed, in string) []Command {
	base := append(append([]string{"core", "--exe", s.Exe}, s.CoreArgs...), in)
	text := sanitrace(e, "core", append(slices.Clone(base[:1]), append([]string{"--color=always"}, base[1:]...)...)...)
	text.Human = true
	js := sanitrace(e, "core json", append(slices.Clone(base[:1]), append([]string{"--format", "json"}, base[1:]...)...)...)
	js.JSON = true
	cmds := []Command{text, js}
	cmds = addRef(cmds, e, "eu-stack", "--core", in, "--executable", s.Exe)
	cmds = addRef(cmds, e, "gdb", gdbArgs(s.SysRoot, s.Exe, in)...)
	return cmds
}

// decodeArgs are the flags decode gets for seed s besides the format.
func decodeArgs(s *Seed) []string {
	var args []string
	if s.Dir != "" {
		args = append(args, "--binary-dir", s.Dir)
	}
	return append(args, s.Extra...)
}

func logCommands(e *Env, s *Seed, in string) []Command {
	d := decodeArgs(s)
	js := sanitrace(e, "decode json", append(append([]string{"decode", "--format", "json"}, d...), in)...)
	js.JSON, js.Lost = true, true
	text := sanitrace(e, "decode", append(append([]string{"decode", "--color=always"}, d...), in)...)
	text.Human = true
	b := sanitrace(e, "batch json", "batch", "--format", "json", "-j", "1", "--progress=never", in)
	b.JSON, b.Sandbox, b.Batch, b.AsDecode = true, true, true, true
	return []Command{js, text, b}
}

func lwsCommands(e *Env, s *Seed, in string) []Command {
	dec := sanitrace(e, "lws decode", "lws", "decode", in)
	dec.Human = true
	hm := sanitrace(e, "lws heapmap json", "lws", "heapmap", "--format", "json", in)
	hm.JSON = true
	js := sanitrace(e, "decode json", "decode", "--format", "json", in)
	js.JSON, js.Lost = true, true
	return []Command{dec, hm, js}
}

// archiveLimits are batch's limits for the campaign's archives, low
// enough that the bombs pass them quickly: 40 MiB members (declared in a
// tar header, or only found out by inflating a zip's or a .gz's), twelve
// members of 3 MiB (under the entry limit, over the archive's), a .gz log
// of 40 MiB of report headers.
var archiveLimits = []string{"--max-entry-size", "4MiB", "--max-archive-size", "12MiB"}

func archiveCommands(e *Env, s *Seed, in string) []Command {
	b := sanitrace(e, "batch json", append(append([]string{"batch", "--format", "json", "-j", "1", "--progress=never"}, archiveLimits...), in)...)
	b.JSON, b.Sandbox, b.Batch = true, true, true
	d := sanitrace(e, "decode", "decode", "--color=always", in)
	d.Human, d.Sandbox = true, true
	return []Command{b, d}
}

func markupCommands(e *Env, s *Seed, in string) []Command {
	js := sanitrace(e, "decode json", "decode", "--format", "json", in)
	js.JSON, js.Lost = true, true
	text := sanitrace(e, "decode", "decode", "--color=always", in)
	text.Human = true
	cmds := []Command{js, text}
	if c, ok := ref(e, "llvm-symbolizer-19", "--filter-markup"); ok {
		c.Stdin = in
		cmds = append(cmds, c)
	}
	return cmds
}
