package main

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// binSizes is what the corpus table says of one binary.
type binSizes struct {
	file                  int64
	text, info, line, str uint64 // bytes, unpacked
	infoDisk, lineDisk    uint64 // bytes on disk
	debugAll, debugDisk   uint64 // every .debug_* section
	version               int    // DWARF version of the first unit
	compressed            string // "zlib", "zstd" or ""
}

func sizesOf(path string) (binSizes, error) {
	var s binSizes
	fi, err := os.Stat(path)
	if err != nil {
		return s, err
	}
	s.file = fi.Size()
	f, err := elf.Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	for _, sec := range f.Sections {
		// debug/elf reports a SHF_COMPRESSED section's unpacked size as Size
		disk := sec.FileSize
		if sec.Type == elf.SHT_NOBITS {
			disk = 0
		}
		switch sec.Name {
		case ".text":
			s.text = sec.Size
		case ".debug_info":
			s.info, s.infoDisk = sec.Size, disk
			s.version = dwarfVersion(sec)
		case ".debug_line":
			s.line, s.lineDisk = sec.Size, disk
		case ".debug_str":
			s.str = sec.Size
		}
		if strings.HasPrefix(sec.Name, ".debug_") {
			s.debugAll += sec.Size
			s.debugDisk += disk
			if sec.Flags&elf.SHF_COMPRESSED != 0 {
				s.compressed = compression(path, sec)
			}
		}
	}
	return s, nil
}

// dwarfVersion reads the version of .debug_info's first unit header.
func dwarfVersion(sec *elf.Section) int {
	var h [14]byte
	if _, err := io.ReadFull(sec.Open(), h[:]); err != nil {
		return 0
	}
	off := 4
	if binary.LittleEndian.Uint32(h[:4]) == 0xffffffff { // 64-bit DWARF
		off = 12
	}
	return int(binary.LittleEndian.Uint16(h[off:]))
}

// sectionTable prints the corpus as a Markdown table, MB = 10^6 bytes;
// compressed sections as on disk (unpacked).
func sectionTable(w io.Writer, paths []string) error {
	fmt.Fprintf(w, "| binary | file MB | .text MB | .debug_info MB | .debug_line MB | .debug_str MB | all .debug_* MB | DWARF |\n")
	fmt.Fprintf(w, "|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range paths {
		s, err := sizesOf(p)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		packed := func(size, disk uint64) string {
			if s.compressed != "" && disk != size {
				return fmt.Sprintf("%s (%s unpacked)", mb(disk), mb(size))
			}
			return mb(size)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %d%s |\n", filepath.Base(p), mb(uint64(s.file)), mb(s.text),
			packed(s.info, s.infoDisk), packed(s.line, s.lineDisk), mb(s.str), packed(s.debugAll, s.debugDisk),
			s.version, comma(s.compressed))
	}
	return nil
}

// compression names the algorithm in a SHF_COMPRESSED section's header.
func compression(path string, sec *elf.Section) string {
	f, err := os.Open(path)
	if err != nil {
		return "?"
	}
	defer f.Close()
	var t [4]byte
	if _, err := f.ReadAt(t[:], int64(sec.Offset)); err != nil {
		return "?"
	}
	switch elf.CompressionType(binary.LittleEndian.Uint32(t[:])) {
	case elf.COMPRESS_ZLIB:
		return "zlib"
	case elf.COMPRESS_ZSTD:
		return "zstd"
	}
	return "?"
}

func comma(s string) string {
	if s == "" {
		return ""
	}
	return ", " + s
}

func mb(n uint64) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(n)/1e6)
}
