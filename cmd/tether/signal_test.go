package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run the real main (signals, exit status) in a child
// process: the test binary re-executes itself with TETHER_TEST_MAIN=1.
func TestMain(m *testing.M) {
	if os.Getenv("TETHER_TEST_MAIN") == "1" {
		os.Args = append([]string{"tether"}, os.Args[1:]...)
		main()
		return
	}
	os.Exit(m.Run())
}

func TestExitCode(t *testing.T) {
	interrupted, cancel := context.WithCancelCause(context.Background())
	cancel(errInterrupted)
	broken, cancelBroken := context.WithCancelCause(context.Background())
	cancelBroken(errBrokenPipe)
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		want int
	}{
		{"success", context.Background(), nil, 0},
		{"help", context.Background(), flag.ErrHelp, 0},
		{"usage", context.Background(), fmt.Errorf("%w: bad flag", errUsage), 2},
		{"failure", context.Background(), errors.New("boom"), 1},
		{"interrupted, cancelled", interrupted, context.Canceled, 130},
		{"interrupted after finishing", interrupted, nil, 130},
		{"broken pipe, cancelled", broken, context.Canceled, 141},
		{"broken pipe after finishing", broken, nil, 141},
	} {
		var b bytes.Buffer
		if got := exitCode(tc.ctx, tc.err, &b); got != tc.want {
			t.Errorf("%s: exit %d, want %d", tc.name, got, tc.want)
		}
		if tc.ctx == broken && b.Len() > 0 {
			t.Errorf("%s: printed %q, want nothing (the reader is gone)", tc.name, b.String())
		}
	}
}

// Ctrl-C stops a long clustering within a second, with exit status 130 and
// no output file (nor temporary file) left behind.
func TestInterruptStopsWithinASecond(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command in a child process")
	}
	// The requirement is one second (measured here: about 0.1 s); the
	// margin absorbs a loaded CI machine, and a stop over it is measured
	// once more before it fails the test (a load spike stalls one run, a
	// missing poll every run).
	const bound = 2 * time.Second
	took := interruptOnce(t)
	if took > bound {
		t.Logf("stopped %v after the signal: measuring again", took)
		took = interruptOnce(t)
	}
	if took > bound {
		t.Errorf("stopped %v after the signal, want < 1 s", took)
	}
	t.Logf("stopped %v after the signal", took)
}

// interruptOnce starts a long clustering in a child process, sends it
// SIGINT after 1.5 s and returns how long it took to exit from then. It
// fails the test unless the exit status is 130 and no file (nor temporary
// file) is left behind.
func interruptOnce(t *testing.T) time.Duration {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "labels.txt")
	cmd := exec.Command(os.Args[0], "cluster", "-gen", "blobs", "-n", "300000", "-k", "5", "-method", "fgpwc", "-quiet", "-o", out)
	cmd.Env = append(os.Environ(), "TETHER_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	took := time.Since(sent)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v, want status 130; stderr:\n%s", err, stderr.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left after the interrupt: %v", entries)
	}
	return took
}

// A flag mistake prints one line naming the mistake and -h, not the 70
// lines of flags; -h prints them.
func TestFlagErrorsAreShort(t *testing.T) {
	_, stderr, err := run(t, "cluster", "-bogus")
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), `-bogus (run "tether cluster -h" for the flags)`) {
		t.Errorf("error %v", err)
	}
	if stderr != "" {
		t.Errorf("stderr %q, want nothing besides the error", stderr)
	}
	stdout, _, err := run(t, "cluster", "-h")
	if !errors.Is(err, flag.ErrHelp) || !strings.Contains(stdout, "-method string") {
		t.Errorf("-h: %v, usage %q", err, stdout)
	}
}

