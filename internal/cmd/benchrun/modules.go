package main

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"debug/elf"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// cmdModules measures one symbolize session that touches many distinct
// binaries: copies of one small binary, each with its own build-id, asked
// for a few addresses each, in passes over all of them. It prints the
// resident memory at each tenth of the queries and the peak, for sanitrace
// and llvm-symbolizer 19.
func cmdModules(args []string) error {
	fs := flag.NewFlagSet("modules", flag.ExitOnError)
	cache := fs.String("dir", defaultCache(), "bench cache dir (modules go to DIR/modules)")
	sanitrace := fs.String("sanitrace", "bin/sanitrace", "the sanitrace binary")
	template := fs.String("template", "testdata/elf/cxx-O2-dw5", "the binary to copy (a small C++ program with DWARF 5: many modules, as a process with many libraries)")
	count := fs.Int("n", 2000, "distinct binaries")
	per := fs.Int("per-module", 4, "addresses asked of each binary in a pass")
	passes := fs.Int("passes", 2, "passes over all binaries")
	toolList := fs.String("tools", "sanitrace llvm-symbolizer-19", "tools (llvm-symbolizer style)")
	fs.Parse(args)
	tmpl := *template
	dir := filepath.Join(*cache, "modules", fmt.Sprintf("n%d", *count))
	mods, err := makeModules(tmpl, dir, *count)
	if err != nil {
		return err
	}
	// the queries: each binary asked for its own draw of addresses
	f, err := elf.Open(tmpl)
	if err != nil {
		return err
	}
	spans, err := codeSpans(f)
	f.Close()
	if err != nil {
		return err
	}
	var q bytes.Buffer
	for range *passes {
		for i, m := range mods {
			var addrs bytes.Buffer
			if err := sampleAddresses(&addrs, spans, *per, uint64(i+1)); err != nil {
				return err
			}
			for _, a := range strings.Fields(addrs.String()) {
				fmt.Fprintf(&q, "%s %s\n", m, a)
			}
		}
	}
	queries := *count * *per * *passes
	tools, missing := findTools(fields(*toolList), *sanitrace, *cache)
	p := func(format string, a ...any) { fmt.Printf(format, a...) }
	fi, _ := os.Stat(tmpl)
	p("## One symbolize session over %s distinct binaries (%s UTC)\n\n", thousands(*count), time.Now().UTC().Format("2006-01-02 15:04"))
	p("- binaries: copies of %s (%.1f MB) with distinct build-ids; %d addresses each per pass, %d passes: %s queries as `MODULE 0xADDR` lines on stdin\n",
		filepath.Base(tmpl), float64(fi.Size())/1e6, *per, *passes, thousands(queries))
	p("- machine: %s; load average %s\n", machine(), loadAvg())
	if len(missing) > 0 {
		p("- not found: %s\n", strings.Join(missing, ", "))
	}
	p("\nRSS (MiB) after each tenth of the queries, then the peak:\n\n| tool | wall | CPU |")
	for i := 1; i <= 10; i++ {
		p(" %d%% |", i*10)
	}
	p(" peak |\n|---|---:|---:|%s---:|\n", strings.Repeat("---:|", 10))
	for _, t := range tools {
		args := []string{"--inlining", "--demangle"}
		if t.name == "sanitrace" {
			args = append([]string{"symbolize"}, args...)
		}
		r, series, err := sessionRSS(t.path, args, q.Bytes(), queries)
		if err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
		p("| %s | %s | %.2f s |", t.name, fmtDur(r.Wall), r.cpu())
		for _, kb := range series {
			p(" %.0f |", float64(kb)/1024)
		}
		p(" %.0f |\n", float64(r.MaxRSSKB)/1024)
	}
	return nil
}

// makeModules copies tmpl to dir/mNNNN n times, each with a build-id of
// its own (the note's bytes replaced by a hash of the copy's number), and
// returns their paths. Kept between runs.
func makeModules(tmpl, dir string, n int) ([]string, error) {
	f, err := elf.Open(tmpl)
	if err != nil {
		return nil, err
	}
	sec := f.Section(".note.gnu.build-id")
	if sec == nil {
		f.Close()
		return nil, fmt.Errorf("%s: no .note.gnu.build-id", tmpl)
	}
	note, err := sec.Data()
	f.Close()
	if err != nil || len(note) < 16 {
		return nil, fmt.Errorf("%s: unreadable build-id note", tmpl)
	}
	namesz := binary.LittleEndian.Uint32(note[0:])
	descsz := binary.LittleEndian.Uint32(note[4:])
	descOff := int64(sec.Offset) + 12 + int64((namesz+3)&^3)
	data, err := os.ReadFile(tmpl)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("m%04d", i))
		paths = append(paths, p)
		if fi, err := os.Stat(p); err == nil && fi.Size() == int64(len(data)) {
			continue
		}
		sum := sha1.Sum([]byte("sanitrace-bench-module-" + strconv.Itoa(i)))
		id := bytes.Repeat(sum[:], int(descsz)/len(sum)+1)[:descsz]
		copy(data[descOff:], id)
		if err := os.WriteFile(p, data, 0o755); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// sessionRSS feeds queries (one a line) to one process a tenth at a time
// and reads the answers (an empty line ends each); once a tenth is
// answered, while the process waits for more, it samples VmRSS from /proc.
func sessionRSS(path string, args []string, queries []byte, n int) (run, []int64, error) {
	cmd := exec.Command(path, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return run{}, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return run{}, nil, err
	}
	cmd.Stderr = io.Discard
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return run{}, nil, err
	}
	lines := bytes.SplitAfter(queries, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	var series []int64
	answered, sent := 0, 0
	for tenth := 1; tenth <= 10; tenth++ {
		upto := tenth * len(lines) / 10
		chunk := bytes.Join(lines[sent:upto], nil)
		sent = upto
		werr := make(chan error, 1)
		go func() { _, err := stdin.Write(chunk); werr <- err }()
		for answered < upto && sc.Scan() {
			if len(sc.Bytes()) == 0 {
				answered++
			}
		}
		if err := <-werr; err != nil || answered < upto {
			break
		}
		series = append(series, vmRSS(cmd.Process.Pid))
	}
	stdin.Close()
	io.Copy(io.Discard, stdout)
	err = cmd.Wait()
	r := run{Wall: time.Since(start).Seconds()}
	if cmd.ProcessState != nil {
		r = finished(cmd.ProcessState, r.Wall)
	}
	if answered != n {
		return r, series, fmt.Errorf("%d answers to %d queries (%v)", answered, n, err)
	}
	return r, series, err
}

// vmRSS is a live process's resident set in KiB.
func vmRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb
		}
	}
	return 0
}
