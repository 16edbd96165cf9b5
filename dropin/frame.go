package dropin

import (
	"fmt"
	"strconv"

	"github.com/sanitrace/sanitrace/modcache"
	"github.com/sanitrace/sanitrace/symbolize"
)

// This file answers FRAME queries: llvm-symbolizer 14's DIPrinter for
// std::vector<DILocal>.

// frameLocals returns the locals at addr in mod; none when mod is nil. A
// partial answer after a decoding error is kept, as llvm keeps what it
// collected.
func frameLocals(mod modcache.Object, addr uint64) []symbolize.Local {
	if mod == nil {
		return nil
	}
	locals, _ := mod.Frame(addr)
	return locals
}

// frame prints the locals as LLVMPrinter/GNUPrinter do: four lines each
// ("??" for an unknown function, name, file or number), "??" alone when
// there are none.
func (p *plainPrinter) frame(r request, locals []symbolize.Local) {
	p.header(r)
	if len(locals) == 0 {
		p.b.WriteString("??\n")
	}
	orUnknown := func(s string) string {
		if s == "" {
			return "??"
		}
		return s
	}
	for _, l := range locals {
		p.b.WriteString(orUnknown(l.FunctionName) + "\n")
		p.b.WriteString(orUnknown(l.Name) + "\n")
		fmt.Fprintf(p.b, "%s:%d\n", orUnknown(l.DeclFile), l.DeclLine)
		if l.HasFrameOffset {
			p.b.WriteString(strconv.FormatInt(l.FrameOffset, 10))
		} else {
			p.b.WriteString("??")
		}
		p.b.WriteByte(' ')
		if l.HasSize {
			p.b.WriteString(strconv.FormatUint(l.Size, 10))
		} else {
			p.b.WriteString("??")
		}
		p.b.WriteByte(' ')
		if l.HasTagOffset {
			p.b.WriteString(strconv.FormatUint(l.TagOffset, 10))
		} else {
			p.b.WriteString("??")
		}
		p.b.WriteByte('\n')
	}
	p.footer()
	p.flush()
}

// frame prints JSONPrinter's "Frame" array: "FrameOffset" only when known,
// "Size" and "TagOffset" as hex strings or "".
func (p *jsonPrinter) frame(r request, locals []symbolize.Local) {
	frame := make([]jsonValue, 0, len(locals))
	for _, l := range locals {
		frame = append(frame, local(l))
	}
	p.answer(r, "Frame", frame)
}

// local is one entry of the "Frame" array.
func local(l symbolize.Local) jsonObject {
	o := jsonObject{
		"FunctionName": l.FunctionName,
		"Name":         l.Name,
		"DeclFile":     l.DeclFile,
		"DeclLine":     int64(l.DeclLine),
		"Size":         hexIf(l.HasSize, l.Size),
		"TagOffset":    hexIf(l.HasTagOffset, l.TagOffset),
	}
	if l.HasFrameOffset {
		o["FrameOffset"] = l.FrameOffset
	}
	return o
}
