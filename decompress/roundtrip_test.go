package decompress

import (
	"math/rand/v2"
	"testing"
	"testing/quick"
)

// randomBacktrace draws backtraces shaped like real ones (clusters of pcs
// in a few modules, repeats, zeros, extremes) so that both literal and
// delta frames, ties and the 8-frame window are exercised.
func randomBacktrace(r *rand.Rand) Backtrace {
	bases := []uint64{0x400000, 0x8048000, 0x55d0c0a00000, 0x7f3a9c200000, 0x10000, 1 << 40, MaxValue - 1<<20}
	var bt Backtrace
	depth := r.IntN(MaxDepth + 1)
	for range depth {
		var pc uint64
		switch r.IntN(10) {
		case 0:
			pc = r.Uint64() >> (1 + r.IntN(63)) // any width below 2^63
		case 1:
			if len(bt.PCs) > 0 {
				pc = bt.PCs[r.IntN(len(bt.PCs))] // a repeat
			}
		case 2:
			pc = [...]uint64{0, 1, MaxValue, MaxValue - 1}[r.IntN(4)]
		default:
			pc = bases[r.IntN(len(bases))] + r.Uint64N(1<<20)
		}
		bt.PCs = append(bt.PCs, pc)
	}
	switch r.IntN(4) {
	case 0:
		bt.Size = r.Uint64() >> (1 + r.IntN(63))
	default:
		bt.Size = r.Uint64N(1 << 16)
	}
	return bt
}

// TestRoundTrip: decode(encode(bt)) == bt, and the encoding is canonical
// (re-encoding the decoded record reproduces the line).
func TestRoundTrip(t *testing.T) {
	var d Decoder
	prop := func(seed uint64) bool {
		r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		bt := randomBacktrace(r)
		line, err := AppendLine(nil, bt)
		if err != nil {
			t.Logf("encode %+v: %v", bt, err)
			return false
		}
		got, err := d.DecodeLine(line)
		if err != nil || !got.Equal(bt) {
			t.Logf("decode(encode(%+v)) = %+v, %v (line %s)", bt, got, err, line)
			return false
		}
		again, err := AppendLine(nil, got)
		if err != nil || string(again) != string(line) {
			t.Logf("re-encode %s gave %s, %v", line, again, err)
			return false
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 20000}); err != nil {
		t.Error(err)
	}
}

func TestEncodeRejects(t *testing.T) {
	tests := []struct {
		bt   Backtrace
		code Code
	}{
		{Backtrace{PCs: make([]uint64, 32)}, ErrTooDeep},
		{Backtrace{Size: 1 << 63}, ErrUnencodable},
		{Backtrace{PCs: []uint64{1, 1 << 63}}, ErrUnencodable},
	}
	for _, tt := range tests {
		if _, err := EncodeLine(tt.bt); err == nil || err.(*Error).Code != tt.code {
			t.Errorf("EncodeLine(%d frames, size %#x) = %v, want %s", len(tt.bt.PCs), tt.bt.Size, err, tt.code)
		}
	}
	if m, err := EncodeLine(Backtrace{}); err != nil || m != "~m#ABAABA==" {
		t.Errorf("smallest blob: got %q, %v; want ~m#ABAABA== (FORMAT.md §4.5)", m, err)
	}
}
