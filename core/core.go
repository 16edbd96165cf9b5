package core

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Limits that keep a hostile core from costing unbounded time or memory.
const (
	maxProgs     = 1 << 16  // program headers
	maxNoteBytes = 64 << 20 // all PT_NOTE segments together
	maxNotes     = 1 << 16  // notes in the file
	maxThreads   = 1 << 14
	maxMappings  = 1 << 20 // NT_FILE entries
)

// ELF constants this package reads (debug/elf spells them too, but its
// reader insists on section headers that a damaged core may lack, and
// this package must go on reading the rest of the file).
const (
	etCore    = 4
	emX86_64  = 62
	ptLoad    = 1
	ptNote    = 4
	pfX       = 1
	pfW       = 2
	pfR       = 4
	ntPrstat  = 1
	ntPrpsinf = 3
	ntAuxv    = 6
	ntSiginfo = 0x53494749
	ntFile    = 0x46494c45
)

// File is a parsed core file. Its memory is read through ReadAt; the file
// stays open until Close.
type File struct {
	Path     string
	Threads  []*Thread // in note order; the kernel puts the thread that dumped first
	Signal   *Signal   // the process's NT_SIGINFO (the crashing thread's, for gcore); nil when absent
	Mappings []Mapping // NT_FILE, in address order
	Auxv     []AuxEntry
	// Command is what NT_PRPSINFO says ran: the start of its argument
	// string (pr_psargs, 80 bytes at most), or the file name (pr_fname).
	Command string
	// Errors are the notes and headers that could not be read; what
	// could be read is still here.
	Errors []error

	r     io.ReaderAt
	close func() error
	size  int64
	segs  []segment // PT_LOAD, sorted by address
	files map[string]io.ReaderAt
}

// Thread is one NT_PRSTATUS.
type Thread struct {
	TID    int
	Regs   Regs
	CurSig int     // pr_cursig: the signal being delivered, 0 for none
	Signal *Signal // this thread's own NT_SIGINFO (gcore writes one per thread)
	Err    error   // the note was malformed; Regs are not usable
}

// Regs are the general registers of x86-64 (user_regs_struct).
type Regs struct {
	R15, R14, R13, R12, RBP, RBX, R11, R10, R9, R8  uint64
	RAX, RCX, RDX, RSI, RDI, OrigRAX, RIP, CS       uint64
	EFlags, RSP, SS, FSBase, GSBase, DS, ES, FS, GS uint64
}

// Signal is a siginfo_t.
type Signal struct {
	Number  int // si_signo
	Errno   int
	Code    int    // si_code
	Addr    uint64 // si_addr, for the fault signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP)
	HasAddr bool
	PID     int // si_pid, for signals sent by a process (si_code <= 0)
	UID     int
	HasPID  bool
}

// Mapping is one NT_FILE entry: [Start, End) maps Path from Offset.
type Mapping struct {
	Start, End uint64
	Offset     uint64 // in bytes
	Path       string
}

// AuxEntry is one auxiliary-vector entry.
type AuxEntry struct {
	Type, Value uint64
}

type segment struct {
	vaddr, memsz uint64
	off, filesz  uint64
	flags        uint32
}

// Open opens and parses the core file at path.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	c, err := Parse(f, st.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.Path = path
	c.close = f.Close
	return c, nil
}

// Close closes the core file and every attached file that is an io.Closer.
func (c *File) Close() error {
	var err error
	if c.close != nil {
		err = c.close()
		c.close = nil
	}
	for _, r := range c.files {
		if cl, ok := r.(io.Closer); ok {
			cl.Close()
		}
	}
	c.files = nil
	return err
}

// ErrNotCore is returned for a file that is not an x86-64 ELF core.
var ErrNotCore = errors.New("not an x86-64 ELF core file")

