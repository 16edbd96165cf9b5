package dropin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/internal/fixture"
	"github.com/sanitrace/sanitrace/internal/sharedtest"
)

// faceSharedDir finds the shared reference material: $SANITRACE_SHARED, else
// ../shared next to the module root.
func faceSharedDir(t testing.TB) string {
	t.Helper()
	return sharedtest.Dir(t)
}

func faceReadGzip(t testing.TB, path string) string {
	t.Helper()
	return string(fixture.Gunzip(t, path))
}

// faceMinIdentical is the share of answers that must be byte-identical to the
// reference tool's.
const faceMinIdentical = 0.995

// TestSymbolizeCorpusDifferential runs both faces over every symbolizer set
// of the shared corpus, as the sets' own commands ran the reference tools.
func TestSymbolizeCorpusDifferential(t *testing.T) {
	faceChdir(t)
	root := filepath.Join(faceSharedDir(t), "corpus", "symbolize")
	sets, _ := filepath.Glob(filepath.Join(root, "*", "addresses.txt"))
	if len(sets) == 0 {
		t.Skipf("no symbolizer sets under %s", root)
	}
	for _, addrFile := range sets {
		dir := filepath.Dir(addrFile)
		set := filepath.Base(dir)
		t.Run(set, func(t *testing.T) {
			var meta struct {
				Binary               string `json:"binary"`
				LLVMSymbolizerCmd    string `json:"llvm_symbolizer_command"`
				Addr2lineCommandLine string `json:"addr2line_command"`
			}
			b, err := os.ReadFile(filepath.Join(dir, "addresses_meta.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &meta); err != nil {
				t.Fatalf("addresses_meta.json: %v", err)
			}
			bin := filepath.Join(dir, meta.Binary)
			addrs, err := os.ReadFile(addrFile)
			if err != nil {
				t.Fatal(err)
			}
			origObj := regexp.MustCompile(`--obj=(\S+)`).FindStringSubmatch(meta.LLVMSymbolizerCmd)
			origExe := regexp.MustCompile(`-e (\S+)`).FindStringSubmatch(meta.Addr2lineCommandLine)
			if origObj == nil || origExe == nil {
				t.Fatalf("cannot find the binary in the recorded commands")
			}

			t.Run("llvm-symbolizer", func(t *testing.T) {
				got, stderr, code := faceRunFace(t, "llvm-symbolizer", []string{"--obj=" + bin, "--output-style=JSON", "--inlining", "--demangle"}, string(addrs))
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				got = strings.ReplaceAll(got, `"ModuleName":`+faceJsonString(bin), `"ModuleName":`+faceJsonString(origObj[1]))
				want := faceReadGzip(t, filepath.Join(dir, "llvm-symbolizer.json.gz"))
				faceCompareRecords(t, faceSplitLines(want), faceSplitLines(got))
			})
			t.Run("addr2line", func(t *testing.T) {
				got, stderr, code := faceRunFace(t, "addr2line", []string{"-e", bin, "-f", "-i", "-C", "-a"}, string(addrs))
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				want := faceReadGzip(t, filepath.Join(dir, "addr2line.txt.gz"))
				faceCompareRecords(t, faceSplitA2LRecords(want), faceSplitA2LRecords(got))
			})
		})
	}
}

func faceJsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func faceSplitLines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// faceSplitA2LRecords splits addr2line -a output into one record per address
// (each starts with its 0x%016x line).
func faceSplitA2LRecords(s string) []string {
	var recs []string
	for _, line := range faceSplitLines(s) {
		if strings.HasPrefix(line, "0x") && len(line) == 18 || len(recs) == 0 {
			recs = append(recs, line)
			continue
		}
		recs[len(recs)-1] += "\n" + line
	}
	return recs
}

// faceCompareRecords logs the identical share and fails under faceMinIdentical,
// showing the first differences.
func faceCompareRecords(t *testing.T, want, got []string) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%d answers, the reference has %d", len(got), len(want))
	}
	n := min(len(want), len(got))
	same := 0
	var diffs []string
	for i := 0; i < n; i++ {
		if want[i] == got[i] {
			same++
		} else if len(diffs) < 5 {
			diffs = append(diffs, "reference: "+want[i]+"\nsanitrace: "+got[i])
		}
	}
	share := float64(same) / float64(max(len(want), 1))
	t.Logf("%d of %d answers identical (%.2f%%)", same, len(want), 100*share)
	if share < faceMinIdentical {
		t.Errorf("%.2f%% identical, need %.1f%%; first differences:\n%s", 100*share, 100*faceMinIdentical, strings.Join(diffs, "\n---\n"))
	}
}
