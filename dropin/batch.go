package dropin

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/sanitrace/sanitrace/modcache"
)

// Batch sizes: a batch is at most maxBatch stdin lines, cut into chunks of
// batchChunk answers that the workers take in turn. Answers of big C++
// binaries run to kilobytes: there a batch has fewer lines, so that its
// answers come to about batchBytes (see batcher.limit). Two batches of
// chunk buffers stay allocated at their largest: at 1 MB, cpp-heavy's
// held 7.8 MB of its live heap at the end of 100,000 queries. At 512 KB
// (114 of its lines, 8 chunks for the workers) its peak RSS is 3 MiB
// lower for no more CPU; 256 KB saved 1.6 MiB more for about 5% more CPU
// (twice the batches' hand-offs).
const (
	firstBatch    = 512
	maxBatch      = 1024
	batchBytes    = 512 << 10
	batchChunk    = 16
	minParallel   = 2 * batchChunk // smaller batches are answered inline
	maxBatchProcs = 8
	// directWriteMin: answer chunks at least this big bypass the stdout
	// buffer. A chunk of 16 C++ answers runs to tens of KB (cpp-heavy writes
	// 458 MB for 100,000 addresses): copying it through the buffer cost
	// about a seventh of that workload's time.
	directWriteMin = 32 << 10
)

// batcher answers the stdin lines that were already buffered together. The
// lines are classified in order on the session's goroutine: a query for a
// module that is already open is a job; anything else (a new module to
// open, an invalid or over-long line) is answered in place, after the jobs
// before it, so stdout and stderr keep the sequential order. Jobs are
// answered in parallel by workers with their own printers into per-chunk
// buffers, which are then written in input order. Module lookups must
// therefore be safe for concurrent use, as *symbolize.Object's are.
type batcher struct {
	s   *llvmSession
	out *bufio.Writer
	raw io.Writer // what out buffers, written to directly for big chunks
	// directMin: a chunk of at least this many bytes is written to raw
	// (after flushing out) instead of being copied through out's buffer.
	directMin int
	lines     []batchLine
	jobs      []batchJob
	// limit is how many lines make a batch: firstBatch until a parallel
	// batch was answered, then maxBatch, or fewer when the last one's
	// answers averaged more than batchBytes/maxBatch bytes. Two batches
	// of answers are held at once (one answered, one written), in chunk
	// buffers that keep their size: at 512 lines, cpp-heavy's 4.6 KB
	// answers held 15 MB of its live heap. The first batch indexes most of
	// what a session keeps, before the session's collector policy starts
	// (llvmSession.gc): at 1,024 lines, cpp-heavy's peak RSS
	// was 11 MB higher.
	limit int

	workers []*batchWorker
	chunks  []bytes.Buffer // the batch being answered
	spare   []bytes.Buffer // the chunks of the batch being written, then free

	// written is closed when the in-flight write of the previous batch is
	// done; nil when none is in flight. Writing batch N while batch N+1 is
	// answered keeps both cores busy on big outputs (hundreds of MB of C++
	// names); everything else that writes to out waits for it (drain).
	written chan struct{}
	// inFlight are the jobs the workers are answering (answering counts
	// the workers still at it); nil when none are. spareJobs is the other
	// job list, reused.
	inFlight, spareJobs []batchJob
	answering           sync.WaitGroup
}

type batchLine struct {
	text    string
	tooLong bool
}

type batchJob struct {
	cmd command
	r   request
	mod modcache.Lease // released once the batch is answered
	// shared: mod is the job before's lease (the same module), released
	// with that job.
	shared bool
	addr   uint64
}

// batchWorker is one worker's printer; dst is retargeted per chunk.
type batchWorker struct {
	dst *bytes.Buffer
	p   printer
}

func (w *batchWorker) Write(b []byte) (int, error) { return w.dst.Write(b) }

// target points the worker at a chunk (nil: none). A plain-text printer
// then builds its answers in the chunk itself rather than copying each
// one in.
func (w *batchWorker) target(dst *bytes.Buffer) {
	w.dst = dst
	if p, ok := w.p.(*plainPrinter); ok {
		p.writeInto(dst)
	}
}

func newBatcher(s *llvmSession, out *bufio.Writer, raw io.Writer, directMin int) *batcher {
	b := &batcher{s: s, out: out, raw: raw, directMin: directMin, limit: firstBatch}
	n := min(runtime.GOMAXPROCS(0), maxBatchProcs)
	if n > 1 {
		for i := 0; i < n; i++ {
			w := &batchWorker{}
			w.p = newPrinter(s.cfg.print, w, s.errOut)
			b.workers = append(b.workers, w)
		}
	}
	return b
}

func (b *batcher) add(line string, tooLong bool) {
	b.lines = append(b.lines, batchLine{line, tooLong})
}

func (b *batcher) full() bool { return len(b.lines) >= b.limit }

// drain waits until every answer is written to out (the batch being
// answered and the one being written), so out can be used (or flushed)
// by the caller.
func (b *batcher) drain() {
	b.finishAnswering()
	b.drainWrite()
}

// drainWrite waits for the write of the last finished batch, if any.
func (b *batcher) drainWrite() {
	if b.written != nil {
		<-b.written
		b.written = nil
	}
}

