package wire

import (
	"github.com/sanitrace/sanitrace/core"
)

// Core is the document `sanitrace core --format json` writes
// (docs/json.md).
type Core struct {
	Version     int          `json:"version"`
	Core        string       `json:"core"`
	Executable  *string      `json:"executable"`        // as NT_FILE names it (the mapping holding AT_ENTRY)
	Command     string       `json:"command,omitempty"` // NT_PRPSINFO's first 80 bytes
	Signal      *Signal      `json:"signal"`
	CrashingTID *int         `json:"crashing_tid"`
	Threads     []CoreThread `json:"threads"`
	Modules     []CoreModule `json:"modules"`
	Errors      []string     `json:"errors,omitempty"`
}

// Signal is the signal that ended the process.
type Signal struct {
	Name    string  `json:"name"`
	Number  int     `json:"number"`
	Code    int     `json:"code"`
	Address *string `json:"address,omitempty"` // fault signals
	PID     *int    `json:"pid,omitempty"`     // signals a process sent
	UID     *int    `json:"uid,omitempty"`
}

// CoreThread is one thread's stack, innermost frame first.
type CoreThread struct {
	TID     int         `json:"tid"`
	Crashed bool        `json:"crashed"`
	Frames  []CoreFrame `json:"frames"`
	Error   string      `json:"error,omitempty"` // why the walk ended before the outermost frame
}

// CoreFrame is the decode frame plus how it was found.
type CoreFrame struct {
	Frame
	Kind      string  `json:"kind"`
	UnwoundBy string  `json:"unwound_by"`
	CFA       *string `json:"cfa,omitempty"`
}

// CoreModule is a mapped file and the local file used for it.
type CoreModule struct {
	Path    string  `json:"path"`
	Found   *string `json:"found"`
	BuildID *string `json:"build_id"`
	Base    string  `json:"base"`
	Error   string  `json:"error,omitempty"`
}

// CoreOf is the document of a core's report.
func CoreOf(r *core.Report) Core {
	doc := Core{
		Version: Version,
		Core:    r.Core,
		Command: r.Command,
		Threads: []CoreThread{},
		Modules: []CoreModule{},
		Errors:  r.Errors,
	}
	if r.Executable != "" {
		doc.Executable = strPtr(r.Executable)
	}
	if s := r.Signal; s != nil {
		js := &Signal{Name: core.SignalName(s.Number), Number: s.Number, Code: s.Code}
		if s.HasAddr {
			js.Address = hexPtr(s.Addr)
		}
		if s.HasPID {
			pid, uid := s.PID, s.UID
			js.PID, js.UID = &pid, &uid
		}
		doc.Signal = js
	}
	if r.CrashingTID != 0 {
		tid := r.CrashingTID
		doc.CrashingTID = &tid
	}
	for _, t := range r.Threads {
		jt := CoreThread{TID: t.TID, Crashed: t.Crashed, Frames: []CoreFrame{}, Error: t.Err}
		for _, f := range t.Frames {
			jf := CoreFrame{Frame: FrameOf(f.Frame), Kind: f.Kind, UnwoundBy: f.UnwoundBy}
			if f.CFA != 0 {
				jf.CFA = hexPtr(f.CFA)
			}
			jt.Frames = append(jt.Frames, jf)
		}
		doc.Threads = append(doc.Threads, jt)
	}
	for _, m := range r.Modules {
		jm := CoreModule{Path: m.Path, Base: hex(m.Base), Error: m.Err}
		if m.Found != "" {
			jm.Found = strPtr(m.Found)
		}
		if m.BuildID != "" {
			jm.BuildID = strPtr(m.BuildID)
		}
		doc.Modules = append(doc.Modules, jm)
	}
	return doc
}
