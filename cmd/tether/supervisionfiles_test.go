package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// blobsTable writes a feature table of three well-separated blobs of ten
// points, without node names, whose first column is the class, coded 1, 2
// and 3 as UCI's wine codes its classes; it returns its path.
func blobsTable(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < 30; i++ {
		c := i % 3
		fmt.Fprintf(&b, "%d,%.2f,%.2f\n", c+1, float64(10*c)+0.1*float64(i%7), float64(-10*c)+0.13*float64(i%5))
	}
	return evalWriteTemp(t, dir, "blobs.csv", b.String())
}

// TestClusterConstraintDelimiters: a constraints file separated by tabs,
// semicolons or blanks, or with trailing commas, is read as labels files
// are (it was "got 1 field "0\t1\tml": separate the fields with commas",
// and weight "" for the trailing comma).
func TestClusterConstraintDelimiters(t *testing.T) {
	dir := t.TempDir()
	data := blobsTable(t, dir)
	for name, cons := range map[string]string{
		"tabs":            "i\tj\tkind\n0\t3\tml\n1\t2\tcl\n",
		"blanks":          "# base=1\n1  4 ml\n2 3 cl\n",
		"semicolons":      "0;3;ml\n1;2;cl\n",
		"trailing commas": "0,3,ml,\n1,2,cl,\n",
	} {
		t.Run(name, func(t *testing.T) {
			file := evalWriteTemp(t, dir, strings.ReplaceAll(name, " ", "_")+".txt", cons)
			_, stderr, err := run(t, "cluster", "-input", data, "-label", "first", "-k", "3", "-constraints", file, "-method", "fgpwc", "-quiet", "-o", filepath.Join(dir, "out.csv"))
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
		})
	}
}
