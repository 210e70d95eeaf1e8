package main

import (
	"path/filepath"
	"reflect"
	"testing"
)

// TestRowsRoundTripAndMerge: writeRows then readRows gives the rows back
// (to the written precision), and mergeRows replaces the measured
// methods' rows in place, appending new methods.
func TestRowsRoundTripAndMerge(t *testing.T) {
	old := []row{
		{method: "njw", n: 1000, status: "ok", wall: 0.5, graph: 0.25, clust: 0.25, ari: 0.9679, rssMB: 11},
		{method: "fast-ge", n: 1000, status: "ok", wall: 1.5, graph: 0.5, clust: 1, ari: 0.5, rssMB: 16, pairs: 500},
		{method: "fast-ge", n: 3000, status: "timeout", wall: 2, rssMB: 20, pairs: 1500},
		{method: "sklearn", n: 1000, status: "ok", wall: 2.25, clust: 0.25, ari: 0.9679, rssMB: 114},
	}
	path := filepath.Join(t.TempDir(), "scaling.csv")
	if err := writeRows(path, old); err != nil {
		t.Fatal(err)
	}
	back, err := readRows(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, old) {
		t.Fatalf("read back\n%+v\nwant\n%+v", back, old)
	}
	now := []row{
		{method: "fast-ge", n: 1000, status: "ok", wall: 1},
		{method: "fast-ge", n: 3000, status: "ok", wall: 3},
		{method: "fgpwc", n: 1000, status: "ok", wall: 4},
	}
	got := mergeRows(old, now)
	want := []row{old[0], now[0], now[1], old[3], now[2]}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged\n%+v\nwant\n%+v", got, want)
	}
}
