package experiment

import (
	"reflect"
	"testing"
)

// TestCoDevGenerate checks the generator's shape, its determinism, the
// class sizes of an unequal row and that a topic's documents use their own
// word group more than the others (the planted co-clusters).
func TestCoDevGenerate(t *testing.T) {
	r := coDevRow{"t", 200, 1000, 3, 40, 0.5, []float64{0.5, 0.3, 0.2}}
	a, truth, err := coDevGenerate(r, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, truth2, err := coDevGenerate(r, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(truth, truth2) {
		t.Fatal("same seed, different matrices")
	}
	c, _, err := coDevGenerate(r, 8)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a, c) {
		t.Fatal("seeds 7 and 8 gave the same matrix")
	}
	if a.Rows != 200 || a.Cols > 1000 || len(truth) != 200 {
		t.Fatalf("%d×%d, %d labels; want 200 rows, ≤ 1000 columns, 200 labels", a.Rows, a.Cols, len(truth))
	}
	count := make([]int, 3)
	for i, l := range truth {
		count[l]++
		if i > 0 && l < truth[i-1] {
			t.Fatalf("labels not grouped: %d after %d at %d", l, truth[i-1], i)
		}
	}
	if !reflect.DeepEqual(count, []int{100, 60, 40}) {
		t.Fatalf("class sizes %v, want [100 60 40]", count)
	}
	// Every column is used and every weight positive (tf–idf, unused
	// words dropped): cocluster refuses a zero row or column.
	used := make([]bool, a.Cols)
	for i := 0; i < a.Rows; i++ {
		idx, val := a.Row(i)
		if len(idx) == 0 {
			t.Fatalf("document %d is empty", i)
		}
		for q, j := range idx {
			used[j] = true
			if !(val[q] > 0) {
				t.Fatalf("weight %v at (%d, %d)", val[q], i, j)
			}
		}
	}
	for j, u := range used {
		if !u {
			t.Fatalf("column %d has no entry", j)
		}
	}
}

// TestCoDevGenerateTopics checks the planted structure on the counts'
// support: with mix 0 every token of a topic-t document is in t's word
// group, so two documents of different topics share no word.
func TestCoDevGenerateTopics(t *testing.T) {
	r := coDevRow{"t", 60, 300, 3, 20, 0, nil}
	a, truth, err := coDevGenerate(r, 1)
	if err != nil {
		t.Fatal(err)
	}
	owner := map[int32]int{}
	for i := 0; i < a.Rows; i++ {
		idx, _ := a.Row(i)
		for _, j := range idx {
			if o, ok := owner[j]; ok && o != truth[i] {
				t.Fatalf("word %d in documents of topics %d and %d with mix 0", j, o, truth[i])
			}
			owner[j] = truth[i]
		}
	}
}

func TestCoDevPick(t *testing.T) {
	for _, c := range []struct {
		name string
		mean []float64
		ok   []bool
		want int
	}{
		{"default best", []float64{0.8, 0.7, 0.75}, []bool{true, true, true}, 0},
		{"default within 0.002", []float64{0.800, 0.7, 0.8019}, []bool{true, true, true}, 0},
		{"challenger beyond 0.002", []float64{0.800, 0.7, 0.8021}, []bool{true, true, true}, 2},
		{"best not eligible", []float64{0.7, 0.9, 0.8}, []bool{true, false, true}, 2},
		{"default not eligible", []float64{0.9, 0.7, 0.8}, []bool{false, true, true}, 2},
		{"none eligible", []float64{0.9, 0.7, 0.8}, []bool{false, false, false}, 0},
		{"first of equal challengers", []float64{0.5, 0.8, 0.8}, []bool{true, true, true}, 1},
	} {
		if got := coDevPick(c.mean, c.ok); got != c.want {
			t.Errorf("%s: coDevPick = %d, want %d", c.name, got, c.want)
		}
	}
}
