package cluster

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/constraint"
)

func TestInRange(t *testing.T) {
	for _, tc := range []struct {
		r    string
		x    float64
		want bool
	}{
		{"0 | [1e-9, 1e9]", 0, true},
		{"0 | [1e-9, 1e9]", 1e-9, true},
		{"0 | [1e-9, 1e9]", 1e-10, false},
		{"0 | [1e-9, 1e9]", 1e9, true},
		{"0 | [1e-9, 1e9]", 1.0000001e9, false},
		{"0 | [1e-9, 1e9]", -1, false},
		{"(0, 1]", 0, false},
		{"(0, 1]", 1, true},
		{"[0, 1)", 1, false},
		{"(-inf, inf)", math.MaxFloat64, true},
		{"(-inf, inf)", math.Inf(1), false},
		{"[-inf, inf]", math.Inf(-1), false}, // infinite bounds are open
		{"[0, 1]", math.NaN(), false},
		{"0", math.NaN(), false},
	} {
		got, err := inRange(tc.x, tc.r)
		if err != nil || got != tc.want {
			t.Errorf("inRange(%v, %q) = %v, %v; want %v", tc.x, tc.r, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "[1, 0]", "[0 1]", "x", "0 |", "[0, 1"} {
		if _, err := inRange(0, bad); err == nil {
			t.Errorf("range %q accepted", bad)
		}
	}
}

// outside returns values just outside the range r and never inside it:
// NaN, ±Inf, and the neighbours of every interval bound that no
// alternative covers.
func outside(t *testing.T, r string) []float64 {
	out := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	for _, alt := range strings.Split(r, "|") {
		alt = strings.TrimSpace(alt)
		if alt[0] != '[' && alt[0] != '(' {
			continue
		}
		lo, hi, _ := strings.Cut(alt[1:len(alt)-1], ",")
		for _, b := range []string{lo, hi} {
			v, err := strconv.ParseFloat(strings.TrimSpace(b), 64)
			if err != nil {
				t.Fatalf("range %q: %v", r, err)
			}
			if math.IsInf(v, 0) {
				continue
			}
			for _, x := range []float64{v - math.Max(1, math.Abs(v))*1e-6, v + math.Max(1, math.Abs(v))*1e-6, math.Nextafter(v, math.Inf(-1)), math.Nextafter(v, math.Inf(1))} {
				if ok, _ := inRange(x, r); !ok {
					out = append(out, x)
				}
			}
		}
	}
	return out
}

// Every knob of every registered method has a one-line description, every
// numeric one a range that parses and holds its default, and Run rejects
// each value outside the range, naming the knob, before any work.
func TestEveryKnobDocumentedAndChecked(t *testing.T) {
	g, _ := roMoons(t, 30, 1)
	labels := make(constraint.Labels, 30)
	for i := range labels {
		labels[i] = constraint.Unlabeled
	}
	labels[0], labels[29] = 0, 1
	// Feature rows for the projection methods (cpca, clpp); the others
	// ignore them.
	p := &Problem{Graph: g, K: 2, Labels: labels, Features: lpFeatures(30, 3, 1), Constraints: &constraint.Set{N: 30, Pairs: []constraint.Pair{{I: 0, J: 29, Kind: constraint.CannotLink}}}}
	// A 10×20 bipartite matrix (30 nodes) for the co-clustering methods.
	bip := mat.NewDense(10, 20, nil)
	for i := 0; i < 10; i++ {
		for j := 0; j < 20; j++ {
			bip.Set(i, j, float64(1+(i*7+j*3)%5))
		}
	}
	pb := &Problem{Bipartite: bip, K: 2, Labels: labels, Constraints: p.Constraints}
	for _, info := range Methods() {
		m := info.New()
		p := p
		if m.Uses().Input&BipartiteInput != 0 {
			p = pb
		}
		if err := checkKnobs(m); err != nil {
			t.Errorf("%s: defaults fail their ranges: %v", info.Name, err)
		}
		for _, k := range Knobs(m) {
			if k.Doc == "" || strings.Contains(k.Doc, "\n") {
				t.Errorf("%s.%s: doc tag %q, want one line", info.Name, k.Name, k.Doc)
			}
		}
		v := reflect.ValueOf(m)
		isPtr := v.Kind() == reflect.Pointer
		if isPtr {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			continue
		}
		for _, f := range reflect.VisibleFields(v.Type()) {
			if !f.IsExported() || f.Anonymous {
				continue
			}
			kind := f.Type.Kind()
			isFloat := kind == reflect.Float64
			isInt := kind >= reflect.Int && kind <= reflect.Int64 && !f.Type.Implements(reflect.TypeFor[interface{ String() string }]())
			if !isFloat && !isInt {
				if f.Tag.Get("range") != "" {
					t.Errorf("%s.%s: range on a non-numeric knob", info.Name, f.Name)
				}
				continue
			}
			r := f.Tag.Get("range")
			if r == "" {
				t.Errorf("%s.%s: numeric knob without a range tag", info.Name, f.Name)
				continue
			}
			for _, x := range outside(t, r) {
				if isInt && (x != math.Trunc(x) || math.IsInf(x, 0) || math.IsNaN(x) || math.Abs(x) > 1<<62) {
					continue
				}
				cp := reflect.New(v.Type()).Elem()
				cp.Set(v)
				fv := cp.FieldByIndex(f.Index)
				if isFloat {
					fv.SetFloat(x)
				} else {
					fv.SetInt(int64(x))
				}
				bad := cp.Interface().(Method)
				if isPtr {
					bad = cp.Addr().Interface().(Method)
				}
				_, err := Run(context.Background(), bad, p, &Settings{Seed: 1})
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), f.Name+" = ") {
					t.Errorf("%s.%s = %v: error %v, want the knob named as out of range", info.Name, f.Name, x, err)
				}
			}
		}
	}
}

