// Package rules reads stack-trace rules, in the syntax of Sentry's stack
// trace rules (formerly "grouping enhancements"), and applies them to
// frames: which frames are the program's own (in-app: what decode's
// --frames user keeps and a signature is made of) and which count in a
// signature at all (group).
//
// A rules file holds one rule a line, "#" starting a comment: one or more
// matchers, then one or more actions.
//
//	family:native function:testing::internal::* -app
//	!module:**/libmylib.so* path:**/vendor/** -app -group
//
// Matchers: function:, module: (package: is a synonym), path:, family:
// (native, go, rust, kernel; comma-separated), app: (yes/no: the frame's
// in-app state so far) and class: (the model's classification,
// report.FrameClass: user, runtime, interceptor, libc, cxx, nocode). A
// matcher with a leading "!" is negated. Actions: +app, -app, +group,
// -group. Rules apply top to bottom to every frame and a later rule wins:
// Defaults come first, a user's file after them, so a file can override
// any default. docs/guide.md ("Rules") documents the syntax with examples.
package rules
