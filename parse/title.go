package parse

import (
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// titleRule recognises a line that introduces a stack. Matching is by
// literal prefix and suffix: these lines are checked for every non-frame
// line of a report, so no regexps.
type titleRule struct {
	prefix, contains, suffix string
	role, detail             string
}

var titleRules = []titleRule{
	// ASan / LSan
	{"READ of size ", " at ", "", "access", "access"},
	{"WRITE of size ", " at ", "", "access", "access"},
	{"freed by thread ", "", " here:", "free", "free"},
	{"previously allocated by thread ", "", " here:", "alloc", "alloc"},
	{"allocated by thread ", "", " here:", "alloc", "alloc"},
	{"Thread T", " created by ", "", "thread", "thread_creation"},
	{"Address 0x", " is located in stack of thread ", " in frame", "other", "stack_frame"},
	{"Direct leak of ", " allocated from", ":", "leak", "leak"},
	{"Indirect leak of ", " allocated from", ":", "leak", "leak"},
	// TSan
	{"Read of size ", " by ", ":", "access", "access"},
	{"Write of size ", " by ", ":", "access", "access"},
	{"Atomic read of size ", " by ", ":", "access", "access"},
	{"Atomic write of size ", " by ", ":", "access", "access"},
	{"Previous ", " of size ", ":", "previous", "previous_access"},
	{"Mutex M", " created at", ":", "mutex", "mutex_creation"},
	{"Mutex M", " acquired here while holding mutex ", ":", "mutex", "mutex_acquire"},
	{"Mutex M", " previously acquired by the same thread here", ":", "mutex", "mutex_previous_acquire"},
	{"Mutex ", "", ":", "mutex", "mutex"},
	{"Location is heap block of size ", " allocated by ", ":", "alloc", "location_heap"},
	{"As if synchronized via sleep", "", ":", "other", "sleep"},
	// MSan origins
	{"Uninitialized value was stored to memory at", "", "", "origin", "origin_store"},
	{"Uninitialized value was created by a heap allocation", "", "", "origin", "origin_heap"},
	{"Uninitialized value was created by an allocation of '", "' in the stack frame of function '", "", "origin", "origin_stack"},
	{"Uninitialized value was created", "", "", "origin", "origin_unknown"},
}

// classifyTitle reports the role of a stack title line (blanks trimmed).
func classifyTitle(t string) (role, detail string, ok bool) {
	if t == "" {
		return "", "", false
	}
	switch t[0] {
	case 'R', 'W', 'f', 'p', 'a', 'T', 'A', 'D', 'I', 'P', 'M', 'L', 'U':
	default:
		return "", "", false
	}
	for _, r := range titleRules {
		if !strings.HasPrefix(t, r.prefix) || !strings.HasSuffix(t, r.suffix) {
			continue
		}
		if r.contains != "" && !strings.Contains(t[len(r.prefix):], r.contains) {
			continue
		}
		return r.role, r.detail, true
	}
	return "", "", false
}

// parseAccess reads the access description of an "access" title:
// ASan "READ of size 4 at 0x... thread T0" and TSan
// "Write of size 8 at 0x... by thread T1 (mutexes: write M0):".
func parseAccess(t string) *report.Access {
	op, rest, ok := strings.Cut(t, " of size ")
	if !ok {
		return nil
	}
	sz, rest, ok := strings.Cut(rest, " at ")
	if !ok {
		return nil
	}
	size, err := strconv.Atoi(sz)
	if err != nil {
		return nil
	}
	a := &report.Access{Op: op, Size: size}
	addr, rest, _ := strings.Cut(rest, " ")
	a.Address = addr
	rest = strings.TrimSuffix(rest, ":")
	switch {
	case strings.HasPrefix(rest, "thread "):
		a.Thread = strings.TrimPrefix(rest, "thread ")
		if i := strings.IndexByte(a.Thread, ' '); i > 0 {
			a.Thread = a.Thread[:i]
		}
	case strings.HasPrefix(rest, "by "):
		a.Thread = strings.TrimPrefix(rest, "by ")
		if i := strings.Index(a.Thread, " ("); i > 0 {
			a.Thread = a.Thread[:i]
		}
	}
	return a
}

// isLocation reports whether t describes where the accessed memory lies.
func isLocation(t string) bool {
	return strings.HasPrefix(t, "Location is ") ||
		(strings.HasPrefix(t, "0x") && strings.Contains(t, " is located "))
}
