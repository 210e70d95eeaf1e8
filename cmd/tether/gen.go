package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/dataset/synth"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/input"
	"github.com/tether-sc/tether/internal/wording"
)

// genUsage is the usage text of gen; the generator list comes from the
// registry, so it cannot go stale.
func genUsage() string {
	var b strings.Builder
	b.WriteString(`gen <name> [flags]

Writes a synthetic data set with known classes. Generators, with the
parameters they read and their defaults:

`)
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, g := range synth.Generators() {
		fmt.Fprintf(tw, "  %s\t%s\n  \t%s\n", g.Name, g.Summary, g.DefaultString())
	}
	tw.Flush()
	b.WriteString(`
Point generators write CSV with a header, the features x1, x2, … and the
class in the last column "label" (0-based); read it back with "-label last".
sbm and dcsbm write an undirected edge list "i j 1" (0-based; Matrix Market when -o
ends in .mtx or .mm) and a labels file with one block per line.

A flag left out takes the generator's default, and so does -k 0 or -noise -1,
on any generator; another value of a parameter the generator does not read
(-k on moons, xor and circles, which always make 2 classes and accept -k 2;
-noise on sbm and dcsbm) is refused. The same -seed gives the same data here and in
"tether cluster -gen".`)
	return b.String()
}

// genFlags holds the values of the gen flags other than the generator
// parameters, which genParams reads from the flag set.
type genFlags struct {
	seed        uint64
	out, labels string
	kind        string
}

// bindGenParams defines on fs the flags of the generator parameters that
// genParams reads: -n, -dim, -noise, -factor, -cin, -cout, -gamma, and the
// number of classes as -kName, described by kHelp; prefix starts every
// description. It returns the number of classes flag's value; the others
// are read back from fs, only when set. tether gen and tether cluster -gen
// both bind them here.
func bindGenParams(fs *flag.FlagSet, prefix, kName, kHelp string) *int {
	k := fs.Int(kName, 0, prefix+kHelp)
	fs.Int("n", synth.DefaultN, prefix+"number of points or nodes")
	fs.Int("dim", 2, prefix+"dimension (blobs)")
	fs.Float64("noise", -1, prefix+"noise standard deviation, blobs: their standard deviation (-1: the generator's default; sbm and dcsbm accept only -1)")
	fs.Float64("factor", 0.5, prefix+"radius of the inner circle, in (0,1) (circles)")
	fs.Float64("cin", 10, prefix+"SBM c_in, p_in = c_in/n (seed 004 §3.1)")
	fs.Float64("cout", 2, prefix+"SBM c_out, p_out = c_out/n")
	fs.Float64("gamma", 2.5, prefix+"DC-SBM power-law exponent of the degree propensities θ (> 2; 0: none, a plain SBM in Poisson form)")
	return k
}

func runGen(ctx context.Context, m *Main, args []string) error {
	fs := m.newFlagSet("gen", genUsage())
	var f genFlags
	bindGenParams(fs, "", "k", "number of classes: interlaced, blobs, sbm, dcsbm (0: the generator's default; moons, xor and circles always make 2, and accept only 0 or 2)")
	fs.Uint64Var(&f.seed, "seed", synth.DefaultSeed, "random seed")
	fs.StringVar(&f.out, "o", "", "output file (default standard output)")
	fs.StringVar(&f.labels, "labels", "", "sbm, dcsbm: labels file (default: the -o file with extension .labels; none, with a note, when -o is standard output or not a regular file, such as /dev/null)")

	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		f.kind, args = args[0], args[1:]
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if f.kind == "" && fs.NArg() > 0 {
		f.kind = fs.Arg(0)
		if err := parseFlags(fs, fs.Args()[1:]); err != nil {
			return err
		}
	}
	if fs.NArg() > 0 {
		return usagef("gen", "unexpected argument %q (%s)", fs.Arg(0), usageHint(fs))
	}
	if f.kind == "" {
		return usagef("gen", "name a generator (%s; %s)", strings.Join(synth.Names(), ", "), usageHint(fs))
	}
	g, err := synth.Lookup(f.kind)
	if err != nil {
		return genFlagError(err)
	}
	if err := unusedGenFlag("gen", g, fs, nil); err != nil {
		return err
	}
	if isSet(fs, "labels") && !g.Graph {
		return usagef("gen", "-labels does not apply to %s: a point generator writes the labels in the \"label\" column of its CSV (-labels names the labels file of sbm and dcsbm)", g.Name)
	}
	p, err := genParams(g, fs, nil)
	if err != nil {
		return genFlagError(err)
	}
	if g.Graph && strings.EqualFold(filepath.Ext(f.out), ".gml") {
		// An edge list in a .gml file, which the readers then refused as
		// GML (review 115), as cluster -graph-out refuses it.
		return usagef("gen", "-o %s: tether writes a graph as an edge list, or Matrix Market for .mtx and .mm, not GML: give the file another extension (.edges, .txt, .mtx)", f.out)
	}
	if err := checkOutputs("gen", nil, generatedOutputs(g, "-o", f.out, "-labels", f.labels)); err != nil {
		return err
	}
	d, err := input.Generate(ctx, g, p, f.seed)
	if errors.Is(err, synth.ErrInvalid) {
		return usagef("gen", "%s: %v", g.Name, errors.Unwrap(err)) // err is "gen <generator>: …"
	} else if err != nil {
		return err
	}
	if err := writeGenerated(ctx, m, d, "gen", "-o", f.out, "-labels", f.labels, true); err != nil {
		return err
	}
	if g.Name == "dcsbm" {
		st := d.Graph.Stats()
		fmt.Fprintf(m.Stderr, "tether gen: DC-SBM n=%d k=%d c_in=%g c_out=%g gamma=%g: %d edges, mean degree %.4g, max %.4g, degree CV %.3g, %s (largest %d)\n",
			p.N, p.K, p.Cin, p.Cout, p.Gamma, st.Edges, st.MeanDegree, st.MaxDegree, graph.DegreeCV(d.Graph), wording.Count(st.Components, "component", "components"), st.LargestComponent)
	} else if g.Graph {
		fmt.Fprintf(m.Stderr, "tether gen: SBM n=%d k=%d c_in=%g c_out=%g: %d edges; c_in−c_out = %g, threshold k√c = %.4g (%s)\n",
			p.N, p.K, p.Cin, p.Cout, len(d.Graph.Edges()), p.Cin-p.Cout, synth.Threshold(p.K, p.Cin, p.Cout), genDetectability(p.K, p.Cin, p.Cout))
	}
	return nil
}

