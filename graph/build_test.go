package graph

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// refGraph computes the dense affinity matrix of s on x directly from the
// definitions (SPEC §1), with all pairwise distances, sorting, and gonum's
// stat.Variance: an implementation independent of Build's.
func refGraph(x *mat.Dense, s Spec) *mat.Dense {
	n, d := x.Dims()
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = append([]float64(nil), x.RawRowView(i)...)
	}
	search := rows
	if s.Affinity == Cosine {
		search = make([][]float64, n)
		for i, r := range rows {
			norm := math.Sqrt(mat.Dot(mat.NewVecDense(d, r), mat.NewVecDense(d, r)))
			search[i] = make([]float64, d)
			if norm > 0 {
				for c, v := range r {
					search[i][c] = v / norm
				}
			}
		}
	}
	d2 := make([][]float64, n)
	for i := range d2 {
		d2[i] = make([]float64, n)
		for j := range d2[i] {
			var acc float64
			for c := 0; c < d; c++ {
				t := search[i][c] - search[j][c]
				acc += float64(t * t)
			}
			d2[i][j] = acc
		}
	}
	// order[i] lists j ≠ i by (distance, index).
	order := make([][]int, n)
	for i := range order {
		for j := 0; j < n; j++ {
			if j != i {
				order[i] = append(order[i], j)
			}
		}
		o := order[i]
		sort.Slice(o, func(a, b int) bool {
			if d2[i][o[a]] != d2[i][o[b]] {
				return d2[i][o[a]] < d2[i][o[b]]
			}
			return o[a] < o[b]
		})
	}
	k := s.K
	if k == 0 {
		k = DefaultK
	}
	kq := k
	if s.Kind == SklearnKNN {
		kq = k - 1
	}
	isNb := func(i, j int) bool {
		for _, t := range order[i][:kq] {
			if t == j {
				return true
			}
		}
		return false
	}
	joined := func(i, j int) float64 { // multiplicity factor of the pair
		switch s.Kind {
		case Full:
			return 1
		case Epsilon:
			if d2[i][j] <= s.Eps*s.Eps {
				return 1
			}
			return 0
		case SymmetricKNN:
			if isNb(i, j) || isNb(j, i) {
				return 1
			}
		case MutualKNN:
			if isNb(i, j) && isNb(j, i) {
				return 1
			}
		case SklearnKNN:
			c := 0.0
			if isNb(i, j) {
				c++
			}
			if isNb(j, i) {
				c++
			}
			return c / 2
		}
		return 0
	}
	// σ.
	var sigma float64
	var local []float64
	if s.Affinity == RBF {
		switch s.Sigma.Rule {
		case SigmaFixed:
			sigma = s.Sigma.Value
		case SigmaMeanVariance:
			var sum float64
			for c := 0; c < d; c++ {
				sum += stat.Variance(mat.Col(nil, c, x), nil)
			}
			sigma = math.Sqrt(sum / float64(d))
		case SigmaMedian:
			var lens []float64
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					switch s.Kind {
					case Full:
						if j > i {
							lens = append(lens, math.Sqrt(d2[i][j]))
						}
					case Epsilon:
						if j > i && d2[i][j] <= s.Eps*s.Eps {
							lens = append(lens, math.Sqrt(d2[i][j]))
						}
					default:
						if j != i && isNb(i, j) {
							lens = append(lens, math.Sqrt(d2[i][j]))
						}
					}
				}
			}
			med := func(v []float64) float64 {
				if len(v) == 0 {
					return 1 // no edges: σ is irrelevant
				}
				sort.Float64s(v)
				if len(v)%2 == 1 {
					return v[len(v)/2]
				}
				return (v[len(v)/2-1] + v[len(v)/2]) / 2
			}
			sigma = med(lens)
			if sigma == 0 {
				var pos []float64
				for _, v := range lens {
					if v > 0 {
						pos = append(pos, v)
					}
				}
				sigma = med(pos)
			}
		case SigmaLocal:
			ks := s.Sigma.K
			if ks == 0 {
				ks = 7
			}
			local = make([]float64, n)
			var pos []float64
			for i := range local {
				local[i] = math.Sqrt(d2[i][order[i][ks-1]])
				if local[i] > 0 {
					pos = append(pos, local[i])
				}
			}
			sort.Float64s(pos)
			m := pos[len(pos)/2]
			if len(pos)%2 == 0 {
				m = (pos[len(pos)/2-1] + m) / 2
			}
			for i := range local {
				if local[i] == 0 {
					local[i] = m
				}
			}
		}
	}
	w := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			var v float64
			switch s.Affinity {
			case Binary:
				v = 1
			case Cosine:
				var dot, ni, nj float64
				for c := 0; c < d; c++ {
					dot += rows[i][c] * rows[j][c]
					ni += rows[i][c] * rows[i][c]
					nj += rows[j][c] * rows[j][c]
				}
				if ni > 0 && nj > 0 {
					v = math.Max(0, dot/math.Sqrt(ni*nj))
				}
			case RBF:
				if local != nil {
					v = math.Exp(-d2[i][j] / (local[i] * local[j]))
				} else {
					v = math.Exp(-d2[i][j] / (2 * sigma * sigma))
				}
			}
			if i == j {
				if s.Kind == SklearnKNN {
					w.Set(i, i, v)
				}
				continue
			}
			w.Set(i, j, v*joined(i, j))
		}
	}
	return w
}