// A flag mistake — an unknown flag, a value its flag cannot parse — and
// every other usage error (a missing input, an unknown method or
// experiment, flags that do not go together) is a usage error (exit status
// 2) that names the subcommand ("usage: gen: …"), for every subcommand,
// and nothing else is printed: the flag package's own message and usage
// text go nowhere, and the caller prints the error once (exitCode). The
// flag errors used to carry no subcommand name ("usage: flag provided but
// not defined: …"), nor did the other usage errors of cluster, serve,
// repro, powerlaw fit and sample, and methods.
func TestFlagErrorsNameTheSubcommand(t *testing.T) {
	// Commands that hold commands of their own; every other command of
	// commands() parses flags itself. A new group must be listed here
	// (its "-bogus" would be an unknown command, failing the test).
	groups := map[string][]string{
		"constraints": {"gen", "check", "closure"},
		"powerlaw":    {"fit", "sample"},
	}
	// badValue gives each subcommand a flag with a value it cannot parse
	// (nil for one without flags).
	badValue := map[string][]string{
		"version":             nil,
		"cluster":             {"-k", "abc"},
		"eval":                {"-max-clusters", "x"},
		"labels":              {"-header", "maybe"},
		"constraints gen":     {"-alpha", "x"},
		"constraints check":   {"-n", "x"},
		"constraints closure": {"-reps", "x"},
		"gen":                 {"moons", "-n", "abc"},
		"demo":                {"-seed", "x"},
		"methods":             {"-json=x"},
		"serve":               {"-compute-timeout", "x"},
		"repro":               {"-workers", "x"},
		"powerlaw fit":        {"-bootstrap", "x"},
		"powerlaw sample":     {"-alpha", "x"},
	}
	// misuse gives each subcommand usage errors other than flag errors,
	// with a part of the message each must contain.
	missing := filepath.Join(t.TempDir(), "missing")
	type misuseCase struct {
		args []string
		want string
	}
	misuse := map[string][]misuseCase{
		"cluster": {
			{nil, "give exactly one of -input, -graph-file, -gen and -bipartite"},
			{[]string{"extra"}, `unexpected argument "extra"`},
			{[]string{"-gen", "moons", "-method", "nosuch"}, `"nosuch"`},
			{[]string{"-gen", "moons", "-set", "NoSuchKnob=1"}, "NoSuchKnob"},
			{[]string{"-gen", "nosuch"}, `-gen: unknown generator "nosuch"`},
			{[]string{"-gen", "blobs", "-n", "0"}, "n = 0"},
			{[]string{"-gen", "moons", "-gen-k", "3"}, "-gen-k 3 does not apply to moons"},
			{[]string{"-gen", "sbm", "-knn", "5"}, "-knn builds the graph from features"},
			{[]string{"-input", missing, "-n", "5"}, "-n is a parameter of -gen"},
			{[]string{"-input", missing, "-col-names", missing}, "-col-names is an option of the document-by-term matrix of -bipartite and does not apply to -input (a feature table)"},
			{[]string{"-gen", "moons", "-o", missing, "-graph-out", missing}, "-o and -graph-out both write"},
			{[]string{"-gen", "sbm", "-n", "60", "-method", "cpca", "-quiet"}, "give a feature file with -input"},
		},
		"eval":                {{nil, "-truth and -pred are required"}},
		"labels":              {{nil, "give one of -input and -graph-file"}},
		"constraints gen":     {{nil, "-truth and -protocol are required"}},
		"constraints check":   {{nil, "want one constraint file"}},
		"constraints closure": {{[]string{"-reps", "0"}, "-reps 0, want ≥ 1"}},
		"gen": {
			{nil, "name a generator"},
			{[]string{"nosuch"}, `unknown generator "nosuch"`},
			{[]string{"blobs", "-n", "0", "-o", missing}, "n = 0"},
		},
		"demo":    {{[]string{"extra"}, `unexpected argument "extra"`}},
		"version": {{[]string{"extra"}, `unexpected argument "extra"`}},
		"methods": {{[]string{"nosuch"}, `"nosuch"`}, {[]string{"a", "b"}, "want at most one method name"}},
		"serve": {
			{[]string{"extra"}, `unexpected argument "extra"`},
			{[]string{"-compute-timeout", "0s"}, "-compute-timeout 0s: want a positive duration"},
			{[]string{"-addr", "nonsense"}, `-addr "nonsense"`},
			{[]string{"-addr", "0.0.0.0:0"}, "is not a loopback address"},
			{[]string{"-data", missing}, "-data: "},
			{[]string{"-allow-origin", "ftp://x"}, "-allow-origin: "},
			{[]string{"-bipartite", missing}, "-bipartite: tether serve does not load document-by-term matrices"},
			{[]string{"-input", missing, "-gen", "moons"}, "give exactly one of -input, -graph-file, -gen and -bipartite"},
		},
		"repro": {
			{nil, "name an experiment, all, or list"},
			{[]string{"nosuch"}, `unknown experiment "nosuch" (known: active, `},
			{[]string{"-data", missing, "list"}, "is not a directory of datasets"},
			{[]string{"-estimate", "-cache", "", "all"}, "-estimate reads the cache"},
		},
		"powerlaw fit": {
			{nil, "-input is required"},
			{[]string{"-input", missing, "extra"}, `unexpected argument "extra"`},
			{[]string{"-input", missing, "-xmin", "-1"}, `-xmin "-1"`},
		},
		"powerlaw sample": {
			{nil, "-alpha and -n are required"},
			{[]string{"-alpha", "2", "-n", "0"}, "-n 0: want 1…"},
			{[]string{"-alpha", "0.5", "-n", "10"}, "-alpha"},
			{[]string{"-alpha", "2", "-n", "10", "extra"}, `unexpected argument "extra"`},
		},
	}
	var leaves []string
	for _, c := range commands() {
		if sub, ok := groups[c.name]; ok {
			for _, s := range sub {
				leaves = append(leaves, c.name+" "+s)
			}
			continue
		}
		leaves = append(leaves, c.name)
	}
	for _, name := range leaves {
		bad, ok := badValue[name]
		if !ok {
			t.Errorf("%s: no flag with a bad value in the table", name)
			continue
		}
		if len(misuse[name]) == 0 {
			t.Errorf("%s: no usage error besides flag errors in the table", name)
		}
		cmd := strings.Fields(name)
		type testCase struct {
			what string
			args []string
			want string
			hint bool // the message ends with the -h hint
		}
		cases := []testCase{
			{"unknown flag", append(slices.Clone(cmd), "-bogus"), "flag provided but not defined: -bogus", true},
		}
		if bad != nil {
			cases = append(cases, testCase{"bad value", append(slices.Clone(cmd), bad...), "invalid ", true})
		}
		for i, mc := range misuse[name] {
			cases = append(cases, testCase{fmt.Sprintf("misuse %d", i), append(slices.Clone(cmd), mc.args...), mc.want, false})
		}
		for _, tc := range cases {
			t.Run(name+"/"+tc.what, func(t *testing.T) {
				_, stderr, err := run(t, tc.args...)
				if !errors.Is(err, errUsage) {
					t.Fatalf("%v: error %v, want a usage error", tc.args, err)
				}
				prefix := "usage: " + name + ": "
				if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tc.want) || tc.hint && !strings.Contains(msg, `(run "tether `+name+` -h" for the flags)`) {
					t.Errorf("%v: error %q, want %q… containing %q (and the -h hint: %v)", tc.args, msg, prefix, tc.want, tc.hint)
				}
				// The message names its subcommand once and speaks of
				// flags, not of the Go packages behind them ("usage:
				// gen: gen blobs: synth: …", "usage: methods: cluster:
				// unknown method" read as two commands).
				if rest, ok := strings.CutPrefix(err.Error(), prefix); ok {
					for _, seg := range strings.Split(rest, ": ") {
						if seg == cmd[0] || strings.HasPrefix(seg, name+" ") || slices.Contains(goPackages, seg) {
							t.Errorf("%v: error %q repeats the subcommand or names the package %q", tc.args, err, seg)
						}
					}
				}
				if n := strings.Count(err.Error(), "usage: "); n != 1 {
					t.Errorf("%v: error %q says usage %d times", tc.args, err, n)
				}
				if stderr != "" {
					t.Errorf("%v: stderr %q, want nothing besides the error", tc.args, stderr)
				}
				var printed bytes.Buffer
				if code := exitCode(context.Background(), err, &printed); code != 2 {
					t.Errorf("%v: exit status %d, want 2", tc.args, code)
				}
				if got := strings.Count(printed.String(), err.Error()); got != 1 || printed.String() != "tether: "+err.Error()+"\n" {
					t.Errorf("%v: printed %q, the message %d times, want it once", tc.args, printed.String(), got)
				}
			})
		}
	}
}