// The values of issue #15 that used to give a NaN objective or a wrong
// answer with exit 0 are refused.
func TestKnobValuesThatUsedToGiveNaN(t *testing.T) {
	g, _ := roMoons(t, 30, 1)
	p := &Problem{Graph: g, K: 2, Constraints: &constraint.Set{N: 30, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink}, {I: 0, J: 29, Kind: constraint.CannotLink}}}}
	for _, m := range []Method{
		&FGPWC{SigmaML: 1e-320}, &FGPWC{SigmaCL: 1e-320}, &FGPWC{Gamma: 1e308}, &FGPWC{FTol: -5},
		BetheHessian{MaxK: -1}, BetheHessian{R: 1}, CSCAP{Shift: math.Inf(1)}, SSCKA{Shift: -1e300}, HBisection{Alpha: math.Inf(1)},
	} {
		if _, err := Run(context.Background(), m, p, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s %+v: error %v, want ErrInvalid", m.Name(), m, err)
		}
	}
}

// Run refuses a result with a NaN objective, eigenvalue or embedding, or
// labels that are not a partition into 0…K−1. (Before, a non-finite
// eigenvalue passed: Spectral Learning's σ = 1 − λ/d_max reached the
// caller as NaN with a nil error when the cannot-links left no edge.)
func TestRunRefusesNonFiniteResults(t *testing.T) {
	g, _ := roMoons(t, 20, 1)
	p := &Problem{Graph: g, K: 2}
	for _, tc := range []struct {
		name string
		res  *Result
	}{
		{"NaN objective", &Result{Labels: make([]int, 20), K: 2, Objective: math.NaN()}},
		{"Inf embedding", &Result{Labels: make([]int, 20), K: 2, Embedding: matWith(20, 2, 3, 1, math.Inf(1))}},
		{"NaN eigenvalue", &Result{Labels: make([]int, 20), K: 2, Eigenvalues: []float64{0, math.NaN()}}},
		{"-Inf eigenvalue", &Result{Labels: make([]int, 20), K: 2, Eigenvalues: []float64{math.Inf(-1), 0.5}}},
		{"label out of range", &Result{Labels: append([]int{0, 1, 2}, make([]int, 17)...), K: 2}},
		{"too few labels", &Result{Labels: make([]int, 19), K: 2}},
	} {
		_, err := Run(context.Background(), resultMethod{tc.res}, p, nil)
		if !errors.Is(err, ErrNumerical) {
			t.Errorf("%s: error %v, want ErrNumerical", tc.name, err)
		}
	}
}

type resultMethod struct{ res *Result }

