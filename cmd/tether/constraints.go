package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/experiment"
	"github.com/tether-sc/tether/internal/fieldsplit"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/labelheader"
	"github.com/tether-sc/tether/internal/memlimit"
	"github.com/tether-sc/tether/internal/suggest"
	"github.com/tether-sc/tether/internal/wording"
)

const constraintsUsage = `constraints gen|check|closure [flags]

  gen      draw constraints or partial labels from reference labels with a
           protocol of the sources
  check    read a constraint file, print counts, must-link closure and
           conflicts; exit status 1 on conflicts under -conflicts reject
           (a pair repeated with the same kind and weight is listed and
           kept once, not refused)
  closure  reproduce thesis Fig. 4.3 and 4.4: ARI and NMI of the transitive
           closure of must-links against their number and their uniformity

Run "tether constraints <command> -h" for the flags of each.`

// runConstraints implements "tether constraints".
func runConstraints(ctx context.Context, m *Main, args []string) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		if len(args) == 0 {
			fmt.Fprint(m.Stderr, citeSources("Usage: tether "+constraintsUsage+"\n"))
			return usagef("constraints", "no command (gen, check or closure)")
		}
		// Help asked for: standard output, as -h prints it.
		fmt.Fprint(m.Stdout, citeSources("Usage: tether "+constraintsUsage+"\n"))
		return nil
	}
	switch args[0] {
	case "gen":
		return runConstraintsGen(ctx, m, args[1:])
	case "check":
		return runConstraintsCheck(ctx, m, args[1:])
	case "closure":
		return runConstraintsClosure(ctx, m, args[1:])
	}
	// A mistyped command gets the error alone, which lists the
	// commands, as tether's own do (Main.Run).
	return usagef("constraints", "unknown command %q%s (want gen, check or closure)", args[0], suggest.Hint(args[0], []string{"gen", "check", "closure"}))
}

const consGenUsage = `constraints gen -truth FILE -protocol P [flags] [-o out.csv]

Protocols, with the sources that use them:
  pairs-1/n      each pair with probability 1/n, ML if same class else CL
                 (FGPWC, seed 003 §5.1; thesis §4.5.1)
  pairs-frac     round(rate·n(n−1)/2) distinct pairs, uniformly (thesis
                 Table 4.2: 1%; seed 002: 0–20%)
  labels-frac    labels of round(rate·n) nodes (thesis §3.4: 10%;
                 seed 001: 20–80%)
  label-sets     sets V_1…V_k: round(rate·n_c) nodes of each class c, at
                 least one (seed 004: 25/50/75%)
  ml-uniformity  -count must-links with uniformity -alpha (thesis
                 §4.1.3; -count 0: the connectivity threshold
                 Σ C(n_c,2)·ln(n_c)/n_c)

-noise flips that fraction of the pairs (kinds) or of the labels, a
flipped label drawn among the reference's other classes. Label
protocols write a node,label file (classes as integers: the reference's
own, or its class names numbered in sorted order), or all pairs among the
labelled nodes with -pairs. A flag the protocol does not read is refused:
-rate with pairs-1/n or ml-uniformity, -alpha and -count with any
protocol other than ml-uniformity, -pairs with a pair protocol (pairs-1/n,
pairs-frac, ml-uniformity). Every node of the reference must have a class.

The output keys the nodes as the reference does: by 0-based index (-base 1
writes them 1-based, after a "# base=1" line), or, when the reference
names its nodes (a "name" or "id" header, or names that are not numbers),
by those names, never by their line positions: after a header
name_i,name_j,kind, name_i,name_j,ml|cl lines (for labels, after a header
name,label, name,label lines), a name quoted as in CSV when it holds a
comma or a quote or begins with # or %. tether cluster matches the names
against the data's (-id column, graph node names); for data without names
it reads names that are integers as 0-based row numbers, which is what
pandas' index and the names tether labels writes after -missing drop are.
-base numbers indices: with a reference that names its nodes it is
refused (a usage error).

` + labelFilesHelp

