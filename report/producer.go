package report

import "strings"

// Producer is the program whose output a report was read from: a
// sanitizer runtime, the kernel, Go's runtime, gdb, Valgrind, ... A
// consumer that follows a producer's own rules (the frame classes of
// ClassIn, render's layouts) switches on it, never on the Tool text.
//
// Report.Tool is what the producer calls itself and what users filter on;
// the Producer is read from it (Report.Producer), so the two cannot
// disagree. Every producer but the sanitizers names its reports with one
// Tool (Producer.Tool); the sanitizer runtimes each print their own name
// ("AddressSanitizer", "ThreadSanitizer", ...).
type Producer uint8

// The producers. Adding one is a constant here and its row in producerTools.
const (
	// ProducerUnknown is a report whose Tool names no known producer (a
	// model built by hand, a wire document from a newer sanitrace).
	ProducerUnknown Producer = iota
	// ProducerSanitizer is any of the compiler-rt and libsanitizer
	// runtimes: ASan, LSan, TSan, MSan, UBSan, HWASan, ... (their Tool
	// ends in "Sanitizer").
	ProducerSanitizer
	ProducerLibFuzzer // libFuzzer's own reports (deadly signal, timeout, OOM, ...)
	ProducerKernel    // the Linux kernel's log: KASAN, KFENCE, WARNING, BUG, Oops, lockdep, ...
	ProducerGoRace    // Go's race detector
	ProducerGoPanic   // Go's runtime: panics, fatal errors, signals, goroutine dumps
	ProducerRust      // Rust panics with RUST_BACKTRACE
	ProducerGDB       // gdb sessions and pasted "bt" output
	ProducerGlibc     // glibc's backtrace_symbols dumps and malloc's aborts
	ProducerChromium  // Chromium's, Electron's and V8's in-process dumps
	ProducerBoost     // boost::stacktrace
	ProducerLWS       // libwebsockets heap dumps (~m#/~b# records)
	ProducerValgrind  // Valgrind's Memcheck, Helgrind and DRD

	producerCount
)

// Tool names of the producers (Report.Tool). Those that other packages
// test for have constants of their own.
const (
	ToolKernel    = "Kernel"
	ToolGoRace    = "GoRaceDetector"
	ToolGoPanic   = "GoPanic"
	ToolRust      = "Rust"
	ToolLibFuzzer = "libFuzzer"
	ToolLWS       = "libwebsockets"
)

// Tool names of the sanitizer runtimes that consumers treat apart.
const (
	ToolASan  = "AddressSanitizer"
	ToolLSan  = "LeakSanitizer"
	ToolTSan  = "ThreadSanitizer"
	ToolMSan  = "MemorySanitizer"
	ToolUBSan = "UndefinedBehaviorSanitizer"
)

// producerTools is each producer's Report.Tool ("" for the sanitizers,
// which name themselves).
var producerTools = [producerCount]string{
	ProducerLibFuzzer: ToolLibFuzzer,
	ProducerKernel:    ToolKernel,
	ProducerGoRace:    ToolGoRace,
	ProducerGoPanic:   ToolGoPanic,
	ProducerRust:      ToolRust,
	ProducerGDB:       "gdb",
	ProducerGlibc:     "glibc",
	ProducerChromium:  "Chromium",
	ProducerBoost:     "boost::stacktrace",
	ProducerLWS:       ToolLWS,
	ProducerValgrind:  "Valgrind",
}

// Tool is the Report.Tool of p's reports; "" for the sanitizers (each
// runtime names itself) and ProducerUnknown.
func (p Producer) Tool() string {
	if p >= producerCount {
		return ""
	}
	return producerTools[p]
}

// String is p's Tool, "sanitizer" or "unknown".
func (p Producer) String() string {
	switch p {
	case ProducerSanitizer:
		return "sanitizer"
	case ProducerUnknown:
		return "unknown"
	}
	if t := p.Tool(); t != "" {
		return t
	}
	return "unknown"
}

// Producers are every known producer, in the order of their constants.
func Producers() []Producer {
	ps := make([]Producer, 0, producerCount-1)
	for p := ProducerUnknown + 1; p < producerCount; p++ {
		ps = append(ps, p)
	}
	return ps
}

// ProducerOf is the producer of a report whose Tool is tool.
func ProducerOf(tool string) Producer {
	if strings.HasSuffix(tool, "Sanitizer") {
		return ProducerSanitizer
	}
	for p, t := range producerTools {
		if t != "" && t == tool {
			return Producer(p)
		}
	}
	return ProducerUnknown
}

// Producer is the producer of r, read from its Tool.
func (r *Report) Producer() Producer { return ProducerOf(r.Tool) }