func (resultMethod) Name() string { return "result" }
func (resultMethod) Uses() Uses   { return Uses{} }
func (m resultMethod) Partition(context.Context, *Problem, *Settings) (*Result, error) {
	return m.res, nil
}

func matWith(r, c, i, j int, v float64) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	m.Set(i, j, v)
	return m
}

func TestSetKnobs(t *testing.T) {
	orig := NewFGPWC()
	cases := []struct {
		name     string
		m        Method
		settings []string
		check    func(Method) bool
		wantErr  string
	}{
		{"float, any case", HBisection{}, []string{"alpha=0.25"}, func(m Method) bool { return m.(HBisection).Alpha == 0.25 }, ""},
		{"int and bool on a pointer", orig, []string{"M=7", "RowNormalize=false"}, func(m Method) bool {
			f := m.(*FGPWC)
			return f.M == 7 && !f.RowNormalize
		}, ""},
		{"enumeration by UnmarshalText", FastGE2BH{}, []string{"Variant=LH"}, func(m Method) bool { return m.(FastGE2BH).Variant.String() == "LH" }, ""},
		{"no equals sign", HBisection{}, []string{"alpha"}, nil, "want Name=value"},
		{"unknown knob lists the knobs", HBisection{}, []string{"beta=1"}, nil, `no knob "beta" (knobs: Alpha)`},
		{"a method without knobs says so", NJW{}, []string{"Gamma=1"}, nil, `method njw has no knob "Gamma" (it has no knobs)`},
		{"a close knob is suggested", orig, []string{"SigmML=0.2"}, nil, `no knob "SigmML": did you mean SigmaML? (knobs: `},
		{"a close knob is suggested, any case", orig, []string{"rownormalise=false"}, nil, `no knob "rownormalise": did you mean RowNormalize? (knobs: `},
		{"not a number", HBisection{}, []string{"alpha=x"}, nil, `"x" is not a number`},
		{"not an integer", orig, []string{"M=1.5"}, nil, `"1.5" is not an integer`},
		// Integers in float notation, as Knobs prints the ranges ("[0,
		// 1e7]"), were "not an integer".
		{"integer in float notation", orig, []string{"MaxIter=1e7"}, func(m Method) bool { return m.(*FGPWC).MaxIter == 10_000_000 }, ""},
		{"integer in float notation with a fraction", orig, []string{"M=2.5e3"}, func(m Method) bool { return m.(*FGPWC).M == 2500 }, ""},
		{"float notation, not an integer", orig, []string{"M=1.5e0"}, nil, `"1.5e0" is not an integer`},
		{"float notation beyond the knob's range", orig, []string{"MaxIter=1e8"}, nil, `knob setting "MaxIter=1e8": fgpwc: MaxIter = 100000000 is outside its range`},
		{"float notation beyond int64", orig, []string{"M=1e19"}, nil, `"1e19" is out of range`},
		{"float notation beyond float64", orig, []string{"M=1e400"}, nil, `"1e400" is out of range`},
		{"infinity is no integer", orig, []string{"M=Inf"}, nil, `"Inf" is not an integer`},
		// Numbers beyond the type's range were called "not an integer"
		// ("not a number").
		{"integer beyond int64", orig, []string{"M=99999999999999999999"}, nil, `"99999999999999999999" is out of range`},
		{"float beyond float64", HBisection{}, []string{"alpha=1e400"}, nil, `"1e400" is out of range`},
		{"bad enumeration", FastGE2BH{}, []string{"Variant=nope"}, nil, "Variant=nope"},
		// A value outside the knob's range is refused here, not first by
		// Run, so that front ends answer it as the setting's mistake.
		{"outside the range", orig, []string{"SigmaML=-1"}, nil, `knob setting "SigmaML=-1": fgpwc: SigmaML = -1 is outside its range 0 | [1e-9, 1e9]`},
		{"an integer outside the range", orig, []string{"M=-3"}, nil, `knob setting "M=-3": fgpwc: M = -3 is outside its range`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SetKnobs(tc.m, tc.settings)
			if tc.wantErr != "" {
				if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want ErrInvalid containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(got) {
				t.Errorf("knobs not set: %+v", got)
			}
		})
	}
	if orig.M != NewFGPWC().M || !orig.RowNormalize {
		t.Errorf("SetKnobs modified its argument: %+v", orig)
	}
}
