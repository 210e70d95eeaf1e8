package experiment_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/tether-sc/tether/experiment"
)

// Run records each cell's wall time in the cache; EstimateRun turns the
// times into the wall time of a fresh run with two workers.
func ExampleEstimateRun() {
	dir, err := os.MkdirTemp("", "estimate")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	exp := experiment.Experiment{
		Name: "squares",
		Cells: func(*experiment.Env) ([]experiment.Cell, error) {
			var cells []experiment.Cell
			for i := range 4 {
				cells = append(cells, experiment.Cell{Key: fmt.Sprint(i), Run: func(context.Context) (experiment.Values, error) {
					return experiment.Values{"square": float64(i * i)}, nil
				}})
			}
			return cells, nil
		},
		Report: func(*experiment.Env, map[string]experiment.Values) (*experiment.Output, error) {
			return &experiment.Output{}, nil
		},
	}
	if _, _, err := experiment.Run(context.Background(), exp, &experiment.Env{}, experiment.RunOptions{CacheDir: dir}); err != nil {
		log.Fatal(err)
	}
	est, err := experiment.EstimateRun(exp, &experiment.Env{}, dir, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d cells, %d timed by the runner, %d untimed, estimated with %d workers\n", est.Cells, est.Measured, est.Untimed(), est.Workers)
	// Output:
	// 4 cells, 4 timed by the runner, 0 untimed, estimated with 2 workers
}
