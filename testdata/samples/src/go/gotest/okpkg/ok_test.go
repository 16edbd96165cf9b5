// Package okpkg passes: its `ok` line stands between the failing ones.
package okpkg

import "testing"

func TestAdd(t *testing.T) {
	if 1+1 != 2 {
		t.Fatal("arithmetic")
	}
}
