package report

import "testing"

func TestSelect(t *testing.T) {
	asan := &Report{Tool: "AddressSanitizer", Kind: "heap-use-after-free"}
	tsan := &Report{Tool: "ThreadSanitizer", Kind: "data race"}
	for _, tt := range []struct {
		name       string
		tools      []string
		kinds      []string
		asan, tsan bool
	}{
		{"short name", []string{"asan"}, nil, true, false},
		{"full name, any case", []string{" threadsanitizer "}, nil, false, true},
		{"kind", nil, []string{"Data Race"}, false, true},
		{"tool and kind", []string{"asan", "tsan"}, []string{"heap-use-after-free"}, true, false},
		{"no match", []string{"msan"}, nil, false, false},
	} {
		keep := Select(tt.tools, tt.kinds)
		if got := keep(asan); got != tt.asan {
			t.Errorf("%s: asan report kept = %v", tt.name, got)
		}
		if got := keep(tsan); got != tt.tsan {
			t.Errorf("%s: tsan report kept = %v", tt.name, got)
		}
	}
	if Select(nil, nil) != nil {
		t.Error("no tools and no kinds: want nil (keep all)")
	}
}