// runConstraintsGen implements "tether constraints gen".
func runConstraintsGen(ctx context.Context, m *Main, args []string) (err error) {
	fs := m.newFlagSet("constraints gen", consGenUsage)
	var truthPath, protocol, out string
	var rate, alpha, noise float64
	var count, base int
	var seed uint64
	var asPairs bool
	fs.StringVar(&truthPath, "truth", "", "reference label `file` (required)")
	fs.StringVar(&protocol, "protocol", "", "pairs-1/n, pairs-frac, labels-frac, label-sets or ml-uniformity (required)")
	fs.Float64Var(&rate, "rate", 0.1, "fraction of pairs (pairs-frac) or of nodes (labels-frac, label-sets)")
	fs.Float64Var(&alpha, "alpha", 1, "uniformity α of ml-uniformity, in [0, 1]")
	fs.IntVar(&count, "count", 0, "number of must-links for ml-uniformity; 0 means the connectivity threshold")
	fs.Float64Var(&noise, "noise", 0, "fraction of constraints (or labels) to flip")
	fs.Uint64Var(&seed, "seed", 1, "random seed")
	fs.IntVar(&base, "base", 0, "index base of the output, 0 or 1")
	fs.BoolVar(&asPairs, "pairs", false, "label protocols: write all pairs among the labelled nodes instead of labels")
	fs.StringVar(&out, "o", "-", "output `file`; - for standard output")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("constraints gen", "unexpected argument %q", pos[0])
	}
	if truthPath == "" || protocol == "" {
		return usagef("constraints gen", "-truth and -protocol are required (%s)", usageHint(fs))
	}
	if base != 0 && base != 1 {
		return usagef("constraints gen", "-base %d, want 0 or 1", base)
	}
	if err := consUnusedFlag(fs, protocol); err != nil {
		return err
	}
	ins := []pathFlag{{"-truth", truthPath}}
	defer func() { err = nameFileFlag(err, ins) }()
	if err := checkOutputs("constraints gen", ins, []pathFlag{{"-o", out}}); err != nil {
		return err
	}
	td, err := readNodeLabels(ctx, truthPath, 0, nil)
	if err != nil {
		return fmt.Errorf("constraints gen: %w", err)
	}
	for _, w := range td.Warnings {
		fmt.Fprintln(m.Stderr, "tether constraints gen: warning:", w)
	}
	if td.Note != "" {
		// Integer labels too large to number the classes (community
		// IDs), read as class names.
		fmt.Fprintln(m.Stderr, "tether constraints gen: note:", td.Note)
	}
	truth := td.Labels
	if len(truth) == 0 {
		return fmt.Errorf("constraints gen: %s: no labels", truthPath)
	}
	// A reference that names its nodes keys the output by those names
	// (constraint.WriteNamed): its line order is no numbering of the
	// data's nodes.
	names := td.Names
	if names != nil && isSet(fs, "base") {
		return usagef("constraints gen", "-base %d: %s names its nodes, and the output names them too (name_i,name_j,kind or name,label lines), without indices to number from 0 or 1; leave -base out", base, truthPath)
	}
	for i, c := range truth {
		if c < 0 {
			node := fmt.Sprintf("node %d", i)
			if names != nil {
				node = fmt.Sprintf("node %q", names[i])
			}
			return fmt.Errorf("constraints gen: %s: %s has no class; the reference must label every node", truthPath, node)
		}
	}
	// The flag values the generators would refuse are usage errors
	// (exit status 2), checked before drawing: a fraction outside [0, 1],
	// and more must-links than the classes of the reference hold.
	if !(noise >= 0 && noise <= 1) {
		return usagef("constraints gen", "-noise %v outside [0, 1] (the fraction of constraints or labels flipped)", noise)
	}
	switch protocol {
	case "pairs-1/n":
	case "pairs-frac", "labels-frac", "label-sets":
		if !(rate >= 0 && rate <= 1) {
			of := "nodes"
			if protocol == "pairs-frac" {
				of = "pairs"
			}
			return usagef("constraints gen", "-rate %v outside [0, 1] (the fraction of %s)", rate, of)
		}
		if protocol == "pairs-frac" {
			if err := consCheckPairs(int64(math.Round(rate * float64(constraint.NumPairs(len(truth)))))); err != nil {
				return err
			}
		}
	case "ml-uniformity":
		if !(alpha >= 0 && alpha <= 1) {
			return usagef("constraints gen", "-alpha %v outside [0, 1] (the uniformity α)", alpha)
		}
		sizes := consClassSizes(truth)
		if count < 0 {
			return usagef("constraints gen", "-count %d is negative", count)
		}
		if total := consMustLinkPairs(sizes); int64(count) > total {
			return usagef("constraints gen", "-count %d: the classes of %s hold %d must-link pairs (Σ n_c(n_c−1)/2), want at most that", count, truthPath, total)
		}
		if count == 0 {
			count = constraint.ConnectivityThreshold(sizes)
		}
		if err := consCheckPairs(int64(count)); err != nil {
			return err
		}
	default:
		return usagef("constraints gen", "unknown protocol %q%s (want pairs-1/n, pairs-frac, labels-frac, label-sets or ml-uniformity)", protocol,
			suggest.Hint(protocol, []string{"pairs-1/n", "pairs-frac", "labels-frac", "label-sets", "ml-uniformity"}))
	}
	src := rand.NewPCG(seed, 0x7e7e)
	var set *constraint.Set
	var labels constraint.Labels
	// The generators check ctx every few thousand draws and stop with its
	// error (wrapped) once it is cancelled.
	switch protocol {
	case "pairs-1/n":
		set, err = constraint.BernoulliPairsContext(ctx, truth, 1/float64(len(truth)), src)
	case "pairs-frac":
		set, err = constraint.FractionPairsContext(ctx, truth, rate, src)
	case "labels-frac":
		labels, err = constraint.FractionLabelsContext(ctx, truth, rate, src)
	case "label-sets":
		labels, err = constraint.StratifiedLabels(ctx, truth, rate, src)
	case "ml-uniformity":
		set, err = constraint.MustLinksUniformityContext(ctx, truth, count, alpha, src)
	}
	if err != nil {
		return fmt.Errorf("constraints gen: %w", err)
	}
	if noise != 0 {
		if set != nil {
			set, _, err = constraint.FlipPairsContext(ctx, set, noise, src)
		} else {
			labels, err = consFlipLabels(ctx, labels, truth, truthPath, noise, src)
		}
		if err != nil {
			return fmt.Errorf("constraints gen: -noise: %w", err)
		}
	}
	if set == nil && asPairs {
		if err := consCheckPairs(constraint.NumPairs(len(labels.Labeled()))); err != nil {
			return err
		}
		if set, err = constraint.FromLabelsContext(ctx, labels); err != nil {
			return fmt.Errorf("constraints gen: %w", err)
		}
	}
	var what string
	if set != nil {
		ml, cl := set.Count()
		what = fmt.Sprintf("%s (%s, %s) on %d nodes", wording.Count(ml+cl, "pair", "pairs"), wording.Count(ml, "must-link", "must-links"), wording.Count(cl, "cannot-link", "cannot-links"), set.N)
	} else {
		what = fmt.Sprintf("labels of %d of %d nodes", len(labels.Labeled()), len(labels))
	}
	// One line says what was drawn and, as for every file a command
	// writes, where it went (writeReported).
	if out == "" || isStdout(out) {
		fmt.Fprintf(m.Stderr, "constraints gen: %s\n", what)
	}
	return m.stageOutput(ctx, out, m.Stderr, fmt.Sprintf("wrote %s to %s", what, out), func(w io.Writer) error {
		switch {
		case set != nil && names != nil:
			return constraint.WriteNamed(w, set, names)
		case set != nil:
			return constraint.Write(w, set, base)
		case names != nil:
			return constraint.WriteLabelsNamed(w, labels, names)
		}
		return constraint.WriteLabels(w, labels, base)
	})
}

