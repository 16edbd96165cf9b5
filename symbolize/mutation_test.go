package symbolize

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The mutation test: damaged copies of the fixtures (one flipped bit, a
// zeroed run, a damaged header field, bytes of one DWARF section
// overwritten), each opened and asked about the functions of the pristine
// file. make test runs the short count; a long session is
//
//	go test ./symbolize/ -run TestMutation -mutants 5000 -timeout 60m
//
// (-mutation-seed picks another reproducible series). Per mutant:
//   - no panic (a recovered decoder panic counts) and no run over
//     mutationTimeout (a hang detector, not a timing assertion);
//   - wherever llvm-symbolizer (when installed) survives and names an
//     address, sanitrace names it too;
//   - isolation on its own: when the damage lies wholly inside DWARF
//     sections' bytes, or spares what the symbol table depends on (the
//     ELF header, the section header table, .shstrtab, .symtab,
//     .strtab), every address the pristine symbol table names is still
//     named (the symbol table answers where the DWARF cannot).
//
// At the end the process's peak RSS must be under 1 GiB.
var (
	mutants      = flag.Int("mutants", 180, "mutation test: number of damaged copies of the fixtures")
	mutationSeed = flag.Uint64("mutation-seed", 1, "mutation test: seed of the reproducible series")
)

const mutationTimeout = 5 * time.Second

// bareEOF matches a message that ends in an EOF without saying of what.
var bareEOF = regexp.MustCompile(`(^|: )(unexpected )?EOF($|;| \()`)

// mutationFixtures: C, C++, Rust and Go binaries, DWARF 4 and 5, gcc and
// clang, zlib, zstd and .zdebug sections.
var mutationFixtures = []string{
	"c-O0-dw4-nopie", "c-O2-dw5-clang", "c-O2-zlib", "c-O2-zstd", "c-O2-zdebug",
	"cxx-O2-dw5", "cxx-O2-clang-dw4", "rust-v0-O", "go-trimpath",
}

type mutationFixture struct {
	name  string
	data  []byte
	addrs []uint64    // the middle of up to 24 functions
	debug [][2]uint64 // file ranges of the DWARF sections
	// symtab: what the symbol table's answers depend on (the ELF
	// header, the section header table, .shstrtab, .symtab, .strtab).
	symtab [][2]uint64
	secs   []*elf.Section // every section with file bytes
	f      *elf.File
}

func loadMutationFixture(t *testing.T, name string) *mutationFixture {
	path := filepath.Join("..", "testdata", "elf", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	mf := &mutationFixture{name: name, data: data, f: f}
	shoff := binary.LittleEndian.Uint64(data[0x28:])
	mf.symtab = [][2]uint64{{0, 64}, {shoff, shoff + 64*uint64(len(f.Sections))}}
	syms, _ := f.Symbols()
	var funcs []elf.Symbol
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Size >= 4 && s.Value != 0 {
			funcs = append(funcs, s)
		}
	}
	sort.Slice(funcs, func(i, j int) bool { return funcs[i].Value < funcs[j].Value })
	step := max(1, len(funcs)/24)
	for i := 0; i < len(funcs) && len(mf.addrs) < 24; i += step {
		mf.addrs = append(mf.addrs, funcs[i].Value+funcs[i].Size/2)
	}
	for _, s := range f.Sections {
		if s.Type == elf.SHT_NOBITS || s.Type == elf.SHT_NULL || s.FileSize == 0 {
			continue
		}
		mf.secs = append(mf.secs, s)
		if strings.HasPrefix(s.Name, ".debug_") || strings.HasPrefix(s.Name, ".zdebug_") {
			mf.debug = append(mf.debug, [2]uint64{s.Offset, s.Offset + s.FileSize})
		}
		switch s.Name {
		case ".shstrtab", ".symtab", ".strtab":
			mf.symtab = append(mf.symtab, [2]uint64{s.Offset, s.Offset + s.FileSize})
		}
	}
	return mf
}

// mutation is one damaged copy and where its damage lies.
type mutation struct {
	what   string
	data   []byte
	lo, hi uint64 // the damaged bytes
}

// mutate makes mutant i of mf: the same i and seed give the same bytes.
func (mf *mutationFixture) mutate(r *rand.Rand) mutation {
	d := append([]byte(nil), mf.data...)
	bo := mf.f.ByteOrder
	is64 := mf.f.Class == elf.ELFCLASS64
	put := func(off uint64, size int, v uint64) {
		switch size {
		case 2:
			bo.PutUint16(d[off:], uint16(v))
		case 4:
			bo.PutUint32(d[off:], uint32(v))
		case 8:
			bo.PutUint64(d[off:], v)
		}
	}
	shoff := binary.LittleEndian.Uint64(d[0x28:])
	const shentsize = 64
	if !is64 {
		panic("mutation fixtures are 64-bit")
	}
	randomValue := func(size int) uint64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return r.Uint64() >> (64 - 8*size)
		case 2:
			return uint64(len(d)) + r.Uint64N(1<<20)
		default:
			return ^uint64(0) >> (64 - 8*size)
		}
	}
	switch k := r.IntN(7); k {
	case 0: // one bit anywhere
		off := r.Uint64N(uint64(len(d)))
		bit := r.IntN(8)
		d[off] ^= 1 << bit
		return mutation{fmt.Sprintf("bit %d of byte 0x%x flipped", bit, off), d, off, off + 1}
	case 1: // a zeroed run anywhere
		off := r.Uint64N(uint64(len(d)))
		n := min(1+r.Uint64N(256), uint64(len(d))-off)
		clear(d[off : off+n])
		return mutation{fmt.Sprintf("0x%x bytes zeroed at 0x%x", n, off), d, off, off + n}
	case 2, 3: // bytes inside one section (DWARF twice as often)
		s := mf.secs[r.IntN(len(mf.secs))]
		if k == 3 && len(mf.debug) > 0 {
			rg := mf.debug[r.IntN(len(mf.debug))]
			for _, c := range mf.secs {
				if c.Offset == rg[0] {
					s = c
				}
			}
		}
		off := s.Offset + r.Uint64N(s.FileSize)
		n := min(1+r.Uint64N(64), s.Offset+s.FileSize-off)
		if r.IntN(2) == 0 {
			clear(d[off : off+n])
		} else {
			for i := off; i < off+n; i++ {
				d[i] = byte(r.Uint32())
			}
		}
		return mutation{fmt.Sprintf("%s: 0x%x bytes damaged at 0x%x", s.Name, n, off), d, off, off + n}
	case 4: // a section header field
		i := uint64(r.IntN(len(mf.f.Sections)))
		fields := []struct {
			name      string
			off, size int
		}{{"sh_name", 0, 4}, {"sh_type", 4, 4}, {"sh_flags", 8, 8}, {"sh_offset", 24, 8}, {"sh_size", 32, 8}, {"sh_link", 40, 4}, {"sh_entsize", 56, 8}}
		fl := fields[r.IntN(len(fields))]
		at := shoff + i*shentsize + uint64(fl.off)
		put(at, fl.size, randomValue(fl.size))
		return mutation{fmt.Sprintf("section header %d (%s): %s damaged", i, mf.f.Sections[i].Name, fl.name), d, at, at + uint64(fl.size)}
	case 5: // an ELF header field
		fields := []struct {
			name      string
			off, size int
		}{{"e_phoff", 0x20, 8}, {"e_shoff", 0x28, 8}, {"e_phentsize", 0x36, 2}, {"e_phnum", 0x38, 2}, {"e_shentsize", 0x3a, 2}, {"e_shnum", 0x3c, 2}, {"e_shstrndx", 0x3e, 2}}
		fl := fields[r.IntN(len(fields))]
		put(uint64(fl.off), fl.size, randomValue(fl.size))
		return mutation{fmt.Sprintf("ELF header: %s damaged", fl.name), d, uint64(fl.off), uint64(fl.off + fl.size)}
	default: // a compression header or the start of a compressed stream
		var comp []*elf.Section
		for _, s := range mf.secs {
			if s.Flags&elf.SHF_COMPRESSED != 0 || strings.HasPrefix(s.Name, ".zdebug_") {
				comp = append(comp, s)
			}
		}
		if len(comp) == 0 {
			return mf.mutate(r)
		}
		s := comp[r.IntN(len(comp))]
		off := s.Offset + r.Uint64N(min(s.FileSize, 48))
		d[off] ^= byte(1 + r.IntN(255))
		return mutation{fmt.Sprintf("%s: compression header or stream start damaged at 0x%x", s.Name, off), d, off, off + 1}
	}
}

