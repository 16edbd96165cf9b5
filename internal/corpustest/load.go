package corpustest

import (
	"encoding/json"
	"fmt"
	"os"
)

// Load reads one expected.json or expected_unsymbolized.json.
func Load(path string) (*Log, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	var l Log
	if err := json.NewDecoder(f).Decode(&l); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return &l, nil
}

// Deref returns *p, or the zero value where the corpus has null.
func Deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
