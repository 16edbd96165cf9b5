package core

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
)

// DWARF register numbers of x86-64 (System V psABI, figure 3.36).
const (
	RegRAX = iota
	RegRDX
	RegRCX
	RegRBX
	RegRSI
	RegRDI
	RegRBP
	RegRSP
	RegR8
	RegR9
	RegR10
	RegR11
	RegR12
	RegR13
	RegR14
	RegR15
	RegRIP // the return address column
	NumRegs
)

// RegSet is a frame's register values by DWARF number; Known says which
// are known (a bit per register).
type RegSet struct {
	Val   [NumRegs]uint64
	Known uint32
}

// Get returns register r and whether it is known.
func (s *RegSet) Get(r int) (uint64, bool) {
	if r < 0 || r >= NumRegs || s.Known&(1<<r) == 0 {
		return 0, false
	}
	return s.Val[r], true
}

// Set records register r.
func (s *RegSet) Set(r int, v uint64) {
	if r >= 0 && r < NumRegs {
		s.Val[r] = v
		s.Known |= 1 << r
	}
}

// RegSetOf is the full register set of a thread's NT_PRSTATUS.
func RegSetOf(g Regs) RegSet {
	var s RegSet
	for r, v := range [NumRegs]uint64{
		RegRAX: g.RAX, RegRDX: g.RDX, RegRCX: g.RCX, RegRBX: g.RBX,
		RegRSI: g.RSI, RegRDI: g.RDI, RegRBP: g.RBP, RegRSP: g.RSP,
		RegR8: g.R8, RegR9: g.R9, RegR10: g.R10, RegR11: g.R11,
		RegR12: g.R12, RegR13: g.R13, RegR14: g.R14, RegR15: g.R15, RegRIP: g.RIP,
	} {
		s.Set(r, v)
	}
	return s
}

// Memory is what unwinding reads the stack from.
type Memory interface {
	ReadAt(p []byte, addr uint64) (int, error)
}

// ErrOutermost is returned by a Stepper when the frame's return address
// is undefined: the outermost frame (_start, clone3).
var ErrOutermost = errors.New("outermost frame: return address undefined")

// ErrNoCFI is returned by a Stepper when no FDE covers the pc.
var ErrNoCFI = errors.New("no CFI for this pc")

// Stepper computes a caller's registers from one module's call frame
// information. pc is the address to find the row for (a return address
// less one for every frame but the innermost and interrupted ones); regs
// are the frame's registers. It returns ErrNoCFI when no FDE covers pc,
// ErrOutermost when the return address is undefined.
type Stepper interface {
	Step(pc uint64, regs RegSet, mem Memory) (RegSet, error)
}

// Module is a file mapped into the process, as unwinding needs it.
type Module struct {
	Path       string // as NT_FILE names it
	Start, End uint64 // lowest and highest address of its mappings
	// Text are the run-time ranges of its executable segments.
	Text [][2]uint64
	// CFI unwinds frames in this module; nil when it has none.
	CFI Stepper
}

// Modules are the mapped files of a process, sorted by Start.
type Modules []*Module

// Find returns the module whose mappings hold pc.
func (ms Modules) Find(pc uint64) *Module {
	i := sort.Search(len(ms), func(i int) bool { return ms[i].End > pc })
	if i < len(ms) && ms[i].Start <= pc {
		return ms[i]
	}
	return nil
}

// inText reports whether pc is in a module's executable code.
func (ms Modules) inText(pc uint64) bool {
	m := ms.Find(pc)
	if m == nil {
		return false
	}
	for _, t := range m.Text {
		if pc >= t[0] && pc < t[1] {
			return true
		}
	}
	return false
}

// Frame kinds and how frames were found (the JSON's "kind" and
// "unwound_by").
const (
	KindNormal   = "normal"
	KindSigtramp = "sigtramp"
	KindInline   = "inline"

	ByRegisters = "registers" // the thread's registers, or those a signal frame saved
	ByCFI       = "cfi"
	ByFP        = "fp"
	ByScan      = "scan"
)

// Frame is one physical frame of a thread.
type Frame struct {
	PC uint64 // as gdb prints it: the return address for callers
	// LookupPC is the address to symbolize and to find CFI for: PC less
	// one for a return address, PC itself for the innermost frame, a
	// signal trampoline and the frame a signal interrupted.
	LookupPC  uint64
	CFA       uint64 // the frame's canonical frame address (the caller's stack pointer); 0 when unknown
	Kind      string
	UnwoundBy string
	Regs      RegSet
}

// UnwindOptions bound a walk.
type UnwindOptions struct {
	MaxFrames int // 0: 1024
	ScanWords int // words of stack a scan reads; 0: 512
}

// Unwind walks a thread's stack from its registers. The frames found are
// returned even with an error, which says why the walk ended early (a
// walk that reaches the outermost frame returns nil).
func Unwind(t *Thread, mods Modules, mem Memory, opts UnwindOptions) ([]Frame, error) {
	if t.Err != nil {
		return nil, t.Err
	}
	return UnwindFrom(RegSetOf(t.Regs), mods, mem, opts)
}

