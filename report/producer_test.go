package report

import "testing"

// TestProducerOf: a report's producer is read back from the Tool its
// producer names it with; the sanitizer runtimes name themselves.
func TestProducerOf(t *testing.T) {
	for _, p := range Producers() {
		tool := p.Tool()
		if p == ProducerSanitizer {
			if tool != "" {
				t.Errorf("sanitizer producer has tool %q", tool)
			}
			continue
		}
		if tool == "" {
			t.Errorf("producer %d has no tool", p)
			continue
		}
		if got := ProducerOf(tool); got != p {
			t.Errorf("ProducerOf(%q) = %v, want %v", tool, got, p)
		}
	}
	for tool, want := range map[string]Producer{
		ToolASan: ProducerSanitizer, "HWAddressSanitizer": ProducerSanitizer, ToolUBSan: ProducerSanitizer,
		"": ProducerUnknown, "Sanitizer?": ProducerUnknown, "kernel": ProducerUnknown,
	} {
		if got := ProducerOf(tool); got != want {
			t.Errorf("ProducerOf(%q) = %v, want %v", tool, got, want)
		}
	}
	r := &Report{Tool: ToolGoPanic}
	if r.Producer() != ProducerGoPanic {
		t.Errorf("Report.Producer = %v", r.Producer())
	}
}
