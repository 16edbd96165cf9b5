package parse

import "testing"

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
