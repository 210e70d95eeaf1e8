package synth

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/suggest"
)

// Params are the parameters of a generator. Each generator reads only the
// fields its Generator.Params names and ignores the others.
//
// Unlike most option structs of tether, a zero field is not replaced by a
// default: zero is a meaningful noise, c_in or c_out. Start from
// Generator.Defaults and change what you need.
type Params struct {
	// N is the number of points (nodes for sbm). Parameter "n".
	N int
	// K is the number of classes (interlaced, blobs) or blocks (sbm).
	// Parameter "k".
	K int
	// Dim is the dimension of the points (blobs). Parameter "dim".
	Dim int
	// Noise is the standard deviation of the Gaussian noise added to each
	// coordinate (moons, circles, interlaced, xor) or of each blob (blobs).
	// Parameter "noise".
	Noise float64
	// Factor is the radius of the inner circle, in (0, 1) (circles).
	// Parameter "factor".
	Factor float64
	// Cin and Cout set p_in = Cin/N and p_out = Cout/N (sbm, seed 004 §3.1;
	// dcsbm, times θ_iθ_j).
	// Parameters "cin" and "cout".
	Cin, Cout float64
	// Gamma is the power-law exponent of the degree propensities (dcsbm):
	// 0 for none (a plain SBM), else > 2; smaller is more heterogeneous.
	// Parameter "gamma".
	Gamma float64
}

// paramNames lists the parameter names in the order of the Params fields.
const paramNames = "n, k, dim, noise, factor, cin, cout, gamma"

// Get returns the parameter with the given name ("n", "k", "dim", "noise",
// "factor", "cin", "cout" or "gamma") as a float64; ok is false for another name.
func (p Params) Get(name string) (v float64, ok bool) {
	switch name {
	case "n":
		return float64(p.N), true
	case "k":
		return float64(p.K), true
	case "dim":
		return float64(p.Dim), true
	case "noise":
		return p.Noise, true
	case "factor":
		return p.Factor, true
	case "cin":
		return p.Cin, true
	case "cout":
		return p.Cout, true
	case "gamma":
		return p.Gamma, true
	}
	return 0, false
}

// Set parses value into the parameter with the given name, as a command
// line flag would: n, k and dim are integers, the others real numbers. An
// unknown name or a value that does not parse is an error wrapping
// ErrInvalid; the range is checked by Generate.
func (p *Params) Set(name, value string) error {
	var err error
	switch name {
	case "n", "k", "dim":
		var v int
		if v, err = strconv.Atoi(value); err == nil {
			switch name {
			case "n":
				p.N = v
			case "k":
				p.K = v
			default:
				p.Dim = v
			}
		}
	case "noise", "factor", "cin", "cout", "gamma":
		var v float64
		if v, err = strconv.ParseFloat(value, 64); err == nil {
			switch name {
			case "noise":
				p.Noise = v
			case "factor":
				p.Factor = v
			case "cin":
				p.Cin = v
			case "gamma":
				p.Gamma = v
			default:
				p.Cout = v
			}
		}
	default:
		return fmt.Errorf("%w: unknown parameter %q (want one of %s)", ErrInvalid, name, paramNames)
	}
	if err != nil {
		return fmt.Errorf("%w: parameter %s: %v", ErrInvalid, name, err)
	}
	return nil
}

// Data is a generated data set: n×d features (X) or a graph (Graph), and
// the class of each point or node.
type Data struct {
	// X holds one point per row, rows grouped by label; nil for sbm.
	X *mat.Dense
	// Graph is the sampled graph; nil for the point generators.
	Graph *graph.Graph
	// Labels[i] is the class of point or node i, in 0…K−1.
	Labels []int
}

// Generator describes one named generator of the package.
type Generator struct {
	// Name is the name Lookup knows it by, e.g. "moons".
	Name string
	// Summary is a one-line description.
	Summary string
	// Params names the Params fields the generator reads, as Params.Get
	// spells them.
	Params []string
	// Defaults are the documented defaults of those parameters (the other
	// fields are zero). tether gen uses them for flags not given.
	Defaults Params
	// Graph reports whether the generator yields a graph (Data.Graph)
	// rather than points (Data.X).
	Graph bool
	// Classes is the number of classes of a generator whose number is
	// fixed (moons, circles, xor: 2), which then does not read parameter
	// "k"; 0 when "k" is one of its Params.
	Classes int

	gen func(ctx context.Context, p Params, src rand.Source) (*Data, error)
}

