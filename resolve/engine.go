package resolve

import (
	"errors"
	"fmt"

	"github.com/sanitrace/sanitrace/symbolize"
)

// EngineOpener opens modules with sanitrace's symbolizer. opts (may be nil)
// says where separate debug files are searched.
func EngineOpener(opts *symbolize.Options) Opener {
	return func(path string) (Object, error) {
		o, err := symbolize.Open(path, opts)
		if errors.Is(err, symbolize.ErrNoDebugInfo) {
			if o != nil {
				o.Close()
			}
			return nil, fmt.Errorf("no debug info (%s has neither DWARF nor a symbol table)", path)
		}
		if o == nil { // not a *symbolize.Object(nil) inside the interface
			return nil, err
		}
		if err == nil {
			// Parts left out as damaged: a warning, the rest answers.
			err = o.Damage()
		}
		return o, err
	}
}
