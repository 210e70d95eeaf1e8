package cluster

import (
	"reflect"
	"testing"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/eigen"
	"github.com/tether-sc/tether/graph"
)

// keySpelling is a Spelling for TestReferenceKeySettings.
type keySpelling string

func (k keySpelling) Remedy(flag string, values ...string) string { return string(k) + flag }

// TestReferenceKeySettings: changing any one field of Settings but
// Recorder (progress only) changes referenceKey, so a referenceCache never
// hands a partition computed under other settings; the fields are read by
// reflection, so a field added to Settings without a change here fails
// until the test is taught how to set it and the key decides on it.
// Before, MaxBlockBytes, NormalizeRemedy and Spelling were left out of the
// key.
func TestReferenceKeySettings(t *testing.T) {
	g, err := graph.FromEdges(4, []graph.Edge{{I: 0, J: 1, W: 1}, {I: 2, J: 3, W: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p := &Problem{Graph: g, K: 2}
	set := &constraint.Set{N: 4, Pairs: []constraint.Pair{{I: 0, J: 1, Kind: constraint.MustLink, Weight: 1}}}
	base := Settings{}
	want := referenceKey(ReferenceFastGE, p, set, &base)
	if again := referenceKey(ReferenceFastGE, p, set, &Settings{}); again != want {
		t.Fatalf("two zero Settings give keys %q and %q", want, again)
	}
	noResult := map[string]bool{"Recorder": true}
	typ := reflect.TypeFor[Settings]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		s := base
		v := reflect.ValueOf(&s).Elem().Field(i)
		if !v.CanSet() {
			t.Fatalf("Settings.%s is unexported: teach this test whether it belongs in referenceKey", f.Name)
		}
		switch {
		case noResult[f.Name]:
			continue
		case f.Type == reflect.TypeFor[eigen.Solver]():
			v.Set(reflect.ValueOf(eigen.Dense{}))
		case f.Type == reflect.TypeFor[Spelling]():
			v.Set(reflect.ValueOf(keySpelling("front: ")))
		case f.Type.Kind() == reflect.Pointer:
			v.Set(reflect.New(f.Type.Elem()))
		case f.Type.Kind() == reflect.String:
			v.SetString("(remedy)")
		case v.CanInt():
			v.SetInt(1)
		case v.CanUint():
			v.SetUint(1)
		default:
			t.Fatalf("Settings.%s (%v): teach this test to change it", f.Name, f.Type)
		}
		if got := referenceKey(ReferenceFastGE, p, set, &s); got == want {
			t.Errorf("Settings.%s set to %v leaves referenceKey as with zero Settings: %q", f.Name, v, got)
		}
	}
}
