package parse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/decompress"
	"github.com/sanitrace/sanitrace/report"
)

// lwsTestdata is the module's testdata/lws: committed copies of
// ../shared/lws (see its README).
var lwsTestdata = filepath.Join("..", "testdata", "lws")

// scanDump parses a log and returns its reports and malformed records.
func scanDump(t testing.TB, log string) ([]*report.Report, []*RecordError) {
	t.Helper()
	sc := NewScanner(strings.NewReader(log), "dump.log")
	var bad []*RecordError
	sc.OnRecordError(func(e *RecordError) { bad = append(bad, e) })
	reps := allReports(t, sc)
	return reps, bad
}

// allocSize reads the size back from a stack title.
func allocSize(t testing.TB, s report.Stack) uint64 {
	t.Helper()
	n, ok := strings.CutPrefix(s.Title, "allocation of ")
	n, ok2 := strings.CutSuffix(n, " bytes")
	v, err := strconv.ParseUint(n, 10, 64)
	if !ok || !ok2 || err != nil {
		t.Fatalf("stack title %q is not \"allocation of N bytes\"", s.Title)
	}
	return v
}

// The sample heap dump of ../shared/lws, read as one report, must agree
// with the reference heap map computed from it (heapmap-expected.json):
// the same records, bytes, backtraces with their counts, and the same
// undecodable lines with their classes.
func TestHeapDumpSample(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(lwsTestdata, "heapmap-sample.log"))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Records    int    `json:"records"`
		TotalBytes uint64 `json:"total_bytes"`
		Backtraces []struct {
			PCs        []string `json:"pcs"`
			Count      int      `json:"count"`
			TotalBytes uint64   `json:"total_bytes"`
		} `json:"backtraces"`
		Undecodable []struct {
			Line  int    `json:"line"`
			Error string `json:"error"`
		} `json:"undecodable"`
	}
	ref, err := os.ReadFile(filepath.Join(lwsTestdata, "heapmap-expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(ref, &want); err != nil {
		t.Fatal(err)
	}

	reps, bad := scanDump(t, string(raw))
	if len(reps) != 1 {
		t.Fatalf("%d reports, want one heap dump", len(reps))
	}
	r := reps[0]
	if !report.IsHeapDump(r) || r.Input.FirstLine != 20 || r.Input.LastLine != 49 {
		t.Errorf("report %s/%s lines %d-%d, want a heap dump at lines 20-49", r.Tool, r.Kind, r.Input.FirstLine, r.Input.LastLine)
	}
	wantHead := fmt.Sprintf("libwebsockets heap dump: %d live allocations, 109.6 KiB (%d bytes); 2 records undecodable", want.Records, want.TotalBytes)
	if r.Headline != wantHead {
		t.Errorf("headline %q, want %q", r.Headline, wantHead)
	}
	type group struct {
		count int
		bytes uint64
	}
	got := map[string]group{}
	var total uint64
	for _, s := range r.Stacks {
		var pcs []string
		for i, f := range s.Frames {
			if !f.HasPC || f.Adjust != 1 || f.Index != i || f.Module != "" || f.Symbolized != report.SymbolizedNone {
				t.Errorf("frame %+v: want a bare return address (HasPC, Adjust 1, Index %d, no module)", f, i)
			}
			pcs = append(pcs, fmt.Sprintf("0x%x", f.PC))
		}
		if s.Role != "alloc" {
			t.Errorf("stack role %q, want alloc", s.Role)
		}
		k := strings.Join(pcs, " ")
		g := got[k]
		g.count++
		g.bytes += allocSize(t, s)
		got[k] = g
		total += allocSize(t, s)
	}
	if len(r.Stacks) != want.Records || total != want.TotalBytes {
		t.Errorf("%d stacks, %d bytes; want %d, %d", len(r.Stacks), total, want.Records, want.TotalBytes)
	}
	for _, b := range want.Backtraces {
		k := strings.Join(b.PCs, " ")
		if g := got[k]; g.count != b.Count || g.bytes != b.TotalBytes {
			t.Errorf("backtrace %s: %d records, %d bytes; want %d, %d", k, g.count, g.bytes, b.Count, b.TotalBytes)
		}
	}
	if len(bad) != len(want.Undecodable) {
		t.Fatalf("%d malformed records, want %d", len(bad), len(want.Undecodable))
	}
	for i, u := range want.Undecodable {
		if bad[i].Line != u.Line || !errors.Is(bad[i], decompress.Code(u.Error)) {
			t.Errorf("malformed record %d: %v; want line %d, class %s", i, bad[i], u.Line, u.Error)
		}
	}
	if msg := bad[0].Error(); !strings.HasPrefix(msg, "dump.log:42: ~m# record: length-mismatch: ") {
		t.Errorf("message %q", msg)
	}
}

