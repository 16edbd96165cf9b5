package dwarfbuf

import (
	"bytes"
	"hash/adler32"
	"io"
	"math/rand"
	"testing"

	kzlib "github.com/klauspost/compress/zlib"
)

// adler32Update is hash/adler32's checksum: every length up to a few
// blocks, from any starting state, on random and on all-0xff bytes (the
// largest lane sums).
func TestAdler32(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	buf := make([]byte, 3*2048+100)
	r.Read(buf)
	ones := bytes.Repeat([]byte{0xff}, len(buf))
	for _, data := range [][]byte{buf, ones} {
		for n := 0; n <= len(data); n += 1 + n/64 {
			want := adler32.Checksum(data[:n])
			if got := adler32Update(1, data[:n]); got != want {
				t.Fatalf("%d bytes: 0x%08x, hash/adler32 0x%08x", n, got, want)
			}
			// In two parts, as a stream is read.
			cut := r.Intn(n + 1)
			if got := adler32Update(adler32Update(1, data[:cut]), data[cut:n]); got != want {
				t.Fatalf("%d bytes cut at %d: 0x%08x, hash/adler32 0x%08x", n, cut, got, want)
			}
		}
	}
}

// zlibReader reads what klauspost/compress/zlib's reader reads and fails
// where and as it fails: sound streams, streams cut short, bytes changed
// (the checksum, the header, the deflate data), a preset dictionary.
func TestZlibReader(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	var plain bytes.Buffer
	for plain.Len() < 200_000 {
		// Compressible, like DWARF: words from a small vocabulary.
		plain.WriteString([]string{"DW_TAG_", "subprogram ", "0x1f ", "main.go ", "\x00\x01\x02"}[r.Intn(5)])
	}
	var z bytes.Buffer
	w := kzlib.NewWriter(&z)
	w.Write(plain.Bytes())
	w.Close()
	stream := z.Bytes()
	read := func(in []byte, ours bool) ([]byte, string) {
		var zr io.Reader
		var err error
		if ours {
			zr, err = newZlibReader(bytes.NewReader(in))
		} else {
			zr, err = kzlib.NewReader(bytes.NewReader(in))
		}
		if err != nil {
			return nil, "open: " + err.Error()
		}
		// As Section reads: into a buffer of the inflated size, then to
		// the end.
		out := make([]byte, plain.Len())
		n, err := io.ReadFull(zr, out)
		if err == nil {
			var one [1]byte
			_, err = zr.Read(one[:])
		}
		return out[:n], error2s(err)
	}
	cases := [][]byte{stream, stream[:1], stream[:2], stream[:len(stream)/2], stream[:len(stream)-2], {0x78, 0xbb, 0, 0, 0, 1}, {0x78, 0xbb, 0, 0, 0, 2}}
	for i := 0; i < 300; i++ {
		c := append([]byte(nil), stream...)
		for k := 0; k < 1+r.Intn(3); k++ {
			// Mostly near the ends: the header and the checksum.
			p := r.Intn(len(c))
			if r.Intn(2) == 0 {
				p = []int{0, 1, len(c) - 1, len(c) - 3, r.Intn(16)}[r.Intn(5)]
			}
			c[p] = byte(r.Intn(256))
		}
		cases = append(cases, c)
	}
	for i, c := range cases {
		gotOut, gotErr := read(c, true)
		wantOut, wantErr := read(c, false)
		if gotErr != wantErr || !bytes.Equal(gotOut, wantOut) {
			t.Fatalf("case %d (%d bytes): ours %d bytes, %s; klauspost %d bytes, %s", i, len(c), len(gotOut), gotErr, len(wantOut), wantErr)
		}
	}
}

func error2s(err error) string {
	if err == nil || err == io.EOF {
		return "ok"
	}
	return err.Error()
}
