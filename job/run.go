package job

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/catalog"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// Result is the outcome of one job: one JSON line of a batch's results.
// Labels are kept out of the JSON line (a batch writes them to a labels
// file of their own).
type Result struct {
	ID     string `json:"id"`
	Method string `json:"method"`
	N      int    `json:"n,omitempty"`
	NNZ    int    `json:"nnz,omitempty"` // stored entries of the graph (2 per edge, 1 per self loop)
	K      int    `json:"k,omitempty"`
	Sizes  []int  `json:"sizes,omitempty"`
	// ARI and NMI (arithmetic normalization) against the reference labels,
	// when the data have them.
	ARI *float64 `json:"ari,omitempty"`
	NMI *float64 `json:"nmi,omitempty"`
	// ViolatedML and ViolatedCL count the constraints the partition breaks,
	// when there are constraints.
	ViolatedML *int    `json:"violated_ml,omitempty"`
	ViolatedCL *int    `json:"violated_cl,omitempty"`
	Objective  float64 `json:"objective,omitempty"`
	// Seconds is the clustering time (cluster.Run), GraphSeconds the time
	// spent reading the data and building the graph.
	Seconds      float64  `json:"seconds"`
	GraphSeconds float64  `json:"graph_seconds"`
	Warnings     []string `json:"warnings,omitempty"`
	// Error is set when the job failed; the other figures are then unset.
	Error  string `json:"error,omitempty"`
	Labels []int  `json:"-"`
}

// Run executes the job s, resolving relative paths against root. It never
// panics on bad input and always returns a Result: a failure (unreadable
// file, unknown method, invalid problem, cancelled ctx) is reported in
// Result.Error, naming the job and the cause. The same Spec gives the same
// labels and figures (timings aside). Cost: reading plus graph
// construction plus the method's own cost (cluster.Run).
func Run(ctx context.Context, s Spec, root string) *Result {
	res := &Result{ID: s.ID, Method: s.methodName()}
	if err := run(ctx, &s, root, res); err != nil {
		*res = Result{ID: s.ID, Method: s.methodName(), Error: err.Error()}
	}
	return res
}

func run(ctx context.Context, s *Spec, root string, res *Result) error {
	if err := s.Validate(); err != nil {
		return err
	}
	t0 := time.Now()
	x, g, truth, err := load(ctx, s, root)
	if err != nil {
		return err
	}
	if g == nil {
		spec := graph.DefaultSpec()
		if s.KNN > 0 {
			spec.K = s.KNN
		}
		if g, err = graph.Build(ctx, x, spec); err != nil {
			return err
		}
	}
	n := g.N()
	if truth != nil && len(truth) != n {
		return fmt.Errorf("reference has %d labels for %d nodes", len(truth), n)
	}
	p := &cluster.Problem{Graph: g, K: s.K, Features: x}
	if err := side(s, root, truth, p); err != nil {
		return err
	}
	res.GraphSeconds = time.Since(t0).Seconds()

	m, err := cluster.New(s.methodName())
	if err != nil {
		return err
	}
	if m, err = cluster.SetKnobs(m, s.Knobs); err != nil {
		return err
	}
	out, err := cluster.Run(ctx, m, p, &cluster.Settings{Seed: s.Seed})
	if err != nil {
		return err
	}
	res.N, res.NNZ, res.K = n, g.NNZ(), out.K
	res.Labels, res.Objective, res.Warnings = out.Labels, out.Objective, out.Warnings
	res.Seconds = out.Runtime.Seconds()
	res.Sizes = make([]int, out.K)
	for _, c := range out.Labels {
		res.Sizes[c]++
	}
	if truth != nil {
		ari, err := metrics.ARI(truth, out.Labels)
		if err != nil {
			return err
		}
		nmi, err := metrics.NMI(truth, out.Labels, metrics.Arithmetic)
		if err != nil {
			return err
		}
		res.ARI, res.NMI = &ari, &nmi
	}
	if p.Constraints != nil {
		ml, cl := constraint.Violations(p.Constraints, out.Labels)
		res.ViolatedML, res.ViolatedCL = &ml, &cl
	}
	return nil
}

// load reads or generates the data: features x (or nil), a graph g (or nil
// when it is to be built from x) and the reference labels (or nil).
func load(ctx context.Context, s *Spec, root string) (x *mat.Dense, g *graph.Graph, truth []int, err error) {
	switch {
	case s.Input != "":
		t, err := dataset.ReadFile(ctx, resolve(root, s.Input), dataset.Options{LabelColumn: s.Label})
		if err != nil {
			return nil, nil, nil, err
		}
		return t.X, nil, t.Labels, nil
	case s.Graph != "":
		d, err := dataset.ReadGraphFileOptions(ctx, resolve(root, s.Graph), dataset.GraphOptions{})
		if err != nil {
			return nil, nil, nil, err
		}
		return nil, d.G, d.Labels, nil
	case s.Dataset != "":
		dr := s.DataRoot
		if dr == "" {
			dr = catalog.DefaultRoot()
		}
		d, err := catalog.Load(s.Dataset, resolve(root, dr), nil)
		if err != nil {
			return nil, nil, nil, err
		}
		if d.Table != nil {
			return d.Table.X, nil, d.Labels, nil
		}
		return nil, d.Graph.G, d.Labels, nil
	default:
		gen, err := synth.Lookup(s.Gen)
		if err != nil {
			return nil, nil, nil, err
		}
		p := gen.Defaults
		names := make([]string, 0, len(s.GenParams))
		for k := range s.GenParams {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if err := p.Set(k, s.GenParams[k]); err != nil {
				return nil, nil, nil, fmt.Errorf("gen %s: %w", s.Gen, err)
			}
		}
		// The seed of tether gen -seed (cmd/tether generate).
		d, err := gen.Generate(ctx, p, rand.NewPCG(s.GenSeed, s.GenSeed))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("gen %s: %w", s.Gen, err)
		}
		return d.X, d.Graph, d.Labels, nil
	}
}

// side fills p's constraints and labels from files or by sampling.
func side(s *Spec, root string, truth []int, p *cluster.Problem) error {
	n := p.Graph.N()
	var err error
	if s.Constraints != "" {
		if p.Constraints, err = constraint.ReadFile(resolve(root, s.Constraints), n); err != nil {
			return err
		}
	}
	if s.Labels != "" {
		if p.Labels, err = constraint.ReadLabelsFile(resolve(root, s.Labels), n); err != nil {
			return err
		}
	}
	sm := s.Sample
	if sm == nil || (sm.Pairs == 0 && sm.LabelFraction == 0) {
		return nil
	}
	if truth == nil {
		return fmt.Errorf("%w: job %s: sample needs reference labels and the data have none", ErrSpec, s.ID)
	}
	src := rand.NewPCG(sm.Seed, 0x6a6f62) // "job"
	if sm.Pairs > 0 {
		if p.Constraints, err = constraint.UniformPairs(truth, sm.Pairs, src); err != nil {
			return err
		}
	}
	if sm.LabelFraction > 0 {
		if p.Labels, err = constraint.FractionLabels(truth, sm.LabelFraction, src); err != nil {
			return err
		}
	}
	return nil
}

// RunAll runs the jobs one after the other (each job's methods use the
// cores themselves) and returns their results in order. It stops early
// only when ctx is cancelled: the remaining jobs then report ctx's error.
func RunAll(ctx context.Context, specs []Spec, root string) []*Result {
	out := make([]*Result, len(specs))
	for i, s := range specs {
		out[i] = Run(ctx, s, root)
	}
	return out
}
