package server

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// regularizePattern returns the pattern docs/openapi.json gives a cluster
// request's regularize.
func regularizePattern(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]struct {
					Pattern string `json:"pattern"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("docs/openapi.json: %v", err)
	}
	p := doc.Components.Schemas["ClusterRequest"].Properties["regularize"].Pattern
	if p == "" {
		t.Fatal("docs/openapi.json: ClusterRequest.regularize has no pattern")
	}
	return p
}

// serverAcceptsRegularize reports whether the server reads s as a cluster
// request's regularize: the request's JSON decoded as the handler decodes
// it, which calls graph.ParseRegularization.
func serverAcceptsRegularize(s string) bool {
	body, _ := json.Marshal(map[string]string{"regularize": s})
	var req ClusterRequest
	return json.Unmarshal(body, &req) == nil
}

// TestRegularizePattern checks the pattern docs/openapi.json gives
// regularize against the server's parser, so that they cannot drift. The
// pattern states the canonical form; the server also ignores case and
// white space around the value. So for each string of the table, and every
// rune of the Basic Multilingual Plane alone and around or inside a keyword
// and a number:
//   - what the pattern matches, the server accepts;
//   - what the server accepts, the pattern matches once lowercased and
//     trimmed (the server's own canonical form).
//
// The only exceptions are what a pattern cannot check, a τ above
// graph.MaxTau (10¹²) or beyond the float64 range and "+complete" after a
// τ of 0: the rows with a why, which
// the pattern matches and the server refuses. When node is installed the
// pattern is also run as JavaScript (ECMA-262, the dialect of JSON
// Schema), which must agree with Go's regexp on every string.
func TestRegularizePattern(t *testing.T) {
	pattern := regularizePattern(t)
	re, err := regexp.Compile(pattern)
	if err != nil {
		t.Fatalf("pattern %q: %v", pattern, err)
	}
	cases := []struct {
		s       string
		pattern bool   // the pattern matches s
		server  bool   // the server accepts s
		why     string // set when they cannot agree
	}{
		{"auto", true, true, ""},
		{"none", true, true, ""},
		{"mean", true, true, ""},
		{"", true, true, ""},
		{"+complete", true, true, ""},
		{"auto+complete", true, true, ""},
		{"mean+complete", true, true, ""},
		{"0", true, true, ""},
		{"1", true, true, ""},
		{"0.5", true, true, ""},
		{"0.5+complete", true, true, ""},
		{"1e3", true, true, ""},
		{"1e-05", true, true, ""},
		{"1e+12", true, true, ""},
		{"1E-3", true, true, ""},
		{".5", true, true, ""},
		{"5.", true, true, ""},
		{"1.e5", true, true, ""},
		{"007", true, true, ""},
		{"1e12", true, true, ""},
		{"1000000000000", true, true, ""},
		{"1e-400", true, true, ""}, // rounds to 0: none

		// Case and white space: the server's, not the pattern's.
		{"MEAN", false, true, ""},
		{"Mean+Complete", false, true, ""},
		{" mean\t", false, true, ""},
		{"\u00a0auto\u3000", false, true, ""},

		{"off", false, false, ""},
		{"none+complete", false, false, ""},
		{"sometimes", false, false, ""},
		{"complete", false, false, ""},
		{"mean+extra", false, false, ""},
		{"mean +complete", false, false, ""},
		{"mean+", false, false, ""},
		{"+complete+complete", false, false, ""},
		{"auto mean", false, false, ""},
		{"+2", false, false, ""},
		{"-1", false, false, ""},
		{"-0", false, false, ""},
		{"1 2", false, false, ""},
		{"1e", false, false, ""},
		{"1e+", false, false, ""},
		{"1e+complete", false, false, ""},
		{".", false, false, ""},
		{"e5", false, false, ""},
		{"1_000", false, false, ""},
		{"0x1p-2", false, false, ""},
		{"inf", false, false, ""},
		{"nan", false, false, ""},
		{"\u200bmean", false, false, ""}, // zero-width space: not white space

		{"1e400", true, false, "beyond the float64 range"},
		{"1e+20", true, false, "above graph.MaxTau = 1e12"},
		{"1e308", true, false, "above graph.MaxTau = 1e12"},
		{"1000000000000.5", true, false, "above graph.MaxTau = 1e12"},
		{"0+complete", true, false, "+complete after a τ of 0"},
		{"0e5+complete", true, false, "+complete after a τ of 0"},
	}
	for _, c := range cases {
		if got := serverAcceptsRegularize(c.s); got != c.server {
			t.Errorf("server reads %q: %v, want %v", c.s, got, c.server)
		}
		if got := re.MatchString(c.s); got != c.pattern {
			t.Errorf("pattern matches %q: %v, want %v", c.s, got, c.pattern)
		}
		if c.pattern && !c.server && c.why == "" {
			t.Errorf("%q: the table has the pattern match what the server refuses, with no why", c.s)
		}
	}

	// Every BMP rune but the surrogates, in six places.
	var sweep []string
	for r := rune(0); r < 0x10000; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		c := string(r)
		sweep = append(sweep, c, c+"mean", "mean"+c, c+"ean", "1"+c, c+"1")
	}
	for _, s := range sweep {
		p, v := re.MatchString(s), serverAcceptsRegularize(s)
		if p && !v {
			t.Errorf("%q: the pattern matches, the server refuses", s)
		}
		if canon := strings.TrimSpace(strings.ToLower(s)); v && !re.MatchString(canon) {
			t.Errorf("%q: the server accepts, the pattern does not match its canonical form %q", s, canon)
		}
	}

	// For JavaScript, below.
	var inputs []string
	for _, c := range cases {
		inputs = append(inputs, c.s)
	}
	inputs = append(inputs, sweep...)

	t.Run("ecma", func(t *testing.T) {
		node, err := exec.LookPath("node")
		if err != nil {
			t.Skip("node not installed")
		}
		in, _ := json.Marshal(map[string]any{"pattern": pattern, "inputs": inputs})
		cmd := exec.Command(node, "-e", `let s = "";
process.stdin.on("data", (d) => s += d).on("end", () => {
  const q = JSON.parse(s), re = new RegExp(q.pattern);
  process.stdout.write(JSON.stringify(q.inputs.map((x) => re.test(x))));
});`)
		cmd.Stdin = bytes.NewReader(in)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node: %v", err)
		}
		var got []bool
		if err := json.Unmarshal(out, &got); err != nil || len(got) != len(inputs) {
			t.Fatalf("node replied %d results (%v), want %d", len(got), err, len(inputs))
		}
		for i, s := range inputs {
			if got[i] != re.MatchString(s) {
				t.Errorf("%q: JavaScript's RegExp matches: %v, Go's regexp: %v", s, got[i], !got[i])
			}
		}
	})
}
