package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/sanitrace/sanitrace/wire"
)

func TestLWSDecodeAndHeapmap(t *testing.T) {
	log := "boot\n~b#size: 16, 0x10 0x20\nnoise ~m#UL386nCGitBe/nU4Q0fygEkGyaAMQKpBBTC6ALUu\n~b#size: 16, 0x10 0x20\n"
	var out, stderr bytes.Buffer
	l := &LWS{Out: bufio.NewWriter(&out), Stdin: strings.NewReader(log), Stderr: &stderr}
	failed, err := l.Decode(nil)
	if err != nil || failed {
		t.Fatalf("failed %v, err %v", failed, err)
	}
	if want := "~b#size: 16, 0x10 0x20\n~b#size: 16, 0x10 0x20\n"; out.String() != want {
		t.Errorf("out %q, want %q", out.String(), want)
	}
	if !strings.HasPrefix(stderr.String(), "<stdin>:3: ~m# record: ") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("stderr %q, want one line for the bad record", stderr.String())
	}

	out.Reset()
	stderr.Reset()
	l = &LWS{Out: bufio.NewWriter(&out), Stdin: strings.NewReader(log), Stderr: &stderr}
	if failed, err := l.Heapmap([]string{"-"}, "json"); err != nil || failed {
		t.Fatalf("failed %v, err %v", failed, err)
	}
	var hm wire.HeapMap
	if err := json.Unmarshal(out.Bytes(), &hm); err != nil {
		t.Fatal(err)
	}
	if hm.Source != "-" || hm.Records != 2 || hm.DistinctBacktraces != 1 || hm.TotalBytes != 32 || len(hm.Undecodable) != 1 || hm.Undecodable[0].Line != 3 {
		t.Errorf("heap map %+v", hm)
	}
}
