package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/progress"
)

// countedFile is an input file whose reads are reported to a recorder as
// the stage "reading PATH": Done MiB of Total, the file's size in MiB
// rounded up (0 when unknown: a pipe, a FIFO), at most once per MiB, and
// Done = Total at the end of the file. The readers of the large inputs
// (edge lists, constraint files) take seconds on files of 10⁷ lines, and
// their parsers, in packages that report nothing, may work on the whole
// file after its end (an edge list is parsed once read: 80% of the 5.6 s
// of an edge list of 3·10⁶ named edges): from the end of the file until
// Close, a heartbeat repeats "after, N MiB read" every heartbeatEvery, so
// that the recorder shows the step alive with its elapsed time, and Close
// then records the end of the file again, so that the last line printed
// is the complete one, with the time of the whole. Counting what is read
// is the cheap hook the CLI has.
type countedFile struct {
	f     *inputfile.File
	rec   progress.Recorder
	stage string
	after string
	total int // MiB, rounded up; 0 when unknown

	mu    sync.Mutex
	n     int64 // bytes read
	sent  int64 // MiB last reported
	ended bool  // the end of the file was reached
	beats bool  // the heartbeat recorded an event
	stop  chan struct{}
	once  sync.Once // closes stop
	wg    sync.WaitGroup
}

// heartbeatEvery is the interval of countedFile's heartbeat after the end
// of the file.
const heartbeatEvery = 250 * time.Millisecond

// openCounted opens path as inputfile.Open does (a FIFO without a writer
// waits until ctx is cancelled) for reads reported to rec (countedFile;
// after names what the reader does once the file is read, "parsing").
// The first event (0 MiB) is sent at once, which starts the stage's
// clock. Close the file to stop the heartbeat. The error is
// inputfile.Open's.
func openCounted(ctx context.Context, path string, rec progress.Recorder, after string) (*countedFile, error) {
	return openCountedAs(ctx, path, "reading "+path, rec, after)
}

// openCountedAs is openCounted with the stage named stage.
func openCountedAs(ctx context.Context, path, stage string, rec progress.Recorder, after string) (*countedFile, error) {
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	c := &countedFile{f: f, rec: rec, stage: stage, after: after, stop: make(chan struct{})}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		c.total = int((st.Size() + 1<<20 - 1) >> 20)
	}
	rec.Record(progress.Event{Stage: c.stage, Total: c.total, Message: "MiB"})
	return c, nil
}

// Read implements io.Reader.
func (c *countedFile) Read(p []byte) (int, error) {
	k, err := c.f.Read(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += int64(k)
	switch {
	case c.ended:
	case err == io.EOF:
		c.ended = true
		c.rec.Record(c.end())
		c.wg.Add(1)
		go c.heartbeat()
	case c.n>>20 > c.sent:
		c.sent = c.n >> 20
		c.rec.Record(progress.Event{Stage: c.stage, Done: int(c.sent), Total: c.total, Message: "MiB"})
	}
	return k, err
}

// end is the event of the end of the file: the MiB read of the total, or
// of themselves when the size is unknown. c.mu is held.
func (c *countedFile) end() progress.Event {
	done := c.total
	if done == 0 {
		done = int(c.mib())
	}
	return progress.Event{Stage: c.stage, Done: done, Total: c.total, Message: "MiB"}
}

// mib is the MiB read, rounded up. c.mu is held.
func (c *countedFile) mib() int64 { return (c.n + 1<<20 - 1) >> 20 }

// heartbeat records "after, N MiB read" every heartbeatEvery until Close.
func (c *countedFile) heartbeat() {
	defer c.wg.Done()
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			c.mu.Lock()
			msg := fmt.Sprintf("%s, %d MiB read", c.after, c.mib())
			c.beats = true
			c.mu.Unlock()
			c.rec.Record(progress.Event{Stage: c.stage, Message: msg})
		}
	}
}

// quiet stops the heartbeat, or keeps it from starting: for a parser
// that reports its own progress once the file is read.
func (c *countedFile) quiet() { c.once.Do(func() { close(c.stop) }) }

// Close stops the heartbeat, records the end of the file again if the
// heartbeat recorded anything, and closes the file.
func (c *countedFile) Close() error {
	c.quiet()
	c.wg.Wait()
	c.mu.Lock()
	if c.beats {
		c.rec.Record(c.end())
	}
	c.mu.Unlock()
	return c.f.Close()
}

// countedOpener returns an opener for input.Supervision.Open: openCounted
// on rec, with "checking" as what follows the end of a file.
func countedOpener(rec progress.Recorder) func(ctx context.Context, name string) (io.ReadCloser, error) {
	return func(ctx context.Context, name string) (io.ReadCloser, error) {
		f, err := openCounted(ctx, name, rec, "checking")
		if err != nil {
			return nil, err
		}
		return f, nil
	}
}

// readTableReported reads the feature table path as input.ReadTableFile
// does, each parse of a regular file reading it through openCountedAs
// (the stage "reading PATH" in MiB; a later parse, once the class or
// names column is found, as "reading PATH, parse N"), then reporting the
// parse of its lines as the stage "parsing PATH" (or "parsing PATH,
// parse N") in thousandths through its steps (dataset.Options.Recorder),
// which ends the file's heartbeat, and the whole as the step "reading
// PATH": a table of 10⁶ rows took 7 s without a word, then a second or
// more of parse after its last MiB with only the heartbeat. A pipe's
// parse reports as a file's, its reading as input.ReadTableFile reads
// it; a folder of images reports nothing but the step.
func readTableReported(ctx context.Context, path string, opt dataset.Options, rec *stderrRecorder) (*input.Data, error) {
	defer rec.step("reading " + path)()
	// The parses run one after the other, each after its open: the
	// recorder of the parse reads the state of the latest open.
	var mu sync.Mutex
	parses := 0
	var cur *countedFile // the file of the latest parse; nil for a pipe
	suffix := func() string {
		if parses > 1 {
			return fmt.Sprintf(", parse %d", parses)
		}
		return ""
	}
	opt.Recorder = progress.Func(func(e progress.Event) {
		mu.Lock()
		f, stage := cur, "parsing "+path+suffix()
		mu.Unlock()
		if f != nil {
			f.quiet()
		}
		e.Stage = stage
		rec.Record(e)
	})
	return input.ReadTableFileOpen(ctx, path, opt, func(ctx context.Context, name string) (io.ReadCloser, error) {
		mu.Lock()
		defer mu.Unlock()
		parses++
		f, err := openCountedAs(ctx, name, "reading "+name+suffix(), rec, "parsing")
		if err != nil {
			return nil, err
		}
		cur = f
		return f, nil
	})
}

// readGraphReported reads the graph file path as input.ReadGraphFile
// does, its reading reported to rec (openCounted, then "parsing" until
// the graph is made) and the whole as the step "reading PATH": an edge
// list of 2·10⁶ named nodes takes seconds. An edge list's parse reports
// its own fraction (dataset.GraphOptions.Recorder: the stage "parsing
// PATH"), which ends the heartbeat.
func readGraphReported(ctx context.Context, path string, opt dataset.GraphOptions, rec *stderrRecorder) (*input.Data, error) {
	defer rec.step("reading " + path)()
	f, err := openCounted(ctx, path, rec, "parsing")
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err) // as dataset.ReadGraphFileOptions says it
	}
	defer f.Close()
	opt.Recorder = progress.Func(func(e progress.Event) {
		f.quiet()
		rec.Record(e)
	})
	return input.ReadGraphReader(ctx, f, path, opt)
}
