package pipeline

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/zstd"
	"github.com/ulikunitz/xz"

	"github.com/sanitrace/sanitrace/internal/textsniff"
)

// A log arrives as people keep it: plain, or compressed by the CI system
// that archived it. OpenLog tells the kinds apart by their first bytes,
// never by the name (a "build.log" may be gzip, a "crash.gz" plain text),
// and refuses what is no log at all with the reason, so that a binary
// given by mistake is an error and not a clean "no reports".

// InputError is an input that cannot be decoded as a log: it does not
// exist, is a directory, or is binary. Its message names the input.
type InputError struct {
	Name string
	Err  error
}

func (e *InputError) Error() string { return e.Name + ": " + e.Err.Error() }

func (e *InputError) Unwrap() error { return e.Err }

// sniffLen is how much of an input is examined to tell a log from a binary
// file: as much as is available without waiting, up to this.
const sniffLen = 8 << 10

// maxZstdWindow bounds the memory a zstd stream may ask for (zstd --long
// uses 128 MiB windows; more is refused rather than allocated).
const maxZstdWindow = 128 << 20

// magics are the leading bytes of the formats recognised, compressed ones
// first. A binary format not listed here is still refused by textsniff.Binary.
var magics = []struct {
	magic string
	what  string
	open  func(io.Reader) (io.ReadCloser, error)
}{
	{"\x1f\x8b", "gzip", func(r io.Reader) (io.ReadCloser, error) { return gzip.NewReader(r) }},
	{"\x28\xb5\x2f\xfd", "zstd", func(r io.Reader) (io.ReadCloser, error) {
		d, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow))
		if err != nil {
			return nil, err
		}
		return d.IOReadCloser(), nil
	}},
	{"\xfd7zXZ\x00", "xz", func(r io.Reader) (io.ReadCloser, error) {
		x, err := xz.NewReader(r)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(x), nil
	}},
	{"BZh", "bzip2", func(r io.Reader) (io.ReadCloser, error) { return io.NopCloser(bzip2.NewReader(r)), nil }},
	{"\x7fELF", "an ELF file (a binary goes to --binary-dir or --obj; the log is what the program printed)", nil},
	{"PK\x03\x04", "a zip archive (use sanitrace batch for archives of logs)", nil},
	{"!<arch>\n", "an ar archive (a static library), not a log", nil},
	{"7z\xbc\xaf\x27\x1c", "a 7z archive, not a log", nil},
	{"\x04\x22\x4d\x18", "lz4-compressed (decompress it first: lz4 -dc)", nil},
}

// maxMagic is the length of the longest magic.
const maxMagic = 8

// OpenLog opens the log called name ("-" is stdin) and returns its text,
// decompressed when it is gzip, zstd, xz or bzip2. Errors are
// *InputError naming the input. Reading stdin never waits for more input
// than a magic number needs, so a live pipe streams from its first line.
func OpenLog(name string, stdin io.Reader) (io.ReadCloser, error) {
	rc, _, err := openLog(name, stdin)
	return rc, err
}

// openLog is OpenLog, also saying whether the text is decompressed.
func openLog(name string, stdin io.Reader) (rc io.ReadCloser, compressed bool, err error) {
	var r io.Reader = stdin
	var closer io.Closer = io.NopCloser(nil)
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the name is said once, by InputError
			}
			return nil, false, &InputError{name, err}
		}
		if st, err := f.Stat(); err == nil && st.IsDir() {
			f.Close()
			return nil, false, &InputError{name, errors.New("is a directory; decode reads log files, use \"sanitrace batch " + name + "\" for a directory of logs")}
		}
		r, closer = f, f
	}
	text, compressed, err := sniff(name, r, 0)
	if err != nil {
		closer.Close()
		return nil, false, err
	}
	return readCloser{text, func() error {
		if c, ok := text.(io.Closer); ok {
			c.Close()
		}
		return closer.Close()
	}}, compressed, nil
}

type readCloser struct {
	io.Reader
	close func() error
}

func (r readCloser) Close() error { return r.close() }

// sniff looks at the start of r and returns the reader of its text and
// whether that is decompressed. depth counts decompressions: a gzip inside
// a gzip is unpacked once more, not forever.
func sniff(name string, r io.Reader, depth int) (io.Reader, bool, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := peekAvailable(br)
	if err != nil {
		return nil, false, &InputError{name, err}
	}
	for _, m := range magics {
		if !bytes.HasPrefix(head, []byte(m.magic)) {
			continue
		}
		if m.what == "bzip2" && (len(head) < 4 || head[3] < '1' || head[3] > '9') {
			continue // "BZh" then the block size digit; a text line may start "BZh"
		}
		if m.open == nil || depth > 1 {
			return nil, false, &InputError{name, errors.New("not a log: " + m.what)}
		}
		dr, err := m.open(br)
		if err != nil {
			return nil, false, &InputError{name, fmt.Errorf("%s data: %w", m.what, err)}
		}
		inner, _, err := sniff(name, dataReader{dr, m.what}, depth+1)
		if err != nil {
			dr.Close()
			return nil, false, err
		}
		return readCloser{inner, dr.Close}, true, nil
	}
	if len(head) >= 262 && string(head[257:262]) == "ustar" {
		return nil, false, &InputError{name, errors.New("not a log: a tar archive (use sanitrace batch for archives of logs)")}
	}
	if textsniff.Binary(head) {
		return nil, false, &InputError{name, errors.New("not a log: binary data (control bytes where a log has text)")}
	}
	return br, false, nil
}

// dataReader names the compression in its errors: "read x.log.gz: gzip
// data: unexpected EOF" says that the file is cut, not the disk.
type dataReader struct {
	r    io.Reader
	what string
}

func (d dataReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s data: %w", d.what, err)
	}
	return n, err
}

// peekAvailable returns what br holds after one read, reading on only
// while the bytes so far could still be the start of a magic number: it
// never waits for a full sniffLen of a live pipe. At the end of the input
// (or an empty one) it returns what there is.
func peekAvailable(br *bufio.Reader) ([]byte, error) {
	_, err := br.Peek(1)
	for err == nil {
		n := br.Buffered()
		head, _ := br.Peek(n)
		if n >= maxMagic || n >= sniffLen || !magicPrefix(head) {
			break
		}
		_, err = br.Peek(n + 1)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	head, _ := br.Peek(min(br.Buffered(), sniffLen))
	return head, nil
}

// magicPrefix reports whether b is a proper prefix of some magic.
func magicPrefix(b []byte) bool {
	for _, m := range magics {
		if len(b) < len(m.magic) && bytes.HasPrefix([]byte(m.magic), b) {
			return true
		}
	}
	return false
}
