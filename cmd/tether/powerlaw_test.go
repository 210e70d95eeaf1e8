package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/powerlaw"
)

func TestPowerlawSampleAndFit(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.txt")
	b := filepath.Join(dir, "b.txt")
	for _, p := range []string{a, b} {
		if _, _, err := run(t, "powerlaw", "sample", "-alpha", "2.5", "-xmin", "2", "-n", "20000", "-seed", "7", "-o", p); err != nil {
			t.Fatal(err)
		}
	}
	ba, _ := os.ReadFile(a)
	bb, _ := os.ReadFile(b)
	if !bytes.Equal(ba, bb) {
		t.Fatal("same seed, different files")
	}
	// Standard output gives the same bytes.
	out, _, err := run(t, "powerlaw", "sample", "-alpha", "2.5", "-xmin", "2", "-n", "20000", "-seed", "7")
	if err != nil || out != string(ba) {
		t.Fatalf("stdout differs from -o (%v)", err)
	}
	other, _, _ := run(t, "powerlaw", "sample", "-alpha", "2.5", "-xmin", "2", "-n", "20000", "-seed", "8")
	if other == out {
		t.Fatal("another seed gave the same values")
	}
	// Fit with x_min given: α within 4 standard errors (1.5/√20000 ≈ 0.011).
	js, _, err := run(t, "powerlaw", "fit", "-input", a, "-xmin", "2", "-json")
	if err != nil {
		t.Fatal(err)
	}
	var rep plFitReport
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.N != 20000 || rep.NTail != 20000 || rep.Xmin != 2 || math.Abs(float64(rep.Alpha)-2.5) > 4*float64(rep.StdErr) || rep.P != nil {
		t.Errorf("fit %+v", rep)
	}
	// The library's MLE on the same values (summed in another order: to
	// rounding).
	d, _ := dataset.ReadValuesFile(a, dataset.ValueOptions{})
	want, _, _ := powerlaw.MLE(d.Values, 2)
	if math.Abs(float64(rep.Alpha)-want) > 1e-12 {
		t.Errorf("α = %v, library %v", rep.Alpha, want)
	}
	// Text output, x_min selected.
	txt, _, err := run(t, "powerlaw", "fit", "-input", a)
	if err != nil || !strings.Contains(txt, "selected by KS minimization") || !strings.Contains(txt, "continuous MLE (thesis eq. 5.1.3)") {
		t.Errorf("text output:\n%s (%v)", txt, err)
	}
}

// TestPowerlawFitHeader: a header line is skipped with a note naming it
// (none with -quiet), and a malformed first value is an error naming its
// line: "3x" was skipped as a header without a word, and the fit ran on
// the other values.
func TestPowerlawFitHeader(t *testing.T) {
	dir := t.TempDir()
	header := filepath.Join(dir, "h.txt")
	bad := filepath.Join(dir, "b.txt")
	os.WriteFile(header, []byte("cluster size\n3\n2\n5\n"), 0o644)
	os.WriteFile(bad, []byte("3x\n2\n5\n"), 0o644)
	js, stderr, err := run(t, "powerlaw", "fit", "-input", header, "-xmin", "1", "-json")
	var rep plFitReport
	if err != nil || json.Unmarshal([]byte(js), &rep) != nil || rep.N != 3 || !strings.Contains(stderr, `note: `+header+`:1, "cluster size", read as a header and skipped`) {
		t.Errorf("header: n %d, stderr %q, err %v", rep.N, stderr, err)
	}
	if _, stderr, _ := run(t, "powerlaw", "fit", "-input", header, "-xmin", "1", "-quiet"); strings.Contains(stderr, "note") {
		t.Errorf("-quiet: stderr %q", stderr)
	}
	if _, _, err := run(t, "powerlaw", "fit", "-input", bad, "-xmin", "1"); err == nil || !strings.Contains(err.Error(), bad+`:1: value "3x"`) {
		t.Errorf("malformed first value: err %v", err)
	}
}

