package dropin

import (
	"debug/elf"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/golden"
	"github.com/sanitrace/sanitrace/internal/reftool"
	"github.com/sanitrace/sanitrace/markup"
)

// llvmSymbolizer19 is the reference of --filter-markup and of the face's
// v19 options.
const llvmSymbolizer19 = "/usr/bin/llvm-symbolizer-19"

// needLLVM19 skips a test when llvm-symbolizer 19 is not installed.
func needLLVM19(t *testing.T) {
	t.Helper()
	reftool.NeedFor(t, llvmSymbolizer19, "the live comparison with llvm-symbolizer 19 cannot run (Debian's llvm-19 package installs it)")
	t.Setenv("DEBUGINFOD_URLS", "")
}

// compareFilter runs --filter-markup with args on input through
// llvm-symbolizer 19 and through the face, and reports any difference in
// stdout, stderr or exit status.
func compareFilter(t *testing.T, what string, args []string, input string) bool {
	t.Helper()
	args = append([]string{"--filter-markup"}, args...)
	wantOut, wantErr, wantCode := reftool.Run(t, llvmSymbolizer19, args, input)
	out, errOut, code := faceRunFace(t, "llvm-symbolizer", args, input)
	ok := true
	if out != wantOut {
		t.Errorf("%s %q: stdout differs from llvm-symbolizer-19's\n%s", what, args[1:], golden.FirstDiff(wantOut, out))
		ok = false
	}
	if errOut != wantErr {
		t.Errorf("%s %q: stderr differs from llvm-symbolizer-19's\n%s", what, args[1:], golden.FirstDiff(wantErr, errOut))
		ok = false
	}
	if code != wantCode {
		t.Errorf("%s %q: exit status %d, llvm-symbolizer-19's %d", what, args[1:], code, wantCode)
		ok = false
	}
	return ok
}

// TestFilterMarkupLive compares --filter-markup with llvm-symbolizer-19 on
// every sample log (with and without the debug tree, coloured or not, with
// the options that change names and paths, with CR LF line ends, without
// the last line feed) and on logs made here to reach what the samples do
// not: SGR escapes, pc and data elements, symbol elements, resets, several
// elements on a line, text around contextual elements, every field error
// and warning, duplicate modules, mmaps folded into another module's line
// ("; adds"), segments of size 0, very long lines.
func TestFilterMarkupLive(t *testing.T) {
	needLLVM19(t)
	tree := markupDebugTree(t)
	empty := t.TempDir()
	withTree := "--debug-file-directory=" + tree
	runs, exact := 0, 0
	check := func(what string, args []string, input string) {
		t.Helper()
		runs++
		if compareFilter(t, what, args, input) {
			exact++
		}
	}

	logs, _ := filepath.Glob(filepath.Join(markupSamples(), "logs", "*.markup.log"))
	damaged, _ := filepath.Glob(filepath.Join(markupSamples(), "damaged", "*.markup.log"))
	// Every sample (TestFilterMarkupSamples has them offline); the
	// variants on the ones with the most kinds of lines.
	for _, l := range append(logs, damaged...) {
		name := filepath.Base(l)
		in := readSample(t, l)
		check(name, []string{withTree}, in)
		switch name {
		case "asan-uaf.markup.log", "multi.markup.log", "ubsan.markup.log", "undeclared-module.markup.log":
			check(name, []string{"--debug-file-directory=" + empty}, in)
			check(name, []string{withTree, "--color=always"}, in)
			check(name+" (CR LF)", []string{withTree}, strings.ReplaceAll(in, "\n", "\r\n"))
			check(name+" (no last line feed)", []string{withTree}, strings.TrimSuffix(in, "\n"))
		}
	}
	uaf := readSample(t, filepath.Join(markupSamples(), "logs", "asan-uaf.markup.log"))
	for _, opts := range [][]string{
		{"--functions=short"}, {"--functions=none"}, {"--no-demangle"}, {"-s"}, {"--relativenames"},
		{"--no-inlines"}, {"--color"}, {"--color=never"}, {"--color=auto"}, {"--adjust-vma=0x10"},
	} {
		check("asan-uaf", append([]string{withTree}, opts...), uaf)
	}

	for _, c := range derivedMarkupLogs(t, tree) {
		check(c.name, []string{withTree}, c.log)
		switch c.name {
		case "SGR", "field errors", "contextual lines", "several elements on a line", "resets":
			check(c.name, []string{withTree, "--color=always"}, c.log)
		}
	}
	t.Logf("%d of %d runs byte-identical to llvm-symbolizer-19 (stdout, stderr, status)", exact, runs)
}

type derivedLog struct{ name, log string }

