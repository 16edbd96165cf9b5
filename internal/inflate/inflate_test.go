package inflate

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"errors"
	"hash/adler32"
	"io"
	"math/rand"
	"testing"

	kzlib "github.com/klauspost/compress/zlib"
)

// corpus is plain text of the shapes the sections hold and the block kinds
// compressors choose for them: DWARF-like words (dynamic blocks), runs
// (overlapping matches), random bytes (stored blocks), and short strings
// (fixed blocks).
func corpus(t testing.TB) map[string][]byte {
	r := rand.New(rand.NewSource(1))
	var words bytes.Buffer
	for words.Len() < 300_000 {
		words.WriteString([]string{"DW_TAG_", "subprogram ", "0x1f ", "main.go ", "\x00\x01\x02", "runtime.gcStart\x00"}[r.Intn(6)])
	}
	random := make([]byte, 100_000)
	r.Read(random)
	mixed := append(append(append([]byte(nil), words.Bytes()[:50_000]...), random[:40_000]...), bytes.Repeat([]byte{0}, 70_000)...)
	return map[string][]byte{
		"empty":  nil,
		"one":    {'x'},
		"words":  words.Bytes(),
		"random": random,
		"zeros":  bytes.Repeat([]byte{0}, 200_000),
		"period": bytes.Repeat([]byte("abcdefg"), 30_000),
		"mixed":  mixed,
	}
}

// streams compresses plain in every way the test knows: compress/zlib and
// klauspost at several levels (stored, Huffman only, fast, default, best).
func streams(plain []byte) map[string][]byte {
	out := map[string][]byte{}
	for _, level := range []int{zlib.NoCompression, zlib.HuffmanOnly, zlib.BestSpeed, zlib.DefaultCompression, zlib.BestCompression} {
		var a, b bytes.Buffer
		w, _ := zlib.NewWriterLevel(&a, level)
		w.Write(plain)
		w.Close()
		k, _ := kzlib.NewWriterLevel(&b, level)
		k.Write(plain)
		k.Close()
		out["std"+string(rune('0'+level+2))] = a.Bytes()
		out["klauspost"+string(rune('0'+level+2))] = b.Bytes()
	}
	return out
}

// Fixed-code blocks, as C zlib writes them for short inputs
// (python3 -c 'import zlib; print(zlib.compress(s, 9).hex())').
var fixedStreams = map[string]string{
	"hello, DWARF": "78dacb48cdc9c9d7517009770c7203001b1003d5",
	"abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabc": "78da4b4c4a4ea40001000402181f",
}

// readAll reads z with reads of the sizes sizes gives, in turn.
func readAll(z io.Reader, sizes func() int) ([]byte, error) {
	var out []byte
	for {
		p := make([]byte, sizes())
		n, err := z.Read(p)
		out = append(out, p[:n]...)
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return out, err
		}
		if n == 0 && len(p) > 0 {
			return out, errors.New("a read of nothing without an error")
		}
	}
}

// TestSound inflates every stream with reads of every shape: the whole
// size at once (as a section is read), bytes one at a time, and random
// sizes.
func TestSound(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	check := func(name string, stream, plain []byte) {
		shapes := map[string]func() int{
			"whole":  func() int { return len(plain) + 1 },
			"one":    func() int { return 1 },
			"random": func() int { return 1 + r.Intn(3*window) },
			"window": func() int { return window },
		}
		for shape, sizes := range shapes {
			if shape == "one" && len(plain) > 20_000 {
				continue
			}
			z, err := NewZlib(stream)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got, err := readAll(z, sizes)
			if err != nil || !bytes.Equal(got, plain) {
				t.Errorf("%s, reads of %s: %d bytes, %v; want %d bytes", name, shape, len(got), err, len(plain))
			}
		}
	}
	for pname, plain := range corpus(t) {
		for sname, stream := range streams(plain) {
			check(pname+"/"+sname, stream, plain)
		}
	}
	for plain, h := range fixedStreams {
		stream, _ := hex.DecodeString(h)
		if stream[2]>>1&3 != 1 {
			t.Fatalf("%q: not a fixed-code block", plain)
		}
		check(plain, stream, []byte(plain))
	}
}

// verdict names how a read ended, by error type: the offset inside a
// CorruptInputError is each decoder's own.
func verdict(err error) string {
	var c CorruptInputError
	switch {
	case err == nil || err == io.EOF:
		return "ok"
	case errors.As(err, &c):
		return "corrupt"
	case err.Error() == "flate: corrupt input before offset 0" || bytes.HasPrefix([]byte(err.Error()), []byte("flate: corrupt input")):
		return "corrupt"
	}
	return err.Error()
}

