package cfi

import (
	"debug/elf"
	"strconv"
)

// Register names as readelf (binutils 2.40, dwarf.c) spells them; delve's
// regnum names the same numbers with other spellings ("Rip"), so the dump
// keeps its own tables. An empty entry has no name.
var regNamesX8664 = [...]string{
	"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
	"rip",
	"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
	"xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
	"st0", "st1", "st2", "st3", "st4", "st5", "st6", "st7",
	"mm0", "mm1", "mm2", "mm3", "mm4", "mm5", "mm6", "mm7",
	"rflags",
	"es", "cs", "ss", "ds", "fs", "gs", "", "",
	"fs.base", "gs.base", "", "",
	"tr", "ldtr",
	"mxcsr", "fcw", "fsw",
	"xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",
	"xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31",
	"", "", "", "", "", "", "", "", // 83-90
	"", "", "", "", "", "", "", "", // 91-98
	"", "", "", "", "", "", "", "", // 99-106
	"", "", "", "", "", "", "", "", // 107-114
	"", "", "", // 115-117
	"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7",
}

var regNamesI386 = [...]string{
	"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi",
	"eip", "eflags", "",
	"st0", "st1", "st2", "st3", "st4", "st5", "st6", "st7",
	"", "",
	"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
	"mm0", "mm1", "mm2", "mm3", "mm4", "mm5", "mm6", "mm7",
	"fcw", "fsw", "mxcsr",
	"es", "cs", "ss", "ds", "fs", "gs", "", "",
	"tr", "ldtr",
	"", "", "", "", "", "", "", "", // 50-57
	"", "", "", "", "", "", "", "", // 58-65
	"", "", "", "", "", "", "", "", // 66-73
	"", "", "", "", "", "", "", "", // 74-81
	"", "", "", "", "", "", "", "", // 82-89
	"", "", "", "", // 90-93
	"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7",
}

// regNames is a machine's register name table.
type regNames []string

func namesFor(m elf.Machine) regNames {
	switch m {
	case elf.EM_X86_64:
		return regNamesX8664[:]
	case elf.EM_386:
		return regNamesI386[:]
	}
	return nil
}

// name returns readelf's column name of register n: its name, or rN.
func (t regNames) name(n uint64) string {
	if n < uint64(len(t)) && t[n] != "" {
		return t[n]
	}
	return "r" + strconv.FormatInt(int64(int32(n)), 10)
}

// long returns readelf's "rN (name)" spelling, or rN without a name.
func (t regNames) long(n uint64) string {
	r := "r" + strconv.FormatInt(int64(int32(n)), 10)
	if n < uint64(len(t)) && t[n] != "" {
		return r + " (" + t[n] + ")"
	}
	return r
}

// RegName names an x86-64 DWARF register as readelf does ("rsp", "r16"
// for one without a name).
func RegName(n uint64) string { return regNames(regNamesX8664[:]).name(n) }
