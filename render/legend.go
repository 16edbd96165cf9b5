package render

import "strings"

// legendEntry is one kind of shadow byte as compiler-rt names it
// (asan_internal.h kAsan*Magic, legend text from asan_errors.cpp), with a
// sentence saying what it means for the program.
type legendEntry struct {
	name    string
	explain string
}

// legendOrder is the order in which ASan prints its legend.
var legendOrder = []string{
	"00", "01", "02", "03", "04", "05", "06", "07",
	"fa", "fb", "fd", "f1", "f2", "f3", "f4", "f5", "f8", "f9", "f6", "f7",
	"fc", "ac", "bb", "fe", "ca", "cb",
}

var legendTable = map[string]legendEntry{
	"00": {"Addressable", "all 8 application bytes may be accessed"},
	"fa": {"Heap left redzone", "padding the allocator keeps around a heap block (clang and gcc runtimes use fa on both sides)"},
	"fb": {"Heap right redzone", "padding after a heap block (older runtimes)"},
	"fd": {"Freed heap region", "memory of a heap block that was freed and sits in quarantine"},
	"f1": {"Stack left redzone", "padding before the first local variable of a stack frame"},
	"f2": {"Stack mid redzone", "padding between two local variables of a stack frame"},
	"f3": {"Stack right redzone", "padding after the last local variable of a stack frame"},
	"f4": {"Stack partial redzone", "padding that fills up a local variable's last 8-byte granule (older runtimes)"},
	"f5": {"Stack after return", "a local variable of a function that has already returned (detect_stack_use_after_return)"},
	"f8": {"Stack use after scope", "a local variable whose scope has ended"},
	"f9": {"Global redzone", "padding after a global variable"},
	"f6": {"Global init order", "a global that is not initialized yet (check_initialization_order)"},
	"f7": {"Poisoned by user", "memory the program poisoned itself (ASAN_POISON_MEMORY_REGION)"},
	"fc": {"Container overflow", "capacity of a container beyond its size (annotated std::vector/std::string)"},
	"ac": {"Array cookie", "the element count operator new[] stores before an array"},
	"bb": {"Intra object redzone", "padding inside an object (-fsanitize-address-field-padding)"},
	"fe": {"ASan internal", "memory the runtime uses for itself"},
	"ca": {"Left alloca redzone", "padding before a variable-length array or alloca block"},
	"cb": {"Right alloca redzone", "padding after a variable-length array or alloca block"},
}

// legendFor returns the name and explanation of a shadow byte. printed is
// the report's own legend (byte -> name); its name wins over ours because it
// is what the user sees in the raw log.
func legendFor(code string, printed map[string]string) legendEntry {
	code = strings.ToLower(code)
	e, known := legendTable[code]
	if k := partialCount(code); k > 0 {
		e = legendEntry{"Partially addressable",
			"only the first " + string(rune('0'+k)) + " of these 8 application bytes may be accessed"}
		known = true
	}
	if name := printed[code]; name != "" {
		e.name = name
	}
	if !known {
		if e.name == "" {
			e.name = "Unknown shadow value"
		}
		e.explain = "not a value this version of sanitrace knows; see the runtime's own legend"
	}
	return e
}

// partialCount returns k for a partially addressable byte 01..07, else 0.
func partialCount(code string) int {
	if len(code) == 2 && code[0] == '0' && code[1] >= '1' && code[1] <= '7' {
		return int(code[1] - '0')
	}
	return 0
}

// legendRank orders codes as ASan's legend does; unknown codes go last.
func legendRank(code string) int {
	for i, c := range legendOrder {
		if c == code {
			return i
		}
	}
	return len(legendOrder)
}
