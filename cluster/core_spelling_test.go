package cluster

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset"
)

// serveLikeSpelling spells the option -disconnected as a JSON field of a
// request, as tether serve's spelling (internal/server's runSpelling,
// which this package cannot import) does, and no other.
type serveLikeSpelling struct{}

func (serveLikeSpelling) Remedy(flag string, values ...string) string {
	if flag != "disconnected" {
		return ""
	}
	return `serve: the cluster request's "disconnected": "` + strings.Join(values, `" or "`) + `"`
}

// The warning of the core rule (a method clustering the core of a graph
// and attaching the other nodes, core.go) and the error of a method that
// fails on the core name their remedy, Problem.Disconnected = strict, as
// each front end spells it (Settings.Spelling), as the other messages
// that suggest a remedy do (TestSpelledRemedies): the library's alone
// (nil, and a job, which has no such field), tether's -disconnected
// strict, a request's "disconnected" field. The library's words are as
// before. Each message holds no other front end's spelling.
func TestCoreRemedySpelled(t *testing.T) {
	job := dataset.Spelling{Front: "job", Style: dataset.StyleJSON, K: "k", Method: "method", SelfLoops: "self_loops"}
	const lib = "Problem.Disconnected = strict refuses instead"
	for _, f := range []struct {
		name    string
		sp      Spelling
		warning string // the end of the warning
		errPart string // in the error
		others  []string
	}{
		{"library", nil, "(" + lib + ")", "; Problem.Disconnected = strict gives it the whole graph)", []string{"tether", "job:", "serve:"}},
		{"cli", dataset.Spelling{Front: "tether", CommandLine: true}, "(" + lib + "; tether: -disconnected strict)", "; Problem.Disconnected = strict (tether: -disconnected strict) gives it the whole graph)", []string{"job:", "serve:"}},
		{"job", job, "(" + lib + ")", "; Problem.Disconnected = strict gives it the whole graph)", []string{"tether", "job:", "serve:"}},
		{"serve", serveLikeSpelling{}, "(" + lib + `; serve: the cluster request's "disconnected": "strict")`, `; Problem.Disconnected = strict (serve: the cluster request's "disconnected": "strict") gives it the whole graph)`, []string{"tether", "job:"}},
	} {
		t.Run(f.name, func(t *testing.T) {
			s := &Settings{Seed: 1, Spelling: f.sp}
			if f.sp == nil {
				s = &Settings{Seed: 1}
			}
			base, _, cons := disconnectedProblem(t)
			p := *base
			p.Constraints = cons
			res, err := Run(context.Background(), SpectralLearning{}, &p, s)
			if err != nil {
				t.Fatal(err)
			}
			var attach []string
			for _, w := range res.Warnings {
				if strings.Contains(w, "core") && strings.Contains(w, "attached") {
					attach = append(attach, w)
				}
			}
			if len(attach) != 1 || !strings.HasSuffix(attach[0], " "+f.warning) {
				t.Fatalf("attach warnings %q, want one ending %q", attach, f.warning)
			}
			fail := errors.New("cluster: m: no partition")
			core := []int{0, 1, 2}
			_, err = attachToCore(context.Background(), "m", Uses{}, &p, core, &p, s, func(context.Context, *Problem, *Settings) (*Result, error) { return nil, fail })
			if !errors.Is(err, fail) || !strings.Contains(err.Error(), f.errPart) {
				t.Fatalf("error %v, want one wrapping %v with %q", err, fail, f.errPart)
			}
			for _, msg := range []string{attach[0], err.Error()} {
				for _, o := range f.others {
					if strings.Contains(msg, o) {
						t.Errorf("%q holds %q, another front end's", msg, o)
					}
				}
			}
		})
	}
}