// derivedMarkupLogs are logs written here around the sample asan program
// (its debug file maps the whole module at 0x1000000, offset 0).
func derivedMarkupLogs(t *testing.T, tree string) []derivedLog {
	t.Helper()
	id, data := sampleModule(t, tree)
	module := fmt.Sprintf("{{{module:0:/bin/asan:elf:%s}}}\n{{{mmap:0x1000000:0x10000000:load:0:rwx:0x0}}}\n", id)
	const (
		fn     = 0x110bac5 // inside item_id, where read_id is inlined
		inline = 0x110bac4
	)
	var logs []derivedLog
	add := func(name, log string) { logs = append(logs, derivedLog{name, log}) }

	add("contextual lines", "text before {{{reset}}} after\n"+
		fmt.Sprintf("{{{module:0:/bin/asan:elf:%s}}} trailing text\n", id)+
		"{{{mmap:0x1000000:0x10000000:load:0:rwx:0x0}}}\n{{{mmap:0x20000000:0x1000:load:0:r:0x0}}}\n"+
		"{{{module:0x1:second:elf:ABCDEF}}}\n{{{mmap:0x30000000:0x1000:load:1:R:0x0}}}\n"+
		"{{{mmap:0x30001000:0x1000:load:0:rX:0x0}}}\n{{{mmap:0x30002000:0x1000:load:1:w:0x0}}}\n"+
		"{{{mmap:0x50000000:0:load:1:r:0}}}\n{{{mmap:0x50000000:0:load:1:w:0}}}\n"+
		"words {{{mmap:0x60000000:0x10:load:1:r:0}}} more words\n"+
		fmt.Sprintf("{{{bt:0:%#x}}}\n", fn))
	add("pc elements", module+fmt.Sprintf("pc: {{{pc:%#x}}} {{{pc:%#x:ra}}} {{{pc:%#x:pc}}} {{{pc:0x10}}} {{{pc:0x1000000}}} {{{pc:0}}}\n", fn-5, fn, fn))
	var d strings.Builder
	d.WriteString(module + "data:")
	for _, a := range data {
		fmt.Fprintf(&d, " {{{data:%#x}}}", 0x1000000+a)
	}
	d.WriteString(" {{{data:0x10}}}\n")
	add("data elements", d.String())
	add("bt elements", module+fmt.Sprintf("{{{bt:0:%#x}}}\n{{{bt:1:%#x:pc}}}\n{{{bt:2:%#x:ra}}}\n{{{bt:12345678:%#x}}}\n{{{bt:007:%#x}}}\n{{{bt:3:0x1000001}}}\n",
		fn, inline, fn, fn, fn))
	add("several elements on a line", module+fmt.Sprintf("a {{{bt:0:%#x}}} b {{{pc:%#x}}} c {{{symbol:_Z3foov}}} {{{bt:1:0x10}}} {{{data:%#x}}} d\n", fn, fn, 0x1000000+data[0]))
	add("symbol elements", "{{{symbol:_Z3foov}}} {{{symbol:__Z3foov}}} {{{symbol:main}}} {{{symbol:_RNvC6_123foo3bar}}} {{{symbol:_ZN2ns3fooIiEEvT_}}} {{{symbol:_Z}}} {{{symbol:}}}\n")
	add("other elements", "{{{hexdict:a:b}}} {{{dumpfile:sancov:x}}} {{{backtrace:1}}} {{{Bt:1:0x1}}} {{{}}} {{{:x}}} {{{a-b}}} {{{{bt:1}}}}\n")
	add("field errors", module+
		"{{{bt:1:0x110bac5:xx}}} {{{bt:0x1:0x110bac5}}} {{{bt:1}}} {{{bt:1:0x110bac5:ra:extra}}} {{{pc}}} {{{pc:0x110bac5:ra:x}}}\n"+
		"{{{data}}} {{{data:1:2}}} {{{symbol}}} {{{symbol:a:b}}} {{{bt:1:0X10}}} {{{bt:1:}}} {{{bt:1:0}}} {{{bt:-1:0x10}}} {{{bt:1:0x10000000000000000}}}\n"+
		"{{{reset:x}}}\n{{{module:2:m:coff:ab}}}\n{{{module:3:m:elf}}}\n{{{module:4:m:elf:ab:x}}}\n{{{module:5:m:elf:zz}}}\n{{{module:5:m:elf:}}}\n"+
		"{{{module:x:m:elf:ab}}}\n{{{module:0:dup:elf:ab}}}\n{{{module:6}}}\n"+
		"{{{mmap:0x40000000:0x10:store:4:r:0}}}\n{{{mmap:0x40000000:0x10:load:4:q:0}}}\n{{{mmap:0x40000000:0x10:load:4:r}}}\n"+
		"{{{mmap:0x40000000:0x10:load:4:r:0:x}}}\n{{{mmap:0x40000010:zz:load:4:r:0}}}\n{{{mmap:0x40000020:0x10:load:99:r:zz}}}\n"+
		"{{{mmap:0x40000020:0x10:load:4:r:zz}}}\n{{{mmap:0x40000020:0x10:load:4:wr:0}}}\n{{{mmap:0x40000020}}}\n{{{mmap:0x40000020:0x10:load:0x4:RWX:0}}}\n")
	add("resets", "{{{reset}}}\n{{{reset}}}\n"+module+fmt.Sprintf("{{{bt:0:%#x}}}\n{{{reset}}}\n{{{bt:0:%#x}}}\n{{{reset}}}\n", fn, fn)+
		module+fmt.Sprintf("x {{{reset}}} y\n{{{bt:0:%#x}}}\n", fn)+module+"\033[31mred {{{reset}}}\n"+module)
	add("SGR", module+
		fmt.Sprintf("\033[1m\033[34mbold blue {{{bt:0:%#x}}} {{{pc:%#x}}} {{{pc:0x99}}} \033[0m plain {{{data:%#x}}}\033[33m yellow {{{symbol:_Z3foov}}} {{{bt:7:0x5}}}\n", fn, fn, 0x1000000+data[0])+
		"line\033[38m not sgr \033[3 \033[0;31m \033[1m\n\033[36mcyan then reset {{{reset}}}\n\033[35m"+module+
		"\033[37mwhite\n\033[30m\033[1m{{{pc:0x1000001}}} \033[32m{{{bt:1:0x1000001}}}\n\033[1m\n\033[31m\n"+
		fmt.Sprintf("\033[34m{{{bt:0:%#x}}} \033[1m{{{symbol:x}}}\033[0m\033[1m{{{bt:1:0x5}}}\n", fn))
	add("text only", "no markup here\n\n  \t\nbraces {{ }} {{{ }} }}} {{{\n\x00\xff\xfe binary\n")
	add("CR LF", strings.ReplaceAll(module+fmt.Sprintf("{{{bt:0:%#x}}}\r\n{{{module:1:x:elf:ab}}}\r\n{{{mmap:0x1000:0x10:load:1:r:0}}}\r\n{{{reset}}}\r\n\rx\r\r\n", fn), "\n", "\r\n"))
	var long strings.Builder
	long.WriteString(module)
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(&long, "word %d {{{bt:%d:%#x}}} {{{pc:%#x}}} ", i, i, fn+uint64(i%50), fn+uint64(i%7))
	}
	long.WriteString("\n" + strings.Repeat("x", 300000) + "{{{bt:0:0x1000001}}}\n")
	add("long lines", long.String())
	return logs
}

