package constraint_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/tether-sc/tether/constraint"
)

func ExampleClosure() {
	s := &constraint.Set{N: 6, Pairs: []constraint.Pair{
		{I: 0, J: 2, Kind: constraint.MustLink},
		{I: 2, J: 4, Kind: constraint.MustLink},
		{I: 1, J: 5, Kind: constraint.CannotLink},
	}}
	comp, count := constraint.Closure(s)
	fmt.Println(comp, count)
	// Output: [0 1 0 2 0 3] 4
}

func ExamplePartialLabels() {
	s := &constraint.Set{N: 5, Pairs: []constraint.Pair{
		{I: 3, J: 4, Kind: constraint.MustLink},
		{I: 0, J: 1, Kind: constraint.MustLink},
	}}
	l, k := constraint.PartialLabels(s)
	fmt.Println(l, k)
	// Output: [0 0 -1 1 1] 2
}

func ExampleComponentCannotLinks() {
	s := &constraint.Set{N: 4, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},
		{I: 1, J: 2, Kind: constraint.CannotLink},
		{I: 0, J: 2, Kind: constraint.CannotLink},
	}}
	comp, _ := constraint.Closure(s)
	fmt.Println(constraint.ComponentCannotLinks(s, comp))
	// Output: [[0 1]]
}

func ExampleCheck() {
	s := &constraint.Set{N: 4, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},
		{I: 1, J: 2, Kind: constraint.MustLink},
		{I: 2, J: 0, Kind: constraint.CannotLink},
		{I: 3, J: 3, Kind: constraint.CannotLink},
	}}
	rep := constraint.Check(s)
	for _, c := range rep.Conflicts {
		fmt.Println(c)
	}
	fmt.Println(rep.Components, "components")
	// Output:
	// self pair: cl(3,3) [pair 3]
	// cannot-link inside a must-link component: cl(2,0) [pair 2] joined by ml(1,2) [pair 1], ml(0,1) [pair 0]
	// 2 components
}

func ExampleResolve() {
	s := &constraint.Set{N: 3, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},
		{I: 0, J: 1, Kind: constraint.CannotLink},
		{I: 1, J: 2, Kind: constraint.CannotLink},
	}}
	_, _, err := constraint.Resolve(s, constraint.Reject)
	fmt.Println(err)
	kept, _, _ := constraint.Resolve(s, constraint.DropConflictingCannotLinks)
	fmt.Println(kept.Pairs)
	// Output:
	// constraint: conflicting constraints: must-link and cannot-link on one pair: ml(0,1) [pair 0], cl(0,1) [pair 1]
	// [{0 1 ml 0} {1 2 cl 0}]
}