// genParams returns g's defaults overridden by the flags of fs the user set
// (flag.FlagSet.Visit), for the parameters g reads; -k 0 and -noise -1
// also mean the default, as they always have; other negative noise is
// refused by the generator. flagOf renames
// parameters whose flag is spelt differently (cluster's -gen-k for k); by
// default a parameter's flag has its name.
func genParams(g synth.Generator, fs *flag.FlagSet, flagOf map[string]string) (synth.Params, error) {
	set := map[string]*flag.Flag{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = f })
	p := g.Defaults
	for _, name := range g.Params {
		fname := name
		if alt, ok := flagOf[name]; ok {
			fname = alt
		}
		if f, ok := set[fname]; ok {
			v := f.Value.String()
			if isDefaultValue(name, v) {
				continue
			}
			if err := p.Set(name, v); err != nil {
				return p, fmt.Errorf("-%s: %w", fname, err)
			}
		}
	}
	return p, nil
}

// isDefaultValue reports whether v, the value of the flag of parameter
// name, is the documented "generator's default" of -k 0 and -noise -1. It
// stands for the default of any generator, those without the parameter
// included (they take it as the flag left out), so a flag given with it
// never lacks an effect (unusedGenFlag).
func isDefaultValue(name, v string) bool {
	return (name == "k" && v == "0") || (name == "noise" && v == "-1")
}

// genParamNames are the parameters whose flags bindGenParams defines,
// each flag spelt as its parameter except k in cluster (-gen-k).
func genParamNames() []string {
	return []string{"n", "k", "dim", "noise", "factor", "cin", "cout", "gamma"}
}

// isSet reports whether the user gave the flag name (flag.FlagSet.Visit).
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// unusedGenFlag returns a usage error naming the first generator parameter
// flag of fs the user set that g does not read (a flag given with no
// effect), nil if there is none. A flag set to the generator's default
// (isDefaultValue: -k 0 on moons, xor and circles; -noise -1 on sbm and
// dcsbm) is not one, nor is -k set to the number of classes of a generator
// that always makes that many (synth.Generator.Classes: -k 2 on moons):
// they ask for nothing the generator does not do. flagOf renames as for
// genParams; cmd prefixes the error (see usagef).
func unusedGenFlag(cmd string, g synth.Generator, fs *flag.FlagSet, flagOf map[string]string) error {
	flagName := func(name string) string {
		if alt, ok := flagOf[name]; ok {
			return alt
		}
		return name
	}
	for _, name := range genParamNames() {
		f := fs.Lookup(flagName(name))
		if !isSet(fs, flagName(name)) || slices.Contains(g.Params, name) || isDefaultValue(name, f.Value.String()) {
			continue
		}
		if name == "k" && g.Classes > 0 {
			if f.Value.String() == strconv.Itoa(g.Classes) {
				continue
			}
			fl := flagName(name)
			return usagef(cmd, "-%s %s does not apply to %s: it always makes %d classes (give -%s %d or 0, or leave -%s out; interlaced and blobs take a number of classes)",
				fl, f.Value, g.Name, g.Classes, fl, g.Classes, fl)
		}
		reads := make([]string, len(g.Params))
		for i, p := range g.Params {
			reads[i] = "-" + flagName(p)
		}
		return usagef(cmd, "-%s does not apply to %s: it has no such parameter (it reads %s)", flagName(name), g.Name, strings.Join(reads, ", "))
	}
	return nil
}

