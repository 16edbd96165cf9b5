package textsniff

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestBinary(t *testing.T) {
	report := "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x603000000040\n    #0 0x55e04e6e83d1 in session_id /build/ci/src/use_after_free.c:33\n"
	random := make([]byte, 8192)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	elfish := append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 400)...)
	for _, c := range []struct {
		name string
		head []byte
		want bool
	}{
		{"a report", []byte(strings.Repeat(report, 20)), false},
		{"a torn write's NUL", []byte("output\x00\x00 torn\n" + strings.Repeat(report, 20)), false},
		{"a bell and a CR on every line", []byte(strings.Repeat("\a\rprogress 10%\n"+report, 20)), false},
		{"Latin-1 accents", []byte(strings.Repeat("caf\xe9 cr\xe8me "+report, 20)), false},
		{"colors", []byte(strings.Repeat("\x1b[1m\x1b[31m"+report+"\x1b[0m", 20)), false},
		{"zeros", elfish, true},
		{"random bytes", random, true},
		{"controls", bytes.Repeat([]byte("\x01\x02\x03abc"), 100), true},
		{"empty", nil, false},
	} {
		if got := Binary(c.head); got != c.want {
			t.Errorf("%s: Binary = %v, want %v", c.name, got, c.want)
		}
	}
}

// FuzzBinary holds Binary to the byte-by-byte count, and printable to its
// definition, on any bytes.
func FuzzBinary(f *testing.F) {
	f.Add([]byte("==1==ERROR: AddressSanitizer\n\x00\x01\x1f\x20\x7e\x7f\x80\xff caf\xe9\tx"))
	f.Add([]byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Add([]byte("!!!!!!!!~~~~~~~~\x1f!!!!!!!~~~~~~~\x7f ~~~~~~~\x80"))
	f.Fuzz(func(t *testing.T, head []byte) {
		if got, want := Binary(head), binaryData(head, false); got != want {
			t.Fatalf("Binary(%q) = %v, byte by byte %v", head, got, want)
		}
		for i := 0; i+8 <= len(head); i++ {
			want := true
			for _, c := range head[i : i+8] {
				want = want && c >= ' ' && c <= '~'
			}
			if got := printable(binary.LittleEndian.Uint64(head[i:])); got != want {
				t.Fatalf("printable(%q) = %v", head[i:i+8], got)
			}
		}
	})
}
