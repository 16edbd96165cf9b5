package resolve

import (
	"path/filepath"
	"testing"

	"github.com/sanitrace/sanitrace/debuginfo"
	"github.com/sanitrace/sanitrace/internal/fixture"
)

// TestLocateSibling: a module printed by base name only (ThreadSanitizer)
// is found through the absolute path the same report prints for it, and
// the frame takes that path.
func TestLocateSibling(t *testing.T) {
	root := t.TempDir()
	fixture.Copy(t, demoBin, filepath.Join(root, "mapped/session"))
	l := &locator{finder: &debuginfo.Finder{
		PrefixMaps: []debuginfo.PrefixMap{{From: "/build/demo", To: filepath.Join(root, "mapped")}},
		DebugDirs:  []string{},
	}}
	defer l.finder.Close()
	got, err := l.locate("session", "", context{siblings: map[string]string{"session": "/build/demo/session"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "mapped/session"); got.path != want || got.logPath != "/build/demo/session" {
		t.Errorf("locate = %+v, want %s printed as /build/demo/session", got, want)
	}
	if _, err := l.locate("session", "", context{}); err == nil {
		t.Error("base name without a sibling path found")
	}
}