// run answers every line added since the last run. The answers of its last
// parallel batch may still be being written: drain before touching out.
func (b *batcher) run() {
	for i, l := range b.lines {
		if !l.tooLong && b.tryJob(l.text) {
			continue
		}
		b.runJobs()
		b.drain()
		if l.tooLong {
			b.s.reject(fmt.Sprintf("line of more than %d bytes", maxQueryLine))
		} else {
			// A module this line opens serves the lines after it too.
			b.s.more = i+1 < len(b.lines)
			b.s.answerStdin(l.text)
			b.s.more = false
		}
	}
	b.runJobs()
	b.lines = b.lines[:0]
}

// tryJob queues line as a job if it is a valid query for an open module.
func (b *batcher) tryJob(line string) bool {
	s := b.s
	q, ok := parseQuery(stripNewlines(line), s.cfg.obj)
	if !ok {
		return false
	}
	addr := q.offset - s.cfg.adjustVMA
	r := request{module: q.moduleName(), addr: q.offset, hasAddr: true}
	if n := len(b.jobs); n > 0 && b.jobs[n-1].r.module == r.module {
		// The module of the job before, still the cache's most recent:
		// its lease serves this job too (a lease a query was a tenth of
		// the batch's own work on a small binary).
		b.jobs = append(b.jobs, batchJob{cmd: q.cmd, r: r, mod: b.jobs[n-1].mod, shared: true, addr: addr})
		return true
	}
	// In input order, as answering the line in place would, this
	// updates the cache's recency.
	mod, open := s.modules.resident(q.module)
	if !open {
		return false
	}
	b.jobs = append(b.jobs, batchJob{cmd: q.cmd, r: r, mod: mod, addr: addr})
	return true
}

// runJobs starts answering the queued jobs; their answers are written in
// order. A parallel batch is answered by the workers' goroutines while
// the session's goroutine reads and sorts the next lines (a fifth of a
// small binary's work: left to it alone, one core idled through it); the
// batch is finished (its answers handed to the writer, its leases
// released) when the next one starts or when drain is called.
func (b *batcher) runJobs() {
	b.finishAnswering()
	jobs := b.jobs
	if len(jobs) == 0 {
		return
	}
	if len(jobs) < minParallel || len(b.workers) < 2 {
		b.drain()
		for _, j := range jobs {
			b.s.respond(b.s.printer, j.cmd, j.r, j.mod.Obj, j.addr)
		}
		releaseJobs(jobs)
		b.jobs = jobs[:0]
		return
	}
	b.s.startGC()
	n := (len(jobs) + batchChunk - 1) / batchChunk
	for len(b.chunks) < n {
		b.chunks = append(b.chunks, bytes.Buffer{})
	}
	chunks := b.chunks[:n]
	var next atomic.Int32
	work := func(w *batchWorker) {
		for {
			c := int(next.Add(1)) - 1
			if c >= n {
				w.target(nil)
				return
			}
			chunks[c].Reset()
			w.target(&chunks[c])
			for _, j := range jobs[c*batchChunk : min((c+1)*batchChunk, len(jobs))] {
				b.s.respond(w.p, j.cmd, j.r, j.mod.Obj, j.addr)
			}
		}
	}
	b.answering.Add(len(b.workers))
	for _, w := range b.workers {
		go func() {
			defer b.answering.Done()
			work(w)
		}()
	}
	b.inFlight, b.jobs = jobs, b.spareJobs[:0]
	if b.limit < maxBatch {
		// Answers of kilobytes (C++ names): a batch's lines are few and
		// quickly sorted, and answering the next batch's beside this
		// one's writes raised cpp-heavy's peak RSS by 1.2 MB.
		b.finishAnswering()
	}
}

// finishAnswering waits for the batch the workers are answering, if any,
// and hands its answers to the writer.
func (b *batcher) finishAnswering() {
	jobs := b.inFlight
	if jobs == nil {
		return
	}
	b.answering.Wait()
	b.inFlight = nil
	releaseJobs(jobs)
	b.spareJobs = jobs[:0]
	b.drainWrite()
	n := (len(jobs) + batchChunk - 1) / batchChunk
	chunks := b.chunks[:n]
	size := 0
	for c := range chunks {
		size += chunks[c].Len()
	}
	// As many lines as this batch's answers say fit the budget.
	b.limit = int(min(int64(maxBatch), int64(len(jobs))*int64(b.s.batchBytes)/int64(max(size, 1))))
	b.limit = max(b.limit, minParallel)
	if keep := (b.limit + batchChunk - 1) / batchChunk; 2*keep < len(b.spare) {
		// The chunk buffers that batches half the size will not use are
		// let go (the spare ones are written already; this batch's are
		// once they have been, as the next spare ones). Only then: letting
		// go of every one unused as batch sizes moved made cpp-heavy
		// allocate and zero them again (6% of its CPU).
		clear(b.spare[keep:])
		b.spare = b.spare[:keep]
	}
	done := make(chan struct{})
	b.written = done
	go func() {
		defer close(done)
		for c := range chunks {
			data := chunks[c].Bytes()
			if len(data) >= b.directMin {
				// Big C++ answers: a chunk of tens of KB goes to the file
				// as it is instead of being copied through the buffer
				// (hundreds of MB of output on cpp-heavy).
				if b.out.Flush() == nil {
					b.raw.Write(data)
					continue
				}
			}
			b.out.Write(data)
		}
	}()
	b.chunks, b.spare = b.spare, b.chunks
}

// releaseJobs releases the jobs' module leases and clears them.
func releaseJobs(jobs []batchJob) {
	for i := range jobs {
		if !jobs[i].shared {
			jobs[i].mod.Release()
		}
	}
	clear(jobs)
}