// inflateBoth reads stream with NewZlib and compress/zlib, each into a
// buffer of the plain size and then to the end, as a section is read.
func inflateBoth(stream []byte, size int) (ours, std []byte, oursErr, stdErr error) {
	read := func(z io.Reader, err error) ([]byte, error) {
		if err != nil {
			return nil, err
		}
		out := make([]byte, size)
		n, err := io.ReadFull(z, out)
		if err == nil {
			rest, rerr := io.ReadAll(z)
			out, err = append(out[:n], rest...), rerr
			n = len(out)
		}
		return out[:n], err
	}
	z, zerr := NewZlib(stream)
	var zr io.Reader
	if zerr == nil {
		zr = z
	}
	ours, oursErr = read(zr, zerr)
	s, serr := zlib.NewReader(bytes.NewReader(stream))
	std, stdErr = read(s, serr)
	return
}

// TestDamaged changes and cuts streams and holds the verdict to
// compress/zlib's: the same streams fail, with the same kind of error, and
// what was inflated before the failure starts with what compress/zlib
// gave (a stream cut short may yield more: every decodable byte).
func TestDamaged(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	kinds := map[string]int{}
	for pname, plain := range corpus(t) {
		for sname, stream := range streams(plain) {
			for i := 0; i < 60; i++ {
				c := append([]byte(nil), stream...)
				switch {
				case i < 10:
					c = c[:r.Intn(len(c)+1)]
				default:
					for k := 0; k < 1+r.Intn(3); k++ {
						if len(c) == 0 {
							break
						}
						p := r.Intn(len(c))
						if i%3 == 0 {
							p = r.Intn(min(len(c), 64)) // the header and the first block's
						}
						c[p] ^= byte(1 + r.Intn(255))
					}
				}
				ours, std, oerr, serr := inflateBoth(c, len(plain))
				kinds[verdict(serr)]++
				if verdict(oerr) != verdict(serr) {
					t.Errorf("%s/%s case %d: ours %s, compress/zlib %s", pname, sname, i, verdict(oerr), verdict(serr))
					continue
				}
				if !bytes.HasPrefix(ours, std) {
					t.Errorf("%s/%s case %d (%v): ours %d bytes do not start with compress/zlib's %d", pname, sname, i, serr, len(ours), len(std))
				}
				if serr == nil && !bytes.Equal(ours, std) {
					t.Errorf("%s/%s case %d: ours %d bytes, compress/zlib %d", pname, sname, i, len(ours), len(std))
				}
			}
		}
	}
	// The damage must reach every kind of failure.
	for _, k := range []string{"ok", "corrupt", "unexpected EOF", ErrChecksum.Error(), ErrHeader.Error()} {
		if kinds[k] == 0 {
			t.Errorf("no damaged stream failed as %q: %v", k, kinds)
		}
	}
	t.Log(kinds)
}

// FuzzZlib holds NewZlib to compress/zlib on any bytes.
func FuzzZlib(f *testing.F) {
	for _, plain := range [][]byte{[]byte("hello, DWARF"), bytes.Repeat([]byte("ab"), 300)} {
		for _, s := range streams(plain) {
			f.Add(s, uint16(len(plain)))
		}
	}
	for _, h := range fixedStreams {
		s, _ := hex.DecodeString(h)
		f.Add(s, uint16(12))
	}
	f.Fuzz(func(t *testing.T, stream []byte, size uint16) {
		ours, std, oerr, serr := inflateBoth(stream, int(size))
		if verdict(oerr) != verdict(serr) {
			t.Fatalf("ours %v, compress/zlib %v", oerr, serr)
		}
		if !bytes.HasPrefix(ours, std) || (serr == nil && !bytes.Equal(ours, std)) {
			t.Fatalf("ours %d bytes, compress/zlib %d (%v)", len(ours), len(std), serr)
		}
	})
}

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

// TestExactSize: a stream read into a buffer of its inflated size ends in
// that read (the block's end is read without room to write), so the read
// after it says io.EOF without a buffer being made for it.
func TestExactSize(t *testing.T) {
	for pname, plain := range corpus(t) {
		if len(plain) == 0 {
			continue
		}
		for sname, stream := range streams(plain) {
			z, err := NewZlib(stream)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]byte, len(plain))
			if n, err := z.Read(out); n != len(plain) || err != nil {
				t.Fatalf("%s/%s: first read %d bytes, %v; want %d", pname, sname, n, err, len(plain))
			}
			var one [1]byte
			if n, err := z.Read(one[:]); n != 0 || err != io.EOF || z.buf != nil {
				t.Errorf("%s/%s: then %d bytes, %v (buffer made: %v); want io.EOF", pname, sname, n, err, z.buf != nil)
			}
			if !bytes.Equal(out, plain) {
				t.Errorf("%s/%s: bytes differ", pname, sname)
			}
		}
	}
}
