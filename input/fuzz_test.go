package input

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
)

// FuzzReadPartialLabels: any file gives n labels, each unknown (−1) or a
// class below k (when k > 0), or an error naming the file; never a panic.
func FuzzReadPartialLabels(f *testing.F) {
	for _, s := range []string{"0\n1\n-1\n", "node,label\n0,1\n2,0\n", "name,label\nb,x\nc,y\n", "# base=1\n1,0\n3,1\n", "a\nb\n?\n", "0,5\n",
		"id,label\n2,1\n0,0\n", "# base=1\nid\tlabel\n1\tb\n3\ta\n", "node,label\n1,0\n3,1\n",
		"0\tA\n1\t\n2\tB\n", "0 A\n1 \n2 B\n", "0;A\n1;\n2;B\n", "0,A\n1,\n2,B\n", "0\t\n1\tA\n", "a \nb\t\n",
		// A first line ?, -1 or blank is node 0's unknown label, never a
		// header.
		"?\n0\n1\n", "-1\n0\n1\n", "\"\"\n0\n1\n", "\n0\n1\n", "# c\n\n0\n1\n", "\nlabel\n0\n1\n", "\n0,1\n1,0\n", "?\nb\na\n", "0,?\n1,0\n",
		// A name the data's names share (the shared read below).
		"name,label\nb,0\nc,1\n", "name,label\na,0\nb,1\n",
		// Labels written as integers too long to read: out of range.
		"0\n99999999999999999999\n1\n", "node,label\n0,a\n1,-99999999999999999999\n"} {
		f.Add(s, 3, 2, true)
	}
	for _, s := range []string{"node,label\n0,3\n2,1\n", "1\n2\n3\n", "5\n?\n7\n", "id,label\n2,1\n0,3\n"} {
		f.Add(s, 3, 3, false)
	}
	f.Fuzz(func(t *testing.T, in string, n, k int, named bool) {
		if n < 0 || n > 50 || k > 60 {
			return
		}
		var names []string
		if named {
			names = []string{"a", "b", "c", "d", "e"}[:min(n, 5)]
			if len(names) != n {
				names = nil
			}
		}
		if len(names) > 1 {
			// Names that repeat (the data's IDs may): a line naming
			// a shared one is refused, naming the file; any read gives
			// n labels.
			shared := slices.Clone(names)
			shared[0] = shared[len(shared)-1]
			if d, err := dataset.ReadNodeLabels(strings.NewReader(in), "fuzz.labels", dataset.NodeLabelOptions{N: n, Names: shared}); err != nil {
				if !strings.Contains(err.Error(), "fuzz.labels") {
					t.Fatalf("error does not name the file: %v", err)
				}
			} else if len(d.Labels) != n {
				t.Fatalf("shared names: %d labels for %d nodes", len(d.Labels), n)
			}
		}
		l, err := ReadPartialLabels(context.Background(), strings.NewReader(in), "fuzz.labels", n, k, names)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.labels") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if n > 0 && len(l) != n {
			t.Fatalf("%d labels for %d nodes", len(l), n)
		}
		for i, c := range l {
			if c < -1 || (k > 0 && c >= k) {
				t.Fatalf("node %d: label %d outside −1…%d", i, c, k-1)
			}
		}
		// Integer labels in 0…k−1 are the classes as the labels reader
		// reads them; others keep their order.
		d, err := dataset.ReadNodeLabels(strings.NewReader(in), "fuzz.labels", dataset.NodeLabelOptions{N: n, Names: names})
		if err != nil {
			t.Fatalf("ReadPartialLabels read what ReadNodeLabels refuses: %v", err)
		}
		if d.ClassNames != nil {
			return
		}
		renumbered := k > 0 && slices.Max(append([]int{-1}, d.Labels...)) >= k
		for i, c := range d.Labels {
			if !renumbered && l[i] != c || (c == -1) != (l[i] == -1) {
				t.Fatalf("node %d: label %d read as %d", i, c, l[i])
			}
			for j, c2 := range d.Labels {
				if c >= 0 && c2 >= 0 && (c < c2) != (l[i] < l[j]) {
					t.Fatalf("labels %d < %d read as %d, %d", c, c2, l[i], l[j])
				}
			}
		}
	})
}

// FuzzReadTable: any table gives feature rows with as many reference
// labels and names as rows (the class-column rule re-reads the file), or
// an error; never a panic.
func FuzzReadTable(f *testing.F) {
	for _, s := range []string{"x,label\n0,a\n1,b\n", "a,y\n1,2\n3,4\n", "id,class,v\np,1,0\nq,2,1\n", "@relation r\n@attribute a numeric\n@attribute c {p,q}\n@data\n1,p\n2,q\n", "1 2\n3 4\n", "x,y\n1,2\n3,abc\n",
		",x,y\n0,1,2\n1,3,4\n", "x,y,\n1,2,\n3,4,\n", "p,q\n$5,1\n$7,2\n", "name,x,y\nann,1,2\nbob,3,4\n"} {
		f.Add(s, "")
	}
	f.Add("x,y,label\n0,0,a\n", "none")
	f.Fuzz(func(t *testing.T, in, label string) {
		d, err := ReadTable(context.Background(), []byte(in), "fuzz.csv", dataset.Options{LabelColumn: label, MaxRows: 1000})
		if err != nil {
			return
		}
		n, p := d.X.Dims()
		if d.Truth != nil && len(d.Truth) != n || d.Names != nil && len(d.Names) != n || len(d.Features) != p {
			t.Fatalf("%d rows, %d columns: %d labels, %d names, %d feature names", n, p, len(d.Truth), len(d.Names), len(d.Features))
		}
	})
}

// FuzzLabelsReadersAgree: where dataset.ReadNodeLabels (the tether
// command's reader) and constraint.ReadLabels both read a file of integer
// labels keyed by index, they read the same labels: the same header, the
// same unknown marks, the same blank lines as nodes.
func FuzzLabelsReadersAgree(f *testing.F) {
	for _, s := range []string{"0\n1\n-1\n", "node,label\n0,1\n2,0\n", "label\n2\n0\n", "# base=1\n1,0\n3,1\n", "1\n\n?\n0\n\n",
		"?\n0\n1\n", "-1\n0\n1\n", "\"\"\n0\n1\n", "\n0\n1\n", "# c\n\n0\n1\n", "\nlabel\n0\n1\n", "\n0,1\n1,0\n", "0,?\n1,0\n", "0\t2\n1\t\n", "2\t\n0 \n",
		"0,1\n99999999999999999999,0\n"} {
		f.Add(s, 0)
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, in string, n int) {
		if n < 0 || n > 50 || n == 0 && longNumber(in) {
			return // n = 0 infers n: a node 10⁶ would allocate 10⁶ labels
		}
		d, err := dataset.ReadNodeLabels(strings.NewReader(in), "f", dataset.NodeLabelOptions{N: n})
		if err != nil || d.ClassNames != nil || d.ByName {
			return
		}
		l, err := constraint.ReadLabels(strings.NewReader(in), &constraint.ReadOptions{N: n})
		if err != nil {
			return
		}
		if !slices.Equal(d.Labels, []int(l)) {
			t.Fatalf("dataset.ReadNodeLabels reads %v, constraint.ReadLabels %v", d.Labels, l)
		}
	})
}

// longNumber reports whether s holds a run of 5 digits or more.
func longNumber(s string) bool {
	run := 0
	for i := range len(s) {
		if s[i] >= '0' && s[i] <= '9' {
			if run++; run >= 5 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}
