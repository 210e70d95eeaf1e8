package job

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/input"
)

// TestUnknownFieldSuggestion: an unknown field names the closest field of
// the object it is in (the job's, or sample's inside "sample"), as the
// CLI does for flags (internal/suggest); without one close enough the
// message points at docs/jobs.md as before. Expected names by hand: one
// edit or swap away.
func TestUnknownFieldSuggestion(t *testing.T) {
	for _, tc := range []struct {
		line, want string
		col        int
	}{
		{`{"id":"a","gen":"moons","metod":"njw","k":2}`, `unknown field "metod" (did you mean "method"?)`, 25},
		{`{"id":"a","gen":"moons","truht":"t"}`, `unknown field "truht" (did you mean "truth"?)`, 25},
		{`{"id":"a","gen":"moons","gen-params":{"n":"5"}}`, `unknown field "gen-params" (did you mean "gen_params"?)`, 25},
		// Inside sample: sample's fields, not the job's ("seed" is both).
		{`{"id":"a","gen":"moons","k":2,"sample":{"pairz":5}}`, `unknown field "pairz" (did you mean "pairs"?)`, 41},
		{`{"id":"a","gen":"moons","k":2,"sample":{"label_fractoin":0.1}}`, `unknown field "label_fractoin" (did you mean "label_fraction"?)`, 41},
		// A key that looks like a value, and braces inside strings, do
		// not move the object.
		{`{"id":"{a","gen":"moons","k":2,"sample":{"x":"}","sed":1}}`, `unknown field "x" (docs/jobs.md lists the fields of a job)`, 42},
		{`{"id":"a","sample":{"pairs":1},"kk":2}`, `unknown field "kk" (docs/jobs.md lists the fields of a job)`, 32},
		{`{"id":"a","sample":{"pairs":1},"sede":2}`, `unknown field "sede" (did you mean "seed"?)`, 32},
		{`{"id":"a","gen":"moons","zzzzzz":1}`, `unknown field "zzzzzz" (docs/jobs.md lists the fields of a job)`, 25},
	} {
		_, err := ParseSpec([]byte(tc.line))
		var se *SyntaxError
		if !errors.As(err, &se) || !errors.Is(err, ErrSpec) {
			t.Errorf("%s: err = %v, want a *SyntaxError wrapping ErrSpec", tc.line, err)
			continue
		}
		if se.Msg != tc.want || se.Column != tc.col {
			t.Errorf("%s:\n got column %d: %s\nwant column %d: %s", tc.line, se.Column, se.Msg, tc.col, tc.want)
		}
	}
	// docs/jobs.md quotes the message of its example.
	_, err := ParseSpec([]byte(`{"id":"a","gen":"moons","truht":"t"}`))
	var se *SyntaxError
	if errors.As(err, &se) && !strings.Contains(readDoc(t), "(`"+se.Msg+"`)") {
		t.Errorf("docs/jobs.md does not quote the message %q", se.Msg)
	}
}

// TestGenParamsErrors: errors about gen_params name the entry at fault,
// gen_params.KEY, and its value, first, then what is wrong (one order for
// the values that do not parse and those the generator refuses); the
// entries at fault are those synth.ParamError names (c_in above n names
// gen_params.cin, which a search for "cin = " in the message missed); a key the generator does not read lists
// that generator's parameters (moons: n, noise), not every generator's,
// with the closest one. Every error wraps synth.ErrInvalid.
func TestGenParamsErrors(t *testing.T) {
	// The messages docs/jobs.md quotes (gen_params' row).
	doc := readDoc(t)
	quoted := map[string]bool{"misspelt key": true, "n not a number": true, "n zero": true, "k above n, blobs": true}
	for _, tc := range []struct {
		name   string
		gen    string
		params map[string]string
		want   string
	}{
		{"n zero", "moons", map[string]string{"n": "0"}, `gen_params.n = "0": gen moons: synth: invalid parameter: Moons: n = 0, want ≥ 1`},
		{"n negative", "moons", map[string]string{"n": "-1"}, `gen_params.n = "-1": gen moons: synth: invalid parameter: Moons: n = -1, want ≥ 1`},
		{"n in exponent form", "moons", map[string]string{"n": "1e12"}, `gen_params.n = "1e12": gen moons: synth: invalid parameter: want an integer`},
		{"n not a number", "moons", map[string]string{"n": "x"}, `gen_params.n = "x": gen moons: synth: invalid parameter: want an integer`},
		{"n too large", "moons", map[string]string{"n": "1000000000000"}, `gen_params.n = "1000000000000": gen moons: synth: invalid parameter: Moons: n = 1000000000000 points`},
		{"n zero, sbm", "sbm", map[string]string{"n": "0"}, `gen_params.n = "0": gen sbm: `},
		{"noise not a number", "moons", map[string]string{"n": "50", "noise": "lots"}, `gen_params.noise = "lots": gen moons: synth: invalid parameter: want a number`},
		{"noise negative", "moons", map[string]string{"noise": "-1"}, `gen_params.noise = "-1": gen moons: `},
		{"misspelt key", "moons", map[string]string{"n": "50", "nosie": "0.1"}, `gen_params.nosie = "0.1": gen moons: synth: invalid parameter: moons has no parameter nosie (it reads n, noise): did you mean noise?`},
		{"key of no generator", "moons", map[string]string{"foo": "1"}, `gen_params.foo = "1": gen moons: synth: invalid parameter: moons has no parameter foo (it reads n, noise)`},
		{"key of another generator", "moons", map[string]string{"cin": "1"}, `gen_params.cin = "1": gen moons: synth: invalid parameter: moons has no parameter cin (it reads n, noise)`},
		{"c_in above n, sbm", "sbm", map[string]string{"n": "100", "cin": "999"}, `gen_params.cin = "999", gen_params.n = "100": gen sbm: synth: invalid parameter: SBM: c_in = 999`},
		{"k above n, blobs", "blobs", map[string]string{"n": "3", "k": "5", "noise": "0.1"}, `gen_params.k = "5", gen_params.n = "3": gen blobs: synth: invalid parameter: Blobs: k = 5, want 1 ≤ k ≤ n = 3`},
		{"gamma, dcsbm, n given", "dcsbm", map[string]string{"n": "50", "gamma": "1.5"}, `gen_params.gamma = "1.5": gen dcsbm: synth: invalid parameter: DC-SBM: gamma = 1.5`},
		{"key of another generator, sbm", "sbm", map[string]string{"dim": "3"}, `gen_params.dim = "3": gen sbm: synth: invalid parameter: sbm has no parameter dim (it reads n, k, cin, cout)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if quoted[tc.name] && !strings.Contains(doc, "`"+tc.want) {
				t.Errorf("docs/jobs.md does not quote the message %q", tc.want)
			}
			s := Spec{ID: "a", Gen: tc.gen, GenParams: tc.params, K: 2}
			// The steps of run's gen branch.
			err := func() error {
				g, p, err := genParams(&s)
				if err != nil {
					return err
				}
				if _, err := input.Generate(context.Background(), g, p, s.GenSeed); err != nil {
					return genValueError(&s, err)
				}
				return nil
			}()
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, synth.ErrInvalid) {
				t.Fatalf("err = %v, want it to start with %q and wrap synth.ErrInvalid", err, tc.want)
			}
			if strings.Contains(err.Error(), "want one of") {
				t.Errorf("err = %v lists every generator's parameters", err)
			}
			res := Run(context.Background(), s, t.TempDir())
			if !strings.HasPrefix(res.Error, tc.want) {
				t.Errorf("Run: error %q, want it to start with %q", res.Error, tc.want)
			}
		})
	}
}