// sampleModule returns the build-id (hex) of the sample asan program and
// addresses inside its first data objects (their first and last bytes).
func sampleModule(t *testing.T, tree string) (string, []uint64) {
	t.Helper()
	ids := readSample(t, filepath.Join(markupSamples(), "debug", "BUILD-IDS"))
	var id string
	for _, l := range strings.Split(ids, "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[1] == "asan" {
			id = f[0]
		}
	}
	raw, ok := markup.ParseBuildID(id)
	if !ok {
		t.Fatalf("no asan build-id in BUILD-IDS: %q", id)
	}
	f, err := elf.Open(debuginfo.BuildIDPath(tree, raw))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, _ := f.Symbols()
	var data []uint64
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_OBJECT && s.Size > 1 && len(data) < 6 {
			data = append(data, s.Value, s.Value+s.Size-1)
		}
	}
	if len(data) == 0 {
		t.Fatal("no data symbols in the sample asan program")
	}
	return id, data
}

// TestFilterMarkupTreeLive: what llvm-symbolizer 19 does with the files it
// finds in a build-id tree is what the filter does: a file that is not ELF
// fails to open once (an error, then the element raw), and the elements
// of that module print nothing afterwards (bt), raw (pc) or "<invalid>"
// (data); an ELF file under another build-id's name is used as it is; a
// directory there is an error too.
func TestFilterMarkupTreeLive(t *testing.T) {
	needLLVM19(t)
	tree := t.TempDir()
	put := func(rel string, b []byte) {
		p := filepath.Join(tree, ".build-id", rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if b == nil {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
			return
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := fixture.ELF(t, "c-O2-dw5-pie")
	elfBytes, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	put("ab/cdef.debug", []byte("not an ELF file\n"))
	put("12/3456.debug", elfBytes)
	put("cd/ef.debug", nil)
	fn := fixture.Funcs(t, bin)[0]
	log := "{{{module:0:garbage:elf:abcdef}}}\n{{{mmap:0x1000:0x1000:load:0:rx:0}}}\n" +
		"{{{module:1:other-id:elf:123456}}}\n{{{mmap:0x100000:0x100000:load:1:rx:0}}}\n" +
		"{{{module:2:directory:elf:cdef}}}\n{{{mmap:0x300000:0x1000:load:2:rx:0}}}\n" +
		"{{{bt:0:0x1010}}}\n{{{bt:1:0x1010}}}\n{{{pc:0x1010}}}\n{{{data:0x1010}}}\n" +
		fmt.Sprintf("{{{bt:0:%#x}}}\n{{{pc:%#x}}}\n", 0x100000+fn.Value+1, 0x100000+fn.Value) +
		"{{{bt:0:0x300010}}}\n{{{pc:0x300010}}}\n"
	compareFilter(t, "build-id tree", []string{"--debug-file-directory=" + tree}, log)
}
