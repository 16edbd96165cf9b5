package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/sharedtest"
	"github.com/sanitrace/sanitrace/wire"
)

// coreTruth is the part of the core corpus's truth.json (schema
// sanitrace-core-truth/1, written from gdb 13's unwind) that the tests read.
type coreTruth struct {
	Case        string `json:"case"`
	Executable  string `json:"executable"`
	CrashingLWP int    `json:"crashing_lwp"`
	Signal      struct {
		Number int     `json:"number"`
		Code   int     `json:"si_code"`
		Addr   *string `json:"si_addr"`
	} `json:"signal"`
	Threads []struct {
		LWP     int  `json:"lwp"`
		Crashed bool `json:"crashed"`
		Frames  []struct {
			Kind     string  `json:"kind"`
			Physical bool    `json:"physical"`
			PC       string  `json:"pc"`
			Function *string `json:"function"`
			CFA      *string `json:"cfa"`
		} `json:"frames"`
	} `json:"threads"`
}

// parseCoreJSON reads core's JSON into the types render writes it from;
// unknown keys are an error.
func parseCoreJSON(t *testing.T, out string) wire.Core {
	t.Helper()
	d := decodeStrict[wire.Core](t, "core output", out)
	if d.Version != wire.Version {
		t.Fatalf("core output: version %d", d.Version)
	}
	return d
}

// withoutParams drops a C++ function's parameter list and what follows
// it: gdb prints "app::Config::lookup" where its C++ name parser can take
// the parameters off and the whole name where it cannot
// (docs/differences.md), so names are compared without them.
func withoutParams(name string) string {
	depth, last := 0, -1
	for i, c := range name {
		switch c {
		case '(', '<', '{':
			if c == '(' && depth == 0 {
				last = i
			}
			depth++
		case ')', '>', '}':
			depth--
		}
	}
	if last > 0 {
		return name[:last]
	}
	return name
}

// corePhysical returns the frames of a thread that are on the stack (not the
// inline frames sanitrace adds).
func corePhysical(fs []wire.CoreFrame) []wire.CoreFrame {
	var out []wire.CoreFrame
	for _, f := range fs {
		if f.Kind != "inline" {
			out = append(out, f)
		}
	}
	return out
}

// TestCoreCorpus: every thread of every core in ../shared/corpus/cores
// unwinds to gdb's physical frames (pc sequence, signal trampoline
// included, CFAs), each named as gdb names it, with gdb's inline frames;
// code gdb could not name (libstdc++ stripped to .dynsym) is sub_<FDE
// start>.
func TestCoreCorpus(t *testing.T) {
	root := sharedtest.Dir(t, "corpus", "cores")
	sysroot := filepath.Join(root, "sysroot")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		b, err := os.ReadFile(filepath.Join(dir, "truth.json"))
		if err != nil {
			continue
		}
		n++
		var truth coreTruth
		if err := json.Unmarshal(b, &truth); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		t.Run(e.Name(), func(t *testing.T) {
			out, stderr, code := runCLI(t, "", "core", "--format", "json",
				"--prefix-map", "/build/ci/cores/"+e.Name()+"="+dir, "--sysroot", sysroot,
				filepath.Join(dir, "core"))
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			got := parseCoreJSON(t, out)
			if got.CrashingTID == nil || *got.CrashingTID != truth.CrashingLWP {
				t.Errorf("crashing_tid %v, gdb says %d", got.CrashingTID, truth.CrashingLWP)
			}
			if got.Signal == nil || got.Signal.Number != truth.Signal.Number || got.Signal.Code != truth.Signal.Code {
				t.Errorf("signal %+v, gdb says %+v", got.Signal, truth.Signal)
			} else if truth.Signal.Addr != nil && str(got.Signal.Address) != *truth.Signal.Addr {
				t.Errorf("signal address %s, gdb says %s", str(got.Signal.Address), *truth.Signal.Addr)
			}
			if got.Executable == nil || filepath.Base(*got.Executable) != truth.Executable {
				t.Errorf("executable %v, want %s", str(got.Executable), truth.Executable)
			}
			threads := map[int]wire.CoreThread{}
			for _, th := range got.Threads {
				threads[th.TID] = th
			}
			if len(got.Threads) != len(truth.Threads) || !got.Threads[0].Crashed {
				t.Errorf("%d threads (first crashed: %v), gdb has %d", len(got.Threads), len(got.Threads) > 0 && got.Threads[0].Crashed, len(truth.Threads))
			}
			for _, tt := range truth.Threads {
				th, ok := threads[tt.LWP]
				if !ok {
					t.Errorf("thread %d missing", tt.LWP)
					continue
				}
				if th.Error != "" {
					t.Errorf("thread %d: %s", tt.LWP, th.Error)
				}
				// Every frame, inline ones included, but for gdb's tail-call
				// frames, which no unwinder can see (docs/differences.md).
				var all []int
				for i, f := range tt.Frames {
					if f.Kind != "tailcall" {
						all = append(all, i)
					}
				}
				if len(all) != len(th.Frames) {
					t.Errorf("thread %d: %d frames with inline ones, gdb %d (without its tail calls)", tt.LWP, len(th.Frames), len(all))
				} else {
					for k, i := range all {
						g, w := th.Frames[k], tt.Frames[i]
						if str(g.PC) != w.PC || g.Kind != w.Kind || (w.Function != nil && w.Kind != "sigtramp" && withoutParams(str(g.Function)) != withoutParams(*w.Function)) {
							t.Errorf("thread %d frame %d: %s %s %q, gdb %s %s %q", tt.LWP, k, str(g.PC), g.Kind, str(g.Function), w.PC, w.Kind, str(w.Function))
						}
					}
				}
				mine := corePhysical(th.Frames)
				var want []int
				for i, f := range tt.Frames {
					if f.Physical {
						want = append(want, i)
					}
				}
				if len(mine) != len(want) {
					t.Errorf("thread %d: %d physical frames, gdb %d", tt.LWP, len(mine), len(want))
				}
				for k := 0; k < min(len(mine), len(want)); k++ {
					g, w := mine[k], tt.Frames[want[k]]
					if str(g.PC) != w.PC || g.Kind != w.Kind {
						t.Errorf("thread %d frame %d: pc %s %s, gdb %s %s", tt.LWP, k, str(g.PC), g.Kind, w.PC, w.Kind)
						continue
					}
					if w.CFA != nil && str(g.CFA) != *w.CFA {
						t.Errorf("thread %d frame %d (%s): cfa %s, gdb %s", tt.LWP, k, w.PC, str(g.CFA), *w.CFA)
					}
					if g.UnwoundBy != "cfi" && g.UnwoundBy != "registers" {
						t.Errorf("thread %d frame %d: unwound by %s", tt.LWP, k, g.UnwoundBy)
					}
					fn := str(g.Function)
					switch {
					case w.Function == nil:
						// gdb printed ??: the code has no symbol. It must be
						// named after its FDE.
						if !strings.HasPrefix(fn, "sub_") {
							t.Errorf("thread %d frame %d (%s): %q for code without symbols, want sub_<start>", tt.LWP, k, w.PC, fn)
						}
					case withoutParams(fn) != withoutParams(*w.Function):
						t.Errorf("thread %d frame %d (%s): function %q, gdb %q", tt.LWP, k, w.PC, fn, *w.Function)
					}
				}
			}
		})
	}
	if n == 0 {
		t.Fatalf("no case with truth.json under %s", root)
	}
}

