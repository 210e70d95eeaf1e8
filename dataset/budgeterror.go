package dataset

import "fmt"

// The GraphOptions fields a BudgetError names in its Limit.
const (
	// LimitMaxEntries names GraphOptions.MaxEntries, the bound on the
	// edges of an edge list and the entries of a Matrix Market file.
	LimitMaxEntries = "MaxEntries"
	// LimitMaxDenseEntries names GraphOptions.MaxDenseEntries, the bound
	// on the nonzero entries a dense matrix stores.
	LimitMaxDenseEntries = "MaxDenseEntries"
)

// BudgetError reports a graph read stopped because its edges or entries
// passed one of the budgets of GraphOptions (MaxEntries,
// MaxDenseEntries). It wraps ErrTooLarge, so errors.Is(err, ErrTooLarge)
// holds; callers that answer each budget differently (a server naming
// the memory a budget stands for) tell them apart with errors.As and
// Limit instead of reading the message. It is the Err of a ParseError
// that names the file and the line.
type BudgetError struct {
	// Limit is the GraphOptions field passed: LimitMaxEntries or
	// LimitMaxDenseEntries.
	Limit string
	// Bound is the field's value, the count the read went past.
	Bound int
	// Of is what holds the counted items: "file" or "matrix".
	Of string
	// Counted is what was counted: "edges", "entries", "nonzero entries".
	Counted string
}

// Error says "dataset: input too large: the <Of> has more than <Bound>
// <Counted> by this line, the limit GraphOptions.<Limit>".
func (e *BudgetError) Error() string {
	return fmt.Sprintf("%v: the %s has more than %d %s by this line, the limit GraphOptions.%s", ErrTooLarge, e.Of, e.Bound, e.Counted, e.Limit)
}

// Unwrap returns ErrTooLarge.
func (e *BudgetError) Unwrap() error { return ErrTooLarge }
