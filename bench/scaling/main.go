// Command scaling measures how tether's methods scale with the number of
// points: wall-clock time and peak memory against n, each (method, n) in a
// process of its own so that its peak RSS is its own, from 10³ to 10⁶
// points, and scikit-learn's SpectralClustering where it runs.
//
// The data are 5 Gaussian blobs in 10-D with standard deviation 4 (the
// data of bench/compare_sklearn.sh), and every method clusters the binary
// 10-NN graph of scikit-learn's affinity="nearest_neighbors" (graph.Spec
// SklearnKNN, Binary, the default k-NN search: approximate from 10⁵
// points). Supervision: FGPWC and FAST-GE get the pairs of seed 003 §5.1
// (each pair with probability 1/n: about n/2 pairs), label propagation 1%
// of the labels. FGPWC uses m = 50 (BenchmarkFGPWC100k's choice), the other
// methods their defaults.
//
// A method stops at the first size that fails or takes longer than
// -timeout; the sizes after it are not run. The command writes
// OUT/scaling.csv, OUT/scaling.png (log-log time and memory) and a Markdown
// table with fitted exponents on standard output: the slope of log time
// and of log memory against log n, fitted by least squares over the sizes
// n ≥ 10⁴ that completed, and the n at which the fitted curves reach the
// machine's limits (-mem-limit, -time-limit). With -update the rows of
// the existing OUT/scaling.csv for the methods not measured are kept, so
// one method can be re-measured after a change (the figure and table then
// mix days: say so where they are quoted).
//
// Heavy: on the shared machine run it under flock /work/bench.lock.
//
// Usage: go run ./bench/scaling [-methods njw,fgpwc,labelprop,fast-ge,sklearn] [-n 1000,3000,...] [-timeout 10m] [-update] [-o docs/scaling]
package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/figure"
	"github.com/tether-sc/tether/metrics"
)

// childResult is what a child process prints.
type childResult struct {
	GraphSecs   float64 `json:"graph_seconds"`
	ClusterSecs float64 `json:"cluster_seconds"`
	ARI         float64 `json:"ari"`
	Edges       int     `json:"edges"`
	Pairs       int     `json:"pairs,omitempty"`
}

// row is one measured (method, n).
type row struct {
	method       string
	n            int
	wall         float64 // whole process, data generation included
	graph, clust float64
	ari          float64
	rssMB        float64
	status       string // "ok", "timeout" or the error
	pairs        int
}

func main() {
	one := flag.String("one", "", "internal: run one method in this process")
	size := flag.Int("size", 0, "internal: n of -one or -csv")
	csvOut := flag.String("csv", "", "internal: write the blobs of -size to this CSV file")
	methods := flag.String("methods", "njw,fgpwc,labelprop,fast-ge,sklearn", "methods to measure (sklearn: scikit-learn's SpectralClustering)")
	sizes := flag.String("n", "1000,3000,10000,30000,100000,300000,1000000", "comma-separated sizes")
	timeout := flag.Duration("timeout", 10*time.Minute, "largest time per run; a method stops at the first run beyond it")
	out := flag.String("o", "docs/scaling", "output folder")
	memLimit := flag.Float64("mem-limit", 24, "machine memory, GB")
	timeLimit := flag.Duration("time-limit", time.Hour, "time budget a run may take on the machine")
	skMax := flag.Int("sklearn-max", 300_000, "largest n given to scikit-learn")
	update := flag.Bool("update", false, "keep the rows of -o's scaling.csv for the methods not measured now, replacing those of the methods measured")
	flag.Parse()
	ctx := context.Background()
	switch {
	case *one != "":
		if err := runOne(ctx, *one, *size); err != nil {
			fmt.Fprintln(os.Stderr, "scaling:", err)
			os.Exit(1)
		}
		return
	case *csvOut != "":
		if err := writeCSV(*csvOut, *size); err != nil {
			fmt.Fprintln(os.Stderr, "scaling:", err)
			os.Exit(1)
		}
		return
	}
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < 10 {
			fmt.Fprintf(os.Stderr, "scaling: bad size %q\n", s)
			os.Exit(2)
		}
		ns = append(ns, v)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "scaling:", err)
		os.Exit(1)
	}
	var rows []row
	for _, m := range strings.Split(*methods, ",") {
		for _, n := range ns {
			if m == "sklearn" && n > *skMax {
				break
			}
			r := measure(ctx, m, n, *timeout)
			rows = append(rows, r)
			fmt.Fprintf(os.Stderr, "%-10s n=%-8d %-8s wall %7.1fs graph %6.1fs clustering %7.1fs ARI %.4f RSS %6.0f MB\n",
				r.method, r.n, r.status, r.wall, r.graph, r.clust, r.ari, r.rssMB)
			if r.status != "ok" {
				break
			}
		}
	}
	if *update {
		old, err := readRows(filepath.Join(*out, "scaling.csv"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "scaling:", err)
			os.Exit(1)
		}
		rows = mergeRows(old, rows)
	}
	if err := writeRows(filepath.Join(*out, "scaling.csv"), rows); err != nil {
		fmt.Fprintln(os.Stderr, "scaling:", err)
		os.Exit(1)
	}
	if err := plotRows(ctx, filepath.Join(*out, "scaling.png"), rows); err != nil {
		fmt.Fprintln(os.Stderr, "scaling:", err)
		os.Exit(1)
	}
	printTable(rows, *memLimit, *timeLimit)
}

