package render

import (
	"testing"

	"github.com/sanitrace/sanitrace/parse"
	"github.com/sanitrace/sanitrace/report"
)

func TestDescribeAccess(t *testing.T) {
	for _, c := range []struct {
		name string
		r    report.Report
		want string
	}{
		{"seed heap-use-after-free (clang, 400-byte array)", report.Report{
			Headline: "==6254== ERROR: AddressSanitizer: heap-use-after-free on address 0x603e0001fc64 at pc 0x417f6a bp 0x7fff626b3250 sp 0x7fff626b3248",
			Access:   &report.Access{Op: "READ", Size: 4, Address: "0x603e0001fc64", Thread: "T0"},
			Location: []report.Location{{Text: "0x603e0001fc64 is located 4 bytes inside of 400-byte region [0x603e0001fc60,0x603e0001fdf0)"}},
			Stacks:   []report.Stack{{Title: "READ of size 4 at 0x603e0001fc64 thread T0"}, {Title: "freed by thread T0 here:"}, {Title: "previously allocated by thread T0 here:"}},
		}, "READ of size 4 at 0x603e0001fc64: 4 bytes inside a 400-byte heap region [0x603e0001fc60,0x603e0001fdf0) freed by thread T0"},
		{"seed heap-buffer-overflow (gcc)", report.Report{
			Access:   &report.Access{Op: "WRITE", Size: 8, Address: "0x603000000030", Thread: "T0"},
			Location: []report.Location{{Text: "0x603000000030 is located 0 bytes to the right of 32-byte region [0x603000000010,0x603000000030)"}},
			Stacks:   []report.Stack{{Title: "allocated by thread T0 here:"}},
		}, "WRITE of size 8 at 0x603000000030: 0 bytes to the right of a 32-byte heap region [0x603000000010,0x603000000030) allocated by thread T0"},
		{"double free: address from the headline", report.Report{
			Headline: "==44904==ERROR: AddressSanitizer: attempting double-free on 0x603000000010 in thread T0:",
			Location: []report.Location{{Text: "0x603000000010 is located 0 bytes inside of 32-byte region [0x603000000010,0x603000000030)"}},
			Stacks:   []report.Stack{{Title: "freed by thread T0 here:"}},
		}, "0x603000000010: 0 bytes inside a 32-byte heap region [0x603000000010,0x603000000030) freed by thread T0"},
		{"global", report.Report{
			Access:   &report.Access{Op: "READ", Size: 4, Address: "0x56388309ab88"},
			Location: []report.Location{{Text: "0x56388309ab88 is located 0 bytes to the right of global variable 'g_arr' defined in 'g.c:1:5' (0x56388309ab60) of size 40"}},
		}, "READ of size 4 at 0x56388309ab88: 0 bytes to the right of the 40-byte global variable 'g_arr' at 0x56388309ab60, defined at g.c:1:5"},
		{"stack variable", report.Report{
			Access: &report.Access{Op: "READ", Size: 4, Address: "0x7ffc2ab4a858"},
			Raw:    []string{"This frame has 1 object(s):", "[32, 40) 'a' (line 3) <== Memory access at offset 56 overflows this variable"},
			Stacks: []report.Stack{{Title: "Address 0x7ffc2ab4a858 is located in stack of thread T0 at offset 56 in frame",
				Frames: []report.Frame{{Function: "main"}}}},
		}, "READ of size 4 at 0x7ffc2ab4a858: offset 56 in the stack frame of main (thread T0), overflows variable 'a' [32, 40) declared on line 3"},
		{"TSan global", report.Report{
			Access:   &report.Access{Op: "Write", Size: 8, Address: "0x55fb3d7f0260", Thread: "main thread"},
			Location: []report.Location{{Text: "Location is global 'requests_served' of size 8 at 0x55fb3d7f0260 (race_global+0x1476260)"}},
		}, "Write of size 8 at 0x55fb3d7f0260: 0 bytes inside the 8-byte global 'requests_served' at 0x55fb3d7f0260"},
		{"TSan heap block", report.Report{
			Access: &report.Access{Op: "Read", Size: 8, Address: "0x7b0400000008"},
			Stacks: []report.Stack{{Title: "Location is heap block of size 16 at 0x7b0400000000 allocated by main thread:"}},
		}, "Read of size 8 at 0x7b0400000008: 8 bytes inside a 16-byte heap block at 0x7b0400000000 allocated by main thread"},
		{"nothing to say (SEGV)", report.Report{
			Headline: "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)",
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			parse.Fill(&c.r)
			if got := DescribeAccess(&c.r); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}
