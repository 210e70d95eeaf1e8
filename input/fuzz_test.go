package input

import (
	"context"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset"
)

// FuzzReadPartialLabels: any file gives n labels, each unknown (−1) or a
// class below k (when k > 0), or an error naming the file; never a panic.
func FuzzReadPartialLabels(f *testing.F) {
	for _, s := range []string{"0\n1\n-1\n", "node,label\n0,1\n2,0\n", "name,label\nb,x\nc,y\n", "# base=1\n1,0\n3,1\n", "a\nb\n?\n", "0,5\n",
		"id,label\n2,1\n0,0\n", "# base=1\nid\tlabel\n1\tb\n3\ta\n", "node,label\n1,0\n3,1\n"} {
		f.Add(s, 3, 2, true)
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
