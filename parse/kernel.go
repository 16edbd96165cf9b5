package parse

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Linux kernel reports, as the kernel prints them to its log (and as dmesg,
// syslog, journalctl and syzbot's e-mails pass them on): KASAN, KFENCE,
// KMSAN and UBSAN reports, WARNINGs, BUGs, Oopses and general protection
// faults, lockdep and hung-task reports, ref_tracker leak dumps and stacks
// printed by stack_depot (page_owner). Frames are the kernel's "%pS"
// ("func+0x1c/0x60 [module]"), with "? " for the unwinder's guesses, the
// old "[<ffffffff8100a1b2>] " address before them and the source location
// that decode_stacktrace.sh or syzbot append ("func+0x1c/0x60 mm/slub.c:12",
// "__dump_stack lib/dump_stack.c:88 [inline]").

var kernelFormat = format{
	producer: report.ProducerKernel,
	start:    kernelStart,
	frame:    ParseKernelFrame,
	// "f+0x1c/0x60" or "[<ffffffff81000000>] f": a bare "f" is any word.
	telltale:   func(f report.Frame) bool { return f.HasPC || f.HasSymbolSize },
	lost:       lostKernelFrame,
	title:      kernelTitle,
	lead:       kernelLead,
	leadLines:  1,
	unfinished: kernelInlinedCut,
	wrapRest:   kernelWrapRest,
	cues: cues{
		words: []string{"BUG", "UBSAN", "KFENCE", "Oops", "INFO", "ref_tracker", "Trace", "trace", "WARNING"},
		marks: []mark{{text: "#"}}, // "invalid opcode: 0000 [#1] SMP", the GPF's "[#1]"
		// A frame before 4.x ("[<ffffffff8100a1b2>] dump_stack+0x19/0x1b")
		// has no cue word: without a headline before it, it must still reach
		// the never-silently-clean check (unreported.go).
		starts: []string{"[<"},
	},
}

// lostKernelFrame reads a kernel frame line outside a report, with its
// address or "+0x1c/0x60" (a telltale frame: a bare word is no frame):
// "[<ffffffff81158fda>] cpu_stop_signal_done+0x4a/0x70
// kernel/stop_machine.c:67", a paste of one stack of a report whose
// headline is not in it.
func lostKernelFrame(line, _ []byte) (report.Frame, int, bool) {
	t := bytes.TrimSpace(line[splitKnownPrefix(line):])
	if len(t) == 0 {
		return report.Frame{}, 0, false
	}
	f, ok := ParseKernelFrame(string(t))
	if !ok || !f.HasPC && !f.HasSymbolSize {
		return report.Frame{}, 0, false
	}
	return f, 0, true
}

// kernelLead reports whether line may be the first line of a kernel
// report recognised on the next line: a "=====" ruler, "------------[ cut
// here ]------------", "kernel BUG at file:line!" before its "invalid
// opcode" line, or the first piece of a wrapped GPF headline
// (detectBrokenStart).
func kernelLead(line, t []byte) bool {
	return isSeparator(t, '=') || bytes.HasPrefix(t, []byte("------------[ cut here ]")) ||
		bytes.HasPrefix(t, []byte("kernel BUG at ")) || gpfStart(line)
}

// kernelInlinedCut reports whether l is a 2015 KASan symbolized frame of
// an inlined function cut before its end: "[<     inlined    >]
// outer+0x13b/0x170", or with the inlined function's name but not its
// "file:line" ("... outer+0x13b/0x170 slab_alloc"). The symbolizer script
// printed both after every "inlined" placeholder; a mail client wrapped
// the rest onto the next line.
func kernelInlinedCut(l string) bool {
	rest, ok := strings.CutPrefix(l, "[<")
	if !ok {
		return false
	}
	inner, rest, ok := strings.Cut(rest, ">]")
	if inner = strings.TrimSpace(inner); !ok || inner != "inlined" && inner != "inline" {
		return false
	}
	f := strings.Fields(strings.TrimPrefix(strings.TrimLeft(rest, " "), "? "))
	return len(f) > 0 && strings.Contains(f[0], "+0x") && (len(f) == 1 || len(f) == 2 && kernelIdent(f[1]) && !strings.Contains(f[1], "."))
}

// kernelWrapRest reports whether n continues l, a line of a kernel
// report that is no frame: an ARM "X from Y" line broken inside
// ("[<c01d8698>] (clk_core_enable_lock) from [<c01e1844>]" and its
// "(ep93xx_dma_alloc_chan_resources+0x94/0x244)"), or a decode_stacktrace.sh
// frame whose location list is still open ("insert_work
// (./include/linux/instrumented.h:68" and "kernel/workqueue.c:788
// kernel/workqueue.c:795"): a wrapper broke an inline chain more than
// once, and the piece that closes it makes the frame.
func kernelWrapRest(l, n string, _ bool) bool {
	if strings.Contains(l+" "+n, " from ") {
		if _, _, ok := parseARMFrom(l + " " + n); ok {
			_, _, whole := parseARMFrom(l)
			return !whole
		}
	}
	var list string
	if i := strings.Index(l, " ("); i > 0 && strings.Count(l, "(") == strings.Count(l, ")")+1 {
		list = l[i+2:] + " " + n
	} else if kernelIdent(strings.TrimPrefix(l, "? ")) && strings.HasPrefix(n, "(") && !strings.HasPrefix(n, "(discriminator") {
		// A decoded frame broken after its function, behind a long
		// prefix (dmesg -x): "? __fget_light" and its
		// "(include/linux/atomic/atomic-arch-fallback.h:479" (or the
		// whole list).
		list = n[1:]
	} else {
		return false
	}
	locs := 0
	for _, t := range strings.Fields(list) {
		t = strings.TrimRight(t, ")")
		if _, ln, _ := parseLoc(t); ln > 0 {
			locs++
		} else if t != "(discriminator" && strings.Trim(t, "0123456789") != "" {
			return false
		}
	}
	return locs > 0
}

type kernelGrammar struct {
	slub      bool   // an old KASan report's SLUB section was opened
	rulerPrev bool   // a "=====" ruler came right before the headline
	ruled     bool   // and the report closes with one (KASAN, KFENCE, UBSAN, ...)
	cutHere   bool   // opened after "------------[ cut here ]------------"
	context   string // IRQ, SOFTIRQ, NMI, TASK: the innermost open marker
	title     string // a stack title waiting for its first frame
	role      string
	detail    string
	inLoc     bool // the last line was a location line that goes on indented
	varNext   bool // the next frame-shaped line is the buggy variable, not a stack
	shadow    bool // in "Memory state around the buggy address:"
	afterTask bool // a </TASK> or </IRQ> closed a call trace
	stacks    int  // call traces seen
	// armFrom is the caller of the last ARM "X from Y" frame line (Y), nil
	// when the last line was none or Y's address was 0.
	armFrom *report.Frame
}

func (g *kernelGrammar) includesPrev() bool { return g.rulerPrev || g.cutHere }

// kernelStart recognises a kernel report's headline.
func kernelStart(t, prev string) (grammar, *report.Report) {
	s := strings.TrimSpace(t)
	if s == "" {
		return nil, nil
	}
	kind, ok := kernelHeadline(s)
	if !ok {
		return nil, nil
	}
	g := &kernelGrammar{rulerPrev: isSeparator(prev, '='), cutHere: strings.HasPrefix(prev, "------------[ cut here ]")}
	g.ruled = g.rulerPrev && (strings.Contains(kind, "SAN: ") || strings.HasPrefix(kind, "KFENCE: "))
	r := &report.Report{Kind: kind, Headline: s, Message: s, Kernel: &report.KernelInfo{CPU: -1}}
	if strings.HasPrefix(prev, "kernel BUG at ") && strings.Contains(s, "[#") {
		// "kernel BUG at mm/slub.c:12!" then "invalid opcode: 0000 [#1] SMP"
		r.Kind, r.Headline, r.Message = "kernel BUG", prev, prev
		g.cutHere = true
	}
	switch {
	case strings.HasPrefix(s, "Call Trace:"), strings.HasPrefix(s, "Call trace:"):
		r.Headline, r.Message = prev, prev
		if prev == "" {
			r.Headline, r.Message = s, s
		}
		g.title, g.role, g.detail = s, "other", "call_trace"
	case strings.HasPrefix(s, "ref_tracker: ") && strings.HasSuffix(s, " users at"):
		g.title, g.role, g.detail = s, "leak", "ref_tracker"
	case strings.HasPrefix(s, "page last allocated via ") || strings.HasPrefix(s, "page_owner tracks the page as allocated"):
		g.title, g.role, g.detail = s, "alloc", "alloc"
	}
	if strings.HasPrefix(s, "WARNING: CPU: ") {
		parseCPULine(r, s[len("WARNING: "):])
	}
	return g, r
}

// kernelHeadline returns the kind of report a headline starts.
func kernelHeadline(s string) (string, bool) {
	cut := func(msg string, seps ...string) string {
		for _, sep := range seps {
			if i := strings.Index(msg, sep); i > 0 {
				msg = msg[:i]
			}
		}
		return strings.TrimRight(msg, "!. ")
	}
	switch {
	case strings.HasPrefix(s, "BUG: KASAN: "), strings.HasPrefix(s, "BUG: KFENCE: "), strings.HasPrefix(s, "BUG: KMSAN: "), strings.HasPrefix(s, "BUG: KCSAN: "):
		return cut(s[len("BUG: "):], " in ", " on ", " at ", " / "), true
	case strings.HasPrefix(s, "UBSAN: "):
		return cut(s, " in "), true
	case strings.HasPrefix(s, "BUG: "):
		return cut(s[len("BUG: "):], ",", ": ", " at ", " in ", " for ", " - "), true
	case strings.HasPrefix(s, "WARNING: "):
		switch msg := s[len("WARNING: "):]; {
		case warnCPU(msg) || warnAt(msg) || warnFileAt(msg):
			return "WARNING", true
		case lockdepWarning(msg):
			return cut(msg), true
		}
		// Any other "WARNING: " line is a program's ("WARNING: low memory
		// detected", a runtime's "WARNING: Tool: msg"): it neither starts
		// a kernel report nor ends another format's open one (endsOpen).
		return "", false
	case strings.HasPrefix(s, "general protection fault"):
		return "general protection fault", true
	case strings.HasPrefix(s, "Oops: "), strings.HasPrefix(s, "Internal error: Oops"):
		return "Oops", true
	case strings.HasPrefix(s, "invalid opcode: ") && strings.Contains(s, "[#"):
		return "invalid opcode", true
	case strings.HasPrefix(s, "INFO: task ") && strings.Contains(s, " blocked for more than "):
		return "hung task", true
	case strings.HasPrefix(s, "INFO: ") && strings.Contains(s, " stall"):
		return "RCU stall", true
	case strings.HasPrefix(s, "ref_tracker: "):
		if strings.HasSuffix(s, " users at") {
			return "ref_tracker leak", true
		}
		return cut(s[len("ref_tracker: "):]), true
	case strings.HasPrefix(s, "Call Trace:"), strings.HasPrefix(s, "Call trace:"):
		return "stack dump", true
	case strings.HasPrefix(s, "page last allocated via ") || strings.HasPrefix(s, "page_owner tracks the page as allocated"):
		return "page owner", true
	}
	return "", false
}

// warnCPU reports whether msg, a line after "WARNING: ", is __warn's
// since Linux 3.11: "CPU: 3 PID: 1187 at drivers/net/x.c:412
// f+0x1b4/0x1f0 [mod]", or its first piece when a wrapper broke it after
// the CPU's number or later.
func warnCPU(msg string) bool {
	rest, ok := strings.CutPrefix(msg, "CPU: ")
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && isDigit(rest[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	rest = rest[i:]
	return rest == "" || strings.HasPrefix(rest, " PID:") || strings.HasPrefix(rest, " UID:")
}

// warnAt reports whether msg, a line after "WARNING: ", is the older
// kernels' __warn: "at kernel/irq/manage.c:432 enable_irq+0x60/0x74()",
// or "at kernel/workqueue.c:1360" alone.
func warnAt(msg string) bool {
	rest, ok := strings.CutPrefix(msg, "at ")
	if !ok {
		return false
	}
	w, _, _ := strings.Cut(rest, " ")
	_, ln, _ := parseLoc(w)
	return ln > 0
}

// warnFileAt reports whether msg, a line after "WARNING: ", is __warn's
// since Linux 6.19: "kernel/locking/rwsem.c:1405 at up_write+0x1e2/0x410,
// CPU#0: swapper/0/1", its file:line first, or that line broken after it.
func warnFileAt(msg string) bool {
	w, rest, _ := strings.Cut(msg, " ")
	_, ln, _ := parseLoc(w)
	return ln > 0 && (rest == "" || strings.HasPrefix(rest, "at "))
}

// lockdepWords are the words the headers of lockdep's and RCU-lockdep's
// WARNINGs hold: "possible circular locking dependency detected",
// "inconsistent lock state", "bad unlock balance detected!",
// "swapper/0/1 still has locks held!", "suspicious RCU usage", "bad
// contention detected!", "chain_key collision".
var lockdepWords = []string{"lock", "locks", "locking", "unlock", "RCU", "contention", "chain_key"}

// lockdepWarning reports whether msg, a line after "WARNING: ", is a
// lockdep header: one of lockdepWords as a word of its own (not "clock").
func lockdepWarning(msg string) bool {
	for _, w := range strings.Fields(msg) {
		if slices.Contains(lockdepWords, w) {
			return true
		}
	}
	return false
}

// parseCPULine reads "CPU: 0 PID: 123 Comm: kworker/0:1 Not tainted 6.1.0 #1 <build id>"
// (and "CPU: 0 UID: 0 PID: ...", "... Tainted: G    B   6.1.0 #1").
func parseCPULine(r *report.Report, s string) {
	k := r.Kernel
	f := strings.Fields(s)
	for i := 0; i+1 < len(f); i++ {
		switch f[i] {
		case "CPU:":
			if n, err := strconv.Atoi(f[i+1]); err == nil {
				k.CPU = n
			}
		case "PID:":
			if n, err := strconv.Atoi(f[i+1]); err == nil {
				r.PID = n
			}
		case "Comm:":
			k.Comm = f[i+1]
		}
	}
	if i := strings.Index(s, " Not tainted "); i >= 0 {
		k.Tainted = "Not tainted"
		k.Release = strings.TrimSpace(s[i+len(" Not tainted "):])
	} else if i := strings.Index(s, " Tainted: "); i >= 0 {
		rest := s[i+len(" Tainted: "):]
		// The flags are single letters and blanks; the release follows.
		j := 0
		for j < len(rest) && (rest[j] == ' ' || (rest[j] >= 'A' && rest[j] <= 'Z' && (j+1 == len(rest) || rest[j+1] == ' '))) {
			j++
		}
		k.Tainted = strings.TrimSpace(rest[:j])
		k.Release = strings.TrimSpace(rest[j:])
	}
	// CONFIG_STACKTRACE_BUILD_ID adds the vmlinux build id at the end.
	if fs := strings.Fields(k.Release); len(fs) > 0 {
		if last := fs[len(fs)-1]; len(last) == 40 && allHex(last) {
			k.BuildID = last
			k.Release = strings.TrimSpace(strings.TrimSuffix(k.Release, last))
		}
	}
	if strings.HasSuffix(k.Release, " at") || strings.Contains(k.Release, " at ") {
		// "WARNING: CPU: 0 PID: 1 at kernel/foo.c:12 bar+0x1/0x2": no release here.
		k.Release = ""
	}
}

func (g *kernelGrammar) line(b *builder, t string) verdict {
	s := strings.TrimSpace(t)
	r := b.rep
	switch {
	case s == "":
		g.inLoc = false
		return vUnknown
	case isSeparator(s, '=') && len(r.Stacks) == 0 && strings.HasPrefix(strings.ToUpper(r.Headline), "BUG: KASAN") && !g.slub:
		// KASan before 4.6 (2015-16): its header, then SLUB's object
		// report between rulers ("BUG kmalloc-16 (Not tainted): kasan:
		// bad access detected", "INFO: Allocated in f+0x.. age=.."),
		// then the stack and the memory state.
		g.slub = true
		return vOwn
	case isSeparator(s, '='):
		return vLast
	case strings.HasPrefix(s, "---[ end "):
		return vLast
	case strings.HasPrefix(s, "------------[ cut here ]"):
		return vNotMine
	case isSeparator(s, '-'):
		return vOwn
	}
	if g.shadow {
		// KASAN's rows show memory addresses, not ASan's shadow addresses:
		// they stay the report's lines and are not put in report.Shadow, whose
		// readers decode ASan's layout.
		if _, ok := parseKernelShadowRow(s); ok {
			return vOwn
		}
		if strings.Trim(s, " ^") == "" {
			return vOwn
		}
		g.shadow = false
	}
	if rest, ok := strings.CutPrefix(s, "ref_tracker: "); ok && strings.HasPrefix(r.Headline, "ref_tracker: ") {
		switch {
		case strings.HasSuffix(rest, " users at") && r.Kind == "ref_tracker leak":
			g.setTitle(b, s, "leak", "ref_tracker")
			return vOwn
		case rest == "allocated in:":
			g.setTitle(b, s, "alloc", "alloc")
			return vOwn
		case rest == "freed in:":
			g.setTitle(b, s, "free", "free")
			return vOwn
		}
		return vNotMine
	}
	if kind, ok := kernelHeadline(s); ok && kind != "stack dump" && kind != "page owner" {
		// Lines of one report that look like another's headline.
		switch {
		case (kind == "Oops" || kind == "invalid opcode") && len(r.Stacks) == 0:
			// "BUG: unable to handle ..." or "kernel BUG at ..." then
			// "Oops: 0000 [#1] SMP", before the registers and the call
			// trace; after a call trace it is the next report's.
			if n := len(b.pending); n > 0 && strings.HasPrefix(strings.TrimSpace(b.pending[n-1].text), "kernel BUG at ") {
				// "kernel BUG at f.c:12!" heads an oops of its own: this
				// report ended before it.
				return vNotMine
			}
			return vOwn
		case kind == r.Kind && len(r.Stacks) == 0 && r.Access == nil:
			// syzbot prints the inlined frame's headline, then the real one.
			return vOwn
		}
		return vNotMine
	}
	// Context markers.
	if len(s) > 2 && s[0] == '<' && s[len(s)-1] == '>' && strings.IndexByte(s, ' ') < 0 {
		name := s[1 : len(s)-1]
		if strings.HasPrefix(name, "/") {
			g.context = ""
			if name == "/TASK" || name == "/IRQ" {
				g.afterTask = true
			}
		} else if name != "EOI" && name != "EOE" {
			g.context = name
		}
		return vOwn
	}
	if where, from, ok := parseARMFrom(s); ok {
		// The caller's return address printed on the line before is
		// where this frame's function is: its offset and location.
		if n := g.armFrom; n != nil && n.Function == where.Function {
			where.PC, where.HasPC = n.PC, n.HasPC
			where.SymbolOffset, where.HasSymbolOffset = n.SymbolOffset, n.HasSymbolOffset
			where.SymbolSize, where.HasSymbolSize = n.SymbolSize, n.HasSymbolSize
			where.File, where.Line, where.Column = n.File, n.Line, n.Column
			if where.Module == "" {
				where.Module = n.Module
			}
			if where.File != "" {
				where.Symbolized = report.SymbolizedReport
			}
		}
		g.armFrom = from
		g.addFrame(b, where)
		return vOwn
	}
	g.armFrom = nil
	if f, ok := ParseKernelFrame(s); ok {
		if g.varNext {
			g.varNext = false
			r.Location = append(r.Location, report.Location{Text: s})
			return vOwn
		}
		g.addFrame(b, f)
		return vOwn
	}
	if g.inLoc && len(t) > 0 && t[0] == ' ' {
		r.Location = append(r.Location, report.Location{Text: s})
		return vOwn
	}
	g.inLoc = false
	if role, detail, ok := kernelTitle(s); ok {
		g.setTitle(b, s, role, detail)
		if detail == "access" && r.Access == nil {
			r.Access = kernelAccess(s)
		}
		return vOwn
	}
	switch {
	case strings.HasPrefix(s, "Read of size ") || strings.HasPrefix(s, "Write of size "):
		// KASAN: "Read of size 8 at addr ffff888012345678 by task kworker/0:1/123"
		r.Access = kernelAccess(s)
		return vOwn
	case strings.HasPrefix(s, "The buggy address "):
		r.Location = append(r.Location, report.Location{Text: s})
		g.inLoc = true
		g.varNext = strings.HasSuffix(s, "belongs to the variable:")
		return vOwn
	case s == "Memory state around the buggy address:":
		g.shadow = true
		return vOwn
	case strings.HasPrefix(s, "CPU: "):
		parseCPULine(r, s)
		return vOwn
	case strings.HasPrefix(s, "Pid: ") && strings.Contains(s, ", comm: "):
		// before 3.x: "Pid: 1532, comm: ringtest Tainted: G    O 3.2.0-4-686-pae #1 ..."
		pid, rest, _ := strings.Cut(s[len("Pid: "):], ", comm: ")
		if n, err := strconv.Atoi(pid); err == nil {
			r.PID = n
		}
		r.Kernel.Comm, _, _ = strings.Cut(rest, " ")
		return vOwn
	case strings.HasPrefix(s, "Hardware name: "):
		r.Kernel.Hardware = s[len("Hardware name: "):]
		return vOwn
	case strings.HasPrefix(s, "RIP: ") || strings.HasPrefix(s, "EIP: ") || strings.HasPrefix(s, "pc : ") || strings.HasPrefix(s, "PC is at "):
		if !g.inTrace(b) {
			g.ripFrame(b, s)
		}
		return vOwn
	}
	if isKernelNoise(s) {
		return vOwn
	}
	b.noteUnknown(s)
	return vUnknown
}

// isKernelNoise matches the lines of a kernel report that carry no frame:
// registers, code bytes, module lists, page dumps, the fault description.
func isKernelNoise(s string) bool {
	for _, p := range []string{"Modules linked in:", "Code: ", "Workqueue: ", "Kernel panic - ", "Kernel Offset: ",
		"#PF: ", "PGD ", "page:", "flags: ", "raw: ", "head: ", "memcg:", "page dumped because", "page_type: ",
		"Tainted: ", "Not tainted", "task:", "\"echo 0 > ", "Showing ", "Mem abort info:", "Data abort info:",
		"lr : ", "sp : ", "ESR = ", "EC = ", "Call Trace", "kfence-#", "Last potentially", "stack backtrace",
		"irq event stamp:", "hardirqs last", "softirqs last", "lock(", "*** DEADLOCK ***", "which lock already",
		"but task is already", "other info that might", "Possible unsafe locking", "the existing dependency chain",
		"CPU0", "----", "rcu: ", "Sending NMI", "NMI backtrace", "Disabling lock debugging", "INFO: lockdep", "Exception stack("} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	// Registers: "RAX: 0000000000000000 RBX: ffff888100e1c000 RCX: ...",
	// "x29: ffff80000a4fb9d0 x28: ...", "R10: ...".
	if c := strings.IndexByte(s, ':'); c >= 2 && c <= 6 && c+2 < len(s) && s[c+1] == ' ' {
		reg := s[:c]
		if strings.TrimLeft(reg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") == "" {
			rest := strings.TrimLeft(s[c+2:], " ")
			if sp := strings.IndexByte(rest, ' '); sp >= 4 || (sp < 0 && len(rest) >= 4) {
				if sp < 0 {
					sp = len(rest)
				}
				return allHex(strings.TrimPrefix(rest[:sp], "0x")) || strings.Contains(rest[:sp], ":")
			}
		}
	}
	return false
}

// kernelTitle recognises the lines that introduce a kernel stack.
func kernelTitle(s string) (role, detail string, ok bool) {
	switch {
	case strings.HasPrefix(s, "Call Trace:"), strings.HasPrefix(s, "Call trace:"):
		return "access", "call_trace", true
	case strings.HasPrefix(s, "Allocated by task "), strings.HasPrefix(s, "allocated by task ") && strings.HasSuffix(s, ":"):
		return "alloc", "alloc", true
	case strings.HasPrefix(s, "Freed by task "), strings.HasPrefix(s, "freed by task ") && strings.HasSuffix(s, ":"):
		return "free", "free", true
	case strings.Contains(s, "potentially related work creation:"), strings.Contains(s, "potentially related work queued"),
		strings.HasPrefix(s, "Last call_rcu():"), strings.HasPrefix(s, "Second to last call_rcu():"):
		return "other", "aux", true
	case strings.HasPrefix(s, "stack backtrace:"):
		return "other", "stack_backtrace", true
	case strings.HasPrefix(s, "-> #") && strings.HasSuffix(s, ":"):
		return "mutex", "lock_chain", true
	case strings.HasPrefix(s, "Uninit was stored to memory at:"):
		return "origin", "origin_store", true
	case strings.HasPrefix(s, "Uninit was created at:"):
		return "origin", "origin_unknown", true
	case strings.HasPrefix(s, "chained origin: "): // KMSAN of 2016
		return "origin", "origin_store", true
	case strings.HasPrefix(s, "INFO: Allocated in ") && strings.Contains(s, " age="): // SLUB's, 2015-16 KASan
		return "alloc", "alloc", true
	case strings.HasPrefix(s, "INFO: Freed in ") && strings.Contains(s, " age="):
		return "free", "free", true
	case strings.HasPrefix(s, "Local variable ") && strings.HasSuffix(s, "created at:"):
		return "origin", "origin_stack", true
	case strings.HasPrefix(s, "page last allocated via "), strings.HasPrefix(s, "page_owner tracks the page as allocated"):
		return "alloc", "alloc", true
	case strings.HasPrefix(s, "page last free ") && strings.HasSuffix(s, ":"):
		return "free", "free", true
	case strings.HasSuffix(s, "):") && strings.Contains(s, "kfence-#"):
		// "Use-after-free read at 0x00000000b2d2b3b5 (in kfence-#79):"
		return "access", "access", true
	case (strings.HasPrefix(s, "race at ") || strings.HasPrefix(s, "read to ") || strings.HasPrefix(s, "write to ") ||
		strings.HasPrefix(s, "read (marked) to ") || strings.HasPrefix(s, "write (marked) to ")) && strings.HasSuffix(s, ":"):
		return "access", "access", true // KCSAN
	}
	return "", "", false
}

// kernelAccess reads KASAN's "Read of size 8 at addr ffff888012345678 by
// task kworker/0:1/123" and KFENCE's "Use-after-free read at 0x... (in kfence-#79):".
func kernelAccess(s string) *report.Access {
	if op, rest, ok := strings.Cut(s, " of size "); ok {
		sz, rest, _ := strings.Cut(rest, " at addr ")
		n, _ := strconv.Atoi(sz)
		addr, who, _ := strings.Cut(rest, " by ")
		return &report.Access{Op: op, Size: n, Address: hexAddr(addr), Thread: who}
	}
	if head, rest, ok := strings.Cut(s, " at 0x"); ok {
		op := head
		if i := strings.LastIndexByte(head, ' '); i >= 0 {
			op = head[i+1:]
		}
		addr, _, _ := strings.Cut(rest, " ")
		return &report.Access{Op: op, Address: "0x" + addr}
	}
	return nil
}

func hexAddr(s string) string {
	if s == "" || strings.HasPrefix(s, "0x") {
		return s
	}
	return "0x" + s
}

func (g *kernelGrammar) setTitle(b *builder, s, role, detail string) {
	b.closeStack()
	g.title, g.role, g.detail = s, role, detail
	g.afterTask = false
}

func (g *kernelGrammar) addFrame(b *builder, f report.Frame) {
	f.Context = g.context
	if b.stack < 0 || g.title != "" {
		title, role, detail := g.title, g.role, g.detail
		if title == "" {
			title, role, detail = b.otherTitle, "other", "other"
			if title == "" {
				title = b.rep.Headline
			}
		}
		if detail == "call_trace" {
			g.stacks++
			if g.stacks > 1 || !kernelCrash(b.rep.Kind) {
				role = "other"
			}
		}
		b.openStack(title, role, detail)
		g.title, b.otherTitle = "", ""
	}
	b.appendFrame(f, "", "", "")
}

// kernelCrash reports whether the report's first call trace is where the
// bug happened (not a hung task's or a lockdep report's backtrace).
func kernelCrash(kind string) bool {
	switch kind {
	case "hung task", "RCU stall", "stack dump", "page owner", "ref_tracker leak":
		return false
	}
	return !strings.HasPrefix(kind, "possible ")
}

// inTrace reports whether a call trace is open with frames inside a
// context marker ("<TASK>"): a register dump there is the interrupted
// context's (the unwinder prints it when it crosses an interrupt frame),
// not the faulting instruction's, and the trace goes on after it.
func (g *kernelGrammar) inTrace(b *builder) bool {
	return g.context != "" && b.stack >= 0 && b.rep.Stacks[b.stack].RoleDetail == "call_trace" && len(b.rep.Stacks[b.stack].Frames) > 0
}

// ripFrame reads the faulting instruction's line, "RIP: 0010:func+0x1c/0x60
// [module]" (x86_64), "EIP: func+0x1c/0x60" (i386), "pc : func+0x1c/0x60"
// (arm64), into a one-frame stack of its own: the exact pc, not a return
// address. "RIP: 0033:0x7f..." (user space) has no symbol and is skipped.
func (g *kernelGrammar) ripFrame(b *builder, s string) {
	rest := s
	for _, p := range []string{"RIP: ", "EIP: ", "pc : ", "PC is at "} {
		rest = strings.TrimPrefix(rest, p)
	}
	if i := strings.IndexByte(rest, ':'); i == 4 && allHex(rest[:4]) {
		rest = rest[5:] // the code segment selector
	}
	// i386 before 3.x: "0060:[<f8a1c0d5>] EIP is at f+0x95/0x140 [m]" and
	// "[<f8a1c0d5>] f+0x95/0x140 [m] SS:ESP 0068:f5c3fe7c".
	if i := strings.Index(rest, " EIP is at "); i > 0 {
		rest = rest[:i] + " " + rest[i+len(" EIP is at "):]
	}
	if i := strings.Index(rest, " SS:ESP "); i > 0 {
		rest = rest[:i]
	}
	f, ok := ParseKernelFrame(rest)
	if !ok {
		return
	}
	for _, st := range b.rep.Stacks {
		if st.FromRegisters() {
			return // printed again after "---[ end trace" or by "Oops"
		}
	}
	f.Context = g.context
	closed := b.stack
	b.closeStack()
	b.openStack(s, "access", report.RoleDetailRegisters)
	b.appendFrame(f, "", "", "")
	b.closeStack()
	_ = closed
	g.afterTask = false
}

// ParseKernelFrame parses one frame as the kernel prints it with %pS /
// %pB and the forms tools rewrite it into:
//
//	dump_stack_lvl+0x48/0x60
//	? foo_bar+0x1c/0x60 [foo]
//	foo_bar+0x1c/0x60 [foo 3f2a...]                     (CONFIG_STACKTRACE_BUILD_ID)
//	[<ffffffff8100a1b2>] dump_stack+0x19/0x1b            (before 4.x)
//	[<ffffffff8100a1b2>] ? foo+0x1/0x2 [foo]
//	dump_stack_lvl+0xd9/0x1b0 lib/dump_stack.c:106       (syzbot)
//	__dump_stack lib/dump_stack.c:88 [inline]            (syzbot, an inlined frame)
//
// Leading blanks are ignored. Function and module names are C identifiers
// (with '.' for compiler clones: "foo.cold", "bar.isra.0").
func ParseKernelFrame(line string) (report.Frame, bool) {
	s := strings.TrimLeft(line, " \t")
	f := report.Frame{Index: -1, Raw: s, Symbolized: report.SymbolizedNone}
	placeholder := false // 2015-16 KASan/KMSAN: "[<     inline     >]", "[<      none      >]"
	if strings.HasPrefix(s, "[<") {
		e := strings.Index(s, ">]")
		if e < 0 {
			return report.Frame{}, false
		}
		hex := strings.TrimPrefix(s[2:e], "0x")
		switch strings.TrimSpace(hex) {
		case "inline", "inlined":
			f.Inlined, placeholder = true, true
		case "none":
			placeholder = true
		default:
			if hex == "" || len(hex) > 16 || !allHex(hex) {
				return report.Frame{}, false
			}
			f.PC, _ = strconv.ParseUint(hex, 16, 64)
			f.HasPC = true
		}
		s = strings.TrimLeft(s[e+2:], " ")
	}
	if rest, ok := strings.CutPrefix(s, "? "); ok {
		f.Unreliable = true
		s = rest
	}
	// The symbol: identifier characters and '.'.
	i := 0
	for i < len(s) && (isIdent(s[i]) || s[i] == '.' || s[i] == '$') {
		i++
	}
	if i == 0 || isDigit(s[0]) || s[0] == '.' {
		return report.Frame{}, false
	}
	f.Function = s[:i]
	rest := s[i:]
	hasOff := false
	if strings.HasPrefix(rest, "+0x") {
		j := 3
		for j < len(rest) && isHex(rest[j]) {
			j++
		}
		if j == 3 || !strings.HasPrefix(rest[j:], "/0x") {
			return report.Frame{}, false
		}
		k := j + 3
		for k < len(rest) && isHex(rest[k]) {
			k++
		}
		if k == j+3 {
			return report.Frame{}, false
		}
		off, err1 := strconv.ParseUint(rest[3:j], 16, 64)
		size, err2 := strconv.ParseUint(rest[j+3:k], 16, 64)
		if err1 != nil || err2 != nil {
			return report.Frame{}, false
		}
		f.SymbolOffset, f.HasSymbolOffset = off, true
		f.SymbolSize, f.HasSymbolSize = size, true
		hasOff = true
		rest = rest[k:]
	}
	rest = strings.TrimLeft(rest, " ")
	// " [module]" or " [module buildid]" at the end.
	if strings.HasSuffix(rest, "]") {
		if o := strings.LastIndex(rest, "["); o >= 0 {
			inner := rest[o+1 : len(rest)-1]
			if inner == "inline" {
				f.Inlined = true
			} else {
				mod, id, _ := strings.Cut(inner, " ")
				if mod == "" || !kernelIdent(mod) || (id != "" && !allHex(id)) {
					return report.Frame{}, false
				}
				f.Module, f.BuildID = mod, id
			}
			rest = strings.TrimRight(rest[:o], " ")
			if f.Inlined && strings.HasSuffix(rest, "]") {
				if o := strings.LastIndex(rest, "["); o >= 0 {
					mod := rest[o+1 : len(rest)-1]
					if kernelIdent(mod) {
						f.Module = mod
						rest = strings.TrimRight(rest[:o], " ")
					}
				}
			}
		}
	}
	decoded := false // decode_stacktrace.sh's "(file:line ...)"
	if placeholder && f.Inlined && hasOff {
		// 2015's "[<     inlined    >] outer+0x13b/0x170 inlined_fn file:c:12":
		// the frame is the inlined function's.
		if name, loc, ok := strings.Cut(rest, " "); ok && kernelIdent(name) && !strings.ContainsAny(name, ".-") {
			f.Function, rest = name, loc
			f.HasSymbolOffset, f.HasSymbolSize, f.SymbolOffset, f.SymbolSize = false, false, 0, 0
		}
	}
	if rest != "" {
		// A source location appended by syzbot or decode_stacktrace.sh:
		// "file:line", "(file:line)", "(file:line (discriminator 7))",
		// an inline chain "(a.h:67 b.c:153 c.c:183)" (innermost first).
		loc := rest
		if i := strings.Index(loc, " (discriminator "); i > 0 && !strings.HasPrefix(loc, "(") && strings.HasSuffix(loc, ")") {
			loc = loc[:i] // 2015's symbolizer: "mm/slub.c:2590 (discriminator 1)"
		}
		if strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")") {
			loc = rest[1 : len(rest)-1]
			if i := strings.Index(loc, " (discriminator "); i > 0 && strings.HasSuffix(loc, ")") {
				loc = loc[:i]
			}
			decoded = true
		}
		first, more, _ := strings.Cut(loc, " ")
		file, ln, col := parseLoc(first)
		if f2, ok := strings.CutSuffix(first, ":?"); ok && ln == 0 && f2 != "" {
			file = f2 // "entry_64.o:?": the file, no line
		} else if ln == 0 {
			file = ""
		}
		if file == "" || strings.ContainsAny(file, " ()") || more != "" && !decoded {
			return report.Frame{}, false
		}
		for _, l := range strings.Fields(more) {
			if _, n, _ := parseLoc(l); n == 0 {
				return report.Frame{}, false
			}
		}
		f.File, f.Line, f.Column = file, ln, col
		f.Symbolized = report.SymbolizedReport
	}
	if !hasOff && f.File == "" {
		return report.Frame{}, false // a bare word is not a frame
	}
	if !hasOff && !f.Inlined && !f.HasPC && !decoded && !placeholder {
		// "func file:line" without [inline] or an offset: syzbot prints
		// those only for inlined frames; anything else is prose.
		return report.Frame{}, false
	}
	return f, true
}

// parseARMFrom parses a frame line of the 32-bit ARM kernel's unwinder
// (arch/arm/kernel/traps.c, dump_backtrace_entry), in its three printk
// forms and as decode_stacktrace.sh rewrites the last:
//
//	[<c0012f8c>] (dump_backtrace+0x0/0x10c) from [<c03ef69c>] (dump_stack+0x18/0x1c)   (before 3.x)
//	[<c010d9b0>] (unwind_backtrace) from [<c0109d0c>] (show_stack+0x10/0x14)           (CONFIG_BACKTRACE_VERBOSE)
//	unwind_backtrace from show_stack+0x10/0x14
//	unwind_backtrace from show_stack (arch/arm/kernel/traps.c:259)
//	start_kernel from 0x0
//
// A line says that the pc was in X (where) and that X returns into Y
// (from): it is X's frame, and Y is the next line's X. where is X's frame
// as the line tells it; from is Y's, nil when Y is printed as a bare
// address.
func parseARMFrom(s string) (where report.Frame, from *report.Frame, ok bool) {
	i := strings.Index(s, " from ")
	if i <= 0 {
		return report.Frame{}, nil, false
	}
	x, y := s[:i], s[i+len(" from "):]
	where = report.Frame{Index: -1, Raw: s, Symbolized: report.SymbolizedNone}
	if strings.HasPrefix(x, "[<") {
		pc, sym, ok := armBracket(x)
		if !ok {
			return report.Frame{}, nil, false
		}
		where.PC, where.HasPC = pc, true
		x = sym
	}
	if strings.Contains(x, "+0x") {
		f, ok := ParseKernelFrame(x)
		if !ok || f.File != "" {
			return report.Frame{}, nil, false
		}
		where.Function, where.Module, where.Unreliable = f.Function, f.Module, f.Unreliable
		where.SymbolOffset, where.HasSymbolOffset, where.SymbolSize, where.HasSymbolSize = f.SymbolOffset, true, f.SymbolSize, true
	} else {
		if !kernelIdent(x) || isDigit(x[0]) || strings.HasPrefix(x, "0x") {
			return report.Frame{}, nil, false
		}
		where.Function = x
	}
	if strings.HasPrefix(y, "0x") && allHex(y[2:]) && len(y) > 2 {
		return where, nil, true
	}
	var pc uint64
	hasPC := false
	if strings.HasPrefix(y, "[<") {
		if pc, y, ok = armBracket(y); !ok {
			return report.Frame{}, nil, false
		}
		hasPC = true
	}
	f, ok := ParseKernelFrame(y)
	if !ok || f.HasPC || !f.HasSymbolOffset && f.File == "" {
		return report.Frame{}, nil, false
	}
	f.PC, f.HasPC = pc, hasPC
	return where, &f, true
}

// armBracket reads "[<c010d9b0>] (sym)" into the address and sym.
func armBracket(s string) (uint64, string, bool) {
	hex, sym, ok := strings.Cut(s[2:], ">] (")
	if !ok || hex == "" || len(hex) > 16 || !allHex(hex) || !strings.HasSuffix(sym, ")") {
		return 0, "", false
	}
	pc, err := strconv.ParseUint(hex, 16, 64)
	return pc, sym[:len(sym)-1], err == nil && sym != ")"
}

func kernelIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isIdent(s[i]) && s[i] != '-' && s[i] != '.' {
			return false
		}
	}
	return s != ""
}