func TestPowerlawDiscreteBootstrap(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sizes.txt")
	if _, _, err := run(t, "powerlaw", "sample", "-alpha", "2.2", "-n", "500", "-discrete", "-seed", "3", "-o", p); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	for _, l := range strings.Fields(string(data)) {
		if v, err := strconv.Atoi(l); err != nil || v < 1 {
			t.Fatalf("discrete value %q", l)
		}
	}
	args := []string{"powerlaw", "fit", "-input", p, "-discrete", "-xmin", "1", "-bootstrap", "40", "-seed", "9", "-json"}
	o1, _, err := run(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	o2, _, _ := run(t, args...)
	if o1 != o2 {
		t.Error("same seed, different bootstrap output")
	}
	var rep plFitReport
	json.Unmarshal([]byte(o1), &rep)
	if rep.P == nil || *rep.P <= 0.1 || rep.Bootstrap != 40 || math.Abs(float64(rep.Alpha)-2.2) > 4*float64(rep.StdErr) || rep.Seed == nil || *rep.Seed != 9 {
		t.Errorf("bootstrap fit %+v", rep)
	}
	// Seed 0 is recorded too (not the default 1), and no seed without
	// a bootstrap.
	o0, _, err := run(t, "powerlaw", "fit", "-input", p, "-discrete", "-xmin", "1", "-bootstrap", "5", "-seed", "0", "-json")
	if err != nil || !strings.Contains(o0, `"seed": 0,`) {
		t.Errorf("-seed 0 -json: %v, %s: want \"seed\": 0", err, o0)
	}
	if on, _, err := run(t, "powerlaw", "fit", "-input", p, "-discrete", "-xmin", "1", "-json"); err != nil || strings.Contains(on, `"seed"`) {
		t.Errorf("without -bootstrap: %v, %s: want no seed", err, on)
	}
	// Standard input.
	var out, errb bytes.Buffer
	m := &Main{Stdin: bytes.NewReader(data), Stdout: &out, Stderr: &errb}
	if err := m.Run(context.Background(), []string{"powerlaw", "fit", "-input", "-", "-discrete", "-xmin", "1", "-json"}); err != nil {
		t.Fatal(err)
	}
	var rep2 plFitReport
	json.Unmarshal(out.Bytes(), &rep2)
	if rep2.Alpha != rep.Alpha {
		t.Errorf("stdin α = %v, file %v", rep2.Alpha, rep.Alpha)
	}
}

func TestPowerlawBadInput(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	words := file("words.txt", "3\n4\nabc\n5\n")
	neg := file("neg.txt", "3\n# c\n-2\n")
	frac := file("frac.txt", "3\n4.5\n")
	nan := file("nan.txt", "3\nNaN\n")
	few := file("few.txt", "3\n3\n")
	for _, tc := range []struct {
		name  string
		args  []string
		usage bool
		want  string
	}{
		{"no command", []string{"powerlaw"}, true, "no command"},
		{"unknown command", []string{"powerlaw", "estimate"}, true, `unknown command "estimate"`},
		{"fit no input", []string{"powerlaw", "fit"}, true, "-input is required"},
		{"fit missing file", []string{"powerlaw", "fit", "-input", filepath.Join(dir, "none")}, false, "no such file"},
		{"fit word", []string{"powerlaw", "fit", "-input", words}, false, "words.txt:3: value \"abc\""},
		{"fit nan", []string{"powerlaw", "fit", "-input", nan}, false, "nan.txt:2: value \"NaN\""},
		{"fit negative", []string{"powerlaw", "fit", "-input", neg}, false, "neg.txt:3: value -2: not positive"},
		{"fit fraction discrete", []string{"powerlaw", "fit", "-input", frac, "-discrete"}, false, "frac.txt:2: value 4.5: not an integer"},
		{"fit xmin word", []string{"powerlaw", "fit", "-input", frac, "-xmin", "low"}, true, `-xmin "low"`},
		{"fit xmin fraction discrete", []string{"powerlaw", "fit", "-input", few, "-discrete", "-xmin", "1.5"}, true, "integer ≥ 1"},
		{"fit xmin above data", []string{"powerlaw", "fit", "-input", few, "-xmin", "10"}, false, "no value ≥ x_min = 10"},
		{"fit all at xmin", []string{"powerlaw", "fit", "-input", few, "-xmin", "3"}, false, "exponent is infinite"},
		{"fit no candidate", []string{"powerlaw", "fit", "-input", few}, false, "no candidate x_min"},
		{"fit bootstrap negative", []string{"powerlaw", "fit", "-input", few, "-bootstrap", "-1"}, true, "bootstrap"},
		{"sample no alpha", []string{"powerlaw", "sample", "-n", "5"}, true, "-alpha and -n are required"},
		{"sample alpha 1", []string{"powerlaw", "sample", "-alpha", "1", "-n", "5"}, true, "-alpha 1: want a finite number > 1"},
		{"sample huge n", []string{"powerlaw", "sample", "-alpha", "2", "-n", "1000000000000"}, true, "MaxSample"},
		{"sample zero n", []string{"powerlaw", "sample", "-alpha", "2", "-n", "0"}, true, "-n 0"},
		{"sample discrete xmin", []string{"powerlaw", "sample", "-alpha", "2", "-n", "5", "-discrete", "-xmin", "0.5"}, true, "-xmin 0.5: want an integer ≥ 1 with -discrete"},
		{"sample negative xmin", []string{"powerlaw", "sample", "-alpha", "2", "-n", "5", "-xmin", "-1"}, true, "-xmin -1: want a finite number > 0"},
		{"sample bad flag", []string{"powerlaw", "sample", "-alpha", "x"}, true, "powerlaw sample -h"},
		{"sample discrete alpha above MaxAlpha", []string{"powerlaw", "sample", "-alpha", "1e300", "-n", "5", "-discrete"}, true, "-alpha 1e+300: want at most 1000 with -discrete (powerlaw.MaxAlpha"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := run(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) || errors.Is(err, errUsage) != tc.usage {
				t.Errorf("err = %v, want one containing %q (usage error: %v)", err, tc.want, tc.usage)
			}
		})
	}
}

