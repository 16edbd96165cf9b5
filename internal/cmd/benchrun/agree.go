package main

import (
	"bufio"
	"bytes"
	"os"
	"strings"
)

// llvmBlocks splits llvm-symbolizer output into one block per address:
// each answer ends with an empty line.
func llvmBlocks(out []byte) []string {
	var blocks []string
	for len(out) > 0 {
		i := bytes.Index(out, []byte("\n\n"))
		if i < 0 {
			blocks = append(blocks, string(out))
			break
		}
		blocks = append(blocks, string(out[:i+1]))
		out = out[i+2:]
	}
	return blocks
}

// countBlocks counts the answers in an llvm-style output file without
// holding it: the empty lines that end them.
func countBlocks(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	n := 0
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			n++
		}
	}
	return n, sc.Err()
}

// agreement compares cand's answers with ref's, address by address.
type agreement struct {
	same, total int
	diffs       []blockDiff // the first few
}

type blockDiff struct {
	index     int
	ref, cand string
}

// compareLLVM compares two llvm-style outputs for the same n addresses.
func compareLLVM(ref, cand []byte, n, keep int) agreement {
	return compareItems(llvmBlocks(ref), llvmBlocks(cand), n, keep)
}

// compareLines compares two outputs line by line (GNU-style tools, whose
// answers cannot be told apart without -a).
func compareLines(ref, cand []byte, keep int) agreement {
	return compareItems(strings.Split(string(ref), "\n"), strings.Split(string(cand), "\n"), 0, keep)
}

// compareItems counts the items in which two answers agree, out of the
// larger of n and their counts, keeping the first keep differences.
func compareItems(ref, cand []string, n, keep int) agreement {
	a := agreement{total: max(n, len(ref), len(cand))}
	for i := range min(len(ref), len(cand)) {
		if ref[i] == cand[i] {
			a.same++
		} else if len(a.diffs) < keep {
			a.diffs = append(a.diffs, blockDiff{i, ref[i], cand[i]})
		}
	}
	return a
}

// frames counts the frames an output names (function and location line
// pairs) and those whose location is unknown ("??:0", "??:0:0").
func frames(out []byte) (total, unknown int) {
	second := false
	for _, l := range strings.Split(string(out), "\n") {
		if l == "" {
			continue
		}
		if second {
			total++
			if strings.HasPrefix(l, "??:") {
				unknown++
			}
		}
		second = !second
	}
	return total, unknown
}