// sparesSymtab reports whether m's damage leaves alone everything the
// symbol table's answers depend on.
func (mf *mutationFixture) sparesSymtab(m mutation) bool {
	for _, rg := range mf.symtab {
		if m.lo < rg[1] && rg[0] < m.hi {
			return false
		}
	}
	return true
}

// insideDWARF reports whether m's damage lies wholly inside DWARF bytes.
func (mf *mutationFixture) insideDWARF(m mutation) bool {
	for _, rg := range mf.debug {
		if m.lo >= rg[0] && m.hi <= rg[1] {
			return true
		}
	}
	return false
}

// ourNames opens path and names addrs as llvm-symbolizer would
// (--no-inlines), within mutationTimeout.
func ourNames(path string, addrs []uint64) (names []string, msgs []string, err error, hung bool) {
	type result struct {
		names []string
		err   error
		msgs  []string // the open error and the damage line
	}
	done := make(chan result, 1)
	go func() {
		var res result
		defer func() {
			if p := recover(); p != nil {
				res.err = fmt.Errorf("panic: %v", p)
			}
			done <- res
		}()
		o, err := Open(path, noDebugDirs())
		if err != nil {
			res.msgs = append(res.msgs, err.Error())
		}
		if o == nil {
			res.err = err
			return
		}
		defer o.Close()
		if d := o.Damage(); d != nil {
			res.msgs = append(res.msgs, d.Error())
		}
		if err != nil && !strings.Contains(err.Error(), ErrNoDebugInfo.Error()) {
			res.err = err
		}
		for _, a := range addrs {
			fr, ferr := o.Symbolize(a, LookupOptions{Demangle: true})
			if ferr != nil {
				res.err = ferr
			}
			res.names = append(res.names, fr[len(fr)-1].Function)
			o.Data(a)
			// FRAME and the inline chain exercise the rest of the decoders.
			o.Symbolize(a, LookupOptions{Inlines: true, Demangle: true})
			o.Frame(a)
		}
	}()
	select {
	case res := <-done:
		return res.names, res.msgs, res.err, false
	case <-time.After(mutationTimeout):
		return nil, nil, nil, true
	}
}

