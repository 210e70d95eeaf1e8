package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/synth"
)

const genUsage = `gen <moons|circles|interlaced|xor|blobs|sbm> [flags]

Writes a synthetic data set with known classes.

  moons, circles, interlaced, xor, blobs: CSV with a header, the features
    x1, x2, … and the class in the last column "label" (0-based). Read it
    back with "--label last".
  sbm: an undirected edge list "i j 1" (0-based; Matrix Market when -o ends
    in .mtx) and a labels file with one block per line.

Defaults of -noise: moons 0.1, circles 0.05, interlaced 0.05, xor 0.2, blobs
1 (the standard deviation of each blob). The same -seed gives the same data.`

// genFlags holds the values of the gen flags.
type genFlags struct {
	n, k, dim     int
	noise, factor float64
	cin, cout     float64
	seed          uint64
	out, labels   string
	kind          string
}

func runGen(ctx context.Context, m *Main, args []string) error {
	fs := m.newFlagSet("gen", genUsage)
	var f genFlags
	fs.IntVar(&f.n, "n", 900, "number of points or nodes")
	fs.IntVar(&f.k, "k", 0, "number of classes: blobs (default 3), interlaced (default 3), sbm (default 2)")
	fs.IntVar(&f.dim, "dim", 2, "blobs: dimension")
	fs.Float64Var(&f.noise, "noise", -1, "noise standard deviation (-1: the generator's default)")
	fs.Float64Var(&f.factor, "factor", 0.5, "circles: radius of the inner circle, in (0,1)")
	fs.Float64Var(&f.cin, "cin", 10, "sbm: c_in, p_in = c_in/n (seed 004 §3.1)")
	fs.Float64Var(&f.cout, "cout", 2, "sbm: c_out, p_out = c_out/n")
	fs.Uint64Var(&f.seed, "seed", synth.DefaultSeed, "random seed")
	fs.StringVar(&f.out, "o", "", "output file (default standard output)")
	fs.StringVar(&f.labels, "labels", "", "sbm: labels file (default: the -o file with extension .labels)")

	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		f.kind, args = args[0], args[1:]
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if f.kind == "" && fs.NArg() > 0 {
		f.kind = fs.Arg(0)
		if err := parseFlags(fs, fs.Args()[1:]); err != nil {
			return err
		}
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: gen: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if f.kind == "" {
		fs.Usage()
		return fmt.Errorf("%w: gen: name a generator (moons, circles, interlaced, xor, blobs or sbm)", errUsage)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	src := rand.NewPCG(f.seed, f.seed)
	noise := func(def float64) float64 {
		if f.noise < 0 {
			return def
		}
		return f.noise
	}
	k := func(def int) int {
		if f.k == 0 {
			return def
		}
		return f.k
	}
	var x *mat.Dense
	var labels []int
	var err error
	switch f.kind {
	case "moons":
		x, labels, err = synth.Moons(f.n, noise(0.1), src)
	case "circles":
		x, labels, err = synth.Circles(f.n, noise(0.05), f.factor, src)
	case "interlaced":
		x, labels, err = synth.InterlacedCircles(f.n, k(3), noise(0.05), src)
	case "xor":
		x, labels, err = synth.XOR(f.n, noise(0.2), src)
	case "blobs":
		x, labels, err = synth.Blobs(f.n, k(3), f.dim, noise(1), src)
	case "sbm":
		return genSBM(ctx, m, &f, k(2), src)
	default:
		fs.Usage()
		return fmt.Errorf("%w: gen: unknown generator %q (want moons, circles, interlaced, xor, blobs or sbm)", errUsage, f.kind)
	}
	if err != nil {
		return genFlagError(err)
	}
	_, p := x.Dims()
	t := &dataset.Table{X: x, Labels: labels}
	for j := 0; j < p; j++ {
		t.Features = append(t.Features, fmt.Sprintf("x%d", j+1))
	}
	return m.writeOutput(ctx, f.out, func(w io.Writer) error { return dataset.WriteCSV(w, t) })
}

// genFlagError turns generator parameter errors into usage errors.
func genFlagError(err error) error {
	if errors.Is(err, synth.ErrInvalid) {
		return fmt.Errorf("%w: gen: %v", errUsage, err)
	}
	return err
}

func genSBM(ctx context.Context, m *Main, f *genFlags, k int, src rand.Source) error {
	g, labels, err := synth.SBM(f.n, k, f.cin, f.cout, src)
	if err != nil {
		return genFlagError(err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	write := func(w io.Writer) error { return dataset.WriteEdgeList(w, g) }
	if strings.EqualFold(filepath.Ext(f.out), ".mtx") {
		write = func(w io.Writer) error { return dataset.WriteMatrixMarket(w, g) }
	}
	if err := m.writeOutput(ctx, f.out, write); err != nil {
		return err
	}
	lp := f.labels
	if lp == "" && f.out != "" {
		lp = strings.TrimSuffix(f.out, filepath.Ext(f.out)) + ".labels"
	}
	if lp == "" {
		fmt.Fprintln(m.Stderr, "tether gen: labels not written (use -labels FILE or -o FILE)")
	} else if err := m.writeOutput(ctx, lp, func(w io.Writer) error { return dataset.WriteLabels(w, labels) }); err != nil {
		return err
	}
	fmt.Fprintf(m.Stderr, "tether gen: SBM n=%d k=%d c_in=%g c_out=%g: %d edges; c_in−c_out = %g, threshold k√c = %.4g (%s)\n",
		f.n, k, f.cin, f.cout, len(g.Edges()), f.cin-f.cout, synth.Threshold(k, f.cin, f.cout), genDetectability(k, f.cin, f.cout))
	return nil
}

func genDetectability(k int, cin, cout float64) string {
	if synth.Detectable(k, cin, cout) {
		return "detectable"
	}
	return "below the detectability threshold"
}
