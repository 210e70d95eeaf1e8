package synth

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// dataDims returns the number of rows and columns of d (columns 0 for a
// graph) and the number of distinct labels.
func dataDims(d *Data) (n, p, classes int) {
	seen := map[int]bool{}
	for _, l := range d.Labels {
		seen[l] = true
	}
	if d.Graph != nil {
		return d.Graph.N(), 0, len(seen)
	}
	n, p = d.X.Dims()
	return n, p, len(seen)
}

func sameData(a, b *Data) bool {
	if !equalInts(a.Labels, b.Labels) {
		return false
	}
	if a.X != nil || b.X != nil {
		return a.X != nil && b.X != nil && mat.Equal(a.X, b.X)
	}
	ea, eb := a.Graph.Edges(), b.Graph.Edges()
	if len(ea) != len(eb) {
		return false
	}
	for i := range ea {
		if ea[i] != eb[i] {
			return false
		}
	}
	return true
}

func TestRegistry(t *testing.T) {
	// The documented defaults: n = 900 for every generator, and the class
	// counts and dimensions of the Params docs and Generators.
	want := map[string]struct{ p, classes int }{
		"moons":      {2, 2},
		"circles":    {2, 2},
		"interlaced": {2, 3},
		"xor":        {2, 2},
		"blobs":      {2, 3},
		"sbm":        {0, 2},
		"dcsbm":      {0, 2},
	}
	gens := Generators()
	if len(gens) != len(want) {
		t.Fatalf("%d generators, want %d", len(gens), len(want))
	}
	for _, g := range gens {
		t.Run(g.Name, func(t *testing.T) {
			w, ok := want[g.Name]
			if !ok {
				t.Fatalf("unexpected generator %q", g.Name)
			}
			if g.Summary == "" || len(g.Params) == 0 || g.Params[0] != "n" {
				t.Errorf("description incomplete: %+v", g)
			}
			for _, name := range g.Params {
				if _, ok := g.Defaults.Get(name); !ok {
					t.Errorf("parameter %q unknown to Params.Get", name)
				}
			}
			if got, err := Lookup(g.Name); err != nil || got.Name != g.Name {
				t.Fatalf("Lookup(%q) = %v, %v", g.Name, got.Name, err)
			}
			ctx := context.Background()
			d, err := g.Generate(ctx, g.Defaults, rand.NewPCG(3, 4))
			if err != nil {
				t.Fatal(err)
			}
			if n, p, c := dataDims(d); n != DefaultN || p != w.p || c != w.classes || len(d.Labels) != n {
				t.Errorf("defaults give %d×%d with %d classes and %d labels, want %d×%d with %d", n, p, c, len(d.Labels), DefaultN, w.p, w.classes)
			}
			// Classes declares the number of a generator without "k" (tether
			// gen accepts -k with it), and only theirs.
			wantClasses := w.classes
			if slices.Contains(g.Params, "k") {
				wantClasses = 0
			}
			if g.Classes != wantClasses {
				t.Errorf("Classes = %d, want %d", g.Classes, wantClasses)
			}
			if (d.Graph != nil) != g.Graph || (d.X != nil) == g.Graph {
				t.Errorf("Graph = %v, but X = %v, Graph = %v", g.Graph, d.X != nil, d.Graph != nil)
			}
			again, err := g.Generate(ctx, g.Defaults, rand.NewPCG(3, 4))
			if err != nil || !sameData(d, again) {
				t.Errorf("same seed, different data (err %v)", err)
			}
			other, err := g.Generate(ctx, g.Defaults, rand.NewPCG(5, 6))
			// Every default has noise (or random edges): the seed matters.
			if err != nil || sameData(d, other) {
				t.Errorf("different seeds, same data (err %v)", err)
			}

			// Absurd sizes are refused at once, before any allocation.
			for _, n := range []int{MaxValues + 1, min(1<<40, math.MaxInt), min(1<<62-1, math.MaxInt)} {
				p := g.Defaults
				p.N = n
				allocs := testing.AllocsPerRun(1, func() { _, err = g.Generate(ctx, p, nil) })
				if !errors.Is(err, ErrInvalid) {
					t.Errorf("n = %d: err = %v, want ErrInvalid", n, err)
				}
				// The only allocations are those of the error message
				// (counted, not timed: a loaded machine cannot fail it).
				if allocs > 10 {
					t.Errorf("n = %d: %v allocations before refusing", n, allocs)
				}
			}

			cancelled, cancel := context.WithCancel(ctx)
			cancel()
			if _, err := g.Generate(cancelled, g.Defaults, nil); !errors.Is(err, context.Canceled) {
				t.Errorf("cancelled context: err = %v", err)
			}
		})
	}
}

