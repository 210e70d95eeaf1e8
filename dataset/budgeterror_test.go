package dataset

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestBudgetError: a read stopped by GraphOptions.MaxEntries (an edge
// list, a Matrix Market file) or MaxDenseEntries (a dense matrix) returns
// a *BudgetError, found by errors.As, naming the field and its value,
// still wrapping ErrTooLarge, with the message the readers gave before it
// (written out here); a read stopped by MaxNodes returns none.
func TestBudgetError(t *testing.T) {
	for _, c := range []struct {
		name, text string
		format     GraphFormat
		opt        GraphOptions
		limit      string // "" for no BudgetError
		want       string
	}{
		{"e.txt", "0 1\n1 2\n2 3\n", EdgeList, GraphOptions{MaxEntries: 2}, LimitMaxEntries,
			"dataset: e.txt:3: input too large: the file has more than 2 edges by this line, the limit GraphOptions.MaxEntries"},
		{"e.mtx", "%%MatrixMarket matrix coordinate pattern general\n4 4 3\n1 2\n2 3\n3 4\n", MatrixMarket, GraphOptions{MaxEntries: 2}, LimitMaxEntries,
			"dataset: e.mtx:5: input too large: the file has more than 2 entries by this line, the limit GraphOptions.MaxEntries"},
		{"m.csv", "0,0.5,0.5\n0.5,0,0.5\n0.5,0.5,0\n", GraphAuto, GraphOptions{MaxDenseEntries: 4}, LimitMaxDenseEntries,
			"dataset: m.csv:2: input too large: the matrix has more than 4 nonzero entries by this line, the limit GraphOptions.MaxDenseEntries"},
		{"MaxEntries.txt", "0 1\n1 9\n", EdgeList, GraphOptions{MaxNodes: 5}, "", "MaxNodes"},
	} {
		_, err := ReadGraph(context.Background(), strings.NewReader(c.text), c.name, c.format, c.opt)
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want ErrTooLarge saying %q", c.name, err, c.want)
		}
		var be *BudgetError
		switch ok := errors.As(err, &be); {
		case c.limit == "" && ok:
			t.Errorf("%s: %v is a BudgetError (%+v), want none", c.name, err, *be)
		case c.limit != "" && !ok:
			t.Errorf("%s: %v is not a BudgetError", c.name, err)
		case ok && (be.Limit != c.limit || be.Bound != max(c.opt.MaxEntries, c.opt.MaxDenseEntries)):
			t.Errorf("%s: %+v, want Limit %s, Bound %d", c.name, *be, c.limit, max(c.opt.MaxEntries, c.opt.MaxDenseEntries))
		}
	}
}
