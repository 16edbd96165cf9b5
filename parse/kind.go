package parse

import "strings"

// Kinds whose text goes on after the bug type without a separator the
// generic rule would find.
var fixedKinds = []string{
	"attempting double-free",
	"attempting free on address which was not malloc()-ed",
	"requested allocation size",
	"calloc parameters overflow",
	"detected memory leaks",
	"use-of-uninitialized-value",
	"deadly signal",
	"timeout", // libFuzzer: "timeout after 1 seconds"
}

// bugKind derives the bug type from a headline message (the text after
// "ERROR: AddressSanitizer: "), as the runtime names it:
// "heap-use-after-free", "SEGV on unknown address",
// "alloc-dealloc-mismatch (malloc vs operator delete [])", ...
func bugKind(msg string) string {
	for _, k := range fixedKinds {
		if strings.HasPrefix(msg, k) {
			return k
		}
	}
	if strings.HasPrefix(msg, "alloc-dealloc-mismatch (") {
		if i := strings.IndexByte(msg, ')'); i > 0 {
			return msg[:i+1]
		}
	}
	i := 0
	for i < len(msg) && (isIdent(msg[i]) || msg[i] == '-') {
		i++
	}
	rest := msg[i:]
	switch {
	case i == 0:
	case strings.HasPrefix(rest, " on unknown address"):
		return msg[:i] + " on unknown address"
	case rest == "", strings.HasPrefix(rest, " on "), strings.HasPrefix(rest, ":"), strings.HasPrefix(rest, " ("):
		return msg[:i]
	}
	if j := strings.Index(msg, ": "); j > 0 {
		return msg[:j]
	}
	return msg
}

// ubsanChecks map UBSan "runtime error:" messages to the check names that
// compiler-rt's ubsan_checks.inc gives them (what newer runtimes print in
// SUMMARY with report_error_type=1): a message starting with prefix and
// holding has (either may be empty) is of check; the first match counts.
var ubsanChecks = []struct{ prefix, has, check string }{
	{"signed integer overflow", "", "signed-integer-overflow"},
	{"unsigned integer overflow", "", "unsigned-integer-overflow"},
	{"negation of ", "cannot be represented", "signed-integer-overflow"},
	{"division of ", "cannot be represented", "signed-integer-overflow"},
	{"shift exponent", "", "invalid-shift-exponent"},
	{"left shift of", "", "invalid-shift-base"},
	{"division by zero", "", "integer-divide-by-zero"},
	{"", "null pointer of type", "null-pointer-use"},
	{"", "misaligned address", "misaligned-pointer-use"},
	{"index ", " out of bounds for type", "out-of-bounds-index"},
	{"load of value ", "for type 'bool'", "invalid-bool-load"},
	{"load of value ", "not a valid value for type", "invalid-enum-load"},
	{"applying ", "null pointer", "nullptr-with-offset"},
	{"pointer index expression", "", "pointer-overflow"},
	{"addition of unsigned offset", "", "pointer-overflow"},
	{"subtraction of unsigned offset", "", "pointer-overflow"},
	{"applying ", "", "pointer-overflow"},
	{"execution reached an unreachable program point", "", "unreachable-call"},
	{"execution reached the end of a value-returning function", "", "missing-return"},
	{"variable length array bound", "", "non-positive-vla-index"},
	{"", "is outside the range of representable values", "float-cast-overflow"},
	{"", "through pointer to incorrect function type", "function-type-mismatch"},
	{"null pointer returned from function", "", "invalid-null-return"},
	{"null pointer passed as argument", "", "invalid-null-argument"},
	{"passing zero to", "", "invalid-builtin-use"},
	{"", "which does not point to an object of type", "dynamic-type-mismatch"},
	{"", "insufficient space for an object", "insufficient-object-size"},
	{"implicit conversion", "sign change", "implicit-integer-sign-change"},
	{"implicit conversion", "unsigned", "implicit-unsigned-integer-truncation"},
	{"implicit conversion", "", "implicit-signed-integer-truncation"},
}

// ubsanCheck returns the check name of a UBSan "runtime error:" message.
func ubsanCheck(msg string) string {
	for _, c := range ubsanChecks {
		if strings.HasPrefix(msg, c.prefix) && strings.Contains(msg, c.has) {
			return c.check
		}
	}
	return "undefined-behavior"
}