// Parse reads the core in r (size bytes). It fails only when r is not an
// ELF core at all; malformed notes become File.Errors.
func Parse(r io.ReaderAt, size int64) (*File, error) {
	var h [64]byte
	if _, err := r.ReadAt(h[:], 0); err != nil {
		return nil, fmt.Errorf("%w: reading the ELF header: %w", ErrNotCore, err)
	}
	if string(h[:4]) != "\x7fELF" {
		return nil, fmt.Errorf("%w: no ELF magic", ErrNotCore)
	}
	if h[4] != 2 || h[5] != 1 {
		return nil, fmt.Errorf("%w: not 64-bit little-endian", ErrNotCore)
	}
	le := binary.LittleEndian
	if t := le.Uint16(h[16:]); t != etCore {
		return nil, fmt.Errorf("%w: ELF type %d, want ET_CORE", ErrNotCore, t)
	}
	if m := le.Uint16(h[18:]); m != emX86_64 {
		return nil, fmt.Errorf("%w: machine %d, want x86-64", ErrNotCore, m)
	}
	phoff := le.Uint64(h[32:])
	phentsize := uint64(le.Uint16(h[54:]))
	phnum := uint64(le.Uint16(h[56:]))
	if phnum == 0xffff { // PN_XNUM: the real count is in section 0's sh_info
		phnum = extendedPhnum(r, le.Uint64(h[40:]), le.Uint16(h[58:]))
	}
	if phentsize < 56 {
		return nil, fmt.Errorf("%w: program header size %d", ErrNotCore, phentsize)
	}
	if phnum > maxProgs {
		return nil, fmt.Errorf("%w: %d program headers", ErrNotCore, phnum)
	}
	c := &File{r: r, size: size, files: make(map[string]io.ReaderAt)}
	var notes [][2]uint64
	var ph [56]byte
	truncated, firstTrunc := 0, uint64(0)
	for i := uint64(0); i < phnum; i++ {
		if _, err := r.ReadAt(ph[:], int64(phoff+i*phentsize)); err != nil || phoff+i*phentsize > uint64(size) {
			c.Errors = append(c.Errors, fmt.Errorf("program header %d: beyond the end of the file", i))
			break
		}
		typ, flags := le.Uint32(ph[0:]), le.Uint32(ph[4:])
		s := segment{off: le.Uint64(ph[8:]), vaddr: le.Uint64(ph[16:]), filesz: le.Uint64(ph[32:]), memsz: le.Uint64(ph[40:]), flags: flags}
		switch typ {
		case ptLoad:
			if s.vaddr+s.memsz < s.vaddr {
				c.Errors = append(c.Errors, fmt.Errorf("PT_LOAD at 0x%x: size 0x%x wraps around", s.vaddr, s.memsz))
				continue
			}
			if s.filesz > s.memsz {
				s.filesz = s.memsz
			}
			if s.filesz > 0 && (s.off > uint64(size) || s.filesz > uint64(size)-s.off) {
				// A truncated core: the memory past the end is unknown.
				if s.off > uint64(size) {
					s.filesz = 0
				} else {
					s.filesz = uint64(size) - s.off
				}
				if truncated == 0 {
					firstTrunc = s.vaddr
				}
				truncated++
			}
			c.segs = append(c.segs, s)
		case ptNote:
			notes = append(notes, [2]uint64{s.off, s.filesz})
		}
	}
	if truncated > 0 {
		c.Errors = append(c.Errors, fmt.Errorf("file truncated: %d PT_LOAD segments, the first at 0x%x, have data past its end (%d bytes); that memory is unknown", truncated, firstTrunc, size))
	}
	sort.SliceStable(c.segs, func(i, j int) bool { return c.segs[i].vaddr < c.segs[j].vaddr })
	c.readNotes(notes)
	return c, nil
}

// extendedPhnum reads e_phnum from section 0 when the header says PN_XNUM.
func extendedPhnum(r io.ReaderAt, shoff uint64, shentsize uint16) uint64 {
	if shentsize < 64 {
		return 0
	}
	var sh [64]byte
	if _, err := r.ReadAt(sh[:], int64(shoff)); err != nil {
		return 0
	}
	return uint64(binary.LittleEndian.Uint32(sh[44:]))
}