func TestBuildMatchesDefinition(t *testing.T) {
	blobs3 := randData(45, 3, 3, 11)
	blobs20 := randData(50, 20, 3, 12)
	dups := withDuplicates(randData(40, 2, 2, 13), 5)
	signed := randData(40, 4, 2, 14) // blobs around signed centres: cosines of both signs
	type tc struct {
		x   *mat.Dense
		s   Spec
		tol float64
	}
	var cases []tc
	sigmas := []Sigma{{}, {Rule: SigmaLocal, K: 3}, {Rule: SigmaMedian}, {Rule: SigmaMeanVariance}, {Rule: SigmaFixed, Value: 2.5}}
	for _, x := range []*mat.Dense{blobs3, blobs20, dups} {
		for _, kind := range []Kind{SymmetricKNN, MutualKNN, Full, Epsilon, SklearnKNN} {
			for _, sg := range sigmas {
				eps := 3.0
				if _, d := x.Dims(); d > 3 {
					eps = 7 // blob diameter is about √(2d)
				}
				s := Spec{Kind: kind, K: 5, Eps: eps, Sigma: sg}
				// Full graphs above 16 dimensions use Gram distances:
				// relative error ~1e-13 of the squared norms.
				tol := 1e-12
				if _, d := x.Dims(); d > kdMaxDim && kind == Full {
					tol = 1e-9
				}
				cases = append(cases, tc{x, s, tol})
			}
			for _, aff := range []Affinity{Cosine, Binary} {
				cases = append(cases, tc{x, Spec{Kind: kind, K: 4, Eps: 0.5, Affinity: aff}, 1e-12})
			}
		}
	}
	for _, kind := range []Kind{SymmetricKNN, Full, Epsilon} {
		cases = append(cases, tc{signed, Spec{Kind: kind, K: 6, Eps: 1, Affinity: Cosine}, 1e-12})
	}
	cases = append(cases, tc{blobs3, Spec{Kind: SklearnKNN, K: 1, Affinity: Binary}, 0})
	for _, c := range cases {
		r, d := c.x.Dims()
		name := fmt.Sprintf("n=%d,d=%d/%v", r, d, c.s)
		t.Run(name, func(t *testing.T) {
			g, err := Build(context.Background(), c.x, c.s)
			if err != nil {
				t.Fatal(err)
			}
			want := refGraph(c.x, c.s)
			got := g.Dense()
			n, _ := c.x.Dims()
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					gv, wv := got.At(i, j), want.At(i, j)
					if math.Abs(gv-wv) > c.tol*math.Max(1, math.Abs(wv)) || (gv == 0) != (wv == 0) && c.tol == 0 {
						t.Fatalf("W[%d,%d] = %v, want %v", i, j, gv, wv)
					}
				}
			}
		})
	}
}