// functionBounds is the cxx-terminate-O2 case's function-bounds.json.
type functionBounds struct {
	FDEs []struct {
		Start   string   `json:"start"`
		Symbols []string `json:"symbols"`
	} `json:"fdes"`
}

// TestCoreStrippedBounds: with the stripped executable, every frame of
// the program is sub_<start>, and that start is where the unstripped
// binary's symbol for the code begins (function-bounds.json).
func TestCoreStrippedBounds(t *testing.T) {
	root := sharedtest.Dir(t, "corpus", "cores")
	dir := filepath.Join(root, "cxx-terminate-O2")
	b, err := os.ReadFile(filepath.Join(dir, "function-bounds.json"))
	if err != nil {
		t.Skipf("no function-bounds.json: %v", err)
	}
	var fb functionBounds
	if err := json.Unmarshal(b, &fb); err != nil {
		t.Fatal(err)
	}
	starts := map[uint64][]string{}
	for _, f := range fb.FDEs {
		v, err := strconv.ParseUint(strings.TrimPrefix(f.Start, "0x"), 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		starts[v] = f.Symbols
	}
	out, stderr, code := runCLI(t, "", "core", "--format", "json", "--exe", filepath.Join(dir, "cxx_terminate.stripped"),
		"--prefix-map", "/build/ci/cores/cxx-terminate-O2="+dir, "--sysroot", filepath.Join(root, "sysroot"),
		filepath.Join(dir, "core"))
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	got := parseCoreJSON(t, out)
	named := 0
	for _, f := range got.Threads[0].Frames {
		if !strings.HasSuffix(str(f.Module), "/cxx_terminate") {
			continue
		}
		fn := str(f.Function)
		v, err := strconv.ParseUint(strings.TrimPrefix(fn, "sub_"), 16, 64)
		if !strings.HasPrefix(fn, "sub_") || err != nil {
			t.Errorf("frame %s in the stripped executable named %q, want sub_<start>", str(f.PC), fn)
			continue
		}
		if syms, ok := starts[v]; !ok || len(syms) == 0 {
			t.Errorf("frame %s: %s starts at no symbol of the unstripped binary", str(f.PC), fn)
		}
		if f.Symbolized != "sanitrace" {
			t.Errorf("frame %s: symbolized %q", str(f.PC), f.Symbolized)
		}
		named++
	}
	if named < 5 {
		t.Errorf("%d frames in the executable, want the 6 of gdb's unwind", named)
	}
}
