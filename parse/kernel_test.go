package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/golden"
)

// TestParseARMFrom reads the 32-bit ARM unwinder's "X from Y" lines (real
// lines from the pastes in testdata/samples/pastes).
func TestParseARMFrom(t *testing.T) {
	for _, tt := range []struct {
		line      string
		where     string
		pc        uint64
		from      string // "" when Y is a bare address
		fromOff   uint64
		fromFile  string
		fromLine  int
		fromHasPC bool
	}{
		{line: "[<c000c590>] (show_stack) from [<c03a5fb8>] (dump_stack+0x20/0x2c)", where: "show_stack", pc: 0xc000c590, from: "dump_stack", fromOff: 0x20, fromHasPC: true},
		{line: "warn_slowpath_fmt from pcpu_alloc_noprof (mm/percpu.c:1766 (discriminator 2))", where: "warn_slowpath_fmt", from: "pcpu_alloc_noprof", fromFile: "mm/percpu.c", fromLine: 1766},
		{line: "start_kernel from 0x0", where: "start_kernel"},
	} {
		w, f, ok := parseARMFrom(tt.line)
		if !ok || w.Function != tt.where || w.PC != tt.pc || w.HasPC != (tt.pc != 0) {
			t.Errorf("parseARMFrom(%q) = %+v, %v; want where %s pc %#x", tt.line, w, ok, tt.where, tt.pc)
			continue
		}
		switch {
		case tt.from == "" && f != nil:
			t.Errorf("parseARMFrom(%q): from %+v, want none", tt.line, f)
		case tt.from != "" && (f == nil || f.Function != tt.from || f.SymbolOffset != tt.fromOff || f.File != tt.fromFile || f.Line != tt.fromLine || f.HasPC != tt.fromHasPC):
			t.Errorf("parseARMFrom(%q): from %+v, want %s+%#x %s:%d", tt.line, f, tt.from, tt.fromOff, tt.fromFile, tt.fromLine)
		}
	}
	for _, s := range []string{
		"Received from the host: 12 bytes",
		"ep93xx-i2s ep93xx-i2s: ASoC: error at snd_soc_pcm_component_new on ep93xx-i2s: -22",
		"copied from [<c0000000>] somewhere",
		"x from y",
	} {
		if w, f, ok := parseARMFrom(s); ok {
			t.Errorf("parseARMFrom(%q) = %+v, %+v; want no frame", s, w, f)
		}
	}
}

// TestKernelInlinedCut tells the 2015 KASan symbolizer's inlined frames cut
// by a mail client from whole ones (lines of
// public-kasan-2015-symbolized-placeholders.log).
func TestKernelInlinedCut(t *testing.T) {
	for _, tt := range []struct {
		line string
		cut  bool
	}{
		{"[<     inlined    >] kmem_cache_alloc_trace+0x13b/0x170", true},
		{"[<     inlined    >] kmem_cache_alloc_trace+0x13b/0x170 slab_alloc", true},
		{"[<     inlined    >] ? page_cache_async_readahead+0x2cb/0x3f0", true},
		{"[<     inlined    >] bdi_init+0x168/0x960 kzalloc include/linux/slab.h:430", false},
		{"[<      none      >] scsi_probe_and_add_lun+0x1545/0x2180", false},
		{"[<ffffffff81429789>] __asan_report_load8_noabort+0x29/0x30", false},
		{"[<     inline     >] __dump_stack lib/dump_stack.c:15", false},
	} {
		if got := kernelInlinedCut(tt.line); got != tt.cut {
			t.Errorf("kernelInlinedCut(%q) = %v, want %v", tt.line, got, tt.cut)
		}
	}
}

// fuzzerWarning is a program's "WARNING:" line, no kernel's: libFuzzer's
// (clang 14) when a flag is given with two dashes, as `./fuzzabort14
// --seed=1` printed it.
const fuzzerWarning = "WARNING: did you mean '-seed=1' (single dash)?"

// TestProgramWarningNoKernelReport: a program's "WARNING:" line between
// reports starts no kernel report, and inside another format's report (a
// second job's line in one CI stream) does not end it; the kernel's own
// WARNING shapes still start one.
func TestProgramWarningNoKernelReport(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "reports", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	for _, c := range []struct{ name, log, at string }{
		{"between", read("kernel_warning_gpf.log") + fuzzerWarning + "\n" + read("go_panic.log"), ""},
		// After the goroutine's header, before its first frame.
		{"inside go", read("go_panic.log"), "goroutine 8 [running]:\n"},
		// After a frame of the gdb session's backtrace.
		{"inside gdb", read("gdb_bt.log"), "\n#1 "},
		{"inside kernel", read("kernel_hung_lockdep.log"), "Call Trace:\n"},
	} {
		log := c.log
		if c.at != "" {
			i := strings.Index(log, c.at)
			if i < 0 {
				t.Fatalf("%s: no %q in the log", c.name, c.at)
			}
			i += strings.IndexByte(c.at, '\n') + 1
			log = log[:i] + fuzzerWarning + "\n" + log[i:]
		}
		want := strings.Replace(log, fuzzerWarning+"\n", "", 1)
		got := modelView(parseAll(t, strings.NewReader(log), c.name))
		if w := modelView(parseAll(t, strings.NewReader(want), c.name)); got != w {
			t.Errorf("%s: the model differs with the line\n%s", c.name, golden.FirstDiff(w, got))
		}
	}
	for _, l := range []string{
		"WARNING: CPU: 3 PID: 1187 at drivers/net/ringdev/core.c:412 ringdev_close+0x1b4/0x1f0 [ringdev]",
		"WARNING: CPU: 3 PID: 1187 at", // wrapped: its rest on the next line
		// Linux 3.10 and 3.17 (public mails), 6.19 (syzbot's).
		"WARNING: at kernel/irq/manage.c:432 enable_irq+0x60/0x74()",
		"WARNING: at kernel/workqueue.c:1360",
		"WARNING: kernel/locking/rwsem.c:1405 at up_write+0x1e2/0x410, CPU#0: swapper/0/1",
		"WARNING: possible circular locking dependency detected",
		"WARNING: suspicious RCU usage",
	} {
		if _, ok := kernelHeadline(l); !ok {
			t.Errorf("%q: no kernel headline", l)
		}
	}
	for _, l := range []string{fuzzerWarning, "WARNING: unrecognized flag '-foo=1'; use -help=1 to list all flags"} {
		if k, ok := kernelHeadline(l); ok {
			t.Errorf("%q: read as the kernel's %q", l, k)
		}
	}
}