func TestPowerlawSampleCancelled(t *testing.T) {
	// An interrupted sample leaves no file behind, and an existing file is
	// left as it was.
	p := filepath.Join(t.TempDir(), "out.txt")
	os.WriteFile(p, []byte("old\n"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	err := m.Run(ctx, []string{"powerlaw", "sample", "-alpha", "2", "-n", "1000000", "-o", p})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old\n" {
		t.Errorf("file changed to %q", b[:min(len(b), 20)])
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("%d files left in the directory", len(entries))
	}
	// Cancelled bootstrap.
	in := filepath.Join(t.TempDir(), "v.txt")
	os.WriteFile(in, []byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"), 0o644)
	if err := m.Run(ctx, []string{"powerlaw", "fit", "-input", in, "-bootstrap", "10"}); !errors.Is(err, context.Canceled) {
		t.Errorf("bootstrap err = %v, want context.Canceled", err)
	}
}

// TestPowerlawSampleBeyondFloat64: draws beyond the float64 range (α near
// 1: with α = 1.01 and x_min = 1, P(X > 1.8·10³⁰⁸) ≈ 8·10⁻⁴) are an error
// naming the value and the chance, not "+Inf" lines with exit status 0;
// nothing is written.
func TestPowerlawSampleBeyondFloat64(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"-alpha", "1.01", "-n", "20000"},
		{"-alpha", "1.0000001", "-n", "10", "-discrete"},
		{"-alpha", "2", "-n", "100", "-xmin", "1e308"},
	} {
		p := filepath.Join(dir, "v.txt")
		_, _, err := run(t, append([]string{"powerlaw", "sample", "-o", p}, args...)...)
		if err == nil || !strings.Contains(err.Error(), "+Inf") || !strings.Contains(err.Error(), "float64") {
			t.Errorf("%v: err = %v, want one naming +Inf and float64", args, err)
		}
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%v: %s written", args, p)
		}
	}
}

// TestPowerlawFitInterrupted: without -bootstrap the fit ran under no
// context (powerlaw.Fit), nor did the values reader; on 5·10⁶ values it
// took 4.6-5.4 s to stop after Ctrl-C. It now returns as soon as it is
// cancelled.
func TestPowerlawFitInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("fits 10⁶ values in the background")
	}
	var b strings.Builder
	x, err := powerlaw.Sample(1000000, 2.5, 1, false, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range x {
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		b.WriteByte('\n')
	}
	p := filepath.Join(t.TempDir(), "v.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	t0 := time.Now()
	err = m.Run(ctx, []string{"powerlaw", "fit", "-input", p})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the context's", err)
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("returned %v after the start, 20 ms after which it was cancelled", d)
	}
}

// powerlaw fit -input - reads standard input polling its context, as the
// other readers do: cancelled while values keep coming (a pipe whose
// writer never stops), it returns the reader's error naming <stdin> soon
// after, having read little more. It used to leave the read to a goroutine
// (untilDone) and return the bare context error.
func TestPowerlawFitStdinStopsMidRead(t *testing.T) {
	testctx.StopsMidRead(t, "1.5\n", "<stdin>", func(ctx context.Context, r io.Reader) error {
		m := &Main{Stdin: r, Stdout: io.Discard, Stderr: io.Discard}
		return m.Run(ctx, []string{"powerlaw", "fit", "-input", "-"})
	})
}

