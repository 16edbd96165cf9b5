package render

import (
	"errors"
	"io"
)

// WriteHTML writes doc as one self-contained HTML page.
func WriteHTML(w io.Writer, doc *BatchDocument) error {
	return errors.New("html: not written yet")
}
