// Package render turns parsed sanitizer reports (parse.Report) into bytes
// for people and programs.
//
// Text keeps each report in the shape the runtime printed it (headline,
// access line, titled stacks, location lines, summary, shadow map) and adds
// what the runtime could not: completed frames, emphasis on the user's own
// frames over runtime, interceptor and libc frames, optional source context,
// and a decoded shadow-byte map (ExplainShadow). JSON writes schema v1 of
// docs/json.md, one report at a time, so a long log never has to be held in
// memory.
//
// Colors come from github.com/fatih/color, but every *color.Color here is
// switched on or off explicitly from TextOptions.Color: the package never
// reads color.NoColor, which fatih/color computes from os.Stdout at init and
// which is wrong whenever the output is not stdout.
package render
