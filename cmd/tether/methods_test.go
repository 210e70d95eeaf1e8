package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tether-sc/tether/cluster"
)

func TestMethodsList(t *testing.T) {
	out, _, err := run(t, "methods")
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range cluster.Methods() {
		if !strings.Contains(out, i.Name) {
			t.Errorf("methods: %s missing", i.Name)
		}
	}
	// The supervision column's names are explained above it; auto and
	// fast-ge2 read labels, pairs or both.
	if !strings.HasPrefix(out, supervisionHelp) || !strings.Contains(supervisionHelp, "labels|pairs (either, or both)") {
		t.Errorf("methods does not open with the legend of its supervision column:\n%s", out)
	}
	for _, name := range []string{"auto", "fast-ge2"} {
		if !regexp.MustCompile(`(?m)^` + name + ` +labels\|pairs `).MatchString(out) {
			t.Errorf("methods: %s's supervision is not labels|pairs:\n%s", name, out)
		}
	}
}

// TestMethodsKnobs checks one method's knob listing: names, the types the
// command line sees, the registered defaults, and the fields only Go can
// set.
func TestMethodsKnobs(t *testing.T) {
	out, _, err := run(t, "methods", "fgpwc")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"source: seed 003", "SigmaML", "0.15", "Laplacian", "FGPWCLaplacian", "sym", "Optimizer", "lbfgs", "Basis", "(Go only)", "-set Name=value"} {
		if !strings.Contains(out, want) {
			t.Errorf("methods fgpwc: %q missing in\n%s", want, out)
		}
	}
	js, _, err := run(t, "methods", "-json", "sl")
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Name  string `json:"name"`
		Knobs []knob `json:"knobs"`
	}
	if err := json.Unmarshal([]byte(js), &r); err != nil {
		t.Fatalf("methods -json sl: %v\n%s", err, js)
	}
	if r.Name != "sl" || len(r.Knobs) == 0 || r.Knobs[0] != (knob{Name: "MustLinkWeight", Type: "float", Default: "0", Settable: true, Range: "0 | (0, 1e12]", Doc: "affinity given to must-linked pairs (0: 1)"}) {
		t.Errorf("methods -json sl = %+v", r)
	}
	for _, args := range [][]string{{"methods", "nope"}, {"methods", "njw", "sl"}} {
		if _, _, err := run(t, args...); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}