// consProtocolFlags lists the protocols that read each flag of
// constraints gen that not every protocol reads (-noise, -seed, -base and
// -o apply to all).
var consProtocolFlags = map[string][]string{
	"rate":  {"pairs-frac", "labels-frac", "label-sets"},
	"alpha": {"ml-uniformity"},
	"count": {"ml-uniformity"},
	"pairs": {"labels-frac", "label-sets"},
}

// consUnusedFlag returns a usage error naming the first flag of fs the
// user set that protocol does not read (a flag given with no effect, as
// gen and cluster refuse them), nil if there is none or the protocol is
// unknown (refused later, with the list of protocols). -pairs=false asks
// for nothing and is accepted.
func consUnusedFlag(fs *flag.FlagSet, protocol string) error {
	known := false
	for _, ps := range consProtocolFlags {
		known = known || slices.Contains(ps, protocol)
	}
	if !known && protocol != "pairs-1/n" {
		return nil
	}
	for _, name := range []string{"rate", "alpha", "count", "pairs"} {
		f := fs.Lookup(name)
		if !isSet(fs, name) || slices.Contains(consProtocolFlags[name], protocol) || name == "pairs" && f.Value.String() == "false" {
			continue
		}
		ps := consProtocolFlags[name]
		verb := "reads"
		if len(ps) > 1 {
			verb = "read"
		}
		return usagef("constraints gen", "-%s does not apply to -protocol %s: only %s %s it", name, protocol, strings.Join(ps, ", "), verb)
	}
	return nil
}

// consMaxPairs bounds the pairs constraints gen draws: they are held in
// memory (32 bytes each) before the file is written, so 2²⁶ pairs take 2
// GiB, and a rate meant for hundreds of nodes asked of millions (pairs-frac
// -rate 0.001 on 2·10⁶ nodes: 2·10⁹ pairs) ran out of memory.
const consMaxPairs = 1 << 26

// consCheckPairs refuses to draw more than consMaxPairs pairs.
func consCheckPairs(n int64) error {
	if n > consMaxPairs {
		return fmt.Errorf("constraints gen: %d pairs requested, at most %d are drawn (lower -rate or -count)", n, consMaxPairs)
	}
	return nil
}

// consMustLinkPairs returns Σ_c C(n_c, 2), the number of pairs of nodes in
// the same class for the class sizes: the most must-links a partition with
// these sizes allows.
func consMustLinkPairs(sizes []int) int64 {
	var total int64
	for _, s := range sizes {
		total += int64(s) * int64(s-1) / 2
	}
	return total
}

// consClassSizes returns the size of each class of truth (labels ≥ 0), in
// increasing order of the label, classes without nodes left out: O(n + k log k)
// for k classes, whatever the label values (labels 0 and 5·10⁶ are two
// classes, not 5·10⁶ + 1 slots).
func consClassSizes(truth []int) []int {
	count := map[int]int{}
	for _, c := range truth {
		count[c]++
	}
	classes := slices.Sorted(maps.Keys(count))
	sizes := make([]int, len(classes))
	for r, c := range classes {
		sizes[r] = count[c]
	}
	return sizes
}

// consFlipLabels flips round(noise·L) of the L labelled nodes of labels to
// a wrong class drawn uniformly among the other classes of truth (the
// labels some node has), with constraint.FlipLabelsContext on the classes
// numbered 0…k−1 in label order: a label no node has would be a class of
// no one, not noise (labels 0, 5, 9 flip among 0, 5, 9, not 0…9). For
// classes 0…k−1 all present it draws what FlipLabels(labels, noise, k)
// draws. The error says so when truth has a single class (no wrong label
// to draw), and wraps ctx's error once ctx is cancelled.
func consFlipLabels(ctx context.Context, labels constraint.Labels, truth []int, truthPath string, noise float64, src rand.Source) (constraint.Labels, error) {
	num := map[int]int{}
	for _, c := range truth {
		num[c] = 0
	}
	classes := slices.Sorted(maps.Keys(num))
	if len(classes) < 2 {
		return nil, fmt.Errorf("%s has %s, so no label can be flipped to a wrong one", truthPath, wording.Count(len(classes), "class", "classes"))
	}
	for r, c := range classes {
		num[c] = r
	}
	in := make(constraint.Labels, len(labels))
	for i, c := range labels {
		in[i] = constraint.Unlabeled
		if c >= 0 {
			in[i] = num[c]
		}
	}
	out, _, err := constraint.FlipLabelsContext(ctx, in, noise, len(classes), src)
	if err != nil {
		return nil, err
	}
	for i, c := range out {
		if c >= 0 {
			out[i] = classes[c]
		}
	}
	return out, nil
}

