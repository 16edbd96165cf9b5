package resolve

import (
	"github.com/sanitrace/sanitrace/lwsheap"
)

// HeapFrames symbolizes a libwebsockets backtrace (see Frames) into the
// frame type of `sanitrace lws heapmap`'s JSON, which has the schema of the
// decode JSON's frames.
func (m *StaticModule) HeapFrames(pcs []uint64) []lwsheap.Frame {
	fs := m.Frames(pcs)
	out := make([]lwsheap.Frame, len(fs))
	for i, f := range fs {
		j := lwsheap.Frame{PC: lwsheap.Hex(f.PC), Line: f.Line, Column: f.Column, Inlined: f.Inlined, Symbolized: f.Symbolized}
		if f.HasOffset {
			module, offset := f.Module, lwsheap.Hex(f.Offset)
			j.Module, j.Offset = &module, &offset
		}
		if f.Function != "" {
			fn := f.Function
			j.Function = &fn
		}
		if f.File != "" {
			file := f.File
			j.File = &file
		}
		out[i] = j
	}
	return out
}