// goPackages are the names of the packages whose errors the CLI passes on;
// a usage message should not show them as a prefix.
var goPackages = []string{"cluster", "synth", "experiment", "dataset", "catalog", "constraint", "graph", "input", "powerlaw", "job"}

// Out-of-range numeric flags are refused at parse time, naming the range
// (-knn 0 used to be replaced by the default, -self-loops -1 ignored).
func TestNumericFlagRanges(t *testing.T) {
	for _, args := range [][]string{
		{"-knn", "0"}, {"-knn", "-3"}, {"-self-loops", "-1"}, {"-self-loops", "NaN"}, {"-k", "-2"}, {"-restarts", "-1"},
	} {
		_, _, err := run(t, append([]string{"cluster", "-gen", "moons", "-quiet"}, args...)...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "is outside") && !strings.Contains(err.Error(), "not a number") {
			t.Errorf("%v: error %v", args, err)
		}
	}
}

// A -k that the input or the method cannot have is a usage error (exit
// status 2) naming -k and the bound, as -k 0 for a method that does not
// estimate k and a generator's k above its n were: -k above the number of
// nodes was the library's "k = 7, want 1 ≤ k ≤ n = 6", exit status 1, for
// every input but the generators that check k themselves (-gen blobs).
// A -k above the classes of -truth or -partial-labels is no error. A
// method that needs side information run without a file of the kind it
// reads (mavro without -partial-labels, sl without -constraints or
// -partial-labels) is a usage error too (cluster.ErrNoSupervision; it was
// the library's "needs partial labels, none given", exit status 1). A -k
// given to a method that chooses k itself (cluster.Uses.FindsK: opplc,
// plmeans) is one as well.
func TestKOutsideTheInputIsUsage(t *testing.T) {
	// Six points in three pairs; the reference has 2 classes, the partial
	// labels name 2 classes on 2 of the nodes.
	table := writeTemp(t, "data.csv", "1,2\n1.1,2.1\n5,5\n5.2,5.1\n9,9\n9.1,9.2\n")
	truth := writeTemp(t, "truth.txt", "0\n0\n1\n1\n1\n1\n")
	partial := writeTemp(t, "partial.txt", "0\n-1\n1\n-1\n-1\n-1\n")
	path3 := writeTemp(t, "path.txt", "0 1 1\n1 2 1\n") // a path of 3 nodes
	pairs := writeTemp(t, "pairs.csv", "0,1,ml\n0,2,cl\n")
	mat, _, _ := bipartiteFiles(t) // 6 documents × 6 terms
	for _, tc := range []struct {
		name string
		args []string
		want string // the whole message; "" for success
	}{
		{"feature table", []string{"-input", table, "-k", "7"}, "usage: cluster: -k 7 exceeds the 6 nodes of the graph"},
		{"feature table, a method that estimates k", []string{"-input", table, "-k", "7", "-method", "bethe"}, "usage: cluster: -k 7 exceeds the 6 nodes of the graph"},
		{"graph file", []string{"-graph-file", path3, "-k", "4"}, "usage: cluster: -k 4 exceeds the 3 nodes of the graph"},
		{"generated points", []string{"-gen", "moons", "-n", "40", "-k", "50"}, "usage: cluster: -k 50 exceeds the 40 nodes of the graph"},
		{"bipartite", []string{"-bipartite", mat, "-method", "cocluster", "-k", "13"}, "usage: cluster: -k 13 exceeds the 12 nodes of the graph (6 documents and 6 terms)"},
		{"below the method's range", []string{"-input", table, "-k", "1", "-method", "ccsr"}, "usage: cluster: -k 1: ccsr takes k ≥ 2"},
		{"above the method's range", []string{"-input", table, "-k", "3", "-method", "mavro", "-partial-labels", partial}, "usage: cluster: -k 3: mavro takes k = 2 only"},
		{"labels method without labels", []string{"-input", table, "-k", "2", "-method", "mavro"}, "usage: cluster: -method mavro needs partial labels: give -partial-labels FILE (node,label lines for the nodes whose class is known)"},
		{"labels method given pairs", []string{"-input", table, "-k", "2", "-method", "labelprop", "-constraints", pairs}, "usage: cluster: -method labelprop needs partial labels: give -partial-labels FILE (node,label lines for the nodes whose class is known); it does not read the pairs of -constraints"},
		{"labels method with labels", []string{"-input", table, "-k", "2", "-method", "noa-ssc", "-partial-labels", partial}, ""},
		{"pairs method without pairs or labels", []string{"-input", table, "-k", "2", "-method", "sl"}, "usage: cluster: -method sl needs pairwise constraints or partial labels: give -constraints FILE (i,j,ml|cl lines) or -partial-labels FILE (node,label lines)"},
		{"pairs method with pairs", []string{"-input", table, "-k", "2", "-method", "sl", "-constraints", pairs}, ""},
		// opplc and plmeans choose k themselves: -k is refused (opplc
		// ignored -k 3 with a warning and found 1662 clusters; plmeans
		// took it for a cap and returned one cluster).
		{"a method that chooses k itself, opplc", []string{"-input", table, "-k", "3", "-method", "opplc", "-constraints", pairs},
			"usage: cluster: -k 3: opplc chooses k itself, whatever -k says (the knobs of its prior steer how many clusters it finds: tether methods opplc): leave -k out"},
		{"a method that chooses k itself, plmeans", []string{"-input", table, "-k", "3", "-method", "plmeans"},
			"usage: cluster: -k 3: plmeans chooses k itself, whatever -k says (the knobs of its prior steer how many clusters it finds: tether methods plmeans): leave -k out"},
		{"a method that chooses k itself, with -gen", []string{"-gen", "moons", "-n", "40", "-k", "2", "-method", "plmeans"},
			"usage: cluster: -k 2: plmeans chooses k itself, whatever -k says (the knobs of its prior steer how many clusters it finds: tether methods plmeans): leave -k out (-gen-k sets the classes of -gen)"},
		{"a method that chooses k itself, without -k", []string{"-input", table, "-method", "plmeans"}, ""},
		{"k = n", []string{"-input", table, "-k", "6"}, ""},
		{"k above the classes of -truth", []string{"-input", table, "-k", "3", "-truth", truth}, ""},
		{"k above the classes of -partial-labels", []string{"-input", table, "-k", "3", "-partial-labels", partial}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"cluster", "-quiet", "-o", filepath.Join(t.TempDir(), "labels")}, tc.args...)
			_, _, err := run(t, args...)
			var printed bytes.Buffer
			code := exitCode(context.Background(), err, &printed)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("error %v, want none", err)
			case tc.want == "":
				return
			case err == nil:
				t.Fatalf("no error, want %q", tc.want)
			case !errors.Is(err, errUsage) || err.Error() != tc.want:
				t.Errorf("error %q (usage error: %v), want the usage error %q", err, errors.Is(err, errUsage), tc.want)
			}
			if code != 2 || printed.String() != "tether: "+tc.want+"\n" {
				t.Errorf("exit status %d, printed %q; want 2 and %q", code, printed.String(), "tether: "+tc.want+"\n")
			}
		})
	}
}