// UnwindFrom walks a stack from the registers of its innermost frame.
func UnwindFrom(regs RegSet, mods Modules, mem Memory, opts UnwindOptions) ([]Frame, error) {
	maxFrames := opts.MaxFrames
	if maxFrames <= 0 {
		maxFrames = 1024
	}
	scanWords := opts.ScanWords
	if scanWords <= 0 {
		scanWords = 512
	}
	pc, _ := regs.Get(RegRIP)
	cur := Frame{PC: pc, LookupPC: pc, Kind: KindNormal, UnwoundBy: ByRegisters, Regs: regs}
	if isSigtramp(mem, pc) {
		cur.Kind = KindSigtramp
	}
	var frames []Frame
	seen := make(map[[2]uint64]bool)
	for {
		if len(frames) >= maxFrames {
			return frames, fmt.Errorf("stopped after %d frames", maxFrames)
		}
		sp, _ := cur.Regs.Get(RegRSP)
		key := [2]uint64{cur.PC, sp}
		if seen[key] {
			return frames, fmt.Errorf("frame at pc 0x%x, sp 0x%x repeats: cyclic stack", cur.PC, sp)
		}
		seen[key] = true

		caller, by, err := step(&cur, mods, mem, scanWords)
		if err != nil {
			frames = append(frames, cur)
			if errors.Is(err, ErrOutermost) {
				return frames, nil
			}
			return frames, err
		}
		csp, _ := caller.Get(RegRSP)
		cur.CFA = csp
		frames = append(frames, cur)
		cpc, ok := caller.Get(RegRIP)
		if !ok || cpc == 0 {
			return frames, nil // no return address: the outermost frame
		}
		if cur.Kind != KindSigtramp && csp <= sp {
			// As gdb: a caller's frame is always outer (higher) than its
			// callee's, except across a signal frame (sigaltstack).
			return frames, fmt.Errorf("frame at pc 0x%x: caller's stack pointer 0x%x is not above 0x%x (corrupt stack?)", cpc, csp, sp)
		}
		next := Frame{PC: cpc, LookupPC: cpc - 1, Kind: KindNormal, UnwoundBy: by, Regs: caller}
		if cur.Kind == KindSigtramp {
			// The interrupted instruction did not complete: its pc is
			// not a return address.
			next.LookupPC = cpc
		}
		if isSigtramp(mem, cpc) {
			next.Kind = KindSigtramp
			next.LookupPC = cpc
		}
		cur = next
	}
}

// step unwinds one frame: the trampoline's saved context, else CFI, else
// frame pointers, else a stack scan.
func step(f *Frame, mods Modules, mem Memory, scanWords int) (RegSet, string, error) {
	if f.Kind == KindSigtramp {
		r, err := sigframe(f.Regs, mem)
		if err == nil {
			return r, ByRegisters, nil
		}
		// Fall through: libc's FDE for __restore_rt describes the same.
	}
	var cfiErr error
	if m := mods.Find(f.LookupPC); m != nil && m.CFI != nil {
		r, err := m.CFI.Step(f.LookupPC, f.Regs, mem)
		switch {
		case err == nil:
			return r, ByCFI, nil
		case errors.Is(err, ErrOutermost):
			return RegSet{}, "", err
		case !errors.Is(err, ErrNoCFI):
			cfiErr = err
		}
	}
	if r, ok := framePointer(f.Regs, mods, mem); ok {
		return r, ByFP, nil
	}
	if r, ok := scan(f.Regs, mods, mem, scanWords); ok {
		return r, ByScan, nil
	}
	if cfiErr != nil {
		return RegSet{}, "", fmt.Errorf("frame at pc 0x%x: %w; no frame pointer or return address on the stack either", f.PC, cfiErr)
	}
	return RegSet{}, "", fmt.Errorf("frame at pc 0x%x: no CFI, frame pointer or return address on the stack to find its caller", f.PC)
}

// restoreRT is the code of libc's __restore_rt on x86-64:
// mov $15 (rt_sigreturn), %rax; syscall. gdb recognises signal frames by
// these bytes too (amd64-linux-tdep.c).
var restoreRT = []byte{0x48, 0xc7, 0xc0, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05}

func isSigtramp(mem Memory, pc uint64) bool {
	var b [9]byte
	if n, _ := mem.ReadAt(b[:], pc); n == len(b) && bytes.Equal(b[:], restoreRT) {
		return true
	}
	// pc at the syscall (a thread stopped inside rt_sigreturn)
	if pc >= 7 {
		if n, _ := mem.ReadAt(b[:], pc-7); n == len(b) && bytes.Equal(b[:], restoreRT) {
			return true
		}
	}
	return false
}

// ucontextGregs is the offset of uc_mcontext.gregs in the ucontext the
// kernel pushes (struct rt_sigframe: pretcode, then the ucontext; at
// __restore_rt, pretcode has been popped by the handler's ret, so the
// stack pointer is at the ucontext: uc_flags, uc_link, uc_stack (24
// bytes), then struct sigcontext).
const ucontextGregs = 40

