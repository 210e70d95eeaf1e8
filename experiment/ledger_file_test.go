package experiment

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildLedgerNamesBadFile: a malformed claims file of an experiment is
// named in BuildLedger's error with the line and column of the fault
// (counted by hand from the file's text below), and an unknown verdict
// (no offset from encoding/json) with the file alone. Before, the error
// said "ledger: closure: experiment: claims: invalid character 'b' …"
// without the file.
func TestBuildLedgerNamesBadFile(t *testing.T) {
	exps := All()
	name := exps[0].Name
	for _, tc := range []struct {
		content, want string
	}{
		// 'b' is the 3rd byte of line 2.
		{"[\n  b\n]\n", ":2:3: experiment: claims: invalid character 'b'"},
		// A string where the list is wanted: the value ends at line 1, column 5.
		{`"abc"`, ":1:5: experiment: claims: json: cannot unmarshal string"},
		{`[{"verdict":"maybe"}]`, ": experiment: claims: "},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, name, ClaimsFile)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := BuildLedger(dir, exps)
		if err == nil || !strings.Contains(err.Error(), path+tc.want) {
			t.Errorf("claims %q: error %v, want it to contain %q", tc.content, err, path+tc.want)
		}
	}
}

// TestJSONPosition checks jsonPosition against positions counted by hand.
func TestJSONPosition(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"x", ":1:1"},
		{"[1,\n2,\n  x]", ":3:3"},
		{"[1,\r\n z]", ":2:2"},
		// Columns count characters (jsonpos.Position), as the job
		// manifest's do: "é" is two bytes, one column.
		{"[\"é\",\n\"é\", x]", ":2:6"},
	} {
		var v []int
		err := json.Unmarshal([]byte(tc.in), &v)
		if got := jsonPosition([]byte(tc.in), err); got != tc.want {
			t.Errorf("%q (%v): position %q, want %q", tc.in, err, got, tc.want)
		}
	}
}
