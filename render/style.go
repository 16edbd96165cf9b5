package render

import (
	"fmt"
	"strings"

	"github.com/fatih/color"
)

// palette holds the colors of one Text renderer. Each value is enabled or
// disabled on its own so the result does not depend on color.NoColor.
type palette struct {
	headline ink // ERROR/WARNING line
	access   ink // the access line and the explanation of the access
	title    ink // stack titles
	location ink // "is located ..." lines
	function ink // user frame function
	file     ink // user frame file:line:col
	system   ink // whole runtime/libc frames
	dim      ink // module+offset, sanitrace marker, shadow row decode
	summary  ink
	marker   ink // the source line of a frame, the marked shadow byte
	red      ink // shadow bytes, colored as ASan colors them
	magenta  ink
	blue     ink
	cyan     ink
	yellow   ink
	// colored: the inks are not all empty. Without colors a frame's class
	// (the program's own or not) changes nothing on its line.
	colored bool
}

func newPalette(enabled bool) *palette {
	in := func(attrs ...color.Attribute) ink { return newInk(enabled, attrs...) }
	return &palette{
		colored:  enabled,
		headline: in(color.Bold, color.FgRed),
		access:   in(color.Bold, color.FgBlue),
		title:    in(color.Bold, color.FgMagenta),
		location: in(color.FgGreen),
		function: in(color.Bold),
		file:     in(color.FgCyan),
		system:   in(color.Faint),
		dim:      in(color.Faint),
		summary:  in(color.Bold),
		marker:   in(color.Bold, color.ReverseVideo),
		red:      in(color.Bold, color.FgRed),
		magenta:  in(color.Bold, color.FgMagenta),
		blue:     in(color.Bold, color.FgBlue),
		cyan:     in(color.Bold, color.FgCyan),
		yellow:   in(color.Bold, color.FgYellow),
	}
}

// ink is one color of a palette: the escape sequences fatih/color writes
// before and after a text, taken once, so that painting a frame's pieces
// costs a concatenation (and nothing at all with colors off) where
// color.Color.Sprint formats its sequences anew on every call.
type ink struct{ on, off string }

func newInk(enabled bool, attrs ...color.Attribute) ink {
	if !enabled {
		return ink{}
	}
	c := color.New(attrs...)
	c.EnableColor()
	on, off, _ := strings.Cut(c.Sprint("|"), "|") // the sequences hold no '|'
	return ink{on, off}
}

// Sprint returns s in the ink's color, as color.Color.Sprint(s) does.
func (i ink) Sprint(s string) string {
	if i.on == "" {
		return s
	}
	return i.on + s + i.off
}

// Sprintf is Sprint of the formatted text.
func (i ink) Sprintf(format string, a ...any) string { return i.Sprint(fmt.Sprintf(format, a...)) }

// shadowColor is the color ASan itself gives a shadow byte
// (compiler-rt asan_descriptions.h ShadowByte decorations); nil for plain.
func (p *palette) shadowColor(code string) *ink {
	switch code {
	case "fa", "fb", "f1", "f2", "f3", "f4", "f9", "ac":
		return &p.red
	case "fd", "f5", "f8":
		return &p.magenta
	case "f6":
		return &p.cyan
	case "f7", "fc", "ca", "cb":
		return &p.blue
	case "bb", "fe":
		return &p.yellow
	}
	return nil
}