// parseKernelShadowRow reads a row of KASAN's "Memory state around the
// buggy address": " ffff888012345600: fa fb fb[fb]fb" with ">" on the
// row of the access.
func parseKernelShadowRow(s string) (report.ShadowRow, bool) {
	row := report.ShadowRow{Marked: -1}
	if rest, ok := strings.CutPrefix(s, ">"); ok {
		row.Current = true
		s = rest
	}
	addr, bytesPart, ok := strings.Cut(s, ": ")
	if !ok || len(addr) < 8 || !allHex(addr) {
		return report.ShadowRow{}, false
	}
	row.Address = addr
	for i := 0; i < len(bytesPart); {
		switch c := bytesPart[i]; {
		case c == ' ':
			i++
		case c == '[':
			row.Marked = len(row.Bytes)
			i++
		case c == ']':
			i++
		case i+1 < len(bytesPart) && isHex(c) && isHex(bytesPart[i+1]):
			row.Bytes = append(row.Bytes, bytesPart[i:i+2])
			i += 2
		default:
			return report.ShadowRow{}, false
		}
	}
	if len(row.Bytes) == 0 || row.Marked >= len(row.Bytes) {
		return report.ShadowRow{}, false
	}
	return row, true
}

func (g *kernelGrammar) end(b *builder, eof bool) {
	b.closeStack()
	if k := b.rep.Kernel; k != nil && *k == (report.KernelInfo{CPU: -1}) {
		b.rep.Kernel = nil
	}
	if eof && !b.ended && (g.ruled || g.cutHere) {
		b.rep.Truncated = true
	}
}

func (g *kernelGrammar) pendingLimit(b *builder) int {
	if g.afterTask {
		return 6
	}
	return pendingMax
}
