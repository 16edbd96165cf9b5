package main

import (
	"bufio"
	"debug/elf"
	"fmt"
	"io"
	"slices"
	"sort"
)

// span is a half-open address range [lo, hi).
type span struct{ lo, hi uint64 }

// codeSpans returns the bytes of f's code that lie inside functions: the
// sized, defined FUNC and IFUNC symbols of .symtab and .dynsym, each
// clipped to the executable section it starts in, overlaps merged. Drawing
// uniformly over these bytes weights each function by its size.
func codeSpans(f *elf.File) ([]span, error) {
	var secs []span
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC != 0 && s.Flags&elf.SHF_EXECINSTR != 0 && s.Size > 0 && s.Addr > 0 {
			secs = append(secs, span{s.Addr, s.Addr + s.Size})
		}
	}
	slices.SortFunc(secs, func(a, b span) int { return cmpU64(a.lo, b.lo) })
	var syms []elf.Symbol
	for _, read := range []func() ([]elf.Symbol, error){f.Symbols, f.DynamicSymbols} {
		s, err := read()
		if err != nil && err != elf.ErrNoSymbols {
			return nil, err
		}
		syms = append(syms, s...)
	}
	var funcs []span
	for _, s := range syms {
		t := elf.ST_TYPE(s.Info)
		if t != elf.STT_FUNC && t != elf.STT_GNU_IFUNC || s.Section == elf.SHN_UNDEF || s.Section == elf.SHN_ABS {
			continue
		}
		if s.Size == 0 || s.Value == 0 {
			continue
		}
		lo, hi := s.Value, s.Value+s.Size
		// the section the function starts in: the last one starting at or below lo
		i := sort.Search(len(secs), func(i int) bool { return secs[i].lo > lo }) - 1
		if i < 0 {
			continue
		}
		lo, hi = max(lo, secs[i].lo), min(hi, secs[i].hi)
		if lo < hi {
			funcs = append(funcs, span{lo, hi})
		}
	}
	slices.SortFunc(funcs, func(a, b span) int {
		if c := cmpU64(a.lo, b.lo); c != 0 {
			return c
		}
		return cmpU64(a.hi, b.hi)
	})
	var merged []span
	for _, s := range funcs {
		if n := len(merged); n > 0 && s.lo <= merged[n-1].hi {
			merged[n-1].hi = max(merged[n-1].hi, s.hi)
			continue
		}
		merged = append(merged, s)
	}
	if len(merged) == 0 {
		return nil, fmt.Errorf("no sized function symbols inside executable sections (stripped?)")
	}
	return merged, nil
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sampleAddresses writes count addresses drawn from spans with seed, one
// "0x..." a line, in draw order, duplicates kept. Because each draw takes
// the next values of one generator, the first n lines of a longer file
// with the same seed are the file for n.
func sampleAddresses(w io.Writer, spans []span, count int, seed uint64) error {
	cum := make([]uint64, len(spans)) // cum[i]: code bytes in spans[:i+1]
	var total uint64
	for i, s := range spans {
		total += s.hi - s.lo
		cum[i] = total
	}
	rng := newSplitMix64(seed)
	bw := bufio.NewWriter(w)
	for range count {
		off := rng.below(total)
		i := sort.Search(len(cum), func(i int) bool { return cum[i] > off })
		base := uint64(0)
		if i > 0 {
			base = cum[i-1]
		}
		fmt.Fprintf(bw, "0x%x\n", spans[i].lo+off-base)
	}
	return bw.Flush()
}
