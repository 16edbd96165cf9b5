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

// fuzzerLine records one of those lines in r and reports whether it was one.
func fuzzerLine(r *report.Report, t string) bool {
	in := func() *report.FuzzerInput {
		if r.Fuzzer == nil {
			r.Fuzzer = &report.FuzzerInput{}
		}
		return r.Fuzzer
	}
	switch {
	case strings.HasPrefix(t, "MS: "):
		ms, base, _ := strings.Cut(t[len("MS: "):], "; base unit: ")
		in().Mutations = strings.TrimSuffix(strings.TrimSpace(ms), ";")
		in().BaseUnit = strings.TrimSpace(base)
		return true
	case strings.Contains(t, "Test unit written to "):
		_, path, _ := strings.Cut(t, "Test unit written to ")
		in().Artifact = path
		return true
	case strings.HasPrefix(t, "Base64: "):
		in().Base64 = t[len("Base64: "):]
		return true
	case r.Fuzzer != nil && r.Fuzzer.Artifact == "" && r.Fuzzer.Bytes == "" && isByteList(t):
		in().Bytes = t
		return true
	case r.Fuzzer != nil && r.Fuzzer.Bytes != "" && r.Fuzzer.Artifact == "" && r.Fuzzer.Text == "":
		in().Text = t // the input as text, right after its bytes
		return true
	}
	return false
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
