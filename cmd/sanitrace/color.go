package main

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// Colors and other terminal decorations (batch's progress bar) follow one
// rule, so that every command answers the environment alike.

// colorModes are the values of --color (and batch's --progress).
var colorModes = []string{"auto", "always", "never"}

// useColor resolves --color (already one of colorModes): always and never
// are what they say; auto colors a terminal unless the environment says
// otherwise (wantDecoration).
func useColor(mode string, stdout io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	return wantDecoration(stdout, os.Getenv)
}

// wantDecoration is the auto rule: NO_COLOR (non-empty) turns colors off
// and wins over everything else, as no-color.org asks; FORCE_COLOR
// (force-color.org; "0" and "false" turn it off, as Node reads it) and
// CLICOLOR_FORCE (bixense.com/clicolors; "0" is off) turn them on even
// when w is not a terminal, as in CI logs that render ANSI; TERM=dumb
// turns them off; otherwise w colors when it is a terminal.
func wantDecoration(w io.Writer, getenv func(string) string) bool {
	if getenv("NO_COLOR") != "" {
		return false
	}
	switch fc := getenv("FORCE_COLOR"); fc {
	case "":
	case "0", "false":
		return false
	default:
		return true
	}
	if cf := getenv("CLICOLOR_FORCE"); cf != "" && cf != "0" {
		return true
	}
	if getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