func ExampleRead() {
	in := `# base=1
i,j,kind,weight
1,2,ml
2,4,cl,0.5
`
	f, err := constraint.Read(strings.NewReader(in), &constraint.ReadOptions{File: "c.csv"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Set.N, f.Set.Pairs, f.Lines)
	_, err = constraint.Read(strings.NewReader("0,1,ml\n0,1,xx\n"), &constraint.ReadOptions{File: "c.csv"})
	fmt.Println(err)
	// Output:
	// 4 [{0 1 ml 0} {1 3 cl 0.5}] [3 4]
	// constraint: invalid input: c.csv:2: kind "xx", want ml or cl
}

func ExampleWrite() {
	s := &constraint.Set{N: 3, Pairs: []constraint.Pair{
		{I: 0, J: 2, Kind: constraint.MustLink},
		{I: 1, J: 2, Kind: constraint.CannotLink, Weight: 0.25},
	}}
	constraint.Write(os.Stdout, s, 1)
	// Output:
	// # base=1
	// 1,3,ml
	// 2,3,cl,0.25
}

func ExampleReadLabels() {
	l, err := constraint.ReadLabels(strings.NewReader("2\n?\n0\n-1\n"), nil)
	fmt.Println(l, err)
	// Output: [2 -1 0 -1] <nil>
}

func ExampleWriteLabels() {
	constraint.WriteLabels(os.Stdout, constraint.Labels{1, -1, 0}, 0)
	// Output:
	// # base=0
	// 0,1
	// 2,0
}

func ExampleFromLabels() {
	s := constraint.FromLabels(constraint.Labels{0, -1, 0, 1})
	fmt.Println(s.Pairs)
	// Output: [{0 2 ml 0} {0 3 cl 0} {2 3 cl 0}]
}

func ExamplePairAt() {
	t := constraint.PairIndex(3, 1)
	i, j := constraint.PairAt(t)
	fmt.Println(t, i, j, constraint.NumPairs(4))
	// Output: 4 1 3 6
}

func ExampleBernoulliPairs() {
	// The FGPWC protocol: each pair with probability 1/n.
	truth := constraint.BlockLabels([]int{500, 300, 200})
	s, _ := constraint.BernoulliPairs(truth, 1.0/1000, rand.NewPCG(1, 2))
	ml, cl := s.Count()
	// Expected 499.5 pairs, 49.6% must-links; the draw is random.
	fmt.Println(ml+cl > 400 && ml+cl < 600, s.Validate())
	// Output: true <nil>
}

func ExampleUniformPairs() {
	truth := []int{0, 0, 1, 1, 2}
	s, _ := constraint.UniformPairs(truth, 4, rand.NewPCG(1, 2))
	fmt.Println(len(s.Pairs), len(constraint.Check(s).Conflicts))
	// Output: 4 0
}

func ExampleFractionPairs() {
	truth := constraint.BlockLabels([]int{50, 50})
	s, _ := constraint.FractionPairs(truth, 0.01, rand.NewPCG(1, 2))
	fmt.Println(len(s.Pairs)) // round(1% of 4950)
	// Output: 50
}

func ExampleFractionLabels() {
	truth := constraint.BlockLabels([]int{10, 10})
	l, _ := constraint.FractionLabels(truth, 0.1, rand.NewPCG(1, 2))
	fmt.Println(len(l.Labeled()))
	// Output: 2
}

func ExampleLabelSets() {
	truth := constraint.BlockLabels([]int{8, 4})
	sets, _ := constraint.LabelSets(truth, 0.5, rand.NewPCG(1, 2))
	fmt.Println(len(sets[0]), len(sets[1]))
	// Output: 4 2
}

func ExampleSetsToLabels() {
	l, err := constraint.SetsToLabels(5, [][]int{{0, 3}, {4}})
	fmt.Println(l, err, constraint.LabelsToSets(l))
	// Output: [0 -1 -1 0 1] <nil> [[0 3] [4]]
}

func ExampleUniformMustLinks() {
	sizes, _ := constraint.Table41("A")
	truth := constraint.BlockLabels(sizes)
	s, _ := constraint.UniformMustLinks(truth, 3000, rand.NewPCG(1, 2))
	_, count := constraint.Closure(s)
	// Far above the connectivity threshold the closure recovers the 5 clusters.
	fmt.Println(count)
	// Output: 5
}

func ExampleMustLinksUniformity() {
	truth := constraint.BlockLabels([]int{10, 10})
	s, _ := constraint.MustLinksUniformity(truth, 12, 0, rand.NewPCG(1, 2))
	// With α = 0 each must-link touches an earlier one, so the must-links
	// form one connected graph inside one class.
	comp, _ := constraint.Closure(s)
	touched := map[int]bool{}
	for _, p := range s.Pairs {
		touched[comp[p.I]] = true
	}
	fmt.Println(len(s.Pairs), len(touched))
	// Output: 12 1
}

func ExampleTable41() {
	sizes, _ := constraint.Table41("D")
	fmt.Println(sizes, constraint.ConnectivityThreshold(sizes))
	// Output: [250 125 63 31 31] 1218
}

func ExampleBlockLabels() {
	fmt.Println(constraint.BlockLabels([]int{2, 3}))
	// Output: [0 0 1 1 1]
}

func ExampleConnectivityThreshold() {
	fmt.Println(constraint.ConnectivityThreshold([]int{100, 100, 100, 100, 100}))
	// Output: 1140
}

func ExampleFlipLabels() {
	l := constraint.Labels{0, 1, 2, 0, 1, 2, 0, 1, 2, 0}
	noisy, flipped, _ := constraint.FlipLabels(l, 0.1, 3, rand.NewPCG(1, 2))
	fmt.Println(len(flipped), noisy[flipped[0]] != l[flipped[0]])
	// Output: 1 true
}

func ExampleFlipPairs() {
	s := constraint.FromLabels(constraint.Labels{0, 0, 1, 1})
	noisy, flipped, _ := constraint.FlipPairs(s, 0.5, rand.NewPCG(1, 2))
	ml0, _ := s.Count()
	ml1, _ := noisy.Count()
	fmt.Println(len(flipped), ml0, ml1 != ml0 || len(flipped)%2 == 0)
	// Output: 3 2 true
}

func ExamplePolicy_UnmarshalText() {
	var p constraint.Policy
	err := p.UnmarshalText([]byte("drop-cl"))
	fmt.Println(p == constraint.DropConflictingCannotLinks, err)
	fmt.Println(p.UnmarshalText([]byte("lenient")))
	// Output:
	// true <nil>
	// constraint: invalid input: unknown policy "lenient" (want reject, drop-cl or soft)
}

func ExampleIndexBase_UnmarshalText() {
	var b constraint.IndexBase
	b.UnmarshalText([]byte("1"))
	fmt.Println(b == constraint.Base1, b)
	// Output: true 1
}

func ExampleConflict_Describe() {
	f, err := constraint.Read(strings.NewReader("0,1,ml\n1,2,ml\n2,0,cl\n"),
		&constraint.ReadOptions{Policy: constraint.Soft})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.Report.Conflicts[0].Describe("c.csv"))
	// Output: cannot-link inside a must-link component: cl(2,0) [c.csv:3] joined by ml(1,2) [c.csv:2], ml(0,1) [c.csv:1]
}

