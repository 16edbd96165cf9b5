package report

import (
	"sort"
	"strings"
)

// toolAliases are the short names of the sanitizers, as their runtime
// libraries and -fsanitize= spell them, for Select.
var toolAliases = map[string]string{
	"asan": "addresssanitizer", "address": "addresssanitizer",
	"lsan": "leaksanitizer", "leak": "leaksanitizer",
	"tsan": "threadsanitizer", "thread": "threadsanitizer",
	"msan": "memorysanitizer", "memory": "memorysanitizer",
	"ubsan": "undefinedbehaviorsanitizer", "undefined": "undefinedbehaviorsanitizer",
	"hwasan": "hwaddresssanitizer", "hwaddress": "hwaddresssanitizer",
}

// Select returns a filter of reports by tool and kind (decode's --tool
// and --kind), nil when both lists are empty (keep all). Both match
// case-insensitively, a tool by its name or its short name (asan, tsan,
// ...); a report is kept when it matches one of the tools given (if any)
// and one of the kinds given (if any).
func Select(tools, kinds []string) func(*Report) bool {
	if len(tools) == 0 && len(kinds) == 0 {
		return nil
	}
	toolSet := map[string]bool{}
	for _, t := range tools {
		t = strings.ToLower(strings.TrimSpace(t))
		if a, ok := toolAliases[t]; ok {
			t = a
		}
		toolSet[t] = true
	}
	kindSet := map[string]bool{}
	for _, k := range kinds {
		kindSet[strings.ToLower(strings.TrimSpace(k))] = true
	}
	return func(r *Report) bool {
		return (len(toolSet) == 0 || toolSet[strings.ToLower(r.Tool)]) &&
			(len(kindSet) == 0 || kindSet[strings.ToLower(r.Kind)])
	}
}

// ToolNames are the short tool names Select knows, sorted (what shell
// completion offers for decode's --tool).
func ToolNames() []string {
	names := make([]string, 0, len(toolAliases))
	for n := range toolAliases {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
