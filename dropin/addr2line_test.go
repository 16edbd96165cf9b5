package dropin

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/reftool"
)

func runA2L(args []string, stdin string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = RunAddr2line(args, Env{Stdin: strings.NewReader(stdin), Stdout: &o, Stderr: &e, Open: fakeOpener, Version: "test"})
	return o.String(), e.String(), code
}

func TestScanVMA(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
	}{
		{"1190", 0x1190}, {"0x1190", 0x1190}, {"0X1190", 0x1190}, {"  0x10\n", 0x10},
		{"10 junk", 0x10}, {"", 0}, {"zz", 0}, {"0x", 0}, {"0xg", 0}, {"-1", 0},
		{"+10", 0}, {"12345678901234567890", ^uint64(0)}, {"ffffffffffffffff", ^uint64(0)},
	}
	for _, tt := range tests {
		if got := scanVMA(tt.in); got != tt.want {
			t.Errorf("scanVMA(%q) = %#x, want %#x", tt.in, got, tt.want)
		}
	}
}

func TestGetopt(t *testing.T) {
	tests := []struct {
		args     []string
		want     string // options seen, as "c=arg;"
		operands []string
		err      string
	}{
		{[]string{"-fiCa", "-e", "x", "10"}, "f=;i=;C=;a=;e=x;", []string{"10"}, ""},
		{[]string{"10", "-fex", "20"}, "f=;e=x;", []string{"10", "20"}, ""},
		{[]string{"--exe=x", "--func", "--demangle=gnu-v3", "--se", ".text"}, "e=x;f=;C=gnu-v3;j=.text;", nil, ""},
		{[]string{"--", "-1"}, "", []string{"-1"}, ""},
		{[]string{"-Q"}, "", nil, "invalid option -- 'Q'"},
		{[]string{"-e"}, "", nil, "option requires an argument -- 'e'"},
		{[]string{"--exe"}, "", nil, "option '--exe' requires an argument"},
		{[]string{"--addr=3"}, "", nil, "option '--addresses' doesn't allow an argument"},
		{[]string{"--bogus"}, "", nil, "unrecognized option '--bogus'"},
		{[]string{"--recur"}, "R=;", nil, ""},
	}
	for _, tt := range tests {
		g := getopt{args: tt.args, short: a2lShortOptions, long: a2lLongOptions}
		var seen strings.Builder
		errMsg := ""
		for {
			c, arg, e, done := g.next()
			if done {
				break
			}
			if e != "" {
				errMsg = e
				break
			}
			seen.WriteString(string(c) + "=" + arg + ";")
		}
		if errMsg != tt.err {
			t.Errorf("%q: error %q, want %q", tt.args, errMsg, tt.err)
			continue
		}
		if errMsg != "" {
			continue
		}
		if seen.String() != tt.want || strings.Join(g.positional(), ",") != strings.Join(tt.operands, ",") {
			t.Errorf("%q: got %q %q, want %q %q", tt.args, seen.String(), g.positional(), tt.want, tt.operands)
		}
	}
}

// TestAddr2lineErrors checks messages and exit codes that do not depend on
// an object's contents against binutils 2.40, and against the installed
// addr2line when there is one.
func TestAddr2lineErrors(t *testing.T) {
	tests := []struct {
		args       []string
		stderrHead string // first line of stderr
		code       int
	}{
		{[]string{"-e", "no/such/file", "0"}, "addr2line: 'no/such/file': No such file", 1},
		{[]string{"-e", "testdata", "0"}, "addr2line: Warning: 'testdata' is a directory", 1},
		{[]string{"-e", "testdata/t", "0"}, "addr2line: testdata/t: file format not recognized", 1},
		{[]string{"-Q"}, "addr2line: invalid option -- 'Q'", 1},
		{[]string{"--bogus"}, "addr2line: unrecognized option '--bogus'", 1},
		{[]string{"-e"}, "addr2line: option requires an argument -- 'e'", 1},
		{[]string{"-C", "--demangle=xx", "-e", "testdata/t"}, "addr2line: unknown demangling style `xx'", 1},
		{[]string{"-b", "foo", "-e", "testdata/t", "0"}, "addr2line: testdata/t: invalid bfd target", 1},
	}
	real, _ := exec.LookPath("addr2line")
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			_, stderr, code := runA2L(tt.args, "")
			head, _, _ := strings.Cut(stderr, "\n")
			if head != tt.stderrHead || code != tt.code {
				t.Errorf("got (%q, %d), want (%q, %d)", head, code, tt.stderrHead, tt.code)
			}
			if real == "" {
				return
			}
			_, want, rc := reftool.RunAs(t, "addr2line", real, tt.args, "")
			if strings.Contains(want, "\nUsage: ") {
				// After an option error binutils prints its whole help,
				// sanitrace a usage line of its own (docs/differences.md):
				// the error line and the exit status are compared.
				want, _, _ = strings.Cut(want, "\n")
				stderr, _, _ = strings.Cut(stderr, "\n")
			}
			if want != stderr || rc != code {
				t.Errorf("the reference says (%q, %d), sanitrace (%q, %d)", want, rc, stderr, code)
			}
		})
	}
}

// TestAddr2lineHelp: the help is ours (docs/differences.md): it names
// every option the face accepts and none of binutils' boilerplate.
func TestAddr2lineHelp(t *testing.T) {
	out, _, code := runA2L([]string{"-h"}, "")
	if code != 0 || !strings.HasPrefix(out, "Usage: addr2line [-afiCpsrR] [-e FILE]") {
		t.Errorf("-h: exit %d, output %q", code, out)
	}
	for _, o := range a2lLongOptions {
		if !strings.Contains(out, "--"+o.name) {
			t.Errorf("the help does not describe --%s", o.name)
		}
	}
	for _, s := range []string{"supported targets", "Report bugs", "elf64-x86-64"} {
		if strings.Contains(out, s) {
			t.Errorf("the help still holds binutils' %q", s)
		}
	}
}

func FuzzScanVMA(f *testing.F) {
	for _, s := range []string{"0x10", " -1", "zz", "0x", "ffffffffffffffffff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v := scanVMA(s); strings.TrimSpace(s) == "" && v != 0 {
			t.Errorf("scanVMA(%q) = %#x, want 0", s, v)
		}
	})
}

func FuzzGetopt(f *testing.F) {
	for _, s := range []string{"-fiCa -e x 10", "--exe=x --se .text", "-- -1", "--demangle", "-e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g := getopt{args: strings.Fields(s), short: a2lShortOptions, long: a2lLongOptions}
		// Every call consumes at least one option character or one
		// argument, so len(s)+1 calls must reach the end: a fixed count
		// would flag a legitimately long cluster such as "-RRRR…".
		for n := 0; n <= len(s)+1; n++ {
			if _, _, e, done := g.next(); done || e != "" {
				return
			}
		}
		t.Fatalf("getopt makes no progress on %q", s)
	})
}

// TestAppendHexWidth holds the -a face's address to printf's %0*x.
func TestAppendHexWidth(t *testing.T) {
	for _, v := range []uint64{0, 1, 0xf, 0x1190, 0xffffffff, 0x100000000, 0xdeadbeefcafe, ^uint64(0)} {
		for _, width := range []int{8, 16} {
			got := string(appendHexWidth([]byte("x"), v, width))
			if want := fmt.Sprintf("x%0*x", width, v); got != want {
				t.Errorf("appendHexWidth(%#x, %d) = %q, want %q", v, width, got, want)
			}
		}
	}
}