const consCheckUsage = `constraints check [-n N] [-base auto|0|1] [-names FILE] [-conflicts P] [-o out.csv] [-json] file.csv

Reads a constraint file (lines i,j,ml|cl[,weight]; see package constraint)
and prints the counts, the components of the must-link closure and every
conflict found (duplicates, a pair both ML and CL, a cannot-link inside a
must-link component with the chain of must-links that forces it), each
named by file:line. Only these cheap contradictions are detected: whether
all cannot-links can hold with k ≥ 3 clusters is NP-complete (colouring).
Malformed lines (bad kind or index, self pair, bad weight) are errors.
A file without constraints is valid but draws a warning on standard error.
A file keyed by name (the header name_i,name_j,kind that constraints gen
writes for a reference that names its nodes) is matched against -names;
without -names, names that are integers are read as 0-based indices, with
a warning, and other names are an error.

-names lists the data's node names, node i named by the (i+1)-th: one
name per line, or a labels file as tether writes it for data that names
its nodes (name,label from tether labels, name,cluster from cluster -o,
the reference given to constraints gen), told by its header (two columns,
the first named name, id, node, node_name, node_id, vertex, index or
item), whose first column holds the names in line order. In a file of
one name per line, a first line that is one of those words alone is a
header, not a node. The report then says the nodes are keyed by name
("by_name" in -json, whose "base" then means nothing).

-conflicts, as in tether cluster: reject (exit status 1 when there is any
conflict but a pair repeated with the same kind and weight, which is kept
once), drop-cl (drop the cannot-links that contradict must-links, and
repeats), soft (keep all). -o writes the set kept (keyed by name when the
file is, else by index in its base), to a file other than the one checked
and -names; -o - writes it to standard output and the
report to standard error (not with -json, whose report is standard
output's one document). (-policy is the old
name of -conflicts.) -json prints the report as one JSON
document; the pairs of its conflicts are {"i", "j", "kind", "weight"} with
0-based nodes and the effective weight (1 for a hard constraint), the
fields of tether serve's API (which leaves a hard constraint's weight
out), and each conflict's "text" names them as the file does.
Without -n or -names, the number of nodes is 1 + the largest index in the
file, which the report says ("inferred"; "n_inferred" in -json): the
closure's singletons are counted up to it.`

// consMaxListed bounds the conflicts printed by check in text mode.
const consMaxListed = 50