// TestPartialLabelsAboveKIsUsage: -partial-labels naming more classes than
// -k is a usage error (exit status 2) with the reader's message, as -k
// above the number of nodes is (it was exit status 1); a labels file bad
// on its own (a malformed line, a node outside the input) is still an
// error of the data (exit status 1).
func TestPartialLabelsAboveKIsUsage(t *testing.T) {
	// Six points in three pairs.
	table := writeTemp(t, "data.csv", "1,2\n1.1,2.1\n5,5\n5.2,5.1\n9,9\n9.1,9.2\n")
	for _, tc := range []struct {
		name   string
		labels string // the -partial-labels file
		args   []string
		want   string // the whole message, %s the labels file
		code   int
	}{
		{"integer class above k", "0,0\n1,1\n2,2\n4,2\n", []string{"-method", "labelprop", "-k", "2"},
			"usage: cluster: %s: 3 classes (0, 1, 2) for -k 2: node 2 has label 2; want at most 2 distinct labels (-1, ? or empty when unknown)", 2},
		// One label per line: the node is named by its line, as the
		// file writes it.
		{"integer class above k, default method", "0\n1\n2\n-1\n-1\n-1\n", []string{"-k", "2"},
			"usage: cluster: %s: 3 classes (0, 1, 2) for -k 2: line 3 has label 2; want at most 2 distinct labels (-1, ? or empty when unknown)", 2},
		{"more class names than k", "0,a\n2,b\n4,c\n", []string{"-method", "labelprop", "-k", "2"},
			`usage: cluster: %s: 3 classes (a, b, c) for -k 2: node 4 has class "c"`, 2},
		{"malformed line", "0,0\n2,1,7\n", []string{"-method", "labelprop", "-k", "2"},
			"dataset: %s:2: invalid input: 3 fields, want 2 as on the first data line", 1},
		{"node outside the input", "0,0\n9,1\n", []string{"-method", "labelprop", "-k", "2"},
			`dataset: %s:2: column 1: value "9": invalid input: node outside 0…5 (base 0)`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			labels := writeTemp(t, "partial.txt", tc.labels)
			want := fmt.Sprintf(tc.want, labels)
			args := append([]string{"cluster", "-quiet", "-input", table, "-partial-labels", labels, "-o", filepath.Join(t.TempDir(), "out")}, tc.args...)
			_, _, err := run(t, args...)
			if err == nil {
				t.Fatalf("no error, want %q", want)
			}
			if err.Error() != want || errors.Is(err, errUsage) != (tc.code == 2) {
				t.Errorf("error %q (usage error: %v), want %q (usage error: %v)", err, errors.Is(err, errUsage), want, tc.code == 2)
			}
			var printed bytes.Buffer
			if code := exitCode(context.Background(), err, &printed); code != tc.code || printed.String() != "tether: "+want+"\n" {
				t.Errorf("exit status %d, printed %q; want %d and %q", code, printed.String(), tc.code, "tether: "+want+"\n")
			}
		})
	}
}