const (
	recA    = "~m#IF0BmUQugNCkgCnkhdAYpQa6wAAV"                     // 7520 bytes at 0x406651 0x406852 0x406c1b 0x406294
	recB    = "~b#size: 7520, 0x406651 0x406852 0x406c1b 0x406294 " // the same, as lws's tool prints it
	recBad  = "~m#UL386nCGitBe/nU4Q0fygEkGyaAMQKpBBTC6ALUu"         // cut by the console: length-mismatch
	rec0    = "~m#ABAABA=="                                         // depth 0, size 0
	asanLog = "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)\n" +
		"    #0 0x1 in main a.c:1:2\n" +
		"    #1 0x2 in _start a.c:2:3\n" +
		"==1==ABORTING\n"
)

func lines(n int, s string) string { return strings.Repeat(s+"\n", n) }

// Where dumps start and end, and how they sit among other reports.
func TestHeapDumpBoundaries(t *testing.T) {
	tests := []struct {
		name   string
		log    string
		want   []string // per report: "tool first-last stacks"
		bad    []int    // lines of malformed records
		frames []int    // frames of the ASan report, when there is one
	}{
		{"prefixes, ANSI, CRLF, ~b#",
			"[2024/05/01 12:00:05:0188] N: " + recA + "\r\n\x1b[0;32mI (12) heap: " + recB + "\x1b[0m\r\n  " + recA + "   \n",
			[]string{"libwebsockets 1-3 3"}, nil, nil},
		{"other lines between records",
			recA + "\n" + lines(dumpGapMax, "[t] N: busy") + recA + "\n",
			[]string{"libwebsockets 1-18 2"}, nil, nil},
		{"too long a gap starts a new dump",
			recA + "\n" + lines(dumpGapMax+1, "[t] N: busy") + recA + "\n",
			[]string{"libwebsockets 1-1 1", "libwebsockets 19-19 1"}, nil, nil},
		{"a report ends a dump, reports in input order",
			recA + "\n" + asanLog + recA + "\n",
			[]string{"libwebsockets 1-1 1", "AddressSanitizer 2-5 1", "libwebsockets 6-6 1"}, nil, []int{2}},
		{"records inside a report do not break it",
			"==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)\n" +
				"    #0 0x1 in main a.c:1:2\n" + recA + "\n" + recB + "\n" + "    #1 0x2 in _start a.c:2:3\n==1==ABORTING\n",
			[]string{"AddressSanitizer 1-6 1", "libwebsockets 3-4 2"}, nil, []int{2}},
		{"malformed records are reported, the dump goes on",
			recA + "\n" + recBad + "\n~m#\n~b#size: x\n" + recA + "\n",
			[]string{"libwebsockets 1-5 2"}, []int{2, 3, 4}, nil},
		{"malformed records alone make no report",
			recBad + "\n~m#\n",
			nil, []int{1, 2}, nil},
		{"depth 0: counted, no stack",
			rec0 + "\n",
			[]string{"libwebsockets 1-1 0"}, nil, nil},
		{"bare base64 and other tildes are not records",
			"IF0BmUQugNCkgCnkhdAYpQa6wAAV\n~M#IF0BmUQugNCkgCnkhdAYpQa6wAAV\n~/src/a.c ~x#\n",
			nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reps, bad := scanDump(t, tt.log)
			var got []string
			for _, r := range reps {
				got = append(got, fmt.Sprintf("%s %d-%d %d", r.Tool, r.Input.FirstLine, r.Input.LastLine, len(r.Stacks)))
				if r.Tool == "AddressSanitizer" {
					var fs []int
					for _, s := range r.Stacks {
						fs = append(fs, len(s.Frames))
					}
					if fmt.Sprint(fs) != fmt.Sprint(tt.frames) {
						t.Errorf("ASan stacks %v, want %v", fs, tt.frames)
					}
				}
			}
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
				t.Errorf("reports %q, want %q", got, tt.want)
			}
			var badLines []int
			for _, b := range bad {
				badLines = append(badLines, b.Line)
			}
			if fmt.Sprint(badLines) != fmt.Sprint(tt.bad) {
				t.Errorf("malformed records at lines %v, want %v", badLines, tt.bad)
			}
		})
	}
}