// runConstraintsCheck implements "tether constraints check".
func runConstraintsCheck(ctx context.Context, m *Main, args []string) (err error) {
	fs := m.newFlagSet("constraints check", consCheckUsage)
	var n int
	var baseFlag, namesPath, policyName, oldPolicy, out string
	var asJSON bool
	fs.IntVar(&n, "n", 0, "number of nodes; 0 infers it from the largest index")
	fs.StringVar(&baseFlag, "base", "auto", "index base: auto (the file's \"# base=\" directive, else 0), 0 or 1")
	fs.StringVar(&namesPath, "names", "", "`file` of node names: one per line (a first line name, id or node alone is a header), or a labels file with a header, such as the name,label or name,cluster lines tether labels and cluster -o write (the names are its first column); the file checked then names nodes instead of numbering them")
	fs.StringVar(&policyName, "conflicts", "reject", "contradictory constraints: reject, drop-cl or soft, as tether cluster -conflicts")
	fs.StringVar(&oldPolicy, "policy", "", "deprecated: the old name of -conflicts")
	fs.StringVar(&out, "o", "", "write the constraints kept under -conflicts to this `file` (- for standard output, the report then going to standard error; not with -json)")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("constraints check", "want one constraint file, got %d arguments (%s)", len(pos), usageHint(fs))
	}
	if err := consCheckNodes(n); err != nil {
		return err
	}
	var base constraint.IndexBase
	if err := base.UnmarshalText([]byte(baseFlag)); err != nil {
		return usagef("constraints check", "-base: %v", err)
	}
	policyFlag := "-conflicts"
	if isSet(fs, "policy") {
		if isSet(fs, "conflicts") && oldPolicy != policyName {
			return usagef("constraints check", "-policy %s and -conflicts %s disagree: give -conflicts only (-policy is its old name)", oldPolicy, policyName)
		}
		policyName, policyFlag = oldPolicy, "-policy"
	}
	var policy constraint.Policy
	if err := policy.UnmarshalText([]byte(policyName)); err != nil {
		return usagef("constraints check", "%s: %v", policyFlag, err)
	}
	// -o may not replace the file checked or the names (the comments,
	// repeats and dropped pairs of the input would be lost), nor share
	// standard output with the JSON report; the text report moves to
	// standard error when the constraints go to standard output, as
	// cluster's summary does for its labels.
	outs := []pathFlag{{"-o", out}}
	if asJSON {
		outs = append([]pathFlag{{"-json", "-"}}, outs...)
	}
	// The file checked, an argument, is named by the errors as it is.
	ins := []pathFlag{{"the constraints checked", pos[0]}, {"-names", namesPath}}
	defer func() { err = nameFileFlag(err, ins) }()
	if err := checkOutputs("constraints check", ins, outs); err != nil {
		return err
	}
	report := m.Stdout
	if isStdout(out) {
		report = m.Stderr
	}
	// The reader checks the pairs once and applies its policy: soft and
	// drop-cl as asked; reject as drop-cl, which reports every conflict
	// where reject stops at the first, keeps the first of each identical
	// repeat as reject does, and whose set is then reject's unless a
	// conflict that reject refuses was found (below). The pairs were
	// checked twice: read with soft, then constraint.ResolveContext.
	readPolicy := policy
	if policy == constraint.Reject {
		readPolicy = constraint.DropConflictingCannotLinks
	}
	opt := &constraint.ReadOptions{N: n, Base: base, File: pos[0], Policy: readPolicy}
	if namesPath != "" {
		if opt.Names, err = consReadNames(ctx, namesPath); err != nil {
			return err
		}
	}
	f, err := inputfile.Open(ctx, pos[0])
	if err != nil {
		return err
	}
	defer f.Close()
	// Read, check and apply the policy, checking the context as it goes
	// (seconds at 10⁶ pairs); every conflict is listed whatever the
	// policy.
	file, err := constraint.ReadContext(ctx, f, opt)
	if err != nil {
		// A cancellation names the file and the line or the step
		// ("stopped while checking the pairs", the policy's drops
		// included).
		return err
	}
	rep := file.Report
	kept := file.Set
	refused := 0 // conflicts reject refuses: all but identical repeats
	for _, c := range rep.Conflicts {
		if !c.IdenticalRepeat() {
			refused++
		}
	}
	if policy == constraint.Reject && refused > 0 {
		kept = nil
	}
	// Without -n or -names, n is 1 + the largest index: the report says
	// so (review 95: "nodes 999" read as a fact about the data), and the
	// closure's singletons count on it.
	inferred := n == 0 && opt.Names == nil
	// An empty set is valid, but a file meant to hold constraints that
	// holds none is more likely a mistake: say so, without failing.
	var warnings []string
	if rep.MustLinks+rep.CannotLinks == 0 {
		warnings = append(warnings, fmt.Sprintf("%s: no constraints (the file has no constraint line)", pos[0]))
	}
	if file.NamesAsIndices > 0 {
		// Integer names read as indices: the right nodes only if they
		// are row numbers (review 118: the header was not mentioned).
		warnings = append(warnings, fmt.Sprintf("%s:%d keys its nodes by name, and no -names was given: its names, integers, were read as 0-based node indices; to match them by name, give -names with the data's labels file (name,label lines) or node list", pos[0], file.NamesAsIndices))
	}
	for _, w := range warnings {
		fmt.Fprintln(m.Stderr, "tether constraints check: warning:", w)
	}
	if asJSON {
		// Pairs with the fields of tether serve's API: 0-based nodes,
		// the kind by name, and the effective weight (1 for a hard
		// constraint, which the API leaves out).
		type pairJSON struct {
			I      int     `json:"i"`
			J      int     `json:"j"`
			Kind   string  `json:"kind"`
			Weight float64 `json:"weight"`
		}
		type conflictJSON struct {
			Kind  string     `json:"kind"`
			Pairs []pairJSON `json:"pairs"`
			Lines []int      `json:"lines"`
			Text  string     `json:"text"`
		}
		type reportJSON struct {
			File        string         `json:"file"`
			N           int            `json:"n"`
			NInferred   bool           `json:"n_inferred"`
			Base        int            `json:"base"`
			ByName      bool           `json:"by_name"`
			MustLinks   int            `json:"must_links"`
			CannotLinks int            `json:"cannot_links"`
			Components  int            `json:"components"`
			Supervised  int            `json:"supervised_nodes"`
			Largest     int            `json:"largest_component"`
			Policy      string         `json:"policy"`
			Kept        int            `json:"kept"`
			Conflicts   []conflictJSON `json:"conflicts"`
			Warnings    []string       `json:"warnings,omitempty"`
		}
		r := reportJSON{File: pos[0], N: rep.N, NInferred: inferred, Base: file.Base, ByName: file.ByName(), MustLinks: rep.MustLinks, CannotLinks: rep.CannotLinks,
			Components: rep.Components, Supervised: rep.Supervised, Largest: rep.Largest, Policy: policy.String(),
			Conflicts: []conflictJSON{}, Warnings: warnings}
		if kept != nil {
			r.Kept = len(kept.Pairs)
		}
		for _, c := range rep.Conflicts {
			ps := make([]pairJSON, len(c.Pairs))
			for a, p := range c.Pairs {
				ps[a] = pairJSON{I: p.I, J: p.J, Kind: p.Kind.String(), Weight: p.W()}
			}
			r.Conflicts = append(r.Conflicts, conflictJSON{Kind: c.Kind.String(), Pairs: ps, Lines: c.Lines, Text: c.DescribeNodes(pos[0], file.Node)})
		}
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(report, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "file\t%s\n", pos[0])
		if inferred {
			fmt.Fprintf(tw, "nodes\t%d (inferred from the largest index in the file; -n gives the number)\n", rep.N)
		} else {
			fmt.Fprintf(tw, "nodes\t%d\n", rep.N)
		}
		if file.ByName() {
			// No base: names have none (it said "index base 0").
			fmt.Fprintf(tw, "nodes keyed by\tname (-names %s)\n", namesPath)
		} else {
			fmt.Fprintf(tw, "index base\t%d\n", file.Base)
		}
		fmt.Fprintf(tw, "must-links\t%d\n", rep.MustLinks)
		fmt.Fprintf(tw, "cannot-links\t%d\n", rep.CannotLinks)
		fmt.Fprintf(tw, "closure components\t%d (singletons included)\n", rep.Components)
		fmt.Fprintf(tw, "nodes in must-link components\t%d\n", rep.Supervised)
		fmt.Fprintf(tw, "largest component\t%d\n", rep.Largest)
		for _, k := range []constraint.ConflictKind{constraint.Duplicate, constraint.Contradiction, constraint.CannotLinkInComponent} {
			fmt.Fprintf(tw, "%s\t%d\n", k, rep.Count(k))
		}
		if kept != nil {
			// The policy by its flag, and whether it is the default
			// (a bare "kept under reject" read as a verdict).
			how := fmt.Sprintf("%s %s", policyFlag, policy)
			if !isSet(fs, "conflicts") && !isSet(fs, "policy") {
				how += ", the default"
			}
			fmt.Fprintf(tw, "kept (%s)\t%d\n", how, len(kept.Pairs))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for a, c := range rep.Conflicts {
			if a == consMaxListed {
				fmt.Fprintf(report, "... and %d more conflicts (-json lists all)\n", len(rep.Conflicts)-a)
				break
			}
			fmt.Fprintln(report, c.DescribeNodes(pos[0], file.Node))
		}
	}
	if kept == nil {
		// Identical repeats are kept once, not refused.
		return fmt.Errorf("constraints check: %s: %s under the reject policy", pos[0], wording.Count(refused, "conflict", "conflicts"))
	}
	if out != "" {
		return m.writeReported(ctx, out, true, func(w io.Writer) error {
			if file.ByName() {
				// Keyed by name as read (it wrote indices, dropping
				// the names the file was written with).
				return constraint.WriteNamed(w, kept, opt.Names)
			}
			return constraint.Write(w, kept, file.Base)
		})
	}
	return nil
}