// readNotes reads every note of the PT_NOTE segments.
func (c *File) readNotes(segs [][2]uint64) {
	total := uint64(0)
	count := 0
	var pending *Thread // the thread a following per-thread note belongs to
	for _, s := range segs {
		off, n := s[0], s[1]
		if off > uint64(c.size) || n > uint64(c.size)-off {
			c.Errors = append(c.Errors, fmt.Errorf("PT_NOTE at offset 0x%x: size 0x%x runs past the end of the file", off, n))
			if off > uint64(c.size) {
				continue
			}
			n = uint64(c.size) - off
		}
		if total+n > maxNoteBytes {
			c.Errors = append(c.Errors, fmt.Errorf("PT_NOTE at offset 0x%x: notes larger than %d MB in all; the rest ignored", off, maxNoteBytes>>20))
			return
		}
		total += n
		buf := make([]byte, n)
		if _, err := c.r.ReadAt(buf, int64(off)); err != nil && err != io.EOF {
			c.Errors = append(c.Errors, fmt.Errorf("PT_NOTE at offset 0x%x: %v", off, err))
			continue
		}
		for len(buf) > 0 {
			if count++; count > maxNotes {
				c.Errors = append(c.Errors, fmt.Errorf("more than %d notes; the rest ignored", maxNotes))
				return
			}
			at := off + (s[1] - uint64(len(buf)))
			if len(buf) < 12 {
				c.Errors = append(c.Errors, fmt.Errorf("note at offset 0x%x: truncated header", at))
				break
			}
			le := binary.LittleEndian
			namesz, descsz, typ := uint64(le.Uint32(buf)), uint64(le.Uint32(buf[4:])), le.Uint32(buf[8:])
			nameEnd := 12 + align4(namesz)
			descEnd := nameEnd + align4(descsz)
			if nameEnd > uint64(len(buf)) || nameEnd+descsz > uint64(len(buf)) {
				c.Errors = append(c.Errors, fmt.Errorf("note at offset 0x%x (type 0x%x): name or data runs past the segment", at, typ))
				break
			}
			name := string(trimNUL(buf[12 : 12+namesz]))
			desc := buf[nameEnd : nameEnd+descsz]
			if descEnd > uint64(len(buf)) {
				descEnd = uint64(len(buf))
			}
			buf = buf[descEnd:]
			if name != "CORE" && name != "LINUX" {
				continue
			}
			if err := c.note(typ, name, desc, &pending); err != nil {
				c.Errors = append(c.Errors, fmt.Errorf("note at offset 0x%x: %w", at, err))
			}
		}
	}
	if c.Signal == nil {
		// gcore: each thread has its own; the process's is the one of
		// the thread that is taking a signal.
		for _, t := range c.Threads {
			if t.Signal != nil && t.CurSig != 0 && t.Signal.Number == t.CurSig {
				c.Signal = t.Signal
				break
			}
		}
	}
	sort.SliceStable(c.Mappings, func(i, j int) bool { return c.Mappings[i].Start < c.Mappings[j].Start })
}

func align4(n uint64) uint64 { return (n + 3) &^ 3 }

func trimNUL(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}

// note interprets one note. pending is the last thread seen, which per-
// thread notes that follow it (gcore's NT_SIGINFO) belong to.
func (c *File) note(typ uint32, name string, d []byte, pending **Thread) error {
	le := binary.LittleEndian
	switch {
	case typ == ntPrstat && name == "CORE":
		if len(c.Threads) >= maxThreads {
			return fmt.Errorf("NT_PRSTATUS: more than %d threads; ignored", maxThreads)
		}
		t := &Thread{}
		c.Threads = append(c.Threads, t)
		*pending = t
		if len(d) < prstatusRegs+27*8 {
			t.Err = fmt.Errorf("NT_PRSTATUS: %d bytes, want at least %d", len(d), prstatusRegs+27*8)
			if len(d) >= 36 {
				t.TID = int(int32(le.Uint32(d[32:])))
			}
			return t.Err
		}
		t.CurSig = int(le.Uint16(d[12:]))
		t.TID = int(int32(le.Uint32(d[32:])))
		t.Regs = readRegs(d[prstatusRegs:])
	case typ == ntSiginfo && name == "CORE":
		s, err := parseSiginfo(d)
		if err != nil {
			return err
		}
		if *pending != nil && (*pending).Signal == nil {
			(*pending).Signal = s
		}
		if c.Signal == nil && len(c.Threads) <= 1 && (len(c.Threads) == 0 || c.Threads[0].CurSig == 0 || c.Threads[0].CurSig == s.Number) {
			// The kernel writes one, after the first thread's NT_PRSTATUS.
			c.Signal = s
		}
	case typ == ntFile && name == "CORE":
		m, err := parseFileNote(d)
		c.Mappings = append(c.Mappings, m...)
		return err
	case typ == ntAuxv && name == "CORE":
		for i := 0; i+16 <= len(d); i += 16 {
			e := AuxEntry{Type: le.Uint64(d[i:]), Value: le.Uint64(d[i+8:])}
			if e.Type == 0 {
				break
			}
			c.Auxv = append(c.Auxv, e)
		}
	case typ == ntPrpsinf && name == "CORE":
		if len(d) < 136 {
			return fmt.Errorf("NT_PRPSINFO: %d bytes, want 136", len(d))
		}
		fname := string(cstr(d[40:56]))
		args := string(cstr(d[56:136]))
		c.Command = fname
		if args = strings.TrimRight(args, " "); args != "" {
			c.Command = args
		}
	}
	return nil
}

