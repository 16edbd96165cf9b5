package pipeline

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
	"time"
)

// closeRecorder is an input that says when it was closed.
type closeRecorder struct {
	io.Reader
	closed chan struct{}
}

func (c *closeRecorder) Close() error {
	close(c.closed)
	return nil
}

func recorded(r io.Reader) *closeRecorder {
	return &closeRecorder{r, make(chan struct{})}
}

// TestReadAheadPassesBytesAndError: what comes out is the input's bytes in
// order, whatever the sizes of the reads on either side, then the input's
// own error (a cut gzip's "unexpected EOF" must still reach the parser).
func TestReadAheadPassesBytesAndError(t *testing.T) {
	data := make([]byte, 3*readAheadBlock+12345)
	for i := range data {
		data[i] = byte(i*31 + i>>9)
	}
	cut := errors.New("gzip data: unexpected EOF")
	for _, c := range []struct {
		name string
		in   io.Reader
		err  error
	}{
		{"whole", bytes.NewReader(data), nil},
		{"one byte at a time", iotest.OneByteReader(bytes.NewReader(data[:5000])), nil},
		{"half reads", iotest.HalfReader(bytes.NewReader(data)), nil},
		{"data with the error", iotest.DataErrReader(io.MultiReader(bytes.NewReader(data), iotest.ErrReader(cut))), cut},
	} {
		in := recorded(c.in)
		ra := newReadAhead(in)
		got, err := io.ReadAll(iotest.HalfReader(ra))
		want := data
		if c.name == "one byte at a time" {
			want = data[:5000]
		}
		if !bytes.Equal(got, want) || !errors.Is(err, c.err) {
			t.Errorf("%s: %d bytes (equal %v), error %v; want %d bytes, %v", c.name, len(got), bytes.Equal(got, want), err, len(want), c.err)
		}
		ra.Close()
		select {
		case <-in.closed:
		case <-time.After(10 * time.Second):
			t.Errorf("%s: the input was not closed", c.name)
		}
	}
}

// TestReadAheadCloseDoesNotWait: closing while the goroutine waits on a
// live pipe returns at once; the input is closed when that read returns,
// and closing before the end stops the reading.
func TestReadAheadCloseDoesNotWait(t *testing.T) {
	pr, pw := io.Pipe()
	in := recorded(pr)
	ra := newReadAhead(in)
	pw.Write([]byte("first line\n"))
	buf := make([]byte, 64)
	if n, err := ra.Read(buf); string(buf[:n]) != "first line\n" || err != nil {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	done := make(chan struct{})
	go func() { ra.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for the pipe")
	}
	select {
	case <-in.closed:
		t.Fatal("the input was closed while a read was in progress")
	default:
	}
	pw.Write([]byte("second line\n")) // the read in progress returns
	select {
	case <-in.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the input was not closed after its read returned")
	}
	pw.Close()
}
