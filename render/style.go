package render

import "github.com/fatih/color"

// palette holds the colors of one Text renderer. Each value is enabled or
// disabled on its own so the result does not depend on color.NoColor.
type palette struct {
	headline *color.Color // ERROR/WARNING line
	access   *color.Color // the access line and the explanation of the access
	title    *color.Color // stack titles
	location *color.Color // "is located ..." lines
	function *color.Color // user frame function
	file     *color.Color // user frame file:line:col
	system   *color.Color // whole runtime/libc frames
	dim      *color.Color // module+offset, sanitrace marker, shadow row decode
	summary  *color.Color
	marker   *color.Color // the source line of a frame, the marked shadow byte
	red      *color.Color // shadow bytes, colored as ASan colors them
	magenta  *color.Color
	blue     *color.Color
	cyan     *color.Color
	yellow   *color.Color
}

func newPalette(enabled bool) *palette {
	p := &palette{
		headline: color.New(color.Bold, color.FgRed),
		access:   color.New(color.Bold, color.FgBlue),
		title:    color.New(color.Bold, color.FgMagenta),
		location: color.New(color.FgGreen),
		function: color.New(color.Bold),
		file:     color.New(color.FgCyan),
		system:   color.New(color.Faint),
		dim:      color.New(color.Faint),
		summary:  color.New(color.Bold),
		marker:   color.New(color.Bold, color.ReverseVideo),
		red:      color.New(color.Bold, color.FgRed),
		magenta:  color.New(color.Bold, color.FgMagenta),
		blue:     color.New(color.Bold, color.FgBlue),
		cyan:     color.New(color.Bold, color.FgCyan),
		yellow:   color.New(color.Bold, color.FgYellow),
	}
	for _, c := range []*color.Color{p.headline, p.access, p.title, p.location,
		p.function, p.file, p.system, p.dim, p.summary, p.marker,
		p.red, p.magenta, p.blue, p.cyan, p.yellow} {
		if enabled {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}

// shadowColor is the color ASan itself gives a shadow byte
// (compiler-rt asan_descriptions.h ShadowByte decorations); nil for plain.
func (p *palette) shadowColor(code string) *color.Color {
	switch code {
	case "fa", "fb", "f1", "f2", "f3", "f4", "f9", "ac":
		return p.red
	case "fd", "f5", "f8":
		return p.magenta
	case "f6":
		return p.cyan
	case "f7", "fc", "ca", "cb":
		return p.blue
	case "bb", "fe":
		return p.yellow
	}
	return nil
}