// -noise -3 is refused (it used to be replaced by the default); -1 still
// means the generator's default.
func TestGenNegativeNoise(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.csv")
	if _, _, err := run(t, "gen", "moons", "-noise", "-3", "-o", out); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "noise = -3") {
		t.Errorf("-noise -3: %v", err)
	}
	if _, _, err := run(t, "gen", "moons", "-noise", "-1", "-o", out); err != nil {
		t.Errorf("-noise -1: %v", err)
	}
}

// TestValuesInvalidForTheInputExitCodes: a value the user gave that the
// input cannot take is a usage error (exit status 2), as tether -h says,
// whichever command reads it: a -label, -id, -drop or -categorical column
// the table does not have (they were exit status 1, the reader's
// "invalid input"), a -set value that does not parse, a -plot name
// whose extension is no image format tether writes. A table whose
// content is bad stays an error of the data (exit status 1). The
// expected messages are the readers' own, without the library prefixes
// (usagef).
func TestValuesInvalidForTheInputExitCodes(t *testing.T) {
	table := writeTemp(t, "s.csv", "x1,x2,label\n0,0,a\n0,1,a\n0.5,0.5,a\n5,5,b\n5,6,b\n6,5,b\n")
	bad := writeTemp(t, "bad.csv", "x1,x2\n0,0\n1,Inf\n2,2\n")
	gml := writeTemp(t, "k.gml", "graph [ node [ id 0 club \"a\" ] node [ id 1 club \"b\" ] edge [ source 0 target 1 ] ]\n")
	out := filepath.Join(t.TempDir(), "out")
	for _, tc := range []struct {
		name string
		args []string
		want string // the whole message, %s the table
		code int
	}{
		{"-label column number outside the table", []string{"cluster", "-input", table, "-label", "7", "-k", "2", "-o", out},
			`usage: cluster: %s: label column: value "7": column number outside 1…3`, 2},
		{"labels -label: no such column", []string{"labels", "-input", table, "-label", "clas", "-o", out},
			`usage: labels: %s: label column: value "clas": no such column (have x1, x2, label)`, 2},
		{"-id column number outside the table", []string{"cluster", "-input", table, "-id", "9", "-k", "2", "-o", out},
			`usage: cluster: %s: ID column: value "9": column number outside 1…3`, 2},
		{"-drop: no such column", []string{"cluster", "-input", table, "-drop", "nosuch", "-k", "2", "-o", out},
			`usage: cluster: %s: dropped column: value "nosuch": no such column (have x1, x2, label)`, 2},
		{"-categorical: no such column", []string{"cluster", "-input", table, "-categorical", "zz", "-k", "2", "-o", out},
			`usage: cluster: %s: categorical column: value "zz": no such column (have x1, x2, label)`, 2},
		{"-id: the -label column", []string{"cluster", "-input", table, "-label", "x1", "-id", "x1", "-k", "2", "-o", out},
			`usage: cluster: %s: ID column: value "x1": column 1 is also the label column`, 2},
		{"serve -label outside the table", []string{"serve", "-input", table, "-label", "4"},
			`usage: serve: %s: label column: value "4": column number outside 1…3`, 2},
		{"-set value that does not parse", []string{"cluster", "-input", table, "-k", "2", "-method", "fgpwc", "-set", "SigmaML=abc", "-o", out},
			`usage: cluster: -set: knob setting "SigmaML=abc": "abc" is not a number`, 2},
		{"-set value outside the knob's range", []string{"cluster", "-input", table, "-k", "2", "-method", "fgpwc", "-set", "SigmaML=-1", "-o", out},
			`usage: cluster: -set: knob setting "SigmaML=-1": fgpwc: SigmaML = -1 is outside its range 0 | [1e-9, 1e9]`, 2},
		{"-gml-label no node has", []string{"labels", "-graph-file", gml, "-gml-label", "nosuch", "-o", out},
			`usage: labels: ` + gml + `:1: node 0 has no attribute "nosuch" (GraphOptions.LabelAttr; tether: -gml-label); the nodes' attributes besides id are "club"`, 2},
		{"-plot extension", []string{"cluster", "-input", table, "-k", "2", "-plot", "p.jpg", "-o", out},
			"usage: cluster: -plot: p.jpg: tether writes PNG (.png) or SVG (.svg) images, not .jpg", 2},
		// A -delim that splits no line of a comma-separated table: the
		// one column was taken for the IDs ("no feature columns left").
		{"-delim that splits no line", []string{"cluster", "-input", table, "-k", "2", "-delim", ";", "-o", out},
			`usage: cluster: %s:1: every line is one field when split at semicolons (Options.Delimiter ";"; tether: -delim), while the lines hold commas: the delimiter looks wrong; leave it out to detect it, or give -delim ,`, 2},
		{"a bad value in the table", []string{"cluster", "-input", bad, "-k", "2", "-o", out},
			`dataset: ` + bad + `:3: column 2 ("x2"): value "Inf": syntax error: not a finite decimal number (a missing value is written ? or left empty)`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			if strings.Contains(want, "%s") {
				want = fmt.Sprintf(want, table)
			}
			args := tc.args
			if args[0] != "labels" { // which has no -quiet
				args = append(args, "-quiet")
			}
			_, _, err := run(t, args...)
			if err == nil {
				t.Fatalf("no error, want %q", want)
			}
			var printed bytes.Buffer
			if code := exitCode(context.Background(), err, &printed); code != tc.code || printed.String() != "tether: "+want+"\n" {
				t.Errorf("exit status %d, printed %q; want %d and %q", code, printed.String(), tc.code, "tether: "+want+"\n")
			}
		})
	}
}

