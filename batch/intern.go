package batch

import (
	"sort"
	"strings"
	"sync"

	"github.com/sanitrace/sanitrace/wire"
)

// interner makes the reports of a run share their repeated strings
// (function names, files, modules, shadow bytes) and shadow legends: a run
// keeps every report until the end, and ten thousand logs of a few bugs
// repeat the same few thousand strings.
type interner struct {
	mu      sync.Mutex
	strs    map[string]*string
	legends map[string]map[string]string
}

func newInterner() *interner {
	return &interner{strs: make(map[string]*string), legends: make(map[string]map[string]string)}
}

// str interns one string.
func (in *interner) str(s string) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.s(s)
}

// ptr and s intern with in.mu held.
func (in *interner) ptr(p *string) *string {
	if p == nil {
		return nil
	}
	if q, ok := in.strs[*p]; ok {
		return q
	}
	in.strs[*p] = p
	return p
}

func (in *interner) s(s string) string { return *in.ptr(&s) }

// report interns the strings of r in place.
func (in *interner) report(r *wire.Report) {
	in.mu.Lock()
	defer in.mu.Unlock()
	r.Tool, r.Kind = in.s(r.Tool), in.s(r.Kind)
	for si := range r.Stacks {
		s := &r.Stacks[si]
		s.Title, s.Role = in.s(s.Title), in.s(s.Role)
		for fi := range s.Frames {
			f := &s.Frames[fi]
			f.Function, f.File, f.Module = in.ptr(f.Function), in.ptr(f.File), in.ptr(f.Module)
			f.Offset, f.Symbolized = in.ptr(f.Offset), in.s(f.Symbolized)
		}
	}
	if sh := r.Shadow; sh != nil {
		for ri := range sh.Rows {
			for bi, b := range sh.Rows[ri].Bytes {
				sh.Rows[ri].Bytes[bi] = in.s(b)
			}
		}
		keys := make([]string, 0, len(sh.Legend))
		for k, v := range sh.Legend {
			keys = append(keys, k+"\x00"+v)
		}
		sort.Strings(keys)
		key := strings.Join(keys, "\x01")
		if l, ok := in.legends[key]; ok {
			sh.Legend = l // read only from here on
		} else {
			in.legends[key] = sh.Legend
		}
	}
}