// llvmNames asks llvm-symbolizer for the function at each address ("" for
// "??"); ok is false when it crashed, hung or printed nothing usable.
func llvmNames(llvm, path string, addrs []uint64) (names []string, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), mutationTimeout)
	defer cancel()
	args := []string{"--obj=" + path, "--no-inlines", "--demangle", "--output-style=JSON"}
	for _, a := range addrs {
		args = append(args, fmt.Sprintf("0x%x", a))
	}
	cmd := exec.CommandContext(ctx, llvm, args...)
	cmd.Env = append(os.Environ(), "LLVM_SYMBOLIZER_OPTS=")
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	// One JSON line per address when the file could be read, one array
	// when all addresses came on the command line.
	var answers []struct {
		Symbol []struct{ FunctionName string }
		Error  *struct{ Message string }
	}
	if json.Unmarshal(bytes.TrimSpace(out), &answers) != nil || len(answers) != len(addrs) {
		return nil, false
	}
	for _, a := range answers {
		if a.Error != nil || len(a.Symbol) == 0 {
			return nil, false
		}
		names = append(names, a.Symbol[len(a.Symbol)-1].FunctionName)
	}
	return names, true
}

func TestMutation(t *testing.T) {
	if raceEnabled {
		t.Skip("the mutation test runs without the race detector (make test runs it in the unit pass)")
	}
	llvm, lerr := exec.LookPath("llvm-symbolizer-14")
	if lerr != nil {
		llvm, lerr = exec.LookPath("llvm-symbolizer")
	}
	if lerr != nil {
		t.Logf("llvm-symbolizer not installed: the isolation properties are checked on their own")
	}
	var fixtures []*mutationFixture
	for _, name := range mutationFixtures {
		fixtures = append(fixtures, loadMutationFixture(t, name))
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "mutant")
	var named, llvmNamed, llvmSurvived, llvmGone, isolated int
	for i := 0; i < *mutants; i++ {
		mf := fixtures[i%len(fixtures)]
		r := rand.New(rand.NewPCG(*mutationSeed, uint64(i)))
		m := mf.mutate(r)
		if err := os.WriteFile(path, m.data, 0o600); err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("mutant %d (seed %d) of %s, %s", i, *mutationSeed, mf.name, m.what)
		ours, msgs, err, hung := ourNames(path, mf.addrs)
		if hung {
			t.Fatalf("%s: no answer within %v", id, mutationTimeout)
		}
		if err != nil && strings.Contains(err.Error(), "panic") {
			t.Errorf("%s: %v", id, err)
			continue
		}
		for _, m := range msgs {
			// Errors say what is wrong and where: never a bare EOF, one
			// line per module.
			if bareEOF.MatchString(m) || strings.Contains(m, "\n") {
				t.Errorf("%s: message %q", id, m)
			}
		}
		for _, n := range ours {
			if n != "" {
				named++
			}
		}
		if mf.insideDWARF(m) || mf.sparesSymtab(m) {
			// The symbol table is intact: every function it names is
			// named, whatever else the damage cost.
			isolated++
			for j, a := range mf.addrs {
				if j >= len(ours) || ours[j] == "" {
					t.Errorf("%s: damage spares the symbol table, yet 0x%x has no name (open error: %v)", id, a, err)
				}
			}
		}
		if lerr != nil {
			continue
		}
		theirs, ok := llvmNames(llvm, path, mf.addrs)
		if !ok {
			llvmGone++
			continue
		}
		llvmSurvived++
		for j, a := range mf.addrs {
			if theirs[j] == "" {
				continue
			}
			llvmNamed++
			if j >= len(ours) || ours[j] == "" {
				t.Errorf("%s: llvm-symbolizer names 0x%x %q, sanitrace does not (open error: %v)", id, a, theirs[j], err)
			}
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		if rss := ru.Maxrss * 1024; rss >= 1<<30 {
			t.Errorf("peak RSS %d bytes, over 1 GiB", rss)
		}
		t.Logf("peak RSS %d MiB", ru.Maxrss/1024)
	}
	t.Logf("%d mutants: %d names given; %d mutants with damage inside DWARF or sparing the symbol table; llvm-symbolizer survived %d, failed %d, named %d addresses",
		*mutants, named, isolated, llvmSurvived, llvmGone, llvmNamed)
}
