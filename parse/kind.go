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

// ubsanCheck maps a UBSan "runtime error:" message to the check name that
// compiler-rt's ubsan_checks.inc gives it (what newer runtimes print in
// SUMMARY with report_error_type=1).
func ubsanCheck(msg string) string {
	has := func(s string) bool { return strings.Contains(msg, s) }
	pre := func(s string) bool { return strings.HasPrefix(msg, s) }
	switch {
	case pre("signed integer overflow"):
		return "signed-integer-overflow"
	case pre("unsigned integer overflow"):
		return "unsigned-integer-overflow"
	case pre("negation of ") && has("cannot be represented"):
		return "signed-integer-overflow"
	case pre("division of ") && has("cannot be represented"):
		return "signed-integer-overflow"
	case pre("shift exponent"):
		return "invalid-shift-exponent"
	case pre("left shift of"):
		return "invalid-shift-base"
	case pre("division by zero"):
		return "integer-divide-by-zero"
	case has("null pointer of type"):
		return "null-pointer-use"
	case has("misaligned address"):
		return "misaligned-pointer-use"
	case pre("index ") && has(" out of bounds for type"):
		return "out-of-bounds-index"
	case pre("load of value ") && has("for type 'bool'"):
		return "invalid-bool-load"
	case pre("load of value ") && has("not a valid value for type"):
		return "invalid-enum-load"
	case pre("applying ") && has("null pointer"):
		return "nullptr-with-offset"
	case pre("pointer index expression"), pre("addition of unsigned offset"), pre("subtraction of unsigned offset"), pre("applying "):
		return "pointer-overflow"
	case pre("execution reached an unreachable program point"):
		return "unreachable-call"
	case pre("execution reached the end of a value-returning function"):
		return "missing-return"
	case pre("variable length array bound"):
		return "non-positive-vla-index"
	case has("is outside the range of representable values"):
		return "float-cast-overflow"
	case has("through pointer to incorrect function type"):
		return "function-type-mismatch"
	case pre("null pointer returned from function"):
		return "invalid-null-return"
	case pre("null pointer passed as argument"):
		return "invalid-null-argument"
	case pre("passing zero to"):
		return "invalid-builtin-use"
	case has("which does not point to an object of type"):
		return "dynamic-type-mismatch"
	case has("insufficient space for an object"):
		return "insufficient-object-size"
	case pre("implicit conversion") && has("sign change"):
		return "implicit-integer-sign-change"
	case pre("implicit conversion") && has("unsigned"):
		return "implicit-unsigned-integer-truncation"
	case pre("implicit conversion"):
		return "implicit-signed-integer-truncation"
	}
	return "undefined-behavior"
}
