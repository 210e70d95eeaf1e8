package input

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/testctx"
)

// ReadPartialLabels stops soon after its context is cancelled while it
// reads an input that never ends, with ctx's error naming the file.
func TestReadPartialLabelsStopsMidRead(t *testing.T) {
	testctx.StopsMidRead(t, "0\n", "partial.txt", func(ctx context.Context, r io.Reader) error {
		_, err := ReadPartialLabels(ctx, r, "partial.txt", 0, 0, nil)
		return err
	})
}

// ReadCatalogContext reads what ReadCatalog reads and returns
// context.Canceled, naming the data set, when its context is cancelled.
func TestReadCatalogContext(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "iris"), 0o755); err != nil {
		t.Fatal(err)
	}
	rows := "5.1,3.5,1.4,0.2,Iris-setosa\n7.0,3.2,4.7,1.4,Iris-versicolor\n6.3,3.3,6.0,2.5,Iris-virginica\n"
	if err := os.WriteFile(filepath.Join(root, "iris", "iris.csv"), []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	want, err := ReadCatalog("iris", root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadCatalogContext(context.Background(), "iris", root)
	if err != nil || got.N() != 3 || got.N() != want.N() || len(got.Truth) != 3 {
		t.Fatalf("ReadCatalogContext: %v rows, err %v; ReadCatalog: %d rows", got, err, want.N())
	}
	if _, err := ReadCatalogContext(testctx.CancelAfter(0), "iris", root); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "iris") {
		t.Errorf("cancelled: err = %v, want context.Canceled naming iris", err)
	}
}

// labelConflict, the check of the pairs against the partial labels under
// the Reject policy, checks its context every conflictPoll pairs or nodes
// of its four passes (it did not: seconds at 10⁷ pairs): on 2·conflictPoll
// + 1 consistent pairs and nodes, three checks a pass, twelve in all.
// Cancelled at any of them it returns an error wrapping context.Canceled
// that names the check; cancelled at none, no conflict.
func TestLabelConflictPolls(t *testing.T) {
	const n = 2*conflictPoll + 1
	labels := make(constraint.Labels, n)
	for i := range labels {
		labels[i] = constraint.Unlabeled
	}
	labels[0], labels[1] = 0, 1
	// Cannot-links from the labelled nodes, and a chain of must-links
	// through the unlabelled ones: n pairs.
	pairs := []constraint.Pair{{I: 0, J: 1, Kind: constraint.CannotLink}, {I: 0, J: 2, Kind: constraint.CannotLink}, {I: 2, J: 4, Kind: constraint.MustLink}}
	for i := 2; i+1 < n; i++ {
		pairs = append(pairs, constraint.Pair{I: i, J: i + 1, Kind: constraint.MustLink})
	}
	set := &constraint.Set{N: n, Pairs: pairs}
	check := func(ctx context.Context) error {
		return labelConflict(ctx, set, nil, strconv.Itoa, "c.txt", labels, strconv.Itoa, "l.txt")
	}
	for k := 0; ; k++ {
		err := check(testctx.CancelAfter(k))
		if err == nil {
			if k != 12 {
				t.Errorf("%d checks, want 12 (3 per pass)", k)
			}
			break
		}
		if !errors.Is(err, context.Canceled) || err.Error() != "check of the pairs against the partial labels of l.txt: context canceled" {
			t.Fatalf("cancelled at check %d: err = %v, want context.Canceled naming the check", k+1, err)
		}
		if k > 12 {
			t.Fatalf("still cancelled after %d checks", k)
		}
	}
}

// Supervision.AddTo cancelled at any check of its context returns an
// error wrapping context.Canceled, the last check being labelConflict's,
// whose error names the constraints file and the check.
func TestAddToCancelAtEveryCheck(t *testing.T) {
	var e []graph.Edge
	for i := 0; i < 5; i++ {
		e = append(e, graph.Edge{I: i, J: i + 1, W: 1})
	}
	g, err := graph.FromEdges(6, e)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, content := range map[string]string{"c.txt": "0,1,ml\n3,4,ml\n0,5,cl\n", "l.txt": "0,0\n5,1\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := Supervision{Constraints: filepath.Join(dir, "c.txt"), Labels: filepath.Join(dir, "l.txt"), Conflicts: constraint.Reject}
	var last error
	for k := 0; ; k++ {
		p := &cluster.Problem{Graph: g, K: 2}
		_, err := s.AddTo(testctx.CancelAfter(k), p, &Data{Name: "g", Graph: g})
		if err == nil {
			break
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at check %d: err = %v, want context.Canceled", k+1, err)
		}
		if k > 1000 {
			t.Fatal("still cancelled after 1000 checks")
		}
		last = err
	}
	if want := s.Constraints + ": check of the pairs against the partial labels of " + s.Labels + ": context canceled"; last == nil || last.Error() != want {
		t.Errorf("cancelled at the last check: err = %v, want %q", last, want)
	}
}
