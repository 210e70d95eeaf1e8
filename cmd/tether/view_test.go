package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/progress"
)

// The PCA view equals the projection on the two leading right singular
// vectors of the centred data (an independent computation by SVD), up to
// the sign of each axis, and the axes give the variance shares.
func TestDataViewPCA(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	n, d := 60, 4
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rnd.NormFloat64()*float64(d-j)+float64(j))
		}
	}
	v, err := dataView(context.Background(), x, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mat.DenseCopyOf(x)
	for j := 0; j < d; j++ {
		var m float64
		for i := 0; i < n; i++ {
			m += x.At(i, j) / float64(n)
		}
		for i := 0; i < n; i++ {
			c.Set(i, j, c.At(i, j)-m)
		}
	}
	var svd mat.SVD
	if !svd.Factorize(c, mat.SVDThin) {
		t.Fatal("SVD failed")
	}
	var vt mat.Dense
	svd.VTo(&vt)
	var want mat.Dense
	want.Mul(c, vt.Slice(0, d, 0, 2))
	for j := 0; j < 2; j++ {
		sign := math.Copysign(1, want.At(0, j)*v.x.At(0, j))
		for i := 0; i < n; i++ {
			if diff := math.Abs(v.x.At(i, j) - sign*want.At(i, j)); diff > 1e-10 {
				t.Fatalf("row %d axis %d: %v, SVD gives %v", i, j, v.x.At(i, j), sign*want.At(i, j))
			}
		}
	}
	sv := svd.Values(nil)
	var tot float64
	for _, s := range sv {
		tot += s * s
	}
	if want := fmt.Sprintf("PC1 (%.0f%% of the variance)", 100*sv[0]*sv[0]/tot); v.xname != want {
		t.Errorf("x axis %q, want %q", v.xname, want)
	}
}

// A graph of two cliques joined by one edge is laid out with the cliques
// on either side of 0 along u₂.
func TestDataViewSpectralLayout(t *testing.T) {
	var edges []graph.Edge
	for _, off := range []int{0, 6} {
		for i := 0; i < 6; i++ {
			for j := i + 1; j < 6; j++ {
				edges = append(edges, graph.Edge{I: off + i, J: off + j, W: 1})
			}
		}
	}
	edges = append(edges, graph.Edge{I: 0, J: 6, W: 1})
	g, err := graph.FromEdges(12, edges)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	stages := map[string]int{}
	v, err := dataView(context.Background(), nil, g, progress.Func(func(e progress.Event) {
		mu.Lock()
		stages[e.Stage]++
		mu.Unlock()
	}))
	if err != nil {
		t.Fatal(err)
	}
	// The layout's progress, named as the plot's (it was not reported).
	if stages["plot eigen"] == 0 || stages["plot kmeans"] == 0 || len(stages) != 2 {
		t.Errorf("progress of the layout: events by stage %v, want plot eigen and plot kmeans", stages)
	}
	for i := 1; i < 6; i++ {
		if a, b := v.x.At(i, 0), v.x.At(i+6, 0); a*b >= 0 || a*v.x.At(1, 0) <= 0 {
			t.Errorf("node %d at %v and node %d at %v along u₂: not on either side", i, a, i+6, b)
		}
	}
}

// -input takes a folder of images with one subfolder per class (face
// datasets): the classes are the reference labels.
func TestClusterImageFolder(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(5, 6))
	for c, class := range []string{"dark", "light"} {
		if err := os.MkdirAll(filepath.Join(dir, class), 0o755); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 15; i++ {
			var b bytes.Buffer
			fmt.Fprintf(&b, "P5\n4 4\n255\n")
			for p := 0; p < 16; p++ {
				b.WriteByte(byte(60 + 120*c + rnd.IntN(30)))
			}
			if err := os.WriteFile(filepath.Join(dir, class, fmt.Sprintf("%02d.pgm", i)), b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, _, err := run(t, "cluster", "-input", dir, "-k", "2", "-knn", "5", "-quiet", "-o", filepath.Join(t.TempDir(), "l.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "ARI") || !strings.Contains(out, "1.0000") {
		t.Errorf("summary:\n%s", out)
	}
}

// -plot reports the layout's progress and its time as the step "plot",
// and -quiet none of it.
func TestPlotProgress(t *testing.T) {
	dir := t.TempDir()
	var edges strings.Builder
	for i := range 60 {
		fmt.Fprintf(&edges, "%d %d 1\n%d %d 1\n", i, (i+1)%30+30*(i/30), i, (i+3)%30+30*(i/30))
	}
	g := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(g, []byte(edges.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"cluster", "-graph-file", g, "-k", "2", "-plot", filepath.Join(dir, "p.png"), "-o", filepath.Join(dir, "l.txt")}
	_, errOut, err := runClocked(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if len(progressLines(errOut, "plot")) == 0 {
		t.Errorf("stderr %q: no line of the step plot", errOut)
	}
	_, errOut, err = runClocked(t, append(args, "-quiet")...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errOut, "plot") {
		t.Errorf("-quiet: stderr %q", errOut)
	}
}