// Repair resolves a contradiction of the transitive closure: the
// must-links 0–1–2–3 put 0 and 3 in one component, against the
// cannot-link 0–3. The weakest must-link (1–2, weight 0.2) weighs less
// than the cannot-link, so it is the one dropped.
func ExampleRepair() {
	s := &constraint.Set{N: 4, Pairs: []constraint.Pair{
		{I: 0, J: 1, Kind: constraint.MustLink},
		{I: 1, J: 2, Kind: constraint.MustLink, Weight: 0.2},
		{I: 2, J: 3, Kind: constraint.MustLink},
		{I: 0, J: 3, Kind: constraint.CannotLink},
	}}
	drop, err := constraint.Repair(context.Background(), s)
	if err != nil {
		panic(err)
	}
	for _, t := range drop {
		p := s.Pairs[t]
		fmt.Printf("drop %s %d–%d\n", p.Kind, p.I, p.J)
	}
	// Output:
	// drop ml 1–2
}

func ExampleStratifiedLabels() {
	// Classes 10 and 500 (sparse labels cost nothing): half of each.
	truth := []int{10, 10, 10, 10, 500, 500}
	l, err := constraint.StratifiedLabels(context.Background(), truth, 0.5, rand.NewPCG(1, 2))
	counts := map[int]int{}
	for _, c := range l {
		counts[c]++
	}
	fmt.Println(counts[10], counts[500], counts[constraint.Unlabeled], err)
	// Output: 2 1 3 <nil>
}

func ExampleUniformPairsContext() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as after Ctrl-C
	_, err := constraint.UniformPairsContext(ctx, make([]int, 1_000_000), 1_000_000, nil)
	fmt.Println(errors.Is(err, context.Canceled))
	// Output: true
}
