package parse

import (
	"bytes"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// Unattached fragments. A run of sanitizer frame lines outside every
// report (damage.go's orphanRun) that no report takes back is handed to
// the OnFragment callback as a report.Fragment: its frames split into
// stacks where the numbering starts again or a stack title stands between
// them, each with that title, and the SUMMARY line that may end it. It is
// said once, never as a report of its own.

// OnFragment sets the function told about each unattached fragment once
// it has ended (a report starts, too many other lines followed it, or the
// input ended). Without one, a fragment is named on the Damage callback
// as a run of lost frames.
func (s *Scanner) OnFragment(fn func(*report.Fragment)) { s.onFragment = fn }

// noteIdle looks at a line outside reports while a run of lost frames is
// open: a stack title is kept for the frames after it; a SUMMARY line
// ends the report the run is the tail of, and noteIdle reports true.
func (o *orphanRun) noteIdle(line []byte, no int) bool {
	t := titleText(line)
	if _, _, ok := fragmentTitle(t); ok {
		o.title = t
		return false
	}
	// (Not by splitKnownPrefix: "SUMMARY: " reads as a "name: " prefix.)
	if _, sum, ok := strings.Cut(string(line), "SUMMARY: "); ok && strings.TrimSpace(sum) != "" {
		o.summary, o.summaryNo = strings.TrimSpace(sum), no
		return true
	}
	return false
}

// titleText is a line outside reports as a stack title reads: without a
// known prefix and the blanks around it.
func titleText(line []byte) string {
	return strings.TrimSpace(string(line[splitKnownPrefix(line):]))
}

// leadTitle is the title of a run's first stack: the line before its
// first frame (which starts on line no), or the one before that after a
// blank, when it is a stack title.
func (s *Scanner) leadTitle(no int) (string, int) {
	for at := no - 1; at >= no-2 && at > s.lastReportEnd && at > 0; at-- {
		l := s.recent.at(at)
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		t := titleText(l)
		if _, _, ok := fragmentTitle(t); !ok {
			return "", 0
		}
		return t, at
	}
	return "", 0
}

// fragmentTitle reads t as the title of a fragment's stack: a
// sanitizer's (classifyTitle) or another format's (format.title).
func fragmentTitle(t string) (role, detail string, ok bool) {
	if role, detail, ok = classifyTitle(t); ok {
		return role, detail, ok
	}
	for _, f := range formats {
		if f.title == nil {
			continue
		}
		if role, detail, ok = f.title(t); ok {
			return role, detail, ok
		}
	}
	return "", "", false
}

// fragment is the run as a Fragment of input name.
func (o *orphanRun) fragment(name string) *report.Fragment {
	fr := &report.Fragment{
		Frames:  o.frames,
		Summary: o.summary,
		Input:   report.InputRange{Name: name, FirstLine: o.first, LastLine: max(o.last, o.summaryNo)},
	}
	if o.leadNo > 0 {
		fr.Input.FirstLine = o.leadNo
	}
	for k, start := range o.starts {
		end := len(o.stack)
		if k+1 < len(o.starts) {
			end = o.starts[k+1]
		}
		st := report.Stack{Title: o.titles[k], Role: "other", RoleDetail: "other", Frames: o.stack[start:end]}
		if role, detail, ok := fragmentTitle(st.Title); ok {
			st.Role, st.RoleDetail = role, detail
		}
		markInlined(st.Frames)
		fr.Stacks = append(fr.Stacks, st)
	}
	return fr
}

// startsStack reports whether frame f begins a new stack of the run: the
// first frame, a number that does not go up (frames without one, the
// kernel's, go on), or a title read since the last frame.
func (o *orphanRun) startsStack(f report.Frame) bool {
	n := len(o.stack)
	return n == 0 || o.title != "" || f.Index >= 0 && f.Index <= o.stack[n-1].Index
}

// endFragment hands the run to OnFragment, or names it on OnDamage.
func (s *Scanner) endFragment(o *orphanRun) {
	if s.onFragment != nil {
		s.onFragment(o.fragment(s.name))
		return
	}
	if s.onDamage != nil {
		s.onDamage(&Damage{Input: s.name, First: o.first, Last: o.last, Frames: o.frames})
	}
}