// TestKnobDefaultsRoundTrip sets every settable knob of every registered
// method to the default the listing prints: the method must come back
// unchanged, so the listing shows values -set accepts.
func TestKnobDefaultsRoundTrip(t *testing.T) {
	checked := 0
	for _, i := range cluster.Methods() {
		m := i.New()
		for _, k := range knobsOf(m) {
			if !k.Settable {
				continue
			}
			got, err := cluster.SetKnobs(m, []string{k.Name + "=" + k.Default})
			if err != nil {
				t.Errorf("%s: -set %s=%s: %v", i.Name, k.Name, k.Default, err)
				continue
			}
			if !reflect.DeepEqual(got, m) {
				t.Errorf("%s: -set %s=%s changed the method: %+v, want %+v", i.Name, k.Name, k.Default, got, m)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d knobs checked", checked)
	}
	// A named value that is not the default.
	f, err := cluster.SetKnobs(cluster.NewFGPWC(), []string{"Optimizer=halving"})
	if err != nil || f.(*cluster.FGPWC).Optimizer != cluster.StepHalving {
		t.Errorf("-set Optimizer=halving: %v, %v", f, err)
	}
	if _, err := cluster.SetKnobs(cluster.NewFGPWC(), []string{"Optimizer=newton"}); err == nil {
		t.Error("-set Optimizer=newton: no error")
	}
}

// Knob values outside their documented range are refused with the knob
// named (they used to give a NaN objective and a 99/1 partition, exit 0),
// and `tether methods NAME` shows each knob's range and description.
func TestKnobRangesRefusedAndListed(t *testing.T) {
	for _, set := range []string{"SigmaML=1e-320", "SigmaCL=1e-320", "Gamma=1e308", "FTol=-3"} {
		_, _, err := run(t, "cluster", "-gen", "moons", "-n", "100", "-k", "2", "-method", "fgpwc", "-set", set, "-quiet", "-o", filepath.Join(t.TempDir(), "l.txt"))
		name, _, _ := strings.Cut(set, "=")
		if err == nil || !strings.Contains(err.Error(), name+" = ") || !strings.Contains(err.Error(), "outside its range") {
			t.Errorf("-set %s: error %v", set, err)
		}
	}
	out, _, err := run(t, "methods", "bethe")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"RANGE", "DESCRIPTION", "0 | (1, 1e6]", "cap of the estimated k"} {
		if !strings.Contains(out, want) {
			t.Errorf("methods bethe lacks %q:\n%s", want, out)
		}
	}
}

// TestMethodsBadArguments: an unknown method name and two names are usage
// errors (exit status 2), as for every other command; they exited 1.
func TestMethodsBadArguments(t *testing.T) {
	for _, args := range [][]string{{"methods", "nope"}, {"methods", "njw", "fgpwc"}} {
		if _, _, err := run(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: err = %v, want a usage error", args, err)
		}
	}
}

// TestDemoOutputNotAFolder: -o naming a file is a usage error before the
// demo runs; it ran every case (seconds) and then failed with "stat
// f/demo.png: not a directory".
func TestDemoOutputNotAFolder(t *testing.T) {
	f := writeTemp(t, "f.txt", "x\n")
	t0 := time.Now()
	_, _, err := run(t, "demo", "-quiet", "-o", f)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "-o") {
		t.Errorf("err = %v, want a usage error naming -o", err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("refused after %v", d)
	}
}

// TestReadmeMethodsTable: the README's table of methods lists every
// registered method with the supervision tether methods prints
// (cluster.Supervision's names, "labels|pairs" for either or both), or
// says more where the method takes a prior or a bipartite input.
func TestReadmeMethodsTable(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Methods\n")
	if !ok {
		t.Fatal("README has no ## Methods section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]string{} // supervision cell by method name
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.ReplaceAll(line, `\|`, "\x00"), " | ")
		if len(cells) < 4 {
			t.Fatalf("README row %q: want 4 cells", line)
		}
		rows[strings.Trim(cells[0], "| `")] = strings.ReplaceAll(cells[2], "\x00", "|")
	}
	saysMore := map[string]string{
		"plmeans":   "partition prior (power law)",
		"opplc":     "cannot-links + power-law prior",
		"cocluster": "pairs (on rows or columns)",
	}
	for _, i := range cluster.Methods() {
		want := i.New().Uses().Supervision.String()
		if more, ok := saysMore[i.Name]; ok {
			want = more
		}
		got, ok := rows[i.Name]
		switch {
		case !ok:
			t.Errorf("README's methods table lacks %s", i.Name)
		case got != want:
			t.Errorf("README's methods table: %s's supervision is %q, want %q", i.Name, got, want)
		}
	}
}

// TestMethodsSpelling: methods takes a method's name as cluster -method
// does (cluster.New: any case, blanks around), and prints what the
// registered spelling prints; an unknown name is a usage error naming
// it, with a suggestion when one is close. Before, "methods FGPWC"
// failed with "usage: methods: <nil>".
func TestMethodsSpelling(t *testing.T) {
	for _, i := range cluster.Methods() {
		if got := i.New().Name(); got != i.Name {
			t.Errorf("%s: New().Name() = %q", i.Name, got)
		}
	}
	for _, tc := range []struct {
		args []string // the spelling tried
		same []string // the command whose output it must equal
	}{
		{[]string{"methods", "FGPWC"}, []string{"methods", "fgpwc"}},
		{[]string{"methods", "Njw"}, []string{"methods", "njw"}},
		{[]string{"methods", " fast-GE2-bh "}, []string{"methods", "fast-ge2-bh"}},
		{[]string{"methods", "-json", "NJW"}, []string{"methods", "-json", "njw"}},
	} {
		want, _, err := run(t, tc.same...)
		if err != nil {
			t.Fatalf("%q: %v", tc.same, err)
		}
		got, stderr, err := run(t, tc.args...)
		if err != nil || got != want {
			t.Errorf("%q: err %v, stderr %q; output equal to %q's: %v", tc.args, err, stderr, tc.same, got == want)
		}
	}
	for _, tc := range []struct {
		name string
		want []string // in the error
	}{
		{"nosuch", []string{"usage: methods: ", `unknown method "nosuch"`, "known: auto"}},
		{"fgpcw", []string{"usage: methods: ", `unknown method "fgpcw"`, "did you mean fgpwc?"}},
		{"", []string{"usage: methods: ", `unknown method ""`}},
	} {
		var out, errb bytes.Buffer
		m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
		err := m.Run(context.Background(), []string{"methods", tc.name})
		if code := exitCode(context.Background(), err, &errb); code != 2 {
			t.Errorf("methods %q: exit %d, want 2 (%v)", tc.name, code, err)
		}
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("methods %q: error %v lacks %q", tc.name, err, w)
			}
		}
		if strings.Contains(errb.String(), "<nil>") {
			t.Errorf("methods %q: %q", tc.name, errb.String())
		}
	}
}
