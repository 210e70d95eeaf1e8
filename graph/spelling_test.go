package graph_test

import (
	"context"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
)

// TestBuildSpelledRemedies builds each error of graph.BuildNeighbors
// that suggests a remedy (a full or eps graph above Spec.MaxFull, local
// scaling with K ≥ n, features to scale, RBF weights that underflow) for
// each front end: the library (a nil Spelling, BuildNeighbors itself),
// tether's command line (dataset.Spelling with CommandLine), a job (JSON fields,
// with "scale" only) and tether serve (upload options, with scale only),
// as job.Spelling and internal/server spell them. Each error must name
// the library's remedy, the front end's option where it has one, and no
// other front end's spelling.
func TestBuildSpelledRemedies(t *testing.T) {
	line := mat.NewDense(5, 1, []float64{0, 1, 2, 3, 4})
	far := mat.NewDense(4, 1, []float64{0, 1, 1000, 1001})
	huge := mat.NewDense(3, 1, []float64{1e200, 0, 1})
	fronts := []struct {
		name string
		sp   graph.Spelling // nil: the library's
		// others are the words of the other front ends, which its
		// messages must not hold.
		others []string
	}{
		{"library", nil, []string{"tether", "job:", "serve:", "(-", "; -"}},
		{"cli", dataset.Spelling{Front: "tether", CommandLine: true}, []string{"job:", "serve:", `"scale"`, "option "}},
		{"job", dataset.Spelling{Front: "job", Style: dataset.StyleJSON, Label: "label", KNN: "knn", Scale: "scale"}, []string{"tether", "serve:", "(-", "; -", "option "}},
		{"serve", dataset.Spelling{Front: "serve", Style: dataset.StyleOption, Label: "label", Scale: "scale"}, []string{"tether", "job:", "(-", "; -", `"scale"`}},
	}
	for _, c := range []struct {
		name string
		x    *mat.Dense
		spec graph.Spec
		// want holds the remedy each front end's error names, by front
		// end.
		want map[string]string
	}{
		{"full above MaxFull", line, graph.Spec{Kind: graph.Full, MaxFull: 3}, map[string]string{
			"library": "above the limit n ≤ 3 (Spec.MaxFull); use a k-NN graph",
			"cli":     "above the limit n ≤ 3 (Spec.MaxFull; tether: -max-full); use a k-NN graph",
			"job":     "above the limit n ≤ 3 (Spec.MaxFull); use a k-NN graph",
			"serve":   "above the limit n ≤ 3 (Spec.MaxFull); use a k-NN graph",
		}},
		{"eps above MaxFull", line, graph.Spec{Kind: graph.Epsilon, Eps: 10, MaxFull: 2, Sigma: graph.Sigma{Rule: graph.SigmaFixed, Value: 1}}, map[string]string{
			"library": "above the limit 2² (Spec.MaxFull); use a smaller radius",
			"cli":     "above the limit 2² (Spec.MaxFull; tether: -max-full); use a smaller radius",
			"job":     "above the limit 2² (Spec.MaxFull); use a smaller radius",
			"serve":   "above the limit 2² (Spec.MaxFull); use a smaller radius",
		}},
		{"local K ≥ n", line, graph.Spec{K: 2, Sigma: graph.Sigma{Rule: graph.SigmaLocal, K: 5}}, map[string]string{
			"library": "set Sigma.K below n (Spec.Sigma.K) or use another σ rule",
			"cli":     "set Sigma.K below n (Spec.Sigma.K; tether: -sigma local:K) or use another σ rule",
			"job":     "set Sigma.K below n (Spec.Sigma.K) or use another σ rule",
			"serve":   "set Sigma.K below n (Spec.Sigma.K) or use another σ rule",
		}},
		{"features to scale", huge, graph.Spec{K: 1, Sigma: graph.Sigma{Rule: graph.SigmaFixed, Value: 1}}, map[string]string{
			"library": "scale the features (dataset.Options.Scale = ScaleMinMax or ScaleZScore)",
			"cli":     "scale the features (dataset.Options.Scale = ScaleMinMax or ScaleZScore; tether: -scale minmax or -scale zscore)",
			"job":     `scale the features (dataset.Options.Scale = ScaleMinMax or ScaleZScore; job: "scale": "minmax" or "scale": "zscore")`,
			"serve":   "scale the features (dataset.Options.Scale = ScaleMinMax or ScaleZScore; serve: option scale minmax or option scale zscore)",
		}},
		{"RBF underflow", far, graph.Spec{K: 1, Sigma: graph.Sigma{Rule: graph.SigmaFixed, Value: 1e-3}}, map[string]string{
			"library": "use a larger σ: a larger fixed value, or the median distance (Spec.Sigma = Sigma{Rule: SigmaMedian})",
			"cli":     "use a larger σ: a larger fixed value, or the median distance (Spec.Sigma = Sigma{Rule: SigmaMedian}; tether: -sigma median)",
			"job":     "use a larger σ: a larger fixed value, or the median distance (Spec.Sigma = Sigma{Rule: SigmaMedian})",
			"serve":   "use a larger σ: a larger fixed value, or the median distance (Spec.Sigma = Sigma{Rule: SigmaMedian})",
		}},
	} {
		for _, f := range fronts {
			t.Run(c.name+"/"+f.name, func(t *testing.T) {
				var err error
				if f.sp == nil {
					_, _, err = graph.BuildNeighbors(context.Background(), c.x, c.spec, nil)
				} else {
					_, _, err = graph.BuildNeighborsSpelled(context.Background(), c.x, c.spec, nil, f.sp)
				}
				if err == nil {
					t.Fatal("no error")
				}
				msg := err.Error()
				if !strings.Contains(msg, c.want[f.name]) {
					t.Errorf("error %q, want %q", msg, c.want[f.name])
				}
				for _, w := range f.others {
					if strings.Contains(msg, w) {
						t.Errorf("error %q names %q, another front end's", msg, w)
					}
				}
			})
		}
	}
}
