package experiment

import (
	"slices"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset/catalog"
)

// TestCSPRowNormKeys: the cells that run CSP with k > 2 get keys other than
// those cached before CSP scaled its embedding rows to unit length (the
// old keys are written out here), while CSP's cells at k = 2 and the other
// methods' keep theirs. Then, over the cells of every experiment that runs
// CSP (full mode, with the datasets of ../shared/datasets), a CSP column
// carries the revision exactly on the datasets of more than two classes;
// the counts are logged.
func TestCSPRowNormKeys(t *testing.T) {
	row := func(name string) fgpwcRow {
		for _, r := range fgpwcRows {
			if r.name == name {
				return r
			}
		}
		t.Fatalf("no fgpwc-table1 row %s", name)
		return fgpwcRow{}
	}
	fp := realDefaults()
	for _, c := range []struct {
		got, old string
		changed  bool
	}{
		{fgpwcKey(row("iris"), "csp", 0), "iris/csp/0", true},
		{fgpwcKey(row("circles"), "csp", 3), "circles/csp/3", true},
		{fgpwcKey(row("wdbc"), "csp", 0), "wdbc/csp/0", false},
		{fgpwcKey(row("xor"), "csp", 1), "xor/csp/1", false},
		{fgpwcKey(row("iris"), "sl", 0), "iris/sl/0", false},
		{noisyKey("wine", 5, "csp", 10, 2), "wine/d5/csp/f10/2", true},
		{noisyKey("moons", 1, "csp", 0, 0), "moons/d1/csp/f0/0", false},
		{noisyKey("wine", 5, "csc", 10, 2), "wine/d5/csc/f10/2", false},
		{realKey("vehicle", "5n", "csp", 1), "vehicle/5n/csp/1/" + fp, true},
		{realKey("karate", "1/n", "csp", 0), "karate/1/n/csp/0/" + fp, false},
		{realKey("vehicle", "5n", "ccsr", 1), "vehicle/5n/ccsr/1/" + fp, false},
		{rateKey("glass", "csp", 0.1, 4, 1), "glass/csp/rate=0.1/rep=4/seed=1", true},
		{rateKey("hepatitis", "csp", 0.1, 4, 1), "hepatitis/csp/rate=0.1/rep=4/seed=1", false},
		{rateKey("glass", "clpp", 0.1, 4, 1), "glass/clpp/rate=0.1/rep=4/seed=1", false},
	} {
		if c.changed && (c.got == c.old || !strings.Contains(c.got, "/csp@"+cspRowNormRev+"/")) {
			t.Errorf("key %q: want a revised CSP column, not the old key %q", c.got, c.old)
		}
		if !c.changed && c.got != c.old {
			t.Errorf("key %q changed from %q", c.got, c.old)
		}
	}

	root := ssDataRoot(t)
	env := &Env{DataRoot: root, Seed: 1}
	classes := func(name string) int {
		if e, ok := catalog.Lookup(name); ok {
			return e.K
		}
		return fgpwcClasses(row(name)) // the generated rows
	}
	// Seed 001's experiments run k = 2 on every dataset (two classes of
	// wine and glass, Classic3's Medline and Cranfield).
	twoClass := []string{seed001Fig23().Name, seed001Tables().Name, Seed001Fig4().Name}
	for _, e := range []Experiment{fgpwcTable1(), NoisyConstraints(), RealData(), Seed002Rate(), seed001Fig23(), seed001Tables(), Seed001Fig4()} {
		cells, err := e.Cells(env)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		var revised, kept int
		for _, c := range cells {
			parts := strings.Split(c.Key, "/")
			rev := slices.Contains(parts, "csp@"+cspRowNormRev)
			if !rev && !slices.Contains(parts, "csp") {
				continue
			}
			k := 2
			if !slices.Contains(twoClass, e.Name) {
				k = classes(parts[0])
			}
			if rev != (k > 2) {
				t.Errorf("%s: key %q of a CSP cell with k = %d", e.Name, c.Key, k)
			}
			if rev {
				revised++
			} else {
				kept++
			}
		}
		t.Logf("%s: %d CSP cells with new keys (k > 2), %d keep theirs (k = 2), of %d cells", e.Name, revised, kept, len(cells))
	}
}
