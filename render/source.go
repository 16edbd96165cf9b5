package render

import (
	"bufio"
	"os"
)

// maxSourceLine bounds the bytes kept of one source line, so a minified or
// binary file cannot blow up memory.
const maxSourceLine = 4096

// sourceReader reads line ranges of source files through a path mapping.
// It keeps nothing between calls: reports mention few frames, and streaming
// each file up to the needed line keeps memory bounded.
type sourceReader struct {
	mapPath func(string) string
}

func newSourceReader(mapPath func(string) string) *sourceReader {
	return &sourceReader{mapPath: mapPath}
}

// lines returns lines first..last (1-based, inclusive) of path, fewer at the
// end of the file, or nil when it cannot be read.
func (s *sourceReader) lines(path string, first, last int) []string {
	if s.mapPath != nil {
		path = s.mapPath(path)
	}
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	br := bufio.NewReader(f)
	var out []string
	for no := 1; no <= last; no++ {
		line, err := readLine(br)
		if err != nil && line == "" {
			break
		}
		if no >= first {
			out = append(out, line)
		}
		if err != nil {
			break
		}
	}
	return out
}

// readLine reads one line without its newline, keeping at most
// maxSourceLine bytes of it; tabs become spaces so the columns stay aligned.
func readLine(br *bufio.Reader) (string, error) {
	var buf []byte
	for {
		chunk, isPrefix, err := br.ReadLine()
		if len(buf) < maxSourceLine {
			buf = append(buf, chunk...)
		}
		if err != nil {
			return expandTabs(buf), err
		}
		if !isPrefix {
			return expandTabs(buf), nil
		}
	}
}

func expandTabs(b []byte) string {
	if len(b) > maxSourceLine {
		b = b[:maxSourceLine]
	}
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c == '\t' {
			n := 4 - len(out)%4
			for i := 0; i < n; i++ {
				out = append(out, ' ')
			}
			continue
		}
		out = append(out, c)
	}
	return string(out)
}
