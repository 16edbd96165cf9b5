package rules

import (
	_ "embed"
	"strings"
	"sync"
)

//go:embed defaults.rules
var defaultsText string

// Defaults are the built-in rules (defaults.rules): what every run applies
// before a user's file.
var Defaults = sync.OnceValue(func() *Set {
	s, err := Parse("defaults.rules", strings.NewReader(defaultsText))
	if err != nil {
		panic("rules: built-in defaults: " + err.Error()) // a test keeps them valid
	}
	return s
})

// DefaultsText is the text of the built-in rules, for `--rules` users to
// read and copy.
func DefaultsText() string { return defaultsText }
