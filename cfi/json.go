package cfi

import (
	"bufio"
	"debug/elf"
	"io"
	"strconv"
)

// JSONFile is `sanitrace cfi --format json`'s document (docs/json.md):
// the content of the interpreted dump as data.
type JSONFile struct {
	Version  int           `json:"version"`
	File     string        `json:"file"`
	Sections []JSONSection `json:"sections"`
}

// JSONSection is one .eh_frame or .debug_frame.
type JSONSection struct {
	Name    string      `json:"name"`
	Entries []JSONEntry `json:"entries"`
}

// JSONEntry is a CIE or an FDE with its interpreted rows.
type JSONEntry struct {
	Offset       string    `json:"offset"`
	Kind         string    `json:"kind"`
	CIE          string    `json:"cie,omitempty"`
	PCBegin      string    `json:"pc_begin,omitempty"`
	PCEnd        string    `json:"pc_end,omitempty"`
	Augmentation *string   `json:"augmentation,omitempty"`
	CodeAlign    *uint64   `json:"code_align,omitempty"`
	DataAlign    *int64    `json:"data_align,omitempty"`
	RA           *uint64   `json:"ra,omitempty"`
	Rows         []jsonRow `json:"rows"`
}

type jsonRow struct {
	Loc  string            `json:"loc"`
	CFA  string            `json:"cfa"`
	Regs map[string]string `json:"regs"`
}

func hexStr(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }

// DumpJSON returns the frames of f as data: the entries and rows the
// interpreted dump prints.
func DumpJSON(f *elf.File, name string, warn func(error)) *JSONFile {
	if warn == nil {
		warn = func(error) {}
	}
	out := &JSONFile{Version: 1, File: name, Sections: []JSONSection{}}
	for _, sh := range f.Sections {
		if !isFrameSection(sh.Name) || sh.Type == elf.SHT_NOBITS || sh.Size == 0 {
			continue
		}
		s, err := sectionFor(f, sh, warn)
		if err != nil {
			warn(err)
			continue
		}
		d := &dumper{w: nil, sec: s, names: namesFor(f.Machine), interp: true, warn: warn, collect: true}
		js := JSONSection{Name: s.name, Entries: []JSONEntry{}}
		d.entries(func(e JSONEntry) { js.Entries = append(js.Entries, e) })
		out.Sections = append(out.Sections, js)
	}
	return out
}

// entries walks the section like section() but hands each entry over as
// data instead of printing it.
func (d *dumper) entries(emit func(JSONEntry)) {
	d.w = bufio.NewWriter(io.Discard)
	d.walk(func(_ int, c *CIE, f *FDE) {
		switch {
		case c != nil:
			aug, ca, da, ra := c.Augmentation, c.CodeAlign, c.DataAlign, c.RA
			emit(JSONEntry{Offset: hexStr(c.Offset), Kind: "CIE", Augmentation: &aug, CodeAlign: &ca, DataAlign: &da, RA: &ra, Rows: d.rows})
		case f != nil:
			// The CIE's fields are repeated so that an FDE reads on its own.
			c := f.CIE
			aug, ca, da, ra := c.Augmentation, c.CodeAlign, c.DataAlign, c.RA
			emit(JSONEntry{Offset: hexStr(f.Offset), Kind: "FDE", CIE: hexStr(c.Offset), PCBegin: hexStr(f.Begin), PCEnd: hexStr(f.End),
				Augmentation: &aug, CodeAlign: &ca, DataAlign: &da, RA: &ra, Rows: d.rows})
		}
	})
}