// powerlaw fit reports the choice of x_min and the bootstrap's replicates
// on standard error (300 replicates took 0.5 s, 10⁵–10⁶ minutes, without
// a word), up to the last; -quiet prints none.
func TestPowerlawFitProgress(t *testing.T) {
	in := filepath.Join(t.TempDir(), "v.txt")
	if _, _, err := run(t, "powerlaw", "sample", "-alpha", "2.5", "-n", "500", "-seed", "3", "-o", in); err != nil {
		t.Fatal(err)
	}
	_, errOut, err := runClocked(t, "powerlaw", "fit", "-input", in, "-bootstrap", "40")
	if err != nil {
		t.Fatal(err)
	}
	boot := progressLines(errOut, "powerlaw-bootstrap")
	if len(boot) == 0 || !strings.Contains(boot[len(boot)-1], " 40/40 (100%) ") {
		t.Errorf("bootstrap progress %q, want lines ending at 40/40", boot)
	}
	if xm := progressLines(errOut, "powerlaw-xmin"); len(xm) == 0 || !strings.Contains(xm[len(xm)-1], "(100%)") {
		t.Errorf("x_min progress %q, want lines ending at 100%%", xm)
	}
	_, errOut, err = runClocked(t, "powerlaw", "fit", "-input", in, "-bootstrap", "40", "-quiet")
	if err != nil || errOut != "" {
		t.Errorf("-quiet: stderr %q, error %v; want nothing", errOut, err)
	}
}

// TestPowerlawFitJSONNonFinite: -json never fails on a number that is not
// finite. Values near the float64 range with α close to 1 made the
// discrete KS distance +Inf ("json: unsupported value: +Inf"); the fit is
// now finite (its figures are checked in package powerlaw), and a
// non-finite field, such as a standard error the discrete fit cannot
// estimate (NaN), is written null.
func TestPowerlawFitJSONNonFinite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "huge.txt")
	os.WriteFile(p, []byte("1\n1\n2\n3\n5\n8\n1e305\n2e306\n"), 0o644)
	js, _, err := run(t, "powerlaw", "fit", "-input", p, "-discrete", "-xmin", "1", "-json")
	if err != nil {
		t.Fatal(err)
	}
	var rep plFitReport
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	if ks := float64(rep.KS); !(ks > 0.73 && ks < 0.74) || !(rep.Alpha > 1 && rep.Alpha < 1.01) {
		t.Errorf("α = %v, KS = %v; want about 1.0056 and 0.7348\n%s", rep.Alpha, rep.KS, js)
	}
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{math.NaN(), "null"},
		{math.Inf(1), "null"},
		{math.Inf(-1), "null"},
		{0.1, "0.1"},
		{1e21, "1e+21"},
		{math.Copysign(0, -1), "-0"},
	} {
		b, err := json.Marshal(plFitReport{StdErr: jsonNumber(tc.v)})
		if want := `"stderr":` + tc.want + `,`; err != nil || !strings.Contains(string(b), want) {
			t.Errorf("StdErr %v: %s (%v), want %s", tc.v, b, err, want)
		}
	}
}