// prstatusRegs is the offset of pr_reg in x86-64's struct elf_prstatus.
const prstatusRegs = 112

func readRegs(b []byte) Regs {
	le := binary.LittleEndian
	v := func(i int) uint64 { return le.Uint64(b[i*8:]) }
	return Regs{
		R15: v(0), R14: v(1), R13: v(2), R12: v(3), RBP: v(4), RBX: v(5), R11: v(6), R10: v(7),
		R9: v(8), R8: v(9), RAX: v(10), RCX: v(11), RDX: v(12), RSI: v(13), RDI: v(14),
		OrigRAX: v(15), RIP: v(16), CS: v(17), EFlags: v(18), RSP: v(19), SS: v(20),
		FSBase: v(21), GSBase: v(22), DS: v(23), ES: v(24), FS: v(25), GS: v(26),
	}
}

func cstr(b []byte) []byte {
	for i, c := range b {
		if c == 0 {
			return b[:i]
		}
	}
	return b
}

// Signals whose siginfo carries the faulting address (si_addr).
var faultSignals = map[int]bool{4: true, 5: true, 7: true, 8: true, 11: true}

func parseSiginfo(d []byte) (*Signal, error) {
	if len(d) < 24 {
		return nil, fmt.Errorf("NT_SIGINFO: %d bytes, want at least 24", len(d))
	}
	le := binary.LittleEndian
	s := &Signal{
		Number: int(int32(le.Uint32(d))),
		Errno:  int(int32(le.Uint32(d[4:]))),
		Code:   int(int32(le.Uint32(d[8:]))),
	}
	switch {
	case s.Code <= 0: // SI_USER, SI_TKILL, SI_QUEUE...: sent by a process
		s.PID, s.UID, s.HasPID = int(int32(le.Uint32(d[16:]))), int(le.Uint32(d[20:])), true
	case faultSignals[s.Number]:
		s.Addr, s.HasAddr = le.Uint64(d[16:]), true
	}
	return s, nil
}

func parseFileNote(d []byte) ([]Mapping, error) {
	le := binary.LittleEndian
	if len(d) < 16 {
		return nil, fmt.Errorf("NT_FILE: %d bytes, want at least 16", len(d))
	}
	count, page := le.Uint64(d), le.Uint64(d[8:])
	if count > maxMappings || count > uint64(len(d)-16)/24 {
		return nil, fmt.Errorf("NT_FILE: %d entries do not fit in %d bytes", count, len(d))
	}
	names := d[16+count*24:]
	out := make([]Mapping, 0, count)
	for i := uint64(0); i < count; i++ {
		e := d[16+i*24:]
		m := Mapping{Start: le.Uint64(e), End: le.Uint64(e[8:])}
		pg := le.Uint64(e[16:])
		if page != 0 && pg > ^uint64(0)/page {
			return out, fmt.Errorf("NT_FILE: entry %d: file offset overflows", i)
		}
		m.Offset = pg * page
		j := 0
		for j < len(names) && names[j] != 0 {
			j++
		}
		if j == len(names) && i+1 < count {
			return out, fmt.Errorf("NT_FILE: names end after %d of %d entries", i, count)
		}
		m.Path = string(names[:j])
		if j < len(names) {
			names = names[j+1:]
		} else {
			names = nil
		}
		if m.End < m.Start {
			return out, fmt.Errorf("NT_FILE: entry %d (%s): end 0x%x before start 0x%x", i, m.Path, m.End, m.Start)
		}
		out = append(out, m)
	}
	return out, nil
}

// CrashingThread is the thread that took the signal: the one whose own
// NT_SIGINFO is the process's (gcore), else the first (the kernel writes
// the dumping thread first). nil when the core has no threads.
func (c *File) CrashingThread() *Thread {
	for _, t := range c.Threads {
		if t.Signal != nil && t.Signal == c.Signal {
			return t
		}
	}
	if len(c.Threads) > 0 {
		return c.Threads[0]
	}
	return nil
}

// Aux returns the value of auxiliary-vector entry typ (AT_ENTRY is 9).
func (c *File) Aux(typ uint64) (uint64, bool) {
	for _, e := range c.Auxv {
		if e.Type == typ {
			return e.Value, true
		}
	}
	return 0, false
}