// consReadNames reads the node names of constraints check -names, in
// one of two layouts chosen by the first line:
//
//   - a labels file as tether writes it for data that names its nodes
//     (tether labels, cluster -o, constraints gen: name,label;
//     name,cluster), told by its header: two fields, a node word (name,
//     id, node, …; labelheader.IsNode) and a label word (label, cluster,
//     class, …; labelheader.IsLabel) (namesLabelsHeader). It is read by
//     dataset.ReadNodeLabels, and the names are its
//     first column in line order; a file that numbers its nodes (node,label
//     over indices) names none and is an error saying to give -n.
//   - one name per line, ignoring the blank lines at the end, as the other
//     readers do (a second one was "empty name"). A first line that is
//     name, node, id, node_name or node_id alone is a header, not
//     a node (namesListHeader), as a
//     label word heads a one-column labels file: a header kept as a name
//     made one node too many without a word (review 118). An empty name
//     before the last line or a repeated name is an error naming the file
//     and line (node i is the (i+1)-th name, so none can be missing or
//     stand for two nodes).
//
// An empty file is an error. Cost O(file size).
func consReadNames(ctx context.Context, path string) ([]string, error) {
	names, err := dataset.ReadNamesContext(ctx, path)
	if err != nil {
		return nil, err
	}
	for len(names) > 0 && strings.TrimSpace(names[len(names)-1]) == "" {
		names = names[:len(names)-1]
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no names", path)
	}
	if h, ok := namesLabelsHeader(names[0]); ok {
		return consReadLabelNames(ctx, path, h)
	}
	first := 1 // the line of names[0]
	if namesListHeader(names[0]) {
		if len(names) == 1 {
			return nil, fmt.Errorf("%s: no names after the header %q on line 1", path, names[0])
		}
		names, first = names[1:], 2
	}
	line := make(map[string]int, len(names))
	for i, nm := range names {
		if nm == "" {
			return nil, fmt.Errorf("%s:%d: empty name", path, i+first)
		}
		if l, ok := line[nm]; ok {
			return nil, fmt.Errorf("%s:%d: name %q repeats line %d", path, i+first, nm, l)
		}
		line[nm] = i + first
	}
	return names, nil
}

// namesLabelsHeader reports whether line, the first of a -names file,
// is the header of a labels file as tether writes it: two fields, a node
// word (labelheader.IsNode) and a label word (labelheader.IsLabel:
// label, cluster, class, …), and returns the node column's word. Only
// such words: a list of names with a blank, "Item A", was taken for a
// header when the second word was anything but an integer (review 123).
func namesLabelsHeader(line string) (string, bool) {
	h, err := fieldsplit.SplitLine(line, fieldsplit.Detect([]string{line}))
	if err != nil || len(h) != 2 || !labelheader.IsNode(h[0]) || !labelheader.IsLabel(h[1]) {
		return "", false
	}
	return h[0], true
}

