package panicky

import "testing"

func TestFirst(t *testing.T) {
	if Field([]string{"a"}, 0) != "a" {
		t.Fatal("first")
	}
}

func TestPastEnd(t *testing.T) {
	_ = Field([]string{"a", "b"}, 2)
}
