package parse

import (
	"strings"

	"github.com/sanitrace/sanitrace/report"
)

// libFuzzer's account of the failing input, printed between a report's
// stack and its SUMMARY (FuzzerLoop.cpp, FuzzerIO.cpp):
//
//	MS: 1 ChangeByte-; base unit: a91d610e0e598686cef6d1cef1a61dfdc00a68c9
//	0x4d,0x21,
//	M!
//	artifact_prefix='./'; Test unit written to ./oom-2bd0266391ff816a9ac7d9ec68e60ff02f357488
//	Base64: TSE=

// fuzzerLine records one of those lines in r (t trimmed, str as printed
// after the report's prefix) and reports whether it was one.
func fuzzerLine(r *report.Report, t, str string) bool {
	f, ok := withFuzzerLine(r.Fuzzer, t)
	if ok {
		f.Lines = append(f.Lines, str)
		r.Fuzzer = f
	}
	return ok
}

// withFuzzerLine returns cur (nil for none yet) with line t recorded, and
// whether t is one of those lines; cur itself is left alone, so that a
// caller can ask whether a line belongs to the report before taking it.
func withFuzzerLine(cur *report.FuzzerInput, t string) (*report.FuzzerInput, bool) {
	var f report.FuzzerInput
	if cur != nil {
		f = *cur
	}
	switch {
	case strings.HasPrefix(t, "MS: "):
		ms, base, _ := strings.Cut(t[len("MS: "):], "; base unit: ")
		f.Mutations = strings.TrimSuffix(strings.TrimSpace(ms), ";")
		f.BaseUnit = strings.TrimSpace(base)
	case strings.Contains(t, "Test unit written to "):
		_, f.Artifact, _ = strings.Cut(t, "Test unit written to ")
	case strings.HasPrefix(t, "Base64: "):
		f.Base64 = t[len("Base64: "):]
	case cur != nil && cur.Artifact == "" && cur.Bytes == "" && isByteList(t):
		f.Bytes = t
	case cur != nil && cur.Bytes != "" && cur.Artifact == "" && cur.Text == "":
		f.Text = t // the input as text, right after its bytes
	default:
		return cur, false
	}
	return &f, true
}

// isByteList matches libFuzzer's "0x4d,0x21," rendering of an input.
func isByteList(t string) bool {
	if !strings.HasPrefix(t, "0x") || !strings.HasSuffix(t, ",") {
		return false
	}
	for _, b := range strings.Split(strings.TrimSuffix(t, ","), ",") {
		if len(b) < 3 || len(b) > 4 || !strings.HasPrefix(b, "0x") || !allHex(b[2:]) {
			return false
		}
	}
	return true
}
