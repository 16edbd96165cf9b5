package lwsheap

import (
	"errors"
	"slices"
	"testing"

	"github.com/sanitrace/sanitrace/decompress"
)

func TestGroupsOrder(t *testing.T) {
	m := New()
	add := func(line int, size uint64, pcs ...uint64) {
		t.Helper()
		if err := m.Add("a.log", line, decompress.Backtrace{Size: size, PCs: pcs}); err != nil {
			t.Fatal(err)
		}
	}
	add(1, 10, 1, 2)
	add(2, 30, 3)
	add(3, 10, 1, 2) // group {1,2}: 20 bytes, 2 records
	add(4, 20, 4)    // 20 bytes, 1 record: after {1,2} (count)
	add(5, 20)       // depth 0: 20 bytes, 1 record, later line
	add(6, 0, 2, 1)  // order matters: a distinct group
	add(7, 5, 1, 2, 3)
	var got [][]uint64
	for _, g := range m.Groups() {
		got = append(got, g.PCs)
	}
	want := [][]uint64{{3}, {1, 2}, {4}, {}, {1, 2, 3}, {2, 1}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if m.Records() != 7 || m.TotalBytes() != 95 {
		t.Errorf("records %d bytes %d, want 7 and 95", m.Records(), m.TotalBytes())
	}
}

func TestOverflow(t *testing.T) {
	m := New()
	big := decompress.Backtrace{Size: decompress.MaxValue}
	for i := range 2 {
		if err := m.Add("x", i+1, big); err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
	}
	err := m.Add("x", 3, decompress.Backtrace{Size: 2})
	if !errors.Is(err, decompress.ErrSizeOverflow) {
		t.Fatalf("third record: got %v, want size-overflow", err)
	}
	if m.Records() != 2 {
		t.Errorf("records = %d, want 2 (the overflowing one is not counted)", m.Records())
	}
}