// TestFlagValuesCheckedBeforeTheData: flag values that can be checked
// without the data are usage errors (exit status 2) found before anything
// is read, here with an -input that does not exist: -graph eps without
// -eps, -eps with another kind of graph, and -eps NaN (the graph builder's errors after the data were read,
// exit status 1), -delim ab (the table reader's), serve -addr with a port
// above 65535 (net.Listen's).
func TestFlagValuesCheckedBeforeTheData(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.csv")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"cluster", "-input", missing, "-k", "2", "-graph", "eps"}, "usage: cluster: -graph eps needs -eps, its radius: the points at distance at most -eps are joined"},
		{[]string{"serve", "-graph", "eps"}, "usage: serve: -graph eps needs -eps, its radius"},
		// -eps with another kind of graph was ignored without a word.
		{[]string{"cluster", "-input", missing, "-k", "2", "-eps", "0.5"}, "usage: cluster: -eps is the radius of -graph eps and does not apply to -graph knn"},
		{[]string{"cluster", "-input", missing, "-k", "2", "-graph", "full", "-eps", "0.5"}, "usage: cluster: -eps is the radius of -graph eps and does not apply to -graph full"},
		// Graph-construction flags the graph chosen does not read were
		// ignored without a word (review 114).
		{[]string{"cluster", "-input", missing, "-k", "2", "-graph", "full", "-knn", "5"}, "usage: cluster: -knn is the number of neighbours of the k-NN graphs (knn, mknn, sknn) and does not apply to -graph full (the neighbour of local scaling is set by -sigma local:K)"},
		{[]string{"cluster", "-input", missing, "-k", "2", "-graph", "eps", "-eps", "1", "-affinity", "binary", "-knn", "5"}, "usage: cluster: -knn is the number of neighbours of the k-NN graphs (knn, mknn, sknn) and does not apply to -graph eps"},
		{[]string{"cluster", "-input", missing, "-k", "2", "-graph", "full", "-knn-search", "exact"}, "usage: cluster: -knn-search chooses the neighbour search of the k-NN graphs (knn, mknn, sknn) and does not apply to -graph full"},
		{[]string{"cluster", "-input", missing, "-k", "2", "-max-full", "500"}, "usage: cluster: -max-full bounds the size of -graph full and eps and does not apply to -graph knn"},
		{[]string{"serve", "-graph", "mknn", "-max-full", "500"}, "usage: serve: -max-full bounds the size of -graph full and eps and does not apply to -graph mknn"},
		{[]string{"cluster", "-input", missing, "-k", "2", "-affinity", "binary", "-sigma", "2"}, "usage: cluster: -sigma is the scale of the RBF weights and does not apply to -affinity binary"},
		{[]string{"cluster", "-input", missing, "-k", "2", "-affinity", "cosine", "-sigma", "median"}, "usage: cluster: -sigma is the scale of the RBF weights and does not apply to -affinity cosine"},
		{[]string{"cluster", "-input", missing, "-k", "2", "-graph", "eps", "-eps", "NaN"}, `usage: cluster: invalid value "NaN" for flag -eps: NaN: want a positive finite number`},
		{[]string{"cluster", "-input", missing, "-k", "2", "-graph", "eps", "-eps", "0"}, `usage: cluster: invalid value "0" for flag -eps: 0: want a positive finite number`},
		{[]string{"cluster", "-input", missing, "-k", "2", "-delim", "ab"}, `usage: cluster: invalid value "ab" for flag -delim: unsupported delimiter "ab" (Options.Delimiter; tether: -delim)`},
		{[]string{"labels", "-input", missing, "-delim", "ab"}, `usage: labels: invalid value "ab" for flag -delim: unsupported delimiter "ab" (Options.Delimiter; tether: -delim)`},
		{[]string{"serve", "-addr", "127.0.0.1:99999"}, `usage: serve: -addr 127.0.0.1:99999: port "99999": want a number from 0 to 65535 (0: any free port)`},
	} {
		// A cancelled context: a serve whose flags pass returns at once
		// instead of serving until the test times out.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		m := &Main{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
		err := m.Run(ctx, tc.args)
		if code := exitCode(context.Background(), err, io.Discard); code != 2 || !strings.HasPrefix(fmt.Sprint(err), tc.want) {
			t.Errorf("%q: exit status %d, error %v; want 2 and %q", tc.args, code, err, tc.want)
		}
	}
}