// measure runs method at size n in a child process and reads its peak RSS
// from the kernel's accounting of the child (ru_maxrss, in KB on Linux).
func measure(ctx context.Context, method string, n int, timeout time.Duration) row {
	r := row{method: method, n: n, status: "ok"}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var cmd *exec.Cmd
	var data string
	if method == "sklearn" {
		f, err := os.CreateTemp("", "scaling-*.csv")
		if err != nil {
			r.status = err.Error()
			return r
		}
		data = f.Name()
		f.Close()
		defer os.Remove(data)
		if err := exec.CommandContext(ctx, os.Args[0], "-csv", data, "-size", strconv.Itoa(n)).Run(); err != nil {
			r.status = "csv: " + err.Error()
			return r
		}
		// Debian's interpreter, which python3-sklearn installs into (as
		// bench/compare_sklearn.sh).
		cmd = exec.CommandContext(ctx, "/usr/bin/python3", "bench/sklearn_spectral.py", data, "5")
	} else {
		cmd = exec.CommandContext(ctx, os.Args[0], "-one", method, "-size", strconv.Itoa(n))
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err := cmd.Run()
	r.wall = time.Since(t0).Seconds()
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.rssMB = float64(ru.Maxrss) / 1024
		}
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		r.status = "timeout"
		return r
	case err != nil:
		r.status = strings.TrimSpace(lastLine(stderr.String()))
		if r.status == "" {
			r.status = err.Error()
		}
		return r
	}
	if method == "sklearn" {
		var js struct {
			Seconds float64 `json:"seconds"`
			ARI     float64 `json:"ari"`
		}
		if err := json.Unmarshal([]byte(stdout.String()), &js); err != nil {
			r.status = "bad output: " + err.Error()
			return r
		}
		// scikit-learn builds its graph inside fit_predict.
		r.clust, r.ari = js.Seconds, js.ARI
		return r
	}
	var c childResult
	if err := json.Unmarshal([]byte(stdout.String()), &c); err != nil {
		r.status = "bad output: " + err.Error()
		return r
	}
	r.graph, r.clust, r.ari, r.pairs = c.GraphSecs, c.ClusterSecs, c.ARI, c.Pairs
	return r
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// data are the points of the study and their blobs.
type data struct {
	X      *mat.Dense
	Labels []int
}

// blobs returns the data of the study: 5 blobs in 10-D, std 4, seed 1.
func blobs(n int) (*data, error) {
	x, truth, err := synth.Blobs(n, 5, 10, 4, rand.NewPCG(1, 1))
	if err != nil {
		return nil, err
	}
	return &data{X: x, Labels: truth}, nil
}

