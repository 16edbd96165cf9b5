package render

import (
	"errors"
	"io"
)

// WriteMarkdown writes doc as a Markdown summary.
func WriteMarkdown(w io.Writer, doc *BatchDocument) error {
	return errors.New("markdown: not written yet")
}
