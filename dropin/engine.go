package dropin

import "github.com/sanitrace/sanitrace/symbolize"

// OpenEngine opens path with the symbolize engine; it is the Opener the
// commands use.
func OpenEngine(path string, opts *symbolize.Options) (Module, error) {
	o, err := symbolize.Open(path, opts)
	if err != nil {
		return nil, err
	}
	return o, nil
}
