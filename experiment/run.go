package experiment

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tether-sc/tether/internal/atomicfile"
	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/progress"
)

// RunOptions control Run.
type RunOptions struct {
	// Workers is the number of cells run at once. If 0, GOMAXPROCS.
	Workers int
	// CacheDir holds one cache file per experiment (<name>.jsonl). If "",
	// nothing is cached.
	CacheDir string
	// Fresh ignores the cache and recomputes every cell. The new cache is
	// written beside the old one and replaces it only when every cell has
	// run: a cancelled fresh run leaves the old cache as it was (and drops
	// the cells it recomputed).
	Fresh bool
	// Recorder receives an event after each cell, with the time left
	// estimated from the cells run so far.
	Recorder progress.Recorder
}

// Stats says what Run did.
type Stats struct {
	Cells, Cached, Ran, Failed int
	Errors                     []string // one line per failed cell
	Elapsed                    time.Duration
}

// cacheLine is one cached cell. Elapsed is the wall time of the cell's
// Run in seconds, measured by Run for every cell (0 in lines written
// before it was recorded); it sits beside the values, not among them, so a
// cell's figures mean the same whatever the runner measures, and Estimate
// reads it.
type cacheLine struct {
	Key     string            `json:"key"`
	Values  map[string]string `json:"values"`
	Elapsed float64           `json:"elapsed,omitempty"`
}

// cachedCell is a cell read from the cache: its figures and the seconds
// its Run took (0 when not recorded).
type cachedCell struct {
	values  Values
	elapsed float64
}

func encodeValues(v Values) map[string]string {
	out := make(map[string]string, len(v))
	for k, x := range v {
		out[k] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return out
}

func decodeValues(m map[string]string) (Values, error) {
	out := make(Values, len(m))
	for k, s := range m {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, err
		}
		out[k] = x
	}
	return out, nil
}

// readCache loads the figures of the finished cells of a cache file (see
// readCacheCells).
func readCache(path string) (map[string]Values, error) {
	cells, err := readCacheCells(path)
	if err != nil {
		return nil, err
	}
	res := make(map[string]Values, len(cells))
	for k, c := range cells {
		res[k] = c.values
	}
	return res, nil
}

// readCacheCells loads the finished cells of a cache file; a missing file
// is an empty cache and a torn last line (from an interrupted write) is
// ignored. A key written twice keeps its last line.
func readCacheCells(path string) (map[string]cachedCell, error) {
	res := map[string]cachedCell{}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		var l cacheLine
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		v, err := decodeValues(l.Values)
		if err != nil {
			continue
		}
		res[l.Key] = cachedCell{values: v, elapsed: l.Elapsed}
	}
	return res, sc.Err()
}