// namesListHeader reports whether s, the first line of a one-name-per-line
// -names file, is its header: name, node, id, node_name or node_id
// in any case. The other node words (item, index, vertex) are names a
// node may well have, and stay nodes (review 123).
func namesListHeader(s string) bool {
	t := strings.ToLower(strings.TrimSpace(s))
	return labelheader.IsName(t) || t == "node"
}

// consReadLabelNames returns the names of the labels file at path, whose
// header's node column is named word (consReadNames): its first column,
// in line order. A file that numbers its nodes instead is an error saying
// to give -n. Cost O(file size).
func consReadLabelNames(ctx context.Context, path, word string) ([]string, error) {
	nl, err := dataset.ReadNodeLabelsFileContext(ctx, path, dataset.NodeLabelOptions{Spelling: cliSpelling})
	if err != nil {
		return nil, err
	}
	if !nl.ByName {
		return nil, fmt.Errorf("%s: the header's column %q numbers the nodes (0-based indices), it does not name them: give -n with the number of nodes instead of -names, or the data's names (name,label lines, or one name per line)", path, word)
	}
	if len(nl.Names) == 0 {
		return nil, fmt.Errorf("%s: no names after the header", path)
	}
	for i, nm := range nl.Names {
		if nm == "" {
			return nil, fmt.Errorf("%s: node %d of the file (line order) has an empty name in its %q column", path, i+1, word)
		}
	}
	return nl.Names, nil
}

const consClosureUsage = `constraints closure [-partition A|B|C|D|all] [-reps R] [-seed S] [-counts LIST] [-alpha LIST] [-ml M] [-o DIR]

Reproduces thesis §4.1.3: on the partitions of Table 4.1 (500 nodes each),
draw must-links from the reference partition, take their transitive closure
(every node touched by no must-link is its own singleton cluster) and score
it against the reference with ARI and NMI.
  Fig. 4.3: -counts uniform must-links.
  Fig. 4.4: must-links with uniformity α in -alpha; their number is -ml, or
            when -ml is 0 the connectivity threshold Σ C(n_c,2)·ln(n_c)/n_c
            of the partition (1140 for A).
NMI is reported with the thesis's normalization I/H(P,P̂) (joint entropy,
eq. 2.5.10) and, in the CSV, also 2I/(H(P)+H(P̂)) (arithmetic).
Writes closure.md and closure.csv into DIR, or the Markdown to standard
output when -o is empty.`

// runConstraintsClosure implements "tether constraints closure".
func runConstraintsClosure(ctx context.Context, m *Main, args []string) error {
	fs := m.newFlagSet("constraints closure", consClosureUsage)
	var partition, countsFlag, alphaFlag, outDir string
	var reps, mlFlag int
	var seed uint64
	fs.StringVar(&partition, "partition", "all", "partition of Table 4.1: A, B, C, D or all")
	fs.IntVar(&reps, "reps", 50, "repetitions per point")
	fs.Uint64Var(&seed, "seed", 1, "random seed")
	fs.StringVar(&countsFlag, "counts", "50,100,200,300,400,500,600,700,800,900,1000,1100,1200,1300,1400,1500,1600,1800,2000,2500,3000", "comma-separated numbers of uniform must-links (Fig. 4.3)")
	fs.StringVar(&alphaFlag, "alpha", "0,0.01,0.02,0.05,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1", "comma-separated uniformities α (Fig. 4.4)")
	fs.IntVar(&mlFlag, "ml", 0, "must-links per run in Fig. 4.4; 0 means the partition's connectivity threshold")
	fs.StringVar(&outDir, "o", "", "output `directory` for closure.md and closure.csv; empty prints Markdown")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("constraints closure", "unexpected argument %q", pos[0])
	}
	if reps < 1 {
		return usagef("constraints closure", "-reps %d, want ≥ 1", reps)
	}
	if mlFlag < 0 {
		return usagef("constraints closure", "-ml %d is negative", mlFlag)
	}
	if outDir != "" {
		if err := checkOutputs("constraints closure", nil, []pathFlag{{"-o's page", filepath.Join(outDir, "closure.md")}}); err != nil {
			return err
		}
	}
	parts := []string{"A", "B", "C", "D"}
	if partition != "all" {
		if _, err := constraint.Table41(partition); err != nil {
			return usagef("constraints closure", "-partition %q, want A, B, C, D or all", partition)
		}
		parts = []string{partition}
	}
	counts, err := consParseInts(countsFlag)
	if err != nil {
		return usagef("constraints closure", "-counts: %v", err)
	}
	alphas, err := consParseFloats(alphaFlag)
	if err != nil {
		return usagef("constraints closure", "-alpha: %v", err)
	}
	for _, a := range alphas {
		if !(a >= 0 && a <= 1) {
			return usagef("constraints closure", "α = %v outside [0, 1]", a)
		}
	}
	for _, c := range counts {
		if c < 0 {
			return usagef("constraints closure", "negative must-link count %d", c)
		}
	}
	// More must-links than a partition holds is a usage error too (the
	// experiment refused it with exit status 1), named by flag and value.
	for _, p := range parts {
		sizes, err := constraint.Table41(p)
		if err != nil {
			return usagef("constraints closure", "-partition %q, want A, B, C, D or all", p)
		}
		total := consMustLinkPairs(sizes)
		for _, c := range counts {
			if int64(c) > total {
				return usagef("constraints closure", "-counts %d: partition %s holds %d must-link pairs, want 0…%d", c, p, total, total)
			}
		}
		if int64(mlFlag) > total {
			return usagef("constraints closure", "-ml %d: partition %s holds %d must-link pairs, want 0…%d", mlFlag, p, total, total)
		}
	}

	command := "tether constraints closure"
	if len(args) > 0 {
		command += " " + strings.Join(args, " ")
	}
	exp := experiment.Closure(experiment.ClosureParams{Partitions: parts, Counts: counts, Alphas: alphas, ML: mlFlag, Reps: reps, Command: command})
	env := &experiment.Env{Seed: seed, OutDir: outDir}
	out, st, err := experiment.Run(ctx, exp, env, experiment.RunOptions{})
	if err != nil {
		return err
	}
	if st.Failed > 0 {
		return fmt.Errorf("constraints closure: %s", strings.Join(st.Errors, "; "))
	}
	writeMD := func(w io.Writer) error {
		_, err := io.WriteString(w, out.Markdown)
		return err
	}
	if outDir == "" {
		return m.writeOutput(ctx, "", writeMD)
	}
	mdPath := filepath.Join(outDir, "closure.md")
	var w io.Writer
	line := closureLine(outDir, slices.Sorted(maps.Keys(out.Files)))
	if line != "" {
		w = m.Stderr
	}
	return m.stageOutputLine(ctx, mdPath, w, line, writeMD)
}