// A second signal ends the process at once, and the temporary files of its
// outputs go with it: a second SIGINT (or a SIGTERM after the SIGINT), 20
// ms after the first, while -plot's PNG is being drawn into its temporary
// file (which takes longer, 30 000 points, than the first signal's
// cancellation needs to be seen) and -gen-out's data is staged, leaves no
// file in the folder, hidden ".p.png.tmp*" and ".data.csv.tmp*" included.
// Before main's atomicfile.Registry, the second signal killed the process
// before the cancelled command removed them, and both stayed. The process
// ends by the second signal (or, should the cancelled command finish
// first, with status 130).
func TestSecondInterruptLeavesNoTemporaryFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command in a child process")
	}
	for _, second := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(second.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "cluster", "-gen", "blobs", "-n", "30000", "-k", "5", "-method", "njw", "-quiet",
				"-gen-out", filepath.Join(dir, "data.csv"), "-plot", filepath.Join(dir, "p.png"), "-o", filepath.Join(dir, "labels.txt"))
			cmd.Env = append(os.Environ(), "TETHER_TEST_MAIN=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(500 * time.Microsecond) {
				if m, _ := filepath.Glob(filepath.Join(dir, ".p.png.tmp*")); len(m) > 0 {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("no temporary file of -plot within 60 s; stderr:\n%s", stderr.String())
				}
			}
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			time.Sleep(20 * time.Millisecond)
			if err := cmd.Process.Signal(second); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("exit: %v, want the signal or status 130; stderr:\n%s", err, stderr.String())
			}
			if ws, _ := ee.Sys().(syscall.WaitStatus); !(ws.Signaled() && ws.Signal() == second) && ee.ExitCode() != 130 {
				t.Errorf("exit: %v, want killed by %v or status 130; stderr:\n%s", err, second, stderr.String())
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				t.Errorf("files left after the second signal: %v", names)
			}
			t.Logf("exit: %v", err)
		})
	}
}