// runOne clusters the blobs of size n with method and prints a childResult.
func runOne(ctx context.Context, method string, n int) error {
	d, err := blobs(n)
	if err != nil {
		return err
	}
	t0 := time.Now()
	g, err := graph.Build(ctx, d.X, graph.Spec{Kind: graph.SklearnKNN, K: 10, Affinity: graph.Binary, Seed: 1})
	if err != nil {
		return err
	}
	res := childResult{GraphSecs: time.Since(t0).Seconds(), Edges: g.NNZ()}
	p := &cluster.Problem{Graph: g, K: 5}
	var meth cluster.Method
	switch method {
	case "njw":
		meth = cluster.NJW{}
	case "fgpwc", "fast-ge":
		set, err := constraint.BernoulliPairsContext(ctx, d.Labels, 1/float64(n), rand.NewPCG(2, 2))
		if err != nil {
			return err
		}
		p.Constraints, res.Pairs = set, len(set.Pairs)
		if method == "fgpwc" {
			f := cluster.NewFGPWC()
			f.M = 50
			meth = f
		} else {
			meth = cluster.FastGE{}
		}
	case "labelprop":
		l, err := constraint.FractionLabelsContext(ctx, d.Labels, 0.01, rand.NewPCG(3, 3))
		if err != nil {
			return err
		}
		p.Labels = l
		meth = cluster.LabelProp{}
	default:
		return fmt.Errorf("unknown method %q", method)
	}
	t0 = time.Now()
	r, err := cluster.Run(ctx, meth, p, &cluster.Settings{Seed: 1})
	if err != nil {
		return err
	}
	res.ClusterSecs = time.Since(t0).Seconds()
	if res.ARI, err = metrics.ARI(d.Labels, r.Labels); err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}