// The records of both forms decode to the same pcs and size.
func TestHeapDumpRecordForms(t *testing.T) {
	reps, _ := scanDump(t, recA+"\n"+recB+"\n")
	if len(reps) != 1 || len(reps[0].Stacks) != 2 {
		t.Fatalf("got %+v", reps)
	}
	for _, s := range reps[0].Stacks {
		var pcs []string
		for _, f := range s.Frames {
			pcs = append(pcs, fmt.Sprintf("%#x", f.PC))
		}
		if s.Title != "allocation of 7520 bytes" || strings.Join(pcs, " ") != "0x406651 0x406852 0x406c1b 0x406294" {
			t.Errorf("%s: %v", s.Title, pcs)
		}
	}
	if h := reps[0].Headline; h != "libwebsockets heap dump: 2 live allocations, 14.7 KiB (15040 bytes)" {
		t.Errorf("headline %q", h)
	}
	if reps[0].Raw[1] != strings.TrimSpace(recB) {
		t.Errorf("raw line %q", reps[0].Raw[1])
	}
}

// A dump longer than MaxDumpRecords goes on in a new report: memory is
// bounded by one report, not by the dump.
func TestHeapDumpCap(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1 bp 0x2 sp 0x3 T0)\n    #0 0x1 in main a.c:1:2\n")
	for i := 0; i < MaxDumpRecords+5; i++ {
		b.WriteString(recA + "\n")
	}
	reps, _ := scanDump(t, b.String())
	var got []string
	for _, r := range reps {
		got = append(got, fmt.Sprintf("%s %d-%d %d", r.Tool, r.Input.FirstLine, r.Input.LastLine, len(r.Stacks)))
	}
	want := []string{
		"AddressSanitizer 1-2 1",
		fmt.Sprintf("libwebsockets 3-%d %d", MaxDumpRecords+2, MaxDumpRecords),
		fmt.Sprintf("libwebsockets %d-%d 5", MaxDumpRecords+3, MaxDumpRecords+7),
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("reports %q, want %q", got, want)
	}
}

// FuzzLWSDump feeds logs with heap-dump lines to the Scanner: no panic, no
// hang, reports in input order, dumps bounded and made of bare return
// addresses, at most one allocation or malformed record per line.
func FuzzLWSDump(f *testing.F) {
	f.Add([]byte(recA + "\n" + recBad + "\n" + asanLog + recB + "\n" + rec0 + "\n~m#\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc := NewScanner(bytes.NewReader(data), "fuzz")
		bad := 0
		sc.OnRecordError(func(e *RecordError) {
			bad++
			if e.Err == nil || e.Line < 1 || !strings.Contains(e.Error(), "record: ") {
				t.Fatalf("bad RecordError %+v", e)
			}
		})
		nlines := bytes.Count(data, []byte("\n")) + 1
		prev, recs := 0, 0
		eachReport(t, sc, func(n int, r *report.Report) {
			if n > nlines {
				t.Fatalf("more reports (%d) than lines (%d)", n, nlines)
			}
			if r.Input.FirstLine < prev || r.Input.LastLine < r.Input.FirstLine || r.Input.LastLine > nlines {
				t.Fatalf("bad line range %+v (previous report started at %d, %d lines)", r.Input, prev, nlines)
			}
			prev = r.Input.FirstLine
			if !report.IsHeapDump(r) {
				return
			}
			if len(r.Raw) > MaxDumpRecords || len(r.Raw) == 0 || len(r.Stacks) > len(r.Raw) {
				t.Fatalf("dump of %d lines with %d stacks", len(r.Raw), len(r.Stacks))
			}
			recs += len(r.Stacks)
			for _, s := range r.Stacks {
				if len(s.Frames) == 0 || len(s.Frames) > 1<<16 || s.Role != "alloc" {
					t.Fatalf("bad stack %+v", s)
				}
				for _, f := range s.Frames {
					if !f.HasPC || f.Adjust != 1 {
						t.Fatalf("bad frame %+v", f)
					}
				}
			}
		})
		if recs+bad > nlines {
			t.Fatalf("%d allocations and %d malformed records in %d lines", recs, bad, nlines)
		}
	})
}
