package editdist

import "testing"

func TestLevenshtein(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		limit int
		want  int
	}{
		{"", "", -1, 0},
		{"", "abc", -1, 3},
		{"kitten", "sitting", -1, 3},
		{"-demangle", "--demangle", -1, 1},
		{"AddressSanitzer", "AddressSanitizer", 2, 1},
		{"kitten", "sitting", 2, 3},
		{"abcdef", "uvwxyz", 0, 1},
		{string(make([]byte, 50)), string(make([]byte, 45)), -1, 5}, // longer than the stack rows
	} {
		if got := Levenshtein(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("Levenshtein(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
		if got := Levenshtein([]byte(tt.a), tt.b, tt.limit); got != tt.want {
			t.Errorf("Levenshtein([]byte(%q), %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}