// Run executes the cells of e not already cached, in parallel, then builds
// and writes the report into env.OutDir: its Files and its Claims as
// ClaimsFile, which BuildLedger gathers into the ledger. When ctx is cancelled, running cells
// are abandoned, finished ones stay cached, and ctx.Err() is returned without
// a report. Cells that fail are listed in Stats and left out of the report.
func Run(ctx context.Context, e Experiment, env *Env, opt RunOptions) (*Output, Stats, error) {
	start := time.Now()
	var st Stats
	cells, err := e.Cells(env)
	if err != nil {
		return nil, st, fmt.Errorf("experiment %s: %w", e.Name, err)
	}
	st.Cells = len(cells)
	seen := map[string]bool{}
	for _, c := range cells {
		if seen[c.Key] {
			return nil, st, fmt.Errorf("experiment %s: duplicate cell key %q", e.Name, c.Key)
		}
		seen[c.Key] = true
	}
	// The cache keys: a cell that reads datasets is cached under its key
	// and a digest of their files (dataDigests.cacheKey).
	digests := newDataDigests(env.dataRoot())
	keys := make(map[string]string, len(cells)) // Cell.Key → cache key
	for _, c := range cells {
		if keys[c.Key], err = digests.cacheKey(c); err != nil {
			return nil, st, fmt.Errorf("experiment %s: %w", e.Name, err)
		}
	}
	results := map[string]Values{}
	cached := map[string]Values{}
	var (
		cacheFile *os.File
		freshPath string // the new cache file of a fresh run, "" otherwise
	)
	if opt.CacheDir != "" {
		if err := os.MkdirAll(opt.CacheDir, 0o755); err != nil {
			return nil, st, err
		}
		path := filepath.Join(opt.CacheDir, e.Name+".jsonl")
		flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
		if opt.Fresh {
			// A fresh run writes beside the cache and replaces it only when
			// every cell has run (freshDone): an interrupted fresh run
			// leaves the old cache whole.
			freshPath = path + ".fresh"
			flags = os.O_CREATE | os.O_WRONLY | os.O_TRUNC
		} else if cached, err = readCache(path); err != nil {
			return nil, st, fmt.Errorf("experiment %s: cache: %w", e.Name, err)
		}
		if cacheFile, err = os.OpenFile(cmp.Or(freshPath, path), flags, 0o644); err != nil {
			return nil, st, err
		}
		defer func() {
			// Close is idempotent for our purpose: freshDone closes first
			// and a second Close only reports os.ErrClosed.
			cacheFile.Close()
			if freshPath != "" {
				os.Remove(freshPath) // gone already after a rename
			}
		}()
	}
	// Cached lines of no declared cell are handed to the report as they
	// are, as before the data digests, but for those keyed by a digest.
	for k, v := range cached {
		if !seen[k] && !strings.Contains(k, "#data=") {
			results[k] = v
		}
	}
	var todo []Cell
	for _, c := range cells {
		if v, ok := cached[keys[c.Key]]; ok {
			results[c.Key] = v
			st.Cached++
			continue
		}
		todo = append(todo, c)
	}
	var (
		mu sync.Mutex // guards st, results and cacheFile
		t0 = time.Now()
	)
	// A failed cell is recorded in st and the others go on: fn never
	// returns an error, and only cancellation stops the loop (checked
	// below).
	parallel.For(ctx, len(todo), opt.Workers, func(i int) error {
		c := todo[i]
		t := time.Now()
		reads := &dataReads{names: map[string]bool{}}
		v, err := runCell(context.WithValue(ctx, dataReadsKey{}, reads), c)
		elapsed := time.Since(t).Seconds()
		if u := reads.undeclared(c); err == nil && u != "" {
			// Its cache key would not change with those files.
			v, err = nil, fmt.Errorf("reads dataset(s) %s, not named in its Cell.Data", u)
		}
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if ctx.Err() == nil {
				st.Failed++
				st.Errors = append(st.Errors, fmt.Sprintf("%s: %v", c.Key, err))
			}
		} else {
			st.Ran++
			results[c.Key] = v
			if cacheFile != nil {
				b, _ := json.Marshal(cacheLine{Key: keys[c.Key], Values: encodeValues(v), Elapsed: elapsed})
				cacheFile.Write(append(b, '\n'))
			}
		}
		done := st.Ran + st.Failed
		left := time.Duration(float64(time.Since(t0)) / float64(done) * float64(len(todo)-done))
		progress.Send(opt.Recorder, progress.Event{Stage: e.Name, Done: st.Cached + done, Total: st.Cells,
			Message: fmt.Sprintf("ETA %s", left.Round(time.Second))})
		return nil
	})
	st.Elapsed = time.Since(start)
	if err := ctx.Err(); err != nil {
		return nil, st, err
	}
	if freshPath != "" {
		if err := freshDone(cacheFile, freshPath); err != nil {
			return nil, st, fmt.Errorf("experiment %s: cache: %w", e.Name, err)
		}
	}
	out, err := e.Report(env, results)
	if err != nil {
		return nil, st, fmt.Errorf("experiment %s: report: %w", e.Name, err)
	}
	if env.OutDir != "" {
		if err := os.MkdirAll(env.OutDir, 0o755); err != nil {
			return nil, st, err
		}
		files := map[string][]byte{}
		for name, b := range out.Files {
			files[name] = b
		}
		// The claims, for the ledger (BuildLedger), even when there are
		// none: an empty list says the experiment ran.
		if files[ClaimsFile], err = encodeClaims(out.Claims); err != nil {
			return nil, st, fmt.Errorf("experiment %s: %w", e.Name, err)
		}
		if err := writeAll(ctx, env.OutDir, files); err != nil {
			return nil, st, fmt.Errorf("experiment %s: %w", e.Name, err)
		}
	}
	return out, st, nil
}

// writeAll writes files (by name) into dir all or none: each is staged
// (atomicfile.Stage), and they are put in place together once all are
// written, the renames not interrupted by a cancelled ctx (they are
// fast), so that an interrupt or a failed write leaves none of them and
// the CSV files and figures never disagree with each other (the page,
// which Run's caller writes afterwards, is not among them). Files are
// written in name order.
func writeAll(ctx context.Context, dir string, files map[string][]byte) error {
	var staged []*atomicfile.Pending
	discard := func() {
		for _, p := range staged {
			p.Discard()
		}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		b := files[name]
		p, err := atomicfile.Stage(ctx, filepath.Join(dir, name), func(w io.Writer) error {
			_, err := w.Write(b)
			return err
		})
		if err != nil {
			discard()
			return err
		}
		staged = append(staged, p)
	}
	commit := context.WithoutCancel(ctx)
	for i, p := range staged {
		if err := p.Commit(commit); err != nil {
			staged = staged[i+1:]
			discard()
			return err
		}
	}
	return nil
}

// freshDone makes the finished cache file f of a fresh run, written at
// freshPath, the experiment's cache: it flushes f to disk and renames it
// over the cache (freshPath without ".fresh"), so a reader sees the old
// cache or the new one, never a part.
func freshDone(f *os.File, freshPath string) error {
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(freshPath, strings.TrimSuffix(freshPath, ".fresh"))
}

// runCell runs one cell, turning a panic into an error so one bad cell does
// not take the whole run down, and rejecting NaN figures.
func runCell(ctx context.Context, c Cell) (v Values, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	v, err = c.Run(ctx)
	if err != nil {
		return nil, err
	}
	for k, x := range v {
		if math.IsNaN(x) {
			return nil, fmt.Errorf("figure %q is NaN", k)
		}
	}
	return v, nil
}
