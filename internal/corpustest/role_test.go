package corpustest

import "testing"

func TestRole(t *testing.T) {
	// Every role name of the corpus README, and one it does not list.
	tests := []struct{ corpus, model string }{
		{"access", "access"},
		{"error", "access"},
		{"free", "free"},
		{"alloc", "alloc"},
		{"thread_creation", "thread"},
		{"stack_frame", "other"},
		{"leak", "leak"},
		{"previous_access", "previous"},
		{"mutex_creation", "mutex"},
		{"mutex_acquire", "mutex"},
		{"mutex_previous_acquire", "mutex"},
		{"location_heap", "alloc"},
		{"sleep", "other"},
		{"origin_store", "origin"},
		{"origin_heap", "origin"},
		{"origin_stack", "origin"},
		{"origin_unknown", "origin"},
		{"other", "other"},
		{"not_a_role", "not_a_role"},
	}
	for _, tt := range tests {
		if got := Role(tt.corpus); got != tt.model {
			t.Errorf("Role(%q) = %q, want %q", tt.corpus, got, tt.model)
		}
	}
}