// TestPowerlawRedrawnCause: the bootstrap's line of redrawn values names
// what makes the fitted law pass the largest float64 M, whose probability
// per draw is (M/x_min)^{1−α} (redrawCause's rule, TestRedrawCauseRule):
// x_min within a small factor of M (values near 1e308, α ≈ 4.4), α close
// to 1 (x_min = 1 or 1e200, α ≈ 1.01), or both (x_min = 1e300, α̂ ≈ 1.1).
// Before, both first ones said "(α close to 1)"; then any x_min above √M
// named x_min, so α ≈ 1.01 with x_min = 1e200 said "within a factor
// 1.8e+108".
func TestPowerlawRedrawnCause(t *testing.T) {
	draw := func(alpha, xmin float64, n int, seed uint64) string {
		r := rand.New(rand.NewPCG(seed, 1))
		var b strings.Builder
		for k := 0; k < n; {
			v := xmin * math.Pow(1-r.Float64(), -1/(alpha-1))
			if v < math.MaxFloat64 {
				fmt.Fprintf(&b, "%v\n", v)
				k++
			}
		}
		return b.String()
	}
	const onlyAlpha, onlyXmin = "is close to 1, and", "x_min = "
	for _, tc := range []struct {
		name, data, xmin, boot string
		want, not              []string
	}{
		{"x_min near M", draw(4.4, 5e307, 500, 1), "5e307", "5",
			[]string{"x_min = 5e+307 is within a factor 3.6 of it, and a draw of the fitted law passes it with probability 0.0"}, []string{"close to 1"}},
		{"α near 1", draw(1.005, 1, 500, 2), "1", "5",
			[]string{"is close to 1, and a draw of the fitted law's heavy tail passes it with probability 0."}, []string{"x_min ="}},
		// Before, x_min > √M named x_min: "within a factor 1.8e+108".
		{"α near 1, x_min 1e200", draw(1.01, 1e200, 500, 3), "1e200", "5",
			[]string{"α = 1.0", "is close to 1, and a draw of the fitted law's heavy tail passes it with probability 0.0"}, []string{"x_min =", "1.8e+108"}},
		{"α 4.41, x_min 1e308", draw(4.41, 1e308, 500, 4), "1e308", "5",
			[]string{"x_min = 1e+308 is within a factor 1.8 of it, and a draw of the fitted law passes it with probability 0."}, []string{"close to 1"}},
		{"α 1.01, x_min 1", draw(1.01, 1, 500, 5), "1", "40",
			[]string{"α = 1.0", "is close to 1, and a draw of the fitted law's heavy tail passes it with probability 0.00"}, []string{"x_min ="}},
		// Values below M are read as α̂ ≈ 1.1 (the law conditioned on
		// x < M is nearly log-uniform on [x_min, M]), with ln(M/x_min) ≈ 19:
		// shortfalls sα ≈ 2.2 and sx ≈ 3.6, both.
		{"both", draw(1.01, 1e300, 500, 6), "1e300", "5",
			[]string{"is close to 1 and x_min = 1e+300 within a factor 1.8e+08 of it, and a draw of the fitted law passes it with probability 0."}, []string{onlyAlpha}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := writeTemp(t, "values.txt", tc.data)
			out, stderr, err := run(t, "powerlaw", "fit", "-input", in, "-xmin", tc.xmin, "-bootstrap", tc.boot, "-quiet")
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			line := regexp.MustCompile(`(?m)^redrawn .*$`).FindString(out)
			t.Log(line)
			if line == "" {
				t.Fatalf("no redrawn line:\n%s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(line, w) {
					t.Errorf("%q lacks %q", line, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(line, w) {
					t.Errorf("%q says %q", line, w)
				}
			}
		})
	}
}

// TestRedrawCauseRule: redrawCause names the factor of (α−1)·ln(M/x_min)
// with the larger shortfall from a typical law's (α − 1 = 1, ln(M/x_min) =
// ln M), both when the smaller is at least half the larger, and gives the
// probability (M/x_min)^{1−α}, checked against math.Pow (x_min ≥ 1 here,
// so M/x_min is finite). Before, any x_min above √M ≈ 1.3e154 named x_min.
func TestRedrawCauseRule(t *testing.T) {
	const (
		alphaOnly = "is close to 1, and a draw of the fitted law's heavy tail"
		xminOnly  = "is within a factor"
		both      = "is close to 1 and x_min ="
		neither   = "a draw of the fitted law (α ="
	)
	for _, tc := range []struct {
		alpha, xmin float64
		want        string
	}{
		{1.01, 1e200, alphaOnly},  // sα = 4.6, sx = 1.0
		{4.41, 1e308, xminOnly},   // sα = −1.2, sx = 7.1
		{4.4, 5e307, xminOnly},    // sα = −1.2, sx = 6.3
		{1.01, 1, alphaOnly},      // sα = 4.6, sx = 0
		{1.005, 1, alphaOnly},     // sα = 5.3, sx = 0
		{1.01, 1e306, both},       // sα = 4.6, sx = 4.9
		{1.112, 1e300, both},      // sα = 2.2, sx = 3.6
		{1.3, 1e300, xminOnly},    // sα = 1.2, sx = 3.6: less than half
		{1.001, 1e250, alphaOnly}, // sα = 6.9, sx = 0.4
		{2.5, 1, neither},         // sα = −0.4, sx = 0
		{1.5, 1e154, both},        // sα = 0.69, sx = 0.69
	} {
		got := redrawCause(tc.alpha, tc.xmin)
		if !strings.Contains(got, tc.want) {
			t.Errorf("α = %v, x_min = %v: %q, want it to contain %q", tc.alpha, tc.xmin, got, tc.want)
		}
		_, ps, ok := strings.Cut(got, "with probability ")
		p, err := strconv.ParseFloat(ps, 64)
		want := math.Pow(math.MaxFloat64/tc.xmin, 1-tc.alpha)
		if !ok || err != nil || math.Abs(p-want) > 5e-3*want {
			t.Errorf("α = %v, x_min = %v: %q: probability %v, want %.3g within 0.5%%", tc.alpha, tc.xmin, got, p, want)
		}
	}
}