// A reader that goes away (tether … | head -1) stops the command as a
// first Ctrl-C does: exit status 141, no output and no temporary file
// left. SIGPIPE used to end the process at its next message, leaving the
// hidden temporary files of -gen-out and -o in place. The reader of
// standard output is gone before the command starts, so its first write
// there, the summary, finds it gone whatever the machine's speed: both
// outputs are staged then, and must be removed.
func TestBrokenPipeLeavesNoTemporaryFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command in a child process")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	cmd := exec.Command(os.Args[0], "cluster", "-gen", "blobs", "-n", "3000", "-k", "5", "-method", "njw",
		"-gen-out", filepath.Join(out, "data.csv"), "-o", filepath.Join(out, "labels.txt"))
	cmd.Env = append(os.Environ(), "TETHER_TEST_MAIN=1")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	err = cmd.Run()
	w.Close()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 141 {
		t.Errorf("exit: %v, want status 141; stderr:\n%s", err, stderr.String())
	}
	if entries, err := os.ReadDir(out); err == nil {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("%s left, holding %v; want nothing", out, names)
	}
}

// TestOtherCommandsSpellings: a flag another command spells otherwise
// gets that spelling in the usage error (review 118: eval -graph-file,
// constraints check -constraints, cluster -graph FILE were refused
// without a word of the right flag; stop 59: cluster -data, serve's and
// repro's folder, for -input).
func TestOtherCommandsSpellings(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "-truth", "a", "-pred", "b", "-graph-file", "g.mtx"}, "flag provided but not defined: -graph-file: eval reads the graph file of the cut figures with -graph FILE"},
		{[]string{"constraints", "check", "-constraints", "c.csv"}, "flag provided but not defined: -constraints: the constraints file is the argument"},
		{[]string{"cluster", "-graph", "sbm.mtx", "-k", "2"}, `unknown graph kind "sbm.mtx" (want knn, mknn, full, eps or sknn): -graph is the kind of graph built from features; read a graph file with -graph-file sbm.mtx`},
		{[]string{"serve", "-graph", "data/g"}, "read a graph file with -graph-file data/g"},
		{[]string{"labels", "-graph", "g.gml"}, "flag provided but not defined: -graph: labels reads a graph file with -graph-file FILE"},
		{[]string{"cluster", "-data", "x.csv", "-k", "2"}, "flag provided but not defined: -data: cluster reads a feature table with -input FILE"},
		{[]string{"labels", "-features", "x.csv"}, "flag provided but not defined: -features: labels reads a feature table with -input FILE"},
		{[]string{"cluster", "-graph", "knnn", "-k", "2"}, `unknown graph kind "knnn": did you mean knn? (want knn, mknn, full, eps or sknn) (run`},
	} {
		_, _, err := run(t, tc.args...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
}

// TestExitStatusServe: a command whose normal end is a signal (serve,
// endsBySignal) exits 0 when it stopped cleanly after a first Ctrl-C, and
// 130 as any other command when it returned an error or had not started
// serving (review 137).
func TestExitStatusServe(t *testing.T) {
	interrupted, cancel := context.WithCancelCause(context.Background())
	cancel(errInterrupted)
	for _, tc := range []struct {
		name    string
		serving bool
		err     error
		want    int
	}{
		{"serving, clean stop", true, nil, 0},
		{"serving, error on stop", true, errors.New("listener failed"), 130},
		{"not serving yet", false, context.Canceled, 130},
		{"another command, finished", false, nil, 130},
	} {
		m := &Main{Stderr: io.Discard, endsBySignal: tc.serving}
		if got := m.exitStatus(interrupted, tc.err); got != tc.want {
			t.Errorf("%s: exit status %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := (&Main{Stderr: io.Discard, endsBySignal: true}).exitStatus(context.Background(), nil); got != 0 {
		t.Errorf("no signal: %d, want 0", got)
	}
}