// writeCSV writes the blobs of size n as tether gen does: a header, the
// features, the label last.
func writeCSV(path string, n int) error {
	d, err := blobs(n)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	_, dim := d.X.Dims()
	head := make([]string, dim+1)
	for c := range dim {
		head[c] = fmt.Sprintf("x%d", c+1)
	}
	head[dim] = "label"
	w.Write(head)
	rec := make([]string, dim+1)
	for i := range n {
		for c, v := range d.X.RawRowView(i) {
			rec[c] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		rec[dim] = strconv.Itoa(d.Labels[i])
		w.Write(rec)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeRows(path string, rows []row) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write([]string{"method", "n", "status", "wall_seconds", "graph_seconds", "clustering_seconds", "ari", "peak_rss_mb", "pairs"})
	for _, r := range rows {
		w.Write([]string{r.method, strconv.Itoa(r.n), r.status, fmt.Sprintf("%.2f", r.wall), fmt.Sprintf("%.2f", r.graph),
			fmt.Sprintf("%.2f", r.clust), fmt.Sprintf("%.4f", r.ari), fmt.Sprintf("%.0f", r.rssMB), strconv.Itoa(r.pairs)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// readRows reads a scaling.csv that writeRows wrote.
func readRows(path string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var rows []row
	for i, rec := range recs {
		if i == 0 {
			continue
		}
		if len(rec) != 9 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 9", path, i+1, len(rec))
		}
		r := row{method: rec[0], status: rec[2]}
		nums := []*float64{&r.wall, &r.graph, &r.clust, &r.ari, &r.rssMB}
		for k, field := range rec[3:8] {
			if *nums[k], err = strconv.ParseFloat(field, 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
			}
		}
		if r.n, err = strconv.Atoi(rec[1]); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		if r.pairs, err = strconv.Atoi(rec[8]); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// mergeRows returns old with the rows of every method in now replaced by
// now's, at the place of that method's first old row (at the end for a
// method old does not have).
func mergeRows(old, now []row) []row {
	measured := map[string][]row{}
	for _, r := range now {
		measured[r.method] = append(measured[r.method], r)
	}
	var out []row
	done := map[string]bool{}
	for _, r := range old {
		rs, ok := measured[r.method]
		switch {
		case !ok:
			out = append(out, r)
		case !done[r.method]:
			out = append(out, rs...)
			done[r.method] = true
		}
	}
	for _, r := range now {
		if !done[r.method] {
			out = append(out, measured[r.method]...)
			done[r.method] = true
		}
	}
	return out
}

// series returns the completed runs of each method, in order of first
// appearance.
func series(rows []row) (names []string, by map[string][]row) {
	by = map[string][]row{}
	for _, r := range rows {
		if _, ok := by[r.method]; !ok {
			names = append(names, r.method)
			by[r.method] = nil
		}
		if r.status == "ok" {
			by[r.method] = append(by[r.method], r)
		}
	}
	return names, by
}

func plotRows(ctx context.Context, path string, rows []row) error {
	names, by := series(rows)
	var ts, ms []figure.Series
	for _, m := range names {
		var x, t, mem []float64
		for _, r := range by[m] {
			x = append(x, float64(r.n))
			t = append(t, r.wall)
			mem = append(mem, r.rssMB)
		}
		if len(x) == 0 {
			continue
		}
		ts = append(ts, figure.Series{Name: m, X: x, Y: t})
		ms = append(ms, figure.Series{Name: m, X: x, Y: mem})
	}
	pt, err := figure.Lines(figure.LineChart{Title: "time (whole process)", XLabel: "n (points)", YLabel: "seconds", Series: ts})
	if err != nil {
		return err
	}
	pm, err := figure.Lines(figure.LineChart{Title: "peak memory (RSS)", XLabel: "n (points)", YLabel: "MB", Series: ms})
	if err != nil {
		return err
	}
	for _, p := range []*plot.Plot{pt, pm} {
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	}
	return figure.SavePNG(ctx, path, 5*vg.Inch, 4*vg.Inch, pt, pm)
}

// fit returns the least-squares slope and intercept of log y against log x.
func fit(x, y []float64) (slope, icept float64, ok bool) {
	if len(x) < 2 {
		return 0, 0, false
	}
	var sx, sy, sxx, sxy float64
	for i := range x {
		lx, ly := math.Log(x[i]), math.Log(y[i])
		sx += lx
		sy += ly
		sxx += lx * lx
		sxy += lx * ly
	}
	m := float64(len(x))
	den := m*sxx - sx*sx
	if den == 0 {
		return 0, 0, false
	}
	slope = (m*sxy - sx*sy) / den
	return slope, (sy - slope*sx) / m, true
}

// reach returns the n at which the fitted power law a·n^b reaches limit.
func reach(slope, icept, limit float64) float64 {
	if slope <= 0 {
		return math.Inf(1)
	}
	return math.Exp((math.Log(limit) - icept) / slope)
}

func printTable(rows []row, memGB float64, tl time.Duration) {
	fmt.Println("| method | n | status | total s | graph s | clustering s | ARI | peak RSS (MB) |")
	fmt.Println("|---|---:|---|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		fmt.Printf("| %s | %d | %s | %.1f | %.1f | %.1f | %.4f | %.0f |\n", r.method, r.n, r.status, r.wall, r.graph, r.clust, r.ari, r.rssMB)
	}
	fmt.Println()
	fmt.Printf("| method | time exponent | memory exponent | sizes fitted | n at %.0f GB | n at %v |\n", memGB, tl)
	fmt.Println("|---|---:|---:|---|---:|---:|")
	names, by := series(rows)
	for _, m := range names {
		var x, t, mem []float64
		for _, r := range by[m] {
			if r.n >= 10_000 {
				x = append(x, float64(r.n))
				t = append(t, r.wall)
				mem = append(mem, r.rssMB)
			}
		}
		bt, at, ok1 := fit(x, t)
		bm, am, ok2 := fit(x, mem)
		if !ok1 || !ok2 {
			fmt.Printf("| %s | – | – | %d | – | – |\n", m, len(x))
			continue
		}
		fmt.Printf("| %s | %.2f | %.2f | %.0e–%.0e | %.1e | %.1e |\n", m, bt, bm, x[0], x[len(x)-1],
			reach(bm, am, memGB*1024), reach(bt, at, tl.Seconds()))
	}
}
