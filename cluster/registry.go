package cluster

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tether-sc/tether/internal/suggest"
)

// Info describes a registered method.
type Info struct {
	Name    string
	Summary string
	Source  string        // where the method is defined in the sources
	New     func() Method // returns the method with default knobs
}

// Methods returns the registry of all methods, sorted by name. The slice is
// built on each call.
func Methods() []Info {
	list := registry()
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list
}

// New returns the method registered under name (any case, surrounding
// blanks ignored), with default knobs. The error for an unknown name
// lists the known ones and, when one is close (hyphens left out, or one
// edit per 4 letters: suggest.Closest), suggests it; it wraps
// ErrUnknownMethod and ErrInvalid.
func New(name string) (Method, error) {
	want := strings.ToLower(strings.TrimSpace(name))
	for _, m := range registry() {
		if m.Name == want {
			return m.New(), nil
		}
	}
	names := make([]string, 0)
	for _, m := range Methods() {
		names = append(names, m.Name)
	}
	return nil, unknownMethodError{fmt.Errorf("%w %q%s (known: %s)", ErrUnknownMethod, name, suggest.Hint(want, names), strings.Join(names, ", "))}
}

// ErrUnknownMethod is wrapped, besides ErrInvalid, by the error of New
// for a name that no registered method has: "cluster: unknown method
// "nope" (known: auto, bethe, …)".
var ErrUnknownMethod = errors.New("cluster: unknown method")

// unknownMethodError is an error of New for an unknown name: its text and
// chain are those of the wrapped error (which wraps ErrUnknownMethod), and
// it is ErrInvalid too.
type unknownMethodError struct{ error }

func (e unknownMethodError) Unwrap() error        { return e.error }
func (e unknownMethodError) Is(target error) bool { return target == ErrInvalid }

// DefaultMethod returns the name of the method that the command line and
// batch jobs run when none is named: "njw" for a problem without side
// information, "auto" when it has pairwise constraints or partial labels
// (supervised), so that the knowledge given is used by default. Auto keeps
// NJW's partition unless a method that reads the constraints does better
// on held-out constraints (see Auto); NJW would ignore them.
func DefaultMethod(supervised bool) string {
	if supervised {
		return "auto"
	}
	return "njw"
}