// TestRegistryMatchesFunctions checks that Generate calls the generator
// functions with the parameters it is given, consuming the source the same
// way, so the registry and the functions give the same data.
func TestRegistryMatchesFunctions(t *testing.T) {
	ctx := context.Background()
	p := Params{N: 101, K: 4, Dim: 3, Noise: 0.3, Factor: 0.4, Cin: 8, Cout: 1.5, Gamma: 3}
	direct := map[string]func(src rand.Source) (*Data, error){
		"moons": func(src rand.Source) (*Data, error) {
			x, l, err := Moons(101, 0.3, src)
			return &Data{X: x, Labels: l}, err
		},
		"circles": func(src rand.Source) (*Data, error) {
			x, l, err := Circles(101, 0.3, 0.4, src)
			return &Data{X: x, Labels: l}, err
		},
		"interlaced": func(src rand.Source) (*Data, error) {
			x, l, err := InterlacedCircles(101, 4, 0.3, src)
			return &Data{X: x, Labels: l}, err
		},
		"xor": func(src rand.Source) (*Data, error) {
			x, l, err := XOR(101, 0.3, src)
			return &Data{X: x, Labels: l}, err
		},
		"blobs": func(src rand.Source) (*Data, error) {
			x, l, err := Blobs(101, 4, 3, 0.3, src)
			return &Data{X: x, Labels: l}, err
		},
		"sbm": func(src rand.Source) (*Data, error) {
			g, l, err := SBM(101, 4, 8, 1.5, src)
			return &Data{Graph: g, Labels: l}, err
		},
		"dcsbm": func(src rand.Source) (*Data, error) {
			g, l, _, err := DCSBM(101, 4, 8, 1.5, 3, src)
			return &Data{Graph: g, Labels: l}, err
		},
	}
	for _, g := range Generators() {
		got, err := g.Generate(ctx, p, rand.NewPCG(9, 9))
		if err != nil {
			t.Fatalf("%s: %v", g.Name, err)
		}
		want, err := direct[g.Name](rand.NewPCG(9, 9))
		if err != nil {
			t.Fatalf("%s: %v", g.Name, err)
		}
		if !sameData(got, want) {
			t.Errorf("%s: Generate differs from the generator function", g.Name)
		}
	}
}

func TestLookupUnknown(t *testing.T) {
	_, err := Lookup("spirals")
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
	for _, name := range Names() {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not list %q", err, name)
		}
	}
}

func TestZeroGenerator(t *testing.T) {
	if _, err := (Generator{Name: "mine"}).Generate(context.Background(), Params{N: 10}, nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("err = %v, want ErrInvalid", err)
	}
}

func TestParamsSet(t *testing.T) {
	var p Params
	for _, kv := range [][2]string{{"n", "10"}, {"k", "3"}, {"dim", "4"}, {"noise", "0.5"}, {"factor", "0.25"}, {"cin", "7"}, {"cout", "1e-1"}, {"gamma", "2.5"}} {
		if err := p.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	want := Params{N: 10, K: 3, Dim: 4, Noise: 0.5, Factor: 0.25, Cin: 7, Cout: 0.1, Gamma: 2.5}
	if p != want {
		t.Errorf("p = %+v, want %+v", p, want)
	}
	for _, kv := range [][2]string{{"n", "1.5"}, {"noise", "x"}, {"sigma", "1"}} {
		if err := p.Set(kv[0], kv[1]); !errors.Is(err, ErrInvalid) {
			t.Errorf("Set(%q, %q) = %v, want ErrInvalid", kv[0], kv[1], err)
		}
	}
	if p != want {
		t.Errorf("failed Set changed p to %+v", p)
	}
}

// TestSBMContextCancel cancels a large SBM while it samples: it must stop
// early with the context's error.
func TestSBMContextCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("samples part of a large graph")
	}
	// n = 3·10⁶, c_in = 10: about 1.5·10⁷ edges, seconds of sampling; the
	// deadline hits during it.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, _, err := SBMContext(ctx, 3_000_000, 2, 10, 0, rand.NewPCG(1, 1))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("stopped after %v", d)
	}
}