// closureLine returns the line naming what constraints closure put in
// dir: its page closure.md and files (closure.csv and the figures, already
// written), each as what it is: a regular file (or one not there yet, the
// page) "wrote", a device or FIFO "sent output to", the null device (or a
// link to it) not at all (specialLine); "" when every one went to the null
// device. All regular: "constraints closure: wrote DIR/closure.md,
// closure.csv and the figures into DIR". The combined line said "sent
// output to …/closure.md, closure.csv and the figures" for a FIFO page,
// and vanished for a page linked to /dev/null, though the other files
// were written. Cost: two stats per file.
func closureLine(dir string, files []string) string {
	var wrote, sent []string
	for _, name := range append([]string{"closure.md"}, files...) {
		p := filepath.Join(dir, name)
		switch {
		case !isSpecialFile(p):
			wrote = append(wrote, name)
		case specialLine(p, "wrote "+p) != "":
			sent = append(sent, p)
		}
	}
	if len(sent) == 0 && len(wrote) == len(files)+1 {
		return fmt.Sprintf("constraints closure: wrote %s, closure.csv and the figures into %s", filepath.Join(dir, "closure.md"), dir)
	}
	var parts []string
	if len(wrote) > 0 {
		parts = append(parts, fmt.Sprintf("wrote %s into %s", strings.Join(wrote, ", "), dir))
	}
	if len(sent) > 0 {
		parts = append(parts, "sent output to "+strings.Join(sent, ", "))
	}
	if parts == nil {
		return ""
	}
	return "constraints closure: " + strings.Join(parts, "; ")
}

// consParseInts parses a comma-separated list of integers, empty items
// skipped; a list without any is an error. Cost O(len(s)).
func consParseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", f)
		}
		out = append(out, v)
	}
	if out == nil {
		// An empty list ran the experiment on no point and printed
		// empty tables, exit status 0.
		return nil, fmt.Errorf("no value: give at least one")
	}
	return out, nil
}

// consParseFloats parses a comma-separated list of numbers, empty items
// skipped; a list without any is an error. Cost O(len(s)).
func consParseFloats(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		out = append(out, v)
	}
	if out == nil {
		return nil, fmt.Errorf("no value: give at least one")
	}
	return out, nil
}

// consCheckBytesPerNode is the memory constraints check keeps per node of
// -n (its must-link closure and the per-node state of the report),
// measured: 0.33 GB at 10⁷ nodes, 1.27 GB at 4·10⁷, 3.1 GB at 10⁸.
const consCheckBytesPerNode = 32

// consCheckNodes returns the usage error of constraints check's -n n, or
// nil: a negative number, one above the 2³¹ nodes a constraint file can
// number, or one whose per-node state (consCheckBytesPerNode) would not
// fit in the memory available (memlimit.Available): -n 2³¹ asked for
// about 69 GB, and the process died of it with a stack trace. Cost: one
// read of /proc/meminfo when n is large.
func consCheckNodes(n int) error {
	const most = min(1<<31, math.MaxInt) // every int where int has 32 bits
	switch {
	case n < 0:
		return usagef("constraints check", "-n %d is negative", n)
	case n > most:
		return usagef("constraints check", "-n %d: want at most 2³¹ = %d nodes, the most a constraint file can number", n, most)
	}
	need := int64(n) * consCheckBytesPerNode
	if need < 1<<30 {
		return nil
	}
	if avail, err := memlimit.Available(); err == nil && need > avail {
		return usagef("constraints check", "-n %d: the check keeps about %d bytes per node, %s, more than the %s of memory this machine has", n, consCheckBytesPerNode, wording.Bytes(need), wording.Bytes(avail))
	}
	return nil
}
