package artifact

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/sanitrace/sanitrace/internal/humanize"
	"github.com/sanitrace/sanitrace/internal/textsniff"
)

// class is what an entry's first bytes say it is.
type class int

const (
	classOther class = iota // neither a log nor a binary: skipped
	classText
	classELF
	classGzip
	classZstd
	classZip
	classTar
)

func (c class) String() string {
	return [...]string{"data", "text", "ELF", "gzip", "zstd", "zip", "tar"}[c]
}

// classify decides by magic numbers, then by how much of the head is text
// (textsniff).
func classify(head []byte) class {
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return classELF
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return classGzip
	case bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return classZstd
	case bytes.HasPrefix(head, []byte("PK\x03\x04")), bytes.HasPrefix(head, []byte("PK\x05\x06")):
		return classZip
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return classTar
	}
	if !textsniff.Binary(head) { // as decode decides: batch reads every log decode reads
		return classText
	}
	return classOther
}

// errBudget is returned by a budget's reader once the archive's inflated
// total passed its limit.
var errBudget = errors.New("inflated size limit reached")

// budget counts the bytes inflated for one archive (nested archives share
// their outermost archive's budget).
type budget struct{ limit, used int64 }

func newBudget(limit int64) *budget { return &budget{limit: limit} }

// take charges n bytes that a zip member declares; false when they do not fit.
func (b *budget) take(n int64) bool {
	if n < 0 || n > b.limit-b.used {
		b.used = b.limit + 1
		return false
	}
	b.used += n
	return true
}

func (b *budget) exceeded() bool { return b.used > b.limit }

func (b *budget) err() error {
	return fmt.Errorf("archive inflates to more than %s (--max-archive-size): the rest of it is skipped", humanize.Bytes(uint64(b.limit)))
}

// reader counts what r yields against the budget.
func (b *budget) reader(r io.Reader) io.Reader { return &budgetReader{r: r, b: b} }

type budgetReader struct {
	r io.Reader
	b *budget
}

func (br *budgetReader) Read(p []byte) (int, error) {
	if br.b.exceeded() {
		return 0, errBudget
	}
	n, err := br.r.Read(p)
	br.b.used += int64(n)
	if br.b.exceeded() {
		return n, errBudget
	}
	return n, err
}