// Generate draws a data set with parameters p from src (nil means
// rand.NewPCG(DefaultSeed, DefaultSeed)). It calls the generator function
// of the same name (MoonsContext, CirclesContext,
// InterlacedCirclesContext, XORContext, BlobsContext, SBMContext,
// DCSBMContext) with the fields g.Params names, so the same p and seed
// give the same data as that function (and as Moons, …, without Context). Invalid parameters, sizes beyond
// MaxValues included, give an error wrapping ErrInvalid before anything is
// allocated; a noise so large that a generated coordinate overflows gives
// one after the points are drawn (naming the generator, the noise and the
// value); a cancelled ctx gives ctx.Err() (every generator checks it
// while it draws, and sbm and dcsbm while they build the graph).
func (g Generator) Generate(ctx context.Context, p Params, src rand.Source) (*Data, error) {
	if g.gen == nil {
		return nil, fmt.Errorf("%w: generator %q does not come from Generators or Lookup", ErrInvalid, g.Name)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return g.gen(ctx, p, src)
}

// DefaultString lists the generator's parameters with their defaults, e.g.
// "n=900 noise=0.1".
func (g Generator) DefaultString() string {
	parts := make([]string, len(g.Params))
	for i, name := range g.Params {
		v, _ := g.Defaults.Get(name)
		parts[i] = name + "=" + strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strings.Join(parts, " ")
}

// DefaultN is the number of points or nodes every generator makes by
// default: the size of the generated sets of seed 003 Table 1.
const DefaultN = 900

// Generators returns the generators, in a fresh slice on each call: moons,
// circles (concentric), interlaced, xor, blobs, sbm and dcsbm.
func Generators() []Generator {
	points := func(f func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error)) func(context.Context, Params, rand.Source) (*Data, error) {
		return func(ctx context.Context, p Params, src rand.Source) (*Data, error) {
			x, labels, err := f(ctx, p, src)
			if err != nil {
				return nil, err
			}
			return &Data{X: x, Labels: labels}, nil
		}
	}
	return []Generator{
		{
			Name:     "moons",
			Summary:  "two interleaving half circles (scikit-learn make_moons), 2 classes",
			Params:   []string{"n", "noise"},
			Defaults: Params{N: DefaultN, Noise: 0.1},
			Classes:  2,
			gen: points(func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error) {
				return MoonsContext(ctx, p.N, p.Noise, src)
			}),
		},
		{
			Name:     "circles",
			Summary:  "two concentric circles (scikit-learn make_circles), 2 classes",
			Params:   []string{"n", "noise", "factor"},
			Defaults: Params{N: DefaultN, Noise: 0.05, Factor: 0.5},
			Classes:  2,
			gen: points(func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error) {
				return CirclesContext(ctx, p.N, p.Noise, p.Factor, src)
			}),
		},
		{
			Name:     "interlaced",
			Summary:  "a chain of k interlaced unit circles, k classes",
			Params:   []string{"n", "k", "noise"},
			Defaults: Params{N: DefaultN, K: 3, Noise: 0.05},
			gen: points(func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error) {
				return InterlacedCirclesContext(ctx, p.N, p.K, p.Noise, src)
			}),
		},
		{
			Name:     "xor",
			Summary:  "four Gaussian clouds at (±1, ±1), labelled by exclusive or, 2 classes",
			Params:   []string{"n", "noise"},
			Defaults: Params{N: DefaultN, Noise: 0.2},
			Classes:  2,
			gen: points(func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error) {
				return XORContext(ctx, p.N, p.Noise, src)
			}),
		},
		{
			Name:     "blobs",
			Summary:  "k isotropic Gaussian blobs in dim dimensions (scikit-learn make_blobs), k classes",
			Params:   []string{"n", "k", "dim", "noise"},
			Defaults: Params{N: DefaultN, K: 3, Dim: 2, Noise: 1},
			gen: points(func(ctx context.Context, p Params, src rand.Source) (*mat.Dense, []int, error) {
				return BlobsContext(ctx, p.N, p.K, p.Dim, p.Noise, src)
			}),
		},
		{
			Name:     "sbm",
			Summary:  "sparse stochastic block model graph, k blocks, p_in = cin/n, p_out = cout/n (seed 004 §3.1)",
			Params:   []string{"n", "k", "cin", "cout"},
			Defaults: Params{N: DefaultN, K: 2, Cin: 10, Cout: 2},
			Graph:    true,
			gen: func(ctx context.Context, p Params, src rand.Source) (*Data, error) {
				g, labels, err := SBMContext(ctx, p.N, p.K, p.Cin, p.Cout, src)
				if err != nil {
					return nil, err
				}
				return &Data{Graph: g, Labels: labels}, nil
			},
		},
		{
			Name:     "dcsbm",
			Summary:  "degree-corrected SBM graph (Karrer & Newman 2011), k blocks, power-law degree propensities of exponent gamma (0: none), mean degree (cin + (k−1)cout)/k",
			Params:   []string{"n", "k", "cin", "cout", "gamma"},
			Defaults: Params{N: DefaultN, K: 2, Cin: 10, Cout: 2, Gamma: 2.5},
			Graph:    true,
			gen: func(ctx context.Context, p Params, src rand.Source) (*Data, error) {
				g, labels, _, err := DCSBMContext(ctx, p.N, p.K, p.Cin, p.Cout, p.Gamma, src)
				if err != nil {
					return nil, err
				}
				return &Data{Graph: g, Labels: labels}, nil
			},
		},
	}
}

// Names returns the generator names in the order of Generators.
func Names() []string {
	gens := Generators()
	names := make([]string, len(gens))
	for i, g := range gens {
		names[i] = g.Name
	}
	return names
}

// Lookup returns the generator with the given name (any case), or an
// error wrapping ErrInvalid that lists the known names and suggests a
// close one (suggest.Closest).
func Lookup(name string) (Generator, error) {
	for _, g := range Generators() {
		if strings.EqualFold(g.Name, strings.TrimSpace(name)) {
			return g, nil
		}
	}
	return Generator{}, fmt.Errorf("%w: unknown generator %q%s (known: %s)", ErrInvalid, name, suggest.Hint(name, Names()), strings.Join(Names(), ", "))
}
