package experiment

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadCache checks the repro cache reader: whatever precedes it (torn
// or corrupt lines), a well-formed record is read back with its exact
// value and readCache never panics.
func FuzzReadCache(f *testing.F) {
	f.Add(`{"key":"a","values":{"ARI":"0.5"}}`+"\n"+`{"key":"b","val`, "k", "ARI", 0.25)
	f.Add("", "", "", math.NaN())
	f.Add("not json\n{}\n", "x\ny", "v", math.Inf(-1))
	f.Add(`{"key":"k","values":{"v":"1e400"}}`, "k", "v", 1e-320)
	f.Fuzz(func(t *testing.T, in, key, name string, v float64) {
		rec, err := json.Marshal(cacheLine{Key: key, Values: encodeValues(Values{name: v})})
		if err != nil {
			t.Skip() // invalid UTF-8 is replaced, not an error; nothing else fails
		}
		path := filepath.Join(t.TempDir(), "c.jsonl")
		if err := os.WriteFile(path, []byte(in+"\n"+string(rec)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := readCache(path)
		if err != nil {
			t.Fatalf("readCache: %v", err)
		}
		// json.Marshal replaces invalid UTF-8 by U+FFFD: compare with what
		// was written.
		var back cacheLine
		if err := json.Unmarshal(rec, &back); err != nil {
			t.Fatal(err)
		}
		got, ok := res[back.Key]
		if !ok {
			t.Fatalf("record %s not read back", rec)
		}
		var wname string
		for n := range back.Values {
			wname = n
		}
		if x := got[wname]; x != v && !(math.IsNaN(x) && math.IsNaN(v)) {
			t.Fatalf("value %v read back as %v", v, x)
		}
	})
}
