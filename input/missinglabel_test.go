package input

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset"
)

// TestMissingLabelInClassColumn: a missing value in the class-named
// column that the rule takes as the labels is a missing label, whose
// advice is to drop its row; the first read, with the column as a
// feature, gave the feature's advice ("impute it … -missing impute"),
// which then failed ("a missing label is never imputed"; review 123).
// Named by -label, the column gave the label's advice already.
func TestMissingLabelInClassColumn(t *testing.T) {
	in := "x,y,label\n1,2,a\n3,4,?\n4,5,a\n6,7,b\n"
	for _, opt := range []dataset.Options{{}, {LabelColumn: "label"}} {
		_, err := ReadTable(context.Background(), []byte(in), "nl.csv", opt)
		if !errors.Is(err, dataset.ErrMissing) || !strings.Contains(err.Error(), "a missing label is never imputed") || strings.Contains(err.Error(), "impute it") {
			t.Errorf("LabelColumn %q: error %v", opt.LabelColumn, err)
		}
	}
	// -missing drop reads the other rows, the label column as labels.
	d, err := ReadTable(context.Background(), []byte(in), "nl.csv", dataset.Options{Missing: dataset.MissingDrop})
	if err != nil || d.N() != 3 || d.Truth == nil {
		t.Errorf("MissingDrop: %v", err)
	}
}

// TestMissingFeatureNamedY: a missing value in a column named y beside
// an x column, which the class-column rule leaves a feature, is a
// feature's missing value (impute it or drop its row), not a missing
// label: the retry that reads the error's class-named column as the
// labels called it one.
func TestMissingFeatureNamedY(t *testing.T) {
	for _, in := range []string{"x,y\n1,2\n3,?\n4,5\n6,7\n", "x,y,label\n1,2,a\n3,?,a\n4,5,b\n6,7,b\n"} {
		_, err := ReadTable(context.Background(), []byte(in), "y.csv", dataset.Options{})
		if !errors.Is(err, dataset.ErrMissing) || !strings.Contains(err.Error(), "impute it") || strings.Contains(err.Error(), "label") {
			t.Errorf("%q: error %v, want a feature's missing value", in, err)
		}
		d, err := ReadTable(context.Background(), []byte(in), "y.csv", dataset.Options{Missing: dataset.MissingImpute})
		if err != nil || d.N() != 4 || len(d.Features) != 2 {
			t.Errorf("%q, MissingImpute: %v", in, err)
		}
	}
}
