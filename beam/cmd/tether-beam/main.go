// Command tether-beam runs a manifest of tether clustering jobs on Apache
// Beam (Prism, locally, by default):
//
//	tether-beam -manifest jobs.jsonl -out results/
//
// Each line of the manifest is a job.Spec (see package job). The labels of
// job ID go to results/ID.labels, one JSON line per job to
// results/results.jsonl. Beam's own flags choose the runner, e.g.
// --runner=flink --endpoint=localhost:8099 --environment_type=LOOPBACK.
//
// A missing manifest, one with no jobs or an id used twice stops the run
// before it starts (tetherbeam.CheckManifest). Rerunning into an existing
// folder replaces results.jsonl and the labels of the manifest's jobs,
// removes the labels of a job that now fails and leaves other files alone.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	tetherbeam "github.com/tether-sc/tether/beam"
)

func main() {
	manifest := flag.String("manifest", "", "JSON Lines manifest of jobs (required)")
	out := flag.String("out", "", "output folder for the labels files and results.jsonl (required)")
	root := flag.String("root", "", "folder the jobs' relative paths start from (default: the manifest's folder)")
	flag.Parse()
	beam.Init()
	if *manifest == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "tether-beam: -manifest and -out are required")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := tetherbeam.CheckManifest(ctx, *manifest); err != nil {
		fmt.Fprintln(os.Stderr, "tether-beam:", err)
		os.Exit(1)
	}
	if *root == "" {
		*root = filepath.Dir(*manifest)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "tether-beam:", err)
		os.Exit(1)
	}
	p, s := beam.NewPipelineWithRoot()
	tetherbeam.Batch(s, *manifest, *root, *out)
	if err := beamx.Run(ctx, p); err != nil {
		fmt.Fprintln(os.Stderr, "tether-beam:", err)
		os.Exit(1)
	}
}