// sigcontext order of the general registers (arch/x86/include/uapi/asm/sigcontext.h).
var sigcontextRegs = [...]int{
	RegR8, RegR9, RegR10, RegR11, RegR12, RegR13, RegR14, RegR15,
	RegRDI, RegRSI, RegRBP, RegRBX, RegRDX, RegRAX, RegRCX, RegRSP, RegRIP,
}

// sigframe reads the registers a signal interrupted from the signal frame
// at a __restore_rt frame's stack pointer.
func sigframe(regs RegSet, mem Memory) (RegSet, error) {
	sp, ok := regs.Get(RegRSP)
	if !ok {
		return RegSet{}, errors.New("signal frame: stack pointer unknown")
	}
	var b [len(sigcontextRegs) * 8]byte
	if _, err := mem.ReadAt(b[:], sp+ucontextGregs); err != nil {
		return RegSet{}, fmt.Errorf("signal frame at 0x%x: %w", sp, err)
	}
	var out RegSet
	for i, r := range sigcontextRegs {
		out.Set(r, binary.LittleEndian.Uint64(b[i*8:]))
	}
	return out, nil
}

// framePointer unwinds through the rbp chain: [rbp] is the caller's rbp,
// [rbp+8] the return address.
func framePointer(regs RegSet, mods Modules, mem Memory) (RegSet, bool) {
	bp, ok := regs.Get(RegRBP)
	sp, ok2 := regs.Get(RegRSP)
	if !ok || !ok2 || bp == 0 || bp%8 != 0 || bp < sp || bp-sp > 1<<24 {
		return RegSet{}, false
	}
	var b [16]byte
	if _, err := mem.ReadAt(b[:], bp); err != nil {
		return RegSet{}, false
	}
	ra := binary.LittleEndian.Uint64(b[8:])
	if !isReturnAddress(mods, mem, ra) {
		return RegSet{}, false
	}
	var out RegSet
	out.Set(RegRBP, binary.LittleEndian.Uint64(b[:]))
	out.Set(RegRSP, bp+16)
	out.Set(RegRIP, ra)
	return out, true
}

// scan looks for the first word on the stack that is a return address:
// it points into a module's code, just after a call instruction.
func scan(regs RegSet, mods Modules, mem Memory, words int) (RegSet, bool) {
	sp, ok := regs.Get(RegRSP)
	if !ok {
		return RegSet{}, false
	}
	buf := make([]byte, 8*64)
	for i := 0; i < words; i += 64 {
		at := sp + uint64(i)*8
		n, _ := mem.ReadAt(buf, at)
		for j := 0; j+8 <= n && i+j/8 < words; j += 8 {
			v := binary.LittleEndian.Uint64(buf[j:])
			if isReturnAddress(mods, mem, v) {
				out := RegSet{}
				out.Set(RegRIP, v)
				out.Set(RegRSP, at+uint64(j)+8)
				if bp, ok := regs.Get(RegRBP); ok {
					out.Set(RegRBP, bp) // callee-saved; the best guess there is
				}
				return out, true
			}
		}
		if n < len(buf) {
			return RegSet{}, false
		}
	}
	return RegSet{}, false
}

// isReturnAddress reports whether v can be a return address: in a
// module's code, after a call instruction, or the signal trampoline (the
// kernel pushes its address as the handler's return address).
func isReturnAddress(mods Modules, mem Memory, v uint64) bool {
	return mods.inText(v) && (afterCall(mem, v) || isSigtramp(mem, v))
}

// afterCall reports whether the bytes before ra end with a call
// instruction (e8 rel32; ff /2 with a register or memory operand).
func afterCall(mem Memory, ra uint64) bool {
	if ra < 7 {
		return false
	}
	var b [7]byte
	if n, _ := mem.ReadAt(b[:], ra-7); n != len(b) {
		return false
	}
	if b[2] == 0xe8 { // call rel32
		return true
	}
	// call *%reg (ff d0+r), optionally with a REX prefix
	if b[5] == 0xff && b[6]&0xf8 == 0xd0 {
		return true
	}
	// call *disp8(%reg) / *(%reg) / *disp32(%reg) / *disp32(%rip) with ModRM reg=2
	for _, k := range []int{0, 1, 2, 3, 4, 5} {
		if b[k] != 0xff {
			continue
		}
		modrm := b[k+1]
		if (modrm>>3)&7 != 2 {
			continue
		}
		if callLen(modrm, b[k+1:]) == 7-k {
			return true
		}
	}
	return false
}

// callLen is the length of an "ff /2" call whose ModRM byte (and what
// follows) starts rest, counting the ff.
func callLen(modrm byte, rest []byte) int {
	mod, rm := modrm>>6, modrm&7
	n := 2 // ff + modrm
	if rm == 4 && mod != 3 {
		n++ // SIB
		if mod == 0 && len(rest) > 1 && rest[1]&7 == 5 {
			n += 4
		}
	}
	switch mod {
	case 0:
		if rm == 5 {
			n += 4 // rip-relative
		}
	case 1:
		n++
	case 2:
		n += 4
	}
	return n
}