// TestBuildHandComputed checks σ rules and kind semantics on points of the
// line x = 0, 1, 3, 6, worked out by hand in the comments.
func TestBuildHandComputed(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{0, 1, 3, 6})
	e := math.Exp
	// Pairwise distances: d01=1 d02=3 d03=6 d12=2 d13=5 d23=3.
	// Median of {1,2,3,3,5,6} = 3; mean variance: mean 2.5, squared
	// deviations 6.25+2.25+0.25+12.25 = 21, /3 = 7, so σ² = 7.
	// Local K=2: σ = (3, 2, 3, 5) (second smallest distance of each point).
	for _, c := range []struct {
		name string
		s    Spec
		want [][]float64
	}{
		{"full/median", Spec{Kind: Full, Sigma: Sigma{Rule: SigmaMedian}}, [][]float64{
			{0, e(-1. / 18), e(-9. / 18), e(-36. / 18)},
			{e(-1. / 18), 0, e(-4. / 18), e(-25. / 18)},
			{e(-9. / 18), e(-4. / 18), 0, e(-9. / 18)},
			{e(-36. / 18), e(-25. / 18), e(-9. / 18), 0}}},
		{"full/meanvar", Spec{Kind: Full, Sigma: Sigma{Rule: SigmaMeanVariance}}, [][]float64{
			{0, e(-1. / 14), e(-9. / 14), e(-36. / 14)},
			{e(-1. / 14), 0, e(-4. / 14), e(-25. / 14)},
			{e(-9. / 14), e(-4. / 14), 0, e(-9. / 14)},
			{e(-36. / 14), e(-25. / 14), e(-9. / 14), 0}}},
		{"full/local2", Spec{Kind: Full, Sigma: Sigma{Rule: SigmaLocal, K: 2}}, [][]float64{
			{0, e(-1. / 6), e(-9. / 9), e(-36. / 15)},
			{e(-1. / 6), 0, e(-4. / 6), e(-25. / 10)},
			{e(-9. / 9), e(-4. / 6), 0, e(-9. / 15)},
			{e(-36. / 15), e(-25. / 10), e(-9. / 15), 0}}},
		// 1-NN: 0→1, 1→0, 3→1 (2 < 3), 6→3. Either: {0,1},{1,3},{3,6}.
		{"knn1/binary", Spec{Kind: SymmetricKNN, K: 1, Affinity: Binary}, [][]float64{
			{0, 1, 0, 0}, {1, 0, 1, 0}, {0, 1, 0, 1}, {0, 0, 1, 0}}},
		// Both: only {0,1} is mutual.
		{"mknn1/binary", Spec{Kind: MutualKNN, K: 1, Affinity: Binary}, [][]float64{
			{0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
		// scikit-learn, n_neighbors=2 with self: C = I + 1-NN matrix,
		// A = ½(C + Cᵀ): A01 = 1, A12 = A23 = ½, diagonal 1.
		{"sknn2/binary", Spec{Kind: SklearnKNN, K: 2, Affinity: Binary}, [][]float64{
			{1, 1, 0, 0}, {1, 1, 0.5, 0}, {0, 0.5, 1, 0.5}, {0, 0, 0.5, 1}}},
		// ε = 3 keeps d ≤ 3: {0,1},{0,3},{1,3},{3,6}; σ = 1 fixed.
		{"eps3/sigma1", Spec{Kind: Epsilon, Eps: 3, Sigma: Sigma{Rule: SigmaFixed, Value: 1}}, [][]float64{
			{0, e(-0.5), e(-4.5), 0},
			{e(-0.5), 0, e(-2), 0},
			{e(-4.5), e(-2), 0, e(-4.5)},
			{0, 0, e(-4.5), 0}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := Build(context.Background(), x, c.s)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.want {
				for j, wv := range c.want[i] {
					if gv := g.Weight(i, j); math.Abs(gv-wv) > 1e-15 {
						t.Errorf("W[%d,%d] = %v, want %v", i, j, gv, wv)
					}
				}
			}
		})
	}
}

func TestBuildDegenerate(t *testing.T) {
	same := mat.NewDense(8, 2, []float64{1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2})
	for _, sg := range []Sigma{{}, {Rule: SigmaMedian}, {Rule: SigmaMeanVariance}} {
		for _, kind := range []Kind{SymmetricKNN, Full} {
			_, err := Build(context.Background(), same, Spec{Kind: kind, K: 2, Sigma: sg})
			if !errors.Is(err, ErrDegenerateScale) {
				t.Errorf("%v σ=%v: err = %v, want ErrDegenerateScale", kind, sg, err)
			}
		}
	}
	// A fixed σ is fine: every weight is exp(0) = 1.
	g, err := Build(context.Background(), same, Spec{Kind: Full, Sigma: Sigma{Rule: SigmaFixed, Value: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if st := g.Stats(); st.Edges != 28 || st.MinDegree != 7 || st.MaxDegree != 7 {
		t.Errorf("stats %v, want the complete graph K8 with unit weights", st)
	}
	// Underflowing RBF weights never give NaN: two far groups under a tiny
	// σ. Only the pair {0,1} would survive (exp(−0.5)); 2 and 3 are 1 apart:
	// exp(−5e5) = 0, so they would be isolated although they have
	// neighbours. That used to be returned as a graph with isolated nodes
	// (and reported later as "isolated node"); it is now an error naming
	// node 2, its nearest neighbour's distance and σ (TestBuildUnderflow).
	far := mat.NewDense(4, 1, []float64{0, 1e-3, 1e3, 1e3 + 1})
	_, err = Build(context.Background(), far, Spec{Kind: Full, Sigma: Sigma{Rule: SigmaFixed, Value: 1e-3}})
	if !errors.Is(err, ErrDegenerateScale) || !strings.Contains(err.Error(), "node 2 (and 1 other node)") {
		t.Errorf("err = %v, want ErrDegenerateScale naming node 2", err)
	}
}

func TestBuildErrors(t *testing.T) {
	x := randData(20, 3, 0, 1)
	nan := randData(20, 3, 0, 1)
	nan.Set(3, 1, math.NaN())
	for _, c := range []struct {
		name string
		x    *mat.Dense
		s    Spec
		want string
	}{
		{"nan", nan, Spec{}, "row 3, column 1"},
		// A nil x panicked in x.Dims(); the documentation promises an
		// error for empty data.
		{"nil", nil, Spec{}, "no data points"},
		{"empty", &mat.Dense{}, Spec{}, "no data points"},
		{"k=n", x, Spec{K: 20}, "1 ≤ K < n = 20"},
		{"k<0", x, Spec{Kind: MutualKNN, K: -1}, "1 ≤ K < n = 20"},
		{"sknn k>n", x, Spec{Kind: SklearnKNN, K: 21}, "1 ≤ K ≤ n = 20"},
		{"eps=0", x, Spec{Kind: Epsilon}, "positive finite radius"},
		{"eps=inf", x, Spec{Kind: Epsilon, Eps: math.Inf(1)}, "positive finite radius"},
		{"sigma<0", x, Spec{Sigma: Sigma{Rule: SigmaFixed, Value: -1}}, "σ = -1"},
		{"sigma=0", x, Spec{Sigma: Sigma{Rule: SigmaFixed}}, "σ = 0"},
		{"local k", x, Spec{Sigma: Sigma{Rule: SigmaLocal, K: 20}}, "needs 1 ≤ K < n = 20 points, got Sigma.K = 20:"},
		// DefaultSpec's σ on 6 points: the K the caller never set is
		// named as the default.
		{"local default k", x.Slice(0, 6, 0, 3).(*mat.Dense), Spec{K: 2, Sigma: Sigma{Rule: SigmaLocal}}, "needs 1 ≤ K < n = 6 points, got Sigma.K = 0, the default 7 (DefaultLocalK)"},
		{"full too big", x, Spec{Kind: Full, MaxFull: 10}, "n = 20 points stores 380 weights"},
		{"eps too big", x, Spec{Kind: Epsilon, Eps: 10, MaxFull: 5}, "above the limit 5²"},
		{"kind", x, Spec{Kind: 9}, "unknown graph kind 9"},
		{"affinity", x, Spec{Affinity: 7}, "unknown affinity 7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic: %v", r)
				}
			}()
			_, err := Build(context.Background(), c.x, c.s)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "graph: ") {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
			// The Spec's errors wrap ErrSpec (none did), the data's do not;
			// ErrSpec is an ErrInvalid (review 49, finding 9).
			data := c.name == "nan" || c.name == "nil" || c.name == "empty"
			if errors.Is(err, ErrSpec) == data {
				t.Errorf("err %v: errors.Is(err, ErrSpec) = %v", err, !data)
			}
			if !data && !errors.Is(err, ErrInvalid) {
				t.Errorf("err %v: errors.Is(err, ErrInvalid) = false for a Spec error", err)
			}
		})
	}
}

// TestErrSpecIsErrInvalid: ErrSpec, and an error wrapping it, are
// ErrInvalid for errors.Is, with ErrSpec's own text; ErrInvalid is not
// an ErrSpec.
func TestErrSpecIsErrInvalid(t *testing.T) {
	wrapped := fmt.Errorf("%w: K = -1", ErrSpec)
	for _, err := range []error{ErrSpec, wrapped, specErrorf("graph: K = %d", -1)} {
		if !errors.Is(err, ErrInvalid) || !errors.Is(err, ErrSpec) {
			t.Errorf("%v: errors.Is ErrInvalid %v, ErrSpec %v; want both", err, errors.Is(err, ErrInvalid), errors.Is(err, ErrSpec))
		}
	}
	if got, want := wrapped.Error(), "graph: invalid spec: K = -1"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if errors.Is(ErrInvalid, ErrSpec) {
		t.Error("ErrInvalid is an ErrSpec")
	}
}

func TestBuildDeterministicAndCancel(t *testing.T) {
	x := randData(1500, 30, 4, 8)
	for _, s := range []Spec{{}, {Kind: Full, Sigma: Sigma{Rule: SigmaMedian}}, {Kind: Epsilon, Eps: 6}} {
		prev := runtime.GOMAXPROCS(1)
		a, err := Build(context.Background(), x, s)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Build(context.Background(), x, s)
		if err != nil {
			t.Fatal(err)
		}
		if a.NNZ() != b.NNZ() {
			t.Fatalf("%v: nnz %d vs %d", s, a.NNZ(), b.NNZ())
		}
		for p := range a.w {
			if a.idx[p] != b.idx[p] || a.w[p] != b.w[p] {
				t.Fatalf("%v: entry %d differs between GOMAXPROCS 1 and %d", s, p, prev)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Build(ctx, x, s); !errors.Is(err, context.Canceled) {
			t.Errorf("%v: cancelled build returned %v", s, err)
		}
	}
}

func TestSpecDefault(t *testing.T) {
	s := DefaultSpec()
	if got := s.String(); got != "knn k=10 rbf sigma=local" {
		t.Errorf("DefaultSpec().String() = %q", got)
	}
	var zero Spec
	g1, err := Build(context.Background(), randData(60, 2, 0, 3), zero)
	if err != nil {
		t.Fatal(err)
	}
	g2, _ := Build(context.Background(), randData(60, 2, 0, 3), DefaultSpec())
	if !mat.Equal(g1.Dense(), g2.Dense()) {
		t.Error("the zero Spec and DefaultSpec build different graphs")
	}
}

// TestSpecText checks the enum convention (internal/enum): String,
// MarshalText and UnmarshalText agree for every value, and unknown names
// are errors listing the valid ones.
func TestSpecText(t *testing.T) {
	for k := range Kind(len(kindNames)) {
		text, err := k.MarshalText()
		var got Kind
		if err != nil || string(text) != k.String() || got.UnmarshalText(text) != nil || got != k {
			t.Errorf("Kind %d: text %q, %v, read back %v", k, text, err, got)
		}
	}
	for a := range Affinity(len(affinityNames)) {
		text, err := a.MarshalText()
		var got Affinity
		if err != nil || string(text) != a.String() || got.UnmarshalText(text) != nil || got != a {
			t.Errorf("Affinity %d: text %q, %v, read back %v", a, text, err, got)
		}
	}
	for v := range Search(len(searchNames)) {
		text, err := v.MarshalText()
		var got Search
		if err != nil || string(text) != v.String() || got.UnmarshalText(text) != nil || got != v {
			t.Errorf("Search %d: text %q, %v, read back %v", v, text, err, got)
		}
	}
	var sr Search
	if err := sr.UnmarshalText([]byte("hnsw")); err == nil || err.Error() != `graph: unknown k-NN search "hnsw" (want auto, exact or approx)` {
		t.Errorf("Search.UnmarshalText(hnsw): %v", err)
	}
	if got := (Spec{K: 5, Search: SearchApprox}).String(); got != "knn k=5 rbf sigma=local search=approx" {
		t.Errorf("Spec.String with approximate search: %q", got)
	}
	if _, err := Build(context.Background(), randData(20, 2, 0, 1), Spec{Search: 7}); err == nil || !strings.Contains(err.Error(), "unknown k-NN search 7") {
		t.Errorf("Build with Search 7: %v", err)
	}
	for _, v := range []string{"0.5", "median", "meanvar", "local", "local:3"} {
		var sg Sigma
		if err := sg.UnmarshalText([]byte(v)); err != nil || sg.String() != v {
			t.Errorf("Sigma round trip %q: got %q, %v", v, sg.String(), err)
		}
		if text, err := sg.MarshalText(); err != nil || string(text) != v {
			t.Errorf("Sigma %q: MarshalText = %q, %v", v, text, err)
		}
	}
	for _, v := range []string{"-1", "0", "nan", "inf", "local:0", "local:x", "big"} {
		var sg Sigma
		if err := sg.UnmarshalText([]byte(v)); err == nil {
			t.Errorf("Sigma.UnmarshalText(%q) accepted", v)
		}
	}
	var k Kind
	if err := k.UnmarshalText([]byte("ball")); err == nil || err.Error() != `graph: unknown graph kind "ball" (want knn, mknn, full, eps or sknn)` {
		t.Errorf("Kind.UnmarshalText(ball): %v", err)
	}
	var a Affinity
	if err := a.UnmarshalText([]byte("gauss")); err == nil || err.Error() != `graph: unknown affinity "gauss" (want rbf, cosine or binary)` {
		t.Errorf("Affinity.UnmarshalText(gauss): %v", err)
	}
	if _, err := Kind(9).MarshalText(); err == nil {
		t.Error("Kind(9).MarshalText succeeded")
	}
	if _, err := (Sigma{Rule: 9}).MarshalText(); err == nil {
		t.Error("MarshalText of an unknown σ rule succeeded")
	}
}

var sinkGraph *Graph

func benchBuild(b *testing.B, n, d int, s Spec) {
	x := knnBenchData(n, d)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := Build(context.Background(), x, s)
		if err != nil {
			b.Fatal(err)
		}
		sinkGraph = g
	}
}

// BenchmarkBuildFull4601x57 has the shape of spambase (n = 4601, d = 57).
func BenchmarkBuildFull4601x57(b *testing.B) {
	benchBuild(b, 4601, 57, Spec{Kind: Full, Sigma: Sigma{Rule: SigmaMedian}})
}

func BenchmarkBuildKNN20k8d(b *testing.B) { benchBuild(b, 20000, 8, DefaultSpec()) }
