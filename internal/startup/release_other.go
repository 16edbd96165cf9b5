//go:build !linux

package startup

// Release does nothing where the executable's mappings are not known; it
// returns 0.
func Release() (int, error) { return 0, nil }