// registry lists every method. Add new methods here.
func registry() []Info {
	return []Info{
		{Name: "auto", Summary: "chooses among the unconstrained njw, ncut, usc, bethe and the pairwise (and label) methods that fit its cost rule, by cross-validation on the constraints alone", Source: "ours", New: func() Method { return Auto{} }},
		{Name: "njw", Summary: "normalized spectral clustering of Ng, Jordan and Weiss (SPH. SC)", Source: "thesis Alg. 3", New: func() Method { return NJW{} }},
		{Name: "ncut", Summary: "normalized cut of Shi and Malik, L u = λ D u", Source: "thesis Alg. 2", New: func() Method { return ShiMalik{} }},
		{Name: "usc", Summary: "unnormalized spectral clustering, L = D − W", Source: "seed 004 ch. 2", New: func() Method { return Unnormalized{} }},
		{Name: "hbisect", Summary: "hierarchical bisection by Cheeger sweeps (H. BISECTION)", Source: "thesis Alg. 1, eq. 2.3.21", New: func() Method { return HBisection{} }},
		{Name: "bethe", Summary: "Bethe Hessian spectral clustering, k estimated when not given", Source: "seed 004 §3.2, Alg. 2", New: func() Method { return BetheHessian{} }},
		{Name: "fgpwc", Summary: "Fast Gaussian PairWise Clustering: a learned linear map of the spectral embedding", Source: "seed 003 Alg. 1; thesis Alg. 14", New: func() Method { return NewFGPWC() }},
		{Name: "labelprop", Summary: "label propagation (harmonic function), closed form by conjugate gradients or Alg. 5", Source: "thesis §3.1, Alg. 5, eq. 3.1.4", New: func() Method { return LabelProp{} }},
		{Name: "mavro", Summary: "Mavroeidis 2010: rank-one label supervision, power method, 2 clusters", Source: "thesis Alg. 6, eq. 3.2.4", New: func() Method { return MAVRO{} }},
		{Name: "mavro-k", Summary: "Mavroeidis 2011 k-way: per-class rank-one supervision, k smallest eigenvectors", Source: "thesis §3.2.3, eq. 3.2.6–3.2.7", New: func() Method { return MavroK{} }},
		{Name: "noa-ssc", Summary: "normalized one-against-all supervised spectral clustering", Source: "thesis Alg. 7, eq. 3.3.2–3.3.3", New: func() Method { return NOASSC{} }},
		{Name: "sl", Summary: "Spectral Learning of Kamvar et al.: W_ij = 1 for must-links, 0 for cannot-links", Source: "thesis §4.1.1, eq. 4.1.1", New: func() Method { return SpectralLearning{} }},
		{Name: "ml-noa-ssc", Summary: "must-link closure, normalized cut of the group graph, then NOA-SSC", Source: "thesis Alg. 8", New: func() Method { return MLNOASSC{} }},
		{Name: "mcl-noa-ssc", Summary: "ML-NOA-SSC with cannot-links cutting the group graph", Source: "thesis Alg. 9", New: func() Method { return MCLNOASSC{} }},
		{Name: "sscka", Summary: "semi-supervised kernel k-means with cluster-size-weighted constraint penalties (SSC:KA)", Source: "thesis §4.2.1, eq. 4.2.5–4.2.8 (Kulis et al. 2005)", New: func() Method { return SSCKA{} }},
		{Name: "cscap", Summary: "affinity propagation of constraints by a Gaussian process, then Ncut (dense)", Source: "thesis Alg. 11, 12, eq. 4.2.12 (Lu & Carreira-Perpiñán 2008)", New: func() Method { return CSCAP{} }},
		{Name: "fast-ge", Summary: "generalized eigenvectors of L_G x = λ L_H x with a demand graph", Source: "thesis Alg. 15, §4.4.2 (Cucuringu et al. 2016)", New: func() Method { return FastGE{} }},
		{Name: "fast-ge2", Summary: "FAST-GE-2.0: regularized pencil (L_N, L_H) from constraint sets", Source: "seed 004 §4.2, Alg. 3, Theorem 4.2.5 (Jiang, Xie, Bai 2017)", New: func() Method { return FastGE2{} }},
		{Name: "fast-ge2-bh", Summary: "modified FAST-GE-2.0 with Bethe Hessians and self loops (Variant both, LN or LH)", Source: "seed 004 ch. 5, Alg. 4", New: func() Method { return FastGE2BH{} }},
		{Name: "csc", Summary: "constrained spectral clustering on the signed Laplacian γL + (1−γ)L_Q", Source: "seed 002 §5, eq. 31–44 (Wacquet et al. 2013)", New: func() Method { return CSC{} }},
		{Name: "cosc", Summary: "constrained 1-spectral clustering: tight relaxation of the constrained Ncut, RatioDCA, recursive bisection", Source: "thesis §4.4.1, eq. 4.4.1–4.4.8 (Rangapuram & Hein 2012)", New: func() Method { return COSC{} }},
		{Name: "opplc", Summary: "one-pass power-law clustering: nodes in order link to an earlier node or start a cluster (Pitman–Yor weights, cannot-links)", Source: "thesis §5.3, Alg. 17", New: func() Method { return NewOPPLC() }},
		{Name: "csp", Summary: "flexible constrained spectral clustering (FCSC): min vᵀL̄v s.t. vᵀQ̄v ≥ α, feasible generalized eigenvectors", Source: "seed 002 §4.3, eq. 28–30; seed 001 eq. 3.7 (Wang & Davidson 2010)", New: func() Method { return CSP{} }},
		{Name: "l1csc", Summary: "L1-regularized constrained spectral clustering: ADMM on the convex subproblem, D-norm renormalization, sign split, hierarchical for k > 2", Source: "seed 001 §4, Alg. 1, eq. 4.8–4.10 (Kawale & Boley 2013)", New: func() Method { return L1CSC{} }},
		{Name: "ccsr", Summary: "constrained clustering via spectral regularization: PSD M fitted to the constraints, k-means on F·M^{1/2}", Source: "thesis §4.3.1, Alg. 13, eq. 4.3.1–4.3.4 (Li, Liu & Tang 2009)", New: func() Method { return CCSR{} }},
		{Name: "plmeans", Summary: "power-law means: kernel k-means regularized by the Pitman–Yor prior, k found (vector or Table 5.2 graph kernels)", Source: "thesis §5.2.2, Alg. 16, eq. 5.2.3–5.2.7 (Zhou, Zhang & Kulis 2014)", New: func() Method { return PLMeans{} }},
		{Name: "cpca", Summary: "constrained PCA (SSDR): top eigenvectors of XᵀL̃X, 95% of the variance, then k-means (needs features)", Source: "seed 002 §3.1, eq. 9–14 (Zhang, Zhou & Chen 2007)", New: func() Method { return CPCA{} }},
		{Name: "cocluster", Summary: "constrained spectral co-clustering of a nonnegative rows×cols matrix: Dhillon's SVD of D₁^{-1/2}AD₂^{-1/2}, the pairs as the penalty γ·zᵀQz of seed 001 eq. 3.6, Q = D^{-1/2}(D̄_C − C)D^{-1/2}/ρ (signed for cannot-links at k = 2, γ = 0.3; must-links only at k ≥ 3, γ = 0.1), rows and columns clustered together", Source: "seed 001 §5.2 (Dhillon 2001)", New: func() Method { return CoCluster{} }},
		{Name: "cvqe", Summary: "constrained vector quantization error k-means: violated pairs cost centroid distances, pairs assigned jointly (needs features)", Source: "seed 004 §6.3 (Davidson & Ravi 2005)", New: func() Method { return CVQE{} }},
		{Name: "clpp", Summary: "constrained locality preserving projection: XᵀL̃Xa = λXᵀD̄Xa on the graph plus ±1 constraints, then k-means (needs features)", Source: "seed 002 §3.2, eq. 15–22 (Cevikalp & Verbeek 2008)", New: func() Method { return CLPP{} }},
	}
}
