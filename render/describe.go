package render

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/sanitrace/sanitrace/parse"
)

var (
	headlineAddrRE = regexp.MustCompile(`\bon (?:unknown )?(?:address )?(0x[0-9a-fA-F]+)`)
	locationAddrRE = regexp.MustCompile(`^\s*(?:Address )?(0x[0-9a-fA-F]+) is located`)

	// ASan heap: "0x... is located 4 bytes inside of 400-byte region [0x...,0x...)"
	heapRegionRE = regexp.MustCompile(`is located (\d+) bytes (inside of|to the right of|to the left of) (\d+)-byte region \[(0x[0-9a-fA-F]+),\s*(0x[0-9a-fA-F]+)\)`)
	// ASan global: "... is located 0 bytes to the right of global variable 'g' defined in 'g.c:1:5' (0x...) of size 40"
	globalVarRE = regexp.MustCompile(`is located (\d+) bytes (inside of|to the right of|to the left of) global variable '(.*)' defined in '([^']*)' \((0x[0-9a-fA-F]+)\) of size (\d+)`)
	// ASan stack: "Address 0x... is located in stack of thread T0 at offset 56 in frame"
	stackFrameRE = regexp.MustCompile(`is located in stack of thread (\S+) at offset (\d+) in frame`)
	// "[32, 40) 'a' (line 3) <== Memory access at offset 56 overflows this variable"
	stackObjectRE = regexp.MustCompile(`\[(\d+), (\d+)\) '(.*?)'(?: \(line (\d+)\))? <== Memory access at offset \d+ (.+?) this variable`)
	// TSan: "Location is global 'x' of size 8 at 0x... (mod+0x...)"
	tsanGlobalRE = regexp.MustCompile(`Location is global '(.*)' of size (\d+) at (0x[0-9a-fA-F]+)`)
	// TSan: "Location is heap block of size 16 at 0x... allocated by main thread:"
	tsanHeapRE = regexp.MustCompile(`Location is heap block of size (\d+) at (0x[0-9a-fA-F]+) allocated by (.+?):?\s*$`)

	freedByRE     = regexp.MustCompile(`^freed by thread (.+?) here:?$`)
	allocatedByRE = regexp.MustCompile(`^(?:previously )?allocated by thread (.+?) here:?$`)
)

// DescribeAccess says where the faulting access of r fell relative to the
// memory it belongs to, from the report's own access, location and stack
// title lines, e.g. "READ of size 4 at 0x603e0001fc64: 4 bytes inside a
// 400-byte heap region [0x603e0001fc60,0x603e0001fdf0) freed by thread T0".
// It returns "" when the report has no location to describe.
func DescribeAccess(r *parse.Report) string {
	if r == nil {
		return ""
	}
	where := describeLocation(r)
	if where == "" {
		return ""
	}
	if a := r.Access; a != nil && a.Address != "" {
		what := a.Op
		if a.Size > 0 {
			what += " of size " + strconv.Itoa(a.Size)
		}
		return strings.TrimSpace(what) + " at " + a.Address + ": " + where
	}
	if addr, ok := accessAddress(r); ok {
		return fmt.Sprintf("%#x: %s", addr, where)
	}
	return where
}

func describeLocation(r *parse.Report) string {
	lines := append([]string(nil), r.Location...)
	for _, s := range r.Stacks {
		lines = append(lines, s.Title)
	}
	for _, l := range lines {
		if m := heapRegionRE.FindStringSubmatch(l); m != nil {
			d := fmt.Sprintf("%s bytes %s a %s-byte heap region [%s,%s)", m[1], relation(m[2]), m[3], m[4], m[5])
			if who := heapHistory(r); who != "" {
				d += " " + who
			}
			return d
		}
		if m := globalVarRE.FindStringSubmatch(l); m != nil {
			return fmt.Sprintf("%s bytes %s the %s-byte global variable '%s' at %s, defined at %s", m[1], relation(m[2]), m[6], m[3], m[5], m[4])
		}
		if m := tsanHeapRE.FindStringSubmatch(l); m != nil {
			size, _ := strconv.ParseUint(m[1], 10, 64)
			begin, _ := parseHex(m[2])
			return relativeTo(r, begin, size, fmt.Sprintf("a %s-byte heap block at %s allocated by %s", m[1], m[2], m[3]))
		}
		if m := tsanGlobalRE.FindStringSubmatch(l); m != nil {
			size, _ := strconv.ParseUint(m[2], 10, 64)
			begin, _ := parseHex(m[3])
			return relativeTo(r, begin, size, fmt.Sprintf("the %s-byte global '%s' at %s", m[2], m[1], m[3]))
		}
		if m := stackFrameRE.FindStringSubmatch(l); m != nil {
			d := fmt.Sprintf("offset %s in the stack frame", m[2])
			if fn := frameFunction(r, l); fn != "" {
				d += " of " + fn
			}
			d += " (thread " + m[1] + ")"
			if obj := stackObject(r); obj != "" {
				d += ", " + obj
			}
			return d
		}
	}
	return ""
}

// relation turns ASan's "inside of" into plain English; the others read well.
func relation(s string) string {
	if s == "inside of" {
		return "inside"
	}
	return s
}

// relativeTo places the access address of r against [begin, begin+size).
func relativeTo(r *parse.Report, begin, size uint64, what string) string {
	a, ok := accessAddress(r)
	if !ok || begin == 0 {
		return "in " + what
	}
	switch {
	case a < begin:
		return fmt.Sprintf("%d bytes to the left of %s", begin-a, what)
	case a >= begin+size:
		return fmt.Sprintf("%d bytes to the right of %s", a-(begin+size), what)
	}
	return fmt.Sprintf("%d bytes inside %s", a-begin, what)
}

// heapHistory says who freed or allocated the block, from the stack titles.
func heapHistory(r *parse.Report) string {
	for _, s := range r.Stacks {
		if m := freedByRE.FindStringSubmatch(strings.TrimSpace(s.Title)); m != nil {
			return "freed by thread " + m[1]
		}
	}
	for _, s := range r.Stacks {
		if m := allocatedByRE.FindStringSubmatch(strings.TrimSpace(s.Title)); m != nil {
			return "allocated by thread " + m[1]
		}
	}
	return ""
}

// frameFunction is the function of the stack introduced by title, if any.
func frameFunction(r *parse.Report, title string) string {
	for _, s := range r.Stacks {
		if s.Title == title && len(s.Frames) > 0 {
			return s.Frames[0].Function
		}
	}
	return ""
}

// stackObject describes the variable ASan blames ("<== Memory access ...").
func stackObject(r *parse.Report) string {
	for _, l := range append(append([]string(nil), r.Location...), r.Raw...) {
		if m := stackObjectRE.FindStringSubmatch(l); m != nil {
			d := fmt.Sprintf("%s variable '%s' [%s, %s)", m[5], m[3], m[1], m[2])
			if m[4] != "" {
				d += " declared on line " + m[4]
			}
			return d
		}
	}
	return ""
}
