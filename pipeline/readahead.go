package pipeline

import "io"

// readAhead reads an input on a goroutine of its own, a few blocks ahead
// of the parser. The parser's goroutine is decode's critical path on a
// large log: a compressed log's decompression then runs beside it instead
// of in it (decode uses it for those only: a plain log's read costs less
// than the hand-over). A block is handed over as soon as a read returns,
// so a live pipe still streams line by line.
//
// The goroutine owns the input: it closes it when it stops, so that a
// Close while it waits on a live pipe neither blocks nor races with the
// read (it stops when that read returns).
type readAhead struct {
	blocks chan []byte // filled blocks, in order
	free   chan []byte // emptied blocks, back to the goroutine
	done   chan struct{}
	err    error  // the input's last error (io.EOF at its end), set before blocks closes
	cur    []byte // what is left of the block being read out
	curBuf []byte // that block's buffer, returned to free when emptied
}

const (
	readAheadBlock  = 256 << 10
	readAheadBlocks = 4
)

func newReadAhead(rc io.ReadCloser) *readAhead {
	ra := &readAhead{
		blocks: make(chan []byte, readAheadBlocks),
		free:   make(chan []byte, readAheadBlocks+1),
		done:   make(chan struct{}),
	}
	for range readAheadBlocks + 1 {
		ra.free <- make([]byte, readAheadBlock)
	}
	go ra.fill(rc)
	return ra
}

// fill reads rc into free blocks until an error or Close, then closes rc.
func (ra *readAhead) fill(rc io.ReadCloser) {
	defer rc.Close()
	defer close(ra.blocks)
	for !ra.closed() {
		var buf []byte
		select {
		case buf = <-ra.free:
		case <-ra.done:
			return
		}
		n, err := rc.Read(buf)
		if ra.closed() {
			return
		}
		if n > 0 {
			select {
			case ra.blocks <- buf[:n]:
			case <-ra.done:
				return
			}
		} else {
			ra.free <- buf
		}
		if err != nil {
			ra.err = err
			return
		}
	}
}

// closed reports whether Close was called (a select between done and a
// ready channel would pick either).
func (ra *readAhead) closed() bool {
	select {
	case <-ra.done:
		return true
	default:
		return false
	}
}

// Read copies out of the current block, waiting for the next one when it
// is empty; after the last block it returns the input's error.
func (ra *readAhead) Read(p []byte) (int, error) {
	if len(ra.cur) == 0 {
		if ra.curBuf != nil {
			ra.free <- ra.curBuf[:cap(ra.curBuf)]
			ra.curBuf = nil
		}
		b, ok := <-ra.blocks
		if !ok {
			return 0, ra.err
		}
		ra.cur, ra.curBuf = b, b
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}

// Close stops the goroutine, which closes the input once its read in
// progress returns.
func (ra *readAhead) Close() error {
	close(ra.done)
	return nil
}