// writeGenerated writes generated data to out ("" or "-": standard output):
// points as CSV with a "label" column; a graph as an edge list (Matrix
// Market when out ends in .mtx or .mm, the extensions the graph readers
// read as Matrix Market) plus its labels to labelsPath (default: out
// with extension .labels, unless out is standard output or not a regular
// file, such as /dev/null: then a note of command cmd says that the labels
// were not written, naming outFlag and labelsFlag, the flags of out and
// labelsPath, labelsFlag "" when cmd has none). report names each file
// written on standard error (writeReported) and prints that note.
func writeGenerated(ctx context.Context, m *Main, d *input.Data, cmd, outFlag, out, labelsFlag, labelsPath string, report bool) error {
	if d.Graph == nil {
		_, cols := d.X.Dims()
		t := &dataset.Table{X: d.X, Labels: d.Truth}
		for j := 0; j < cols; j++ {
			t.Features = append(t.Features, fmt.Sprintf("x%d", j+1))
		}
		return m.writeReported(ctx, out, report, func(w io.Writer) error { return dataset.WriteCSV(w, t) })
	}
	write := func(w io.Writer) error { return dataset.WriteEdgeList(w, d.Graph) }
	if dataset.GraphFormatFor(out) == dataset.MatrixMarket {
		write = func(w io.Writer) error { return dataset.WriteMatrixMarket(w, d.Graph) }
	}
	if err := m.writeReported(ctx, out, report, write); err != nil {
		return err
	}
	lp := generatedLabelsPath(out, labelsPath)
	if lp == "" {
		if report {
			fmt.Fprintln(m.Stderr, labelsDroppedNote(cmd, outFlag, labelsFlag, out))
		}
		return nil
	}
	return m.writeReported(ctx, lp, report, func(w io.Writer) error { return dataset.WriteLabels(w, d.Truth) })
}

// labelsDroppedNote is the note of writeGenerated when a graph's labels
// have no file (generatedLabelsPath gives ""): out, of flag outFlag of
// command cmd, is standard output, or a device, FIFO or other file that
// is not a regular one, beside which no FILE.labels is made. labelsFlag
// names the flag that gives the labels a file ("" when cmd has none).
func labelsDroppedNote(cmd, outFlag, labelsFlag, out string) string {
	where := outFlag + " " + out + " is not a regular file"
	if out == "" || isStdout(out) {
		where = "the graph went to standard output"
	}
	fix := "give " + outFlag + " a regular file: they go beside it, with extension .labels"
	if labelsFlag != "" {
		fix = "give " + labelsFlag + " FILE, or " + outFlag + " a regular file: they go beside it, with extension .labels"
	}
	return fmt.Sprintf("tether %s: note: the labels of the generated graph were not written: %s (%s)", cmd, where, fix)
}

// generatedLabelsPath is the file of writeGenerated's labels of a graph:
// labelsPath, else out with extension .labels when out is a regular file
// or a new one, else "" (none written: out is standard output, or a
// device such as /dev/null, a FIFO … beside which tether makes no file).
func generatedLabelsPath(out, labelsPath string) string {
	if labelsPath == "" && out != "" && !isStdout(out) && !isSpecialFile(out) {
		return strings.TrimSuffix(out, filepath.Ext(out)) + ".labels"
	}
	return labelsPath
}

// isSpecialFile reports whether path exists and is neither a regular
// file nor a directory (after symbolic links): a device such as
// /dev/null, a FIFO, a socket. Writing to one writes to it directly
// (atomicfile.Stage), and no file goes beside it. Cost: one stat.
func isSpecialFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// generatedOutputs lists the files writeGenerated writes for generator g
// (checkOutputs): out, named by outFlag ("" is standard output), and for a
// graph its labels, labelsPath of flag labelsFlag or by default the file
// beside out.
func generatedOutputs(g synth.Generator, outFlag, out, labelsFlag, labelsPath string) []pathFlag {
	outs := []pathFlag{{outFlag, out}}
	if out == "" {
		outs[0].path = "-"
	}
	if g.Graph {
		flag := labelsFlag
		if labelsPath == "" {
			flag = "the labels of " + outFlag
			if labelsFlag != "" {
				flag = labelsFlag
			}
			flag += " (by default " + outFlag + " with extension .labels)"
		}
		outs = append(outs, pathFlag{flag, generatedLabelsPath(out, labelsPath)})
	}
	return outs
}

// genKNote returns the note of cluster -gen when -k (k > 0) differs from
// the number of classes generator g made with parameters p, whose
// reference labels the summary's ARI compares with: moons always makes
// 2, whatever -k says; a -gen-k of fs sets the others' (input.GenKNote,
// the job runner's note). "" otherwise. Cost O(1).
func genKNote(k int, g synth.Generator, p synth.Params, fs *flag.FlagSet) string {
	set := ""
	if isSet(fs, "gen-k") {
		set = "-gen-k"
	}
	return input.GenKNote(k, g, p, set, "")
}

// genFlagError turns generator parameter errors into usage errors.
func genFlagError(err error) error {
	if errors.Is(err, synth.ErrInvalid) {
		return usagef("gen", "%v", err)
	}
	return err
}

func genDetectability(k int, cin, cout float64) string {
	if synth.Detectable(k, cin, cout) {
		return "detectable"
	}
	return "below the detectability threshold"
}
