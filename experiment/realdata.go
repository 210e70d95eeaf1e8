package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tether-sc/tether/cluster"
	"github.com/tether-sc/tether/constraint"
	"github.com/tether-sc/tether/dataset/catalog"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/metrics"
)

// The real-data study of issue 19 (beyond the sources): tether's defaults,
// untuned, on every network and feature set in ../shared/datasets. For
// each: the unconstrained methods (NJW before and after the graph
// defaults, and the other unconstrained spectral methods), the default of
// every pairwise method with the papers' constraints (each pair with
// probability 1/n) and with 5n pairs, and -method auto, with seconds.

// realRow is one dataset: a catalogued network (its graph as given) or
// feature set (the default graph, graph.DefaultSpec, on its rows).
type realRow struct {
	name    string
	network bool
}

var realRows = []realRow{
	{"karate", true}, {"wiki", true},
	{"webkb-cornell", true}, {"webkb-texas", true}, {"webkb-washington", true}, {"webkb-wisconsin", true},
	{"iris", false}, {"wine", false}, {"glass", false}, {"ionosphere", false}, {"hepatitis", false},
	{"wdbc", false}, {"zoo", false}, {"breast-tissue", false}, {"hayes-roth", false}, {"promoters", false},
	{"spambase", false}, {"tic-tac-toe", false}, {"vehicle", false}, {"heart-statlog", false}, {"phoneme", false},
}

// realMethod is one column. Unconstrained columns run once per dataset.
type realMethod struct {
	key           string
	unconstrained bool
	features      bool // needs the feature rows (cpca, clpp): feature sets only
	maxN          int  // skipped above this many nodes (0: no limit)
	quick         bool // runs in quick mode
}

// realMethods: "njw-before" is NJW as it was before issue 19 (no
// regularization, no special handling of disconnected graphs); "njw" and
// every other column are today's defaults. cosc and l1csc are left out:
// one to seventeen seconds per run on these graphs (noisy-constraints,
// seed001-fig2-3), beyond this study's 15-minute budget.
var realMethods = []realMethod{
	{key: "njw-before", unconstrained: true, quick: true},
	{key: "njw", unconstrained: true, quick: true},
	{key: "ncut", unconstrained: true},
	{key: "usc", unconstrained: true},
	{key: "bethe", unconstrained: true},
	{key: "auto", quick: true},
	{key: "sl", quick: true},
	{key: "ml-noa-ssc"},
	{key: "mcl-noa-ssc", quick: true},
	{key: "sscka"},
	{key: "cscap", maxN: 1000},
	{key: "fgpwc", quick: true},
	{key: "fast-ge"},
	{key: "fast-ge2"},
	{key: "fast-ge2-bh"},
	{key: "csc"},
	{key: "csp"},
	{key: "ccsr"},
	{key: "opplc"},
	{key: "cpca", features: true},
	{key: "clpp", features: true},
}

// realDensities are the constraint protocols: "1/n" draws every pair with
// probability 1/n (seed 003 §5.1: about n/2 pairs), "5n" draws 5n distinct
// pairs uniformly.
var realDensities = []string{"1/n", "5n"}

// Protocol constants.
const (
	realSets      = 3    // constraint draws per dataset and density (n ≤ realBigN)
	realBigN      = 2000 // above, one draw
	realQuickSets = 1
)

// RealData is the real-data study of issue 19.
func RealData() Experiment {
	var loads memo[string, *realInstance]
	return Experiment{
		Name:     "realdata",
		Title:    realTitle("../shared/datasets"),
		TitleFor: func(env *Env) string { return realTitle(env.dataRoot()) },
		Source:   "issue 19 (beyond the sources)",
		Cells: func(env *Env) ([]Cell, error) {
			return realCells(env, &loads)
		},
		Report: realReport,
	}
}

// realTitle returns realdata's title for the data root read, as given
// (-data, relative as it was written; by default ../shared/datasets).
func realTitle(root string) string {
	return "Defaults on every network and feature set in " + root + ": unconstrained, every pairwise method (pairs 1/n and 5n) and -method auto"
}

// realInstance is a loaded dataset with its graph.
type realInstance struct {
	g     *graph.Graph
	truth []int
	k     int
	x     *cluster.Problem // Features only (nil for networks)
}

// realDefaults is the fingerprint of today's defaults carried in the key
// of every cell except njw-before: the printed zero Settings, NJW's knobs
// and the default graph. When the defaults change (issue 19's graph side:
// regularization), the keys change and those cells are recomputed on the
// next run, while the cached njw-before cells keep the reading from before.
// Settings.Spelling, which words the messages and changes no result, and
// Settings.MaxBlockBytes, whose zero value bounds nothing, are left out
// of the printed Settings, so that adding them kept the keys (and the
// fingerprint the page shows, 2e652a4e).
func realDefaults() string {
	settings := strings.Replace(fmt.Sprintf("%+v", cluster.Settings{}), " Spelling:<nil>", "", 1)
	settings = strings.Replace(settings, " MaxBlockBytes:0", "", 1)
	fp := fmt.Sprintf("%s|%+v|%s", settings, cluster.NJW{}, graph.DefaultSpec())
	return strconv.FormatUint(seedStream(fp)&0xffffffff, 16)
}

type realPlan struct {
	rows      []realRow
	methods   []realMethod
	densities []string
	missing   []string
}

func realPlanFor(env *Env) realPlan {
	p := realPlan{rows: realRows, densities: realDensities}
	if env.Quick {
		p.rows = []realRow{{"karate", true}, {"iris", false}, {"webkb-cornell", true}}
		p.densities = []string{"1/n"}
	}
	for _, m := range realMethods {
		if env.Quick && !m.quick {
			continue
		}
		if m.key != "njw-before" {
			if _, err := cluster.New(m.key); err != nil {
				p.missing = append(p.missing, m.key)
				continue
			}
		}
		p.methods = append(p.methods, m)
	}
	return p
}

// realSetsFor is the number of constraint draws of a dataset.
func realSetsFor(env *Env, n int) int {
	switch {
	case env.Quick:
		return realQuickSets
	case n > realBigN:
		return 1
	}
	return realSets
}

// realRevision names the revision of a column whose cells changed
// definition after they were first cached, so that its cells get new keys
// and are recomputed while the other columns stay cached. auto: "c2" is
// issue 19's complete candidate set (the unconstrained ncut, usc and
// bethe, and every pairwise method within its cost rule; cluster.Auto);
// "c3" adds McNemar's test of the best constrained candidate against the
// best unconstrained one (cluster.Auto.Z) with the default threshold that
// the auto-dev suite chose (cluster.AutoDefaultZ); "c4" has SSC:KA's
// default commute-time kernel among its candidates (sscka-dev), as has
// the sscka column ("commute"); "c5" validates on 5 folds rather than 3
// (cluster.AutoDefaultFolds, chosen by auto-folds-dev); "c6" has
// fast-ge2-bh's default variant both among its candidates
// (fastge2bh-dev), as has the fast-ge2-bh column ("both").
var realRevision = map[string]string{"auto": "c6", "sscka": "commute", "fast-ge2-bh": "both"}

// realKey is a cell's key. CSP's column carries its revision on the
// datasets of more than two classes (cspColumn; catalog.Entry.K, the
// classes realLoad returns).
func realKey(name, dens, method string, rep int) string {
	if method == "njw-before" {
		return fmt.Sprintf("%s/none/njw-before", name)
	}
	col := method
	if r, ok := realRevision[method]; ok {
		col += "@" + r
	} else if e, ok := catalog.Lookup(name); ok {
		col = cspColumn(method, e.K)
	}
	return fmt.Sprintf("%s/%s/%s/%d/%s", name, dens, col, rep, realDefaults())
}

// realAvailable reports whether the files of a dataset are present.
func realAvailable(name, root string) bool {
	return fgpwcAvailable(fgpwcRow{name: name}, root)
}

func realCells(env *Env, loads *memo[string, *realInstance]) ([]Cell, error) {
	plan := realPlanFor(env)
	root := env.dataRoot()
	var cells []Cell
	for _, r := range plan.rows {
		if !realAvailable(r.name, root) {
			continue
		}
		e, _ := catalog.Lookup(r.name)
		load := func(ctx context.Context) (*realInstance, error) {
			return loads.get(ctx, r.name, func(ctx context.Context) (*realInstance, error) {
				return realLoad(ctx, r, root)
			})
		}
		sets := realSetsFor(env, e.N)
		for _, m := range plan.methods {
			if (m.features && r.network) || (m.maxN > 0 && e.N > m.maxN) {
				continue
			}
			if m.unconstrained {
				m := m
				cells = append(cells, Cell{Key: realKey(r.name, "none", m.key, 0), Data: []string{r.name}, Run: func(ctx context.Context) (Values, error) {
					return realRun(ctx, load, r.name, "none", m.key, 0, env.Seed)
				}})
				continue
			}
			for _, d := range plan.densities {
				for rep := 0; rep < sets; rep++ {
					m, d, rep := m, d, rep
					cells = append(cells, Cell{Key: realKey(r.name, d, m.key, rep), Data: []string{r.name}, Run: func(ctx context.Context) (Values, error) {
						return realRun(ctx, load, r.name, d, m.key, rep, env.Seed)
					}})
				}
			}
		}
	}
	if !env.Quick && realHasAuto(plan) {
		for _, r := range plan.rows {
			e, _ := catalog.Lookup(r.name)
			if !realAvailable(r.name, root) || e.N > realBigN {
				continue
			}
			load := func(ctx context.Context) (*realInstance, error) {
				return loads.get(ctx, r.name, func(ctx context.Context) (*realInstance, error) {
					return realLoad(ctx, r, root)
				})
			}
			for rep := realSets; rep < realSets+realReplicationSets; rep++ {
				rep := rep
				cells = append(cells, Cell{Key: realKey(r.name, "1/n", "auto", rep), Data: []string{r.name}, Run: func(ctx context.Context) (Values, error) {
					return realRun(ctx, load, r.name, "1/n", "auto", rep, env.Seed)
				}})
			}
		}
	}
	return cells, nil
}

// realReplicationSets is the number of further pairs-1/n draws (draws
// realSets, …, realSets+9 of the same generator, not used by the tables)
// on which auto runs again on every dataset of at most realBigN nodes, so
// that issue 19's two targets are measured once more on draws that played
// no part in any choice. Fixed, with the rules of its claims, before its
// cells were computed: auto@c3 had failed target (a) on five datasets by
// margins that one of three draws could explain.
const realReplicationSets = 10

// realHasAuto reports whether the plan runs auto.
func realHasAuto(plan realPlan) bool {
	for _, m := range plan.methods {
		if m.key == "auto" {
			return true
		}
	}
	return false
}

// realLoad reads a dataset and builds its graph.
func realLoad(ctx context.Context, r realRow, root string) (*realInstance, error) {
	d, err := loadCatalog(ctx, r.name, root, nil)
	if err != nil {
		return nil, err
	}
	inst := &realInstance{truth: d.Labels, k: d.K()}
	if r.network {
		inst.g = d.Graph.G
		return inst, nil
	}
	if inst.g, err = graph.Build(ctx, d.Table.X, graph.DefaultSpec()); err != nil {
		return nil, err
	}
	inst.x = &cluster.Problem{Features: d.Table.X}
	return inst, nil
}

// realConstraints returns draw rep of a density's constraints; the draw
// stops with ctx's error once ctx is cancelled.
func realConstraints(ctx context.Context, truth []int, name, dens string, rep int, seed uint64) (*constraint.Set, error) {
	src := rand.NewPCG(seed, seedStream("realdata", name, dens, strconv.Itoa(rep)))
	n := len(truth)
	if dens == "5n" {
		return constraint.UniformPairsContext(ctx, truth, min(5*n, int(constraint.NumPairs(n))), src)
	}
	return constraint.BernoulliPairsContext(ctx, truth, 1/float64(n), src)
}

// realRun runs one cell.
func realRun(ctx context.Context, load func(context.Context) (*realInstance, error), name, dens, key string, rep int, seed uint64) (Values, error) {
	inst, err := load(ctx)
	if err != nil {
		return nil, err
	}
	p := &cluster.Problem{Graph: inst.g, K: inst.k}
	if inst.x != nil {
		p.Features = inst.x.Features
	}
	v := Values{}
	if dens != "none" {
		set, err := realConstraints(ctx, inst.truth, name, dens, rep, seed)
		if err != nil {
			return nil, err
		}
		p.Constraints = set
		v["constraints"] = float64(len(set.Pairs))
	}
	var m cluster.Method
	switch key {
	case "njw-before":
		// NJW before issue 19: the plain L_sym, regularization off (the
		// default became graph.RegAuto with issue 19).
		m = cluster.NJW{}
		p.Regularize = graph.Regularization{Mode: graph.RegNone}
	default:
		if m, err = cluster.New(key); err != nil {
			return nil, err
		}
	}
	s := &cluster.Settings{Seed: seed + uint64(rep)}
	t0 := time.Now()
	res, err := cluster.Run(ctx, m, p, s)
	v["seconds"] = time.Since(t0).Seconds()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		v["failed"] = noisyFailCode(err)
		return v, nil
	}
	if v["ari"], err = metrics.ARI(inst.truth, res.Labels); err != nil {
		return nil, err
	}
	sizes := make([]int, res.K)
	for _, c := range res.Labels {
		sizes[c]++
	}
	sort.Sort(sort.Reverse(sort.IntSlice(sizes)))
	v["largest"] = float64(sizes[0]) / float64(len(res.Labels))
	if rep, ok := res.Report.(*cluster.AutoReport); ok {
		v["chose:"+rep.Chosen] = 1
	}
	return v, nil
}

// realStat is a figure over the draws of a cell group.
type realStat struct {
	mean   float64
	sd     float64 // standard deviation over the draws that ran
	n      int     // draws that ran
	failed int
	secs   float64 // mean seconds over the draws that ran
}

func (s realStat) String() string {
	switch {
	case s.n == 0 && s.failed > 0:
		return "fails"
	case s.n == 0:
		return "–"
	}
	out := fmt.Sprintf("%.3f", s.mean)
	if s.failed > 0 {
		out += fmt.Sprintf(" (%d failed)", s.failed)
	}
	return out
}

// realCollect returns the mean of figure fig over the draws of a group.
func realCollect(results map[string]Values, name, dens, key string, sets int, fig string) realStat {
	return realCollectOver(results, name, dens, key, 0, sets, fig)
}

// realCollectOver is realCollect over the draws from, …, to−1.
func realCollectOver(results map[string]Values, name, dens, key string, from, to int, fig string) realStat {
	var st realStat
	var xs, ts []float64
	if key == "njw-before" || realIsUnconstrained(key) {
		dens, from, to = "none", 0, 1
	}
	for rep := from; rep < to; rep++ {
		v, ok := results[realKey(name, dens, key, rep)]
		if !ok {
			continue
		}
		if v["failed"] > 0 {
			st.failed++
			continue
		}
		xs = append(xs, v[fig])
		ts = append(ts, v["seconds"])
	}
	st.n = len(xs)
	if st.n > 0 {
		st.mean, st.sd = meanStdDev(xs)
		st.secs, _ = meanStdDev(ts)
	}
	return st
}

func realIsUnconstrained(key string) bool {
	for _, m := range realMethods {
		if m.key == key {
			return m.unconstrained
		}
	}
	return false
}

// realChoices counts auto's choices (the figures "chose:NAME") over the
// draws of a group, e.g. "sl×2, njw×1".
func realChoices(results map[string]Values, name, dens string, sets int) string {
	return realChoicesOver(results, name, dens, 0, sets)
}

// realChoicesOver is realChoices over the draws from, …, to−1.
func realChoicesOver(results map[string]Values, name, dens string, from, to int) string {
	count := map[string]int{}
	for rep := from; rep < to; rep++ {
		v, ok := results[realKey(name, dens, "auto", rep)]
		if !ok || v["failed"] > 0 {
			continue
		}
		for f := range v {
			if c, ok := strings.CutPrefix(f, "chose:"); ok {
				count[c]++
			}
		}
	}
	names := make([]string, 0, len(count))
	for n := range count {
		names = append(names, n)
	}
	sort.Slice(names, func(a, b int) bool {
		if count[names[a]] != count[names[b]] {
			return count[names[a]] > count[names[b]]
		}
		return names[a] < names[b]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s×%d", n, count[n])
	}
	return strings.Join(parts, ", ")
}

func realReport(env *Env, results map[string]Values) (*Output, error) {
	plan := realPlanFor(env)
	root := env.dataRoot()
	var rows []realRow
	var absent []string
	for _, r := range plan.rows {
		if realAvailable(r.name, root) {
			rows = append(rows, r)
		} else {
			absent = append(absent, r.name)
		}
	}
	var unc, con []realMethod
	for _, m := range plan.methods {
		if m.unconstrained {
			unc = append(unc, m)
		} else {
			con = append(con, m)
		}
	}
	sets := func(name string) int {
		e, _ := catalog.Lookup(name)
		return realSetsFor(env, e.N)
	}
	var md strings.Builder
	writePageHead(&md, env, "Real data with tether's defaults (issue 19)", "flock /work/bench.lock go run ./cmd/tether repro realdata", "karate, iris and webkb-cornell, pairs 1/n only, one draw, NJW (before and after), auto, SL, MCL-NOA-SSC and FGPWC.")
	// The data root as given (-data, relative as it was written): by
	// default ../shared/datasets, as the committed page says.
	fmt.Fprintf(&md, "Every dataset in %s with its catalogue loader (dataset/catalog), untuned: networks with their graph as given "+
		"(webkb: the .cites graph), feature sets with the default graph (%s). Every method runs with its defaults and Settings{Seed}. "+
		"ARI over all nodes against the catalogue's classes; k is the number of classes. Constraints: **1/n** draws every pair with "+
		"probability 1/n (seed 003 §5.1, about n/2 pairs), **5n** draws 5n distinct pairs uniformly; %d draws per dataset "+
		"(1 above %d nodes), the same draws for every method. \"fails\": the method returned an error on every draw "+
		"(this happened on graphs with isolated nodes until the disconnected-graph rule below). "+
		"cosc and l1csc are left out (1–17 s per run on these graphs).\n\n",
		root, graph.DefaultSpec(), realSets, realBigN)
	fmt.Fprintf(&md, "**Before and after.** \"njw-before\" is NJW as it was before issue 19 and is cached under a key without the defaults' "+
		"fingerprint; every other cell's key carries the fingerprint of today's defaults (zero Settings, NJW, graph.DefaultSpec: %s), "+
		"so when the defaults change the next run recomputes them and \"njw\" becomes the reading after.\n\n", realDefaults())
	fmt.Fprintf(&md, "**Disconnected graphs.** NJW, Ncut, cSC-AP and CCSR regularize their Laplacian on graphs with isolated nodes or "+
		"components too small to be clusters (graph.RegAuto). The methods that cannot cluster such graphs as they are "+
		"(FGPWC, SL, ML-/MCL-NOA-SSC, FAST-GE, FAST-GE-2.0, cSC, CSP; cluster.Uses.Core) cluster the core of the graph, the "+
		"components of at least n/(4k) nodes, and the other nodes are attached by their must-links, else by the weight of "+
		"their edges to placed nodes, else to the largest cluster (cluster.Problem.Disconnected, core.go; issue 19). Before "+
		"that rule these methods failed on wiki, webkb-texas, webkb-washington and webkb-wisconsin (isolated nodes). Their "+
		"cells, and auto's, were recomputed with it on those four graphs and on webkb-cornell and spambase, whose graphs "+
		"have components below n/(4k) nodes; the graphs of the other datasets have neither, so the rule changes nothing there.\n\n")
	fmt.Fprintf(&md, "**auto** (`-method auto`, cluster.Auto) chooses by %d-fold cross-validation on the constraints alone (the fraction of "+
		"held-out constraints satisfied, ties to the simpler candidate) among the unconstrained njw, ncut, usc and bethe (each computed once "+
		"and scored on every fold's held-out constraints) and every pairwise method that clusters the graph alone into the k given and fits "+
		"in about one sparse eigensolve or kernel k-means: sl, ml-noa-ssc, mcl-noa-ssc, sscka, csc, fgpwc with D − W "+
		"(m = k) and fgpwc (m = max(2k, 10)), and up to 1000 nodes (the limit this page already applies to cscap) fast-ge, fast-ge2 "+
		"(a slowly converging pencil above: about 10 s per fit at 3000 nodes), fast-ge2-bh (0.25–2 s per fit at 3000 nodes, six fits) and the dense cscap. Left out by that "+
		"cost rule: cosc, l1csc, csp and ccsr; the limit of 1000 nodes for fast-ge and fast-ge2 was set after measuring auto's budget "+
		"benchmark (BenchmarkAuto3000), before this page was rerun. So it keeps an unconstrained partition unless a constrained "+
		"candidate does strictly better. The candidate set follows that rule, stated in cluster.Auto before this page was rerun; "+
		"nothing was tuned on these results. With that set its cells carried the column key auto@c2 (before it: njw, sl, mcl-noa-ssc and the two "+
		"fgpwc only; that version's 1/n result, from the same cache as every other column here: within 0.01 of the best unconstrained "+
		"method on 17 of 21 datasets, more than 0.01 above it on 13 of 21). With the complete set (the claims above): one dataset more "+
		"above by 0.01 (webkb-washington and spambase join, hayes-roth leaves) and one fewer within 0.01 (webkb-washington and wine "+
		"are now within; karate, webkb-texas and webkb-wisconsin fall below, each by one or two draws where another candidate "+
		"satisfied a few more of the held-out pairs: karate has about 6 per fold at 1/n); auto's mean ARI over the 21 datasets "+
		"0.365 → 0.439 at 1/n and 0.698 → 0.849 at 5n. It costs more: up to 34 s per run (tic-tac-toe at 5n, where the four "+
		"costly candidates run on 958 nodes with 4790 pairs) against at most 9 s before (wiki); since CSCAP solves an n×n system instead "+
		"of its q×q Woodbury system when q is large (cluster/cscap_direct.go; this page recomputed with it: the same figures), about 10 s. "+
		"The significance rule below came after.\n\n", cluster.AutoDefaultFolds)
	fmt.Fprintf(&md, "**The NOA-SSC screen.** Issue 17's last step gave ml-noa-ssc and mcl-noa-ssc a constraint screen (knob Screen: "+
		"the constraints that the constraints near them on the graph contradict are left out, then contradictions of the closure are resolved by "+
		"minimum must-link cuts; see [noisy-constraints](../noisy-constraints/README.md)). In a first run it was their default, and on this page "+
		"it cost 0.029 ARI on average for mcl-noa-ssc and 0.061 for ml-noa-ssc at 5n pairs, up to 0.34, by leaving out correct constraints that "+
		"contradict the graph (the constraints here are drawn from the ground truth, so a screen can only cost). It is therefore not the default, "+
		"and these cells run the methods without it. Their default since then, the resolve (knob NoResolve restores the published "+
		"methods), acts only when a cannot-link falls inside a must-link component; every constraint set here is consistent, so these "+
		"cells are the published methods' (the 216 cells up to 1000 nodes were rerun with the resolve: identical).\n\n")
	if len(absent) > 0 {
		fmt.Fprintf(&md, "Not found (skipped): %s.\n\n", strings.Join(absent, ", "))
	}
	if len(plan.missing) > 0 {
		fmt.Fprintf(&md, "Methods not registered (skipped): %s.\n\n", strings.Join(plan.missing, ", "))
	}

	// Claims first.
	var cmps []realCmp
	for _, r := range rows {
		cmps = append(cmps, realCompare(results, r.name, unc, realCollect(results, r.name, "1/n", "auto", sets(r.name), "ari")))
	}
	t := realTargetsOf(cmps)
	claims := t.claims("issue 19, Done means", "over the draws")
	okN, beatN, ran, notOK := t.okN, t.beatN, t.ran, t.notOK
	for _, r := range rows {
		if r.name != "wiki" {
			continue
		}
		st := realCollect(results, "wiki", "none", "njw", 1, "largest")
		before := realCollect(results, "wiki", "none", "njw-before", 1, "largest")
		c := Claim{Source: "issue 19, Done means", Quote: "On the wiki network, the unconstrained default no longer returns one giant cluster",
			Rule: "the largest cluster of NJW (today's default) holds less than half of the 2405 nodes"}
		if st.n == 0 {
			c.Verdict, c.Reason = NotTestable, "NJW failed on wiki (isolated nodes)"
			c.Ours = "NJW refused the graph"
		} else {
			c.Verdict = NotHeld
			if st.mean < 0.5 {
				c.Verdict = Held
			}
			c.Ours = fmt.Sprintf("largest cluster %.1f%% of the nodes (before issue 19: %s)", 100*st.mean, fmtShare(before))
		}
		claims = append(claims, c)
	}

	realSignificance(&md, okN, beatN, ran, notOK, realAutoMeans(results, rows, sets))
	if !env.Quick && realHasAuto(plan) {
		claims = append(claims, realReplication(&md, results, rows, unc)...)
	}

	// Table 1: unconstrained.
	md.WriteString("## Unconstrained (mean ARI; largest cluster share of NJW)\n\n| dataset | n | k |")
	for _, m := range unc {
		fmt.Fprintf(&md, " %s |", m.key)
	}
	md.WriteString(" NJW largest cluster (before → now) |\n|---|---|---|")
	for range unc {
		md.WriteString("---|")
	}
	md.WriteString("---|\n")
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"dataset", "n", "k", "density", "method", "ari", "largest", "seconds", "draws", "failed", "auto_choices"})
	for _, r := range rows {
		e, _ := catalog.Lookup(r.name)
		fmt.Fprintf(&md, "| %s | %d | %d |", r.name, e.N, e.K)
		for _, m := range unc {
			st := realCollect(results, r.name, "none", m.key, 1, "ari")
			fmt.Fprintf(&md, " %s |", st)
			lg := realCollect(results, r.name, "none", m.key, 1, "largest")
			w.Write([]string{r.name, strconv.Itoa(e.N), strconv.Itoa(e.K), "none", m.key, realF(st), realF(lg), fmt.Sprintf("%.3f", st.secs), strconv.Itoa(st.n), strconv.Itoa(st.failed), ""})
		}
		fmt.Fprintf(&md, " %s → %s |\n", fmtShare(realCollect(results, r.name, "none", "njw-before", 1, "largest")), fmtShare(realCollect(results, r.name, "none", "njw", 1, "largest")))
	}
	md.WriteString("\n")
	// Tables 2 and 3: constrained, per density.
	for _, d := range plan.densities {
		fmt.Fprintf(&md, "## Pairs %s (mean ARI over the draws; auto's choices; auto's seconds)\n\n| dataset | best unconstrained |", d)
		for _, m := range con {
			fmt.Fprintf(&md, " %s |", m.key)
		}
		md.WriteString(" auto chose | auto s |\n|---|---|")
		for range con {
			md.WriteString("---|")
		}
		md.WriteString("---|---|\n")
		for _, r := range rows {
			e, _ := catalog.Lookup(r.name)
			best, bestName := math.Inf(-1), ""
			for _, m := range unc {
				if st := realCollect(results, r.name, "none", m.key, 1, "ari"); m.key != "njw-before" && st.n > 0 && st.mean > best {
					best, bestName = st.mean, m.key
				}
			}
			bs := "–"
			if bestName != "" {
				bs = fmt.Sprintf("%.3f (%s)", best, bestName)
			}
			fmt.Fprintf(&md, "| %s | %s |", r.name, bs)
			for _, m := range con {
				if (m.features && r.network) || (m.maxN > 0 && e.N > m.maxN) {
					md.WriteString(" skip |")
					continue
				}
				st := realCollect(results, r.name, d, m.key, sets(r.name), "ari")
				cell := st.String()
				if st.n > 0 && bestName != "" && st.mean > best+0.01 {
					cell = "**" + cell + "**"
				}
				fmt.Fprintf(&md, " %s |", cell)
				choices := ""
				if m.key == "auto" {
					choices = realChoices(results, r.name, d, sets(r.name))
				}
				w.Write([]string{r.name, strconv.Itoa(e.N), strconv.Itoa(e.K), d, m.key, realF(st), "", fmt.Sprintf("%.3f", st.secs), strconv.Itoa(st.n), strconv.Itoa(st.failed), choices})
			}
			a := realCollect(results, r.name, d, "auto", sets(r.name), "ari")
			fmt.Fprintf(&md, " %s | %.2f |\n", realChoices(results, r.name, d, sets(r.name)), a.secs)
		}
		md.WriteString("\nBold: more than 0.01 above the best unconstrained method of the row.\n\n")
	}
	// Seconds.
	md.WriteString("## Seconds (mean per run, pairs 1/n)\n\n| dataset |")
	for _, m := range plan.methods {
		fmt.Fprintf(&md, " %s |", m.key)
	}
	md.WriteString("\n|---|")
	for range plan.methods {
		md.WriteString("---|")
	}
	md.WriteString("\n")
	for _, r := range rows {
		fmt.Fprintf(&md, "| %s |", r.name)
		for _, m := range plan.methods {
			d := "1/n"
			if m.unconstrained {
				d = "none"
			}
			st := realCollect(results, r.name, d, m.key, sets(r.name), "ari")
			if st.n == 0 {
				md.WriteString(" – |")
				continue
			}
			fmt.Fprintf(&md, " %.2f |", st.secs)
		}
		md.WriteString("\n")
	}
	md.WriteString("\n")
	w.Flush()
	return &Output{Markdown: md.String(), Files: map[string][]byte{"realdata.csv": buf.Bytes()}, Claims: claims}, nil
}

// realF formats a mean for the CSV ("" when nothing ran).
func realF(s realStat) string {
	if s.n == 0 {
		return ""
	}
	return fmt.Sprintf("%.4f", s.mean)
}

// fmtShare formats a cluster share as a percentage.
func fmtShare(s realStat) string {
	if s.n == 0 {
		return s.String()
	}
	return fmt.Sprintf("%.0f%%", 100*s.mean)
}

// realAutoMeans returns auto's mean ARI over the datasets where it ran:
// at pairs 1/n and 5n over the tables' draws, and at pairs 1/n over the
// replication's (the datasets of at most realBigN nodes); NaN where none
// ran.
func realAutoMeans(results map[string]Values, rows []realRow, sets func(string) int) [3]float64 {
	var sum [3]float64
	var cnt [3]int
	for _, r := range rows {
		e, _ := catalog.Lookup(r.name)
		for i, st := range []realStat{
			realCollect(results, r.name, "1/n", "auto", sets(r.name), "ari"),
			realCollect(results, r.name, "5n", "auto", sets(r.name), "ari"),
			realCollectOver(results, r.name, "1/n", "auto", realSets, realSets+realReplicationSets, "ari"),
		} {
			if st.n == 0 || (i == 2 && e.N > realBigN) {
				continue
			}
			sum[i] += st.mean
			cnt[i]++
		}
	}
	var out [3]float64
	for i := range out {
		out[i] = math.NaN()
		if cnt[i] > 0 {
			out[i] = sum[i] / float64(cnt[i])
		}
	}
	return out
}

// realSignificance writes the paragraph on auto's significance rule
// (auto@c3) with issue 19's two targets as measured on this page.
func realSignificance(md *strings.Builder, okN, beatN, ran int, notOK []string, means [3]float64) {
	rule := "the strict rule (z = 0: any b > c, the rule before the test)"
	if z := cluster.AutoDefaultZ; z != 0 {
		rule = fmt.Sprintf("z = %g", z)
	}
	md.WriteString("## auto's significance rule (auto@c3)\n\n")
	fmt.Fprintf(md, "The failures of the run before (auto@c2: within 0.01 of the best unconstrained method on 16 of 21 datasets at pairs 1/n, "+
		"below on karate, webkb-cornell, webkb-texas, webkb-wisconsin and breast-tissue; more than 0.01 above it on 14 of 21) were "+
		"known, and listed on this page, when auto gained a significance rule: the best constrained candidate replaces the best "+
		"unconstrained one only when McNemar's paired test on the same held-out constraints is significant, b − c > z·√(b + c), "+
		"b the held-out constraints it satisfies and the unconstrained one does not, c the reverse (cluster.Auto.Z; the report "+
		"gives b, c and the statistic of every candidate). The threshold was chosen on generated data only, the "+
		"[auto-dev](../auto-dev/README.md) suite (33 SBM, DC-SBM and feature-set graphs of 30–3000 nodes, this page's pairs-1/n "+
		"protocol), by a criterion fixed before its results were seen, and nothing was tuned on this page. It chose %s", rule)
	if cluster.AutoDefaultZ == 0 {
		fmt.Fprintf(md, ": on that suite every threshold tried (1 to 2.69) did worse on both counts. A threshold only turns a draw where "+
			"the strict rule chose a constrained candidate back to the unconstrained baseline, and on most such draws of the suite the "+
			"constrained partition had the higher ARI (on generated graphs the constraints often carry what the graph does not: moons, "+
			"circles, xor). So the default is the rule before: its cells, recomputed with the new code under the key auto@c3, were "+
			"the same as auto@c2's (every figure but the seconds)")
	}
	md.WriteString(".\n\n")
	fmt.Fprintf(md, "**auto@c4.** Since [sscka-dev](../sscka-dev/README.md), SSC:KA's default kernel is the commute-time kernel "+
		"(cluster.SSCKA, chosen there on generated data by a rule fixed before its run), so the sscka column (key sscka@commute) "+
		"and auto, whose sscka candidate uses it (key auto@c4), were recomputed; the old cells stay in the cache under their keys. "+
		"With auto@c3, at pairs 1/n: within 0.01 of the best unconstrained method on 16 of 21 datasets, more than 0.01 above it on "+
		"14 of 21; on the replication's draws 16 of 18 and 13 of 18.\n\n")
	fmt.Fprintf(md, "**auto@c5.** Since [auto-folds-dev](../auto-folds-dev/README.md), auto validates on %d folds rather than 3 "+
		"(cluster.AutoDefaultFolds, chosen there on generated data by a criterion fixed before its run: of 3, 5 and 10 folds, 5 "+
		"was as often within 0.01 of the best unconstrained method as 3, 37 of 39 datasets, and more often above it, 26 against "+
		"24), so auto's cells were recomputed once under the key auto@c5 and are reported whatever they show; the old cells stay "+
		"in the cache. With auto@c4, at pairs 1/n: within 0.01 of the best unconstrained method on 16 of 21 datasets, more than "+
		"0.01 above it on 13 of 21; on the replication's draws 15 of 18 and 12 of 18. auto's mean ARI over the datasets, with "+
		"auto@c4 and with auto@c5: pairs 1/n 0.426 and 0.431, 5n 0.849 and 0.858, the replication's draws 0.403 and 0.425.\n\n",
		cluster.AutoDefaultFolds)
	fmt.Fprintf(md, "**auto@c6.** Since [fastge2bh-dev](../fastge2bh-dev/README.md), fast-ge2-bh's default variant is \"both\" "+
		"(cluster.FastGE2BH, chosen there on generated data by a rule fixed before its run; before, \"only L_N\", near chance on "+
		"dense graphs of feature points). The fast-ge2-bh column (key fast-ge2-bh@both) and auto "+
		"(key auto@%s) were recomputed once and are reported whatever they show; the old cells stay in the cache. With auto@c5, "+
		"at pairs 1/n: within 0.01 of the best unconstrained method on 17 of 21 datasets, more than 0.01 above it on 14 of 21; "+
		"on the replication's draws 14 of 18 and 10 of 18. auto's mean ARI over the datasets, with auto@c5 and with auto@%s: "+
		"pairs 1/n 0.431 and %.3f, 5n 0.858 and %.3f, the replication's draws 0.425 and %.3f.\n\n",
		realRevision["auto"], realRevision["auto"], means[0], means[1], means[2])
	fmt.Fprintf(md, "Issue 19's targets at pairs 1/n, with auto@%s: (a) never more than 0.01 below the best unconstrained method: "+
		"within on **%d of %d** datasets (auto@c2: 16 of 21)", realRevision["auto"], okN, ran)
	// The target is met or not; the ledger's verdict (the claims above)
	// grades the shortfall (quantVerdict), in the same words.
	if len(notOK) > 0 {
		fmt.Fprintf(md, ", so target (a) is not met (the claim's verdict: %v), below on %s", quantVerdict(okN, ran, ran), strings.Join(notOK, ", "))
	} else {
		md.WriteString(", so target (a) is met")
	}
	need := (2*ran + 2) / 3
	fmt.Fprintf(md, "; (b) more than 0.01 above it on at least 2/3 of the datasets: **%d of %d** (auto@c2: 14 of 21; %d needed), so target (b) ", beatN, ran, need)
	if 3*beatN >= 2*ran {
		md.WriteString("is met.\n\n")
	} else {
		fmt.Fprintf(md, "is not met (the claim's verdict: %v).\n\n", quantVerdict(beatN, ran, need))
	}
}

// realCmp compares auto's mean ARI on one dataset with the best
// unconstrained method's.
type realCmp struct {
	name           string
	auto, best     float64
	bestName       string
	ok, beats, ran bool
}

// realCompare compares auto's figure a on dataset name with the best of
// the unconstrained columns unc (njw-before left out).
func realCompare(results map[string]Values, name string, unc []realMethod, a realStat) realCmp {
	c := realCmp{name: name, best: math.Inf(-1)}
	for _, m := range unc {
		if m.key == "njw-before" {
			continue
		}
		st := realCollect(results, name, "none", m.key, 1, "ari")
		if st.n > 0 && st.mean > c.best {
			c.best, c.bestName = st.mean, m.key
		}
	}
	if a.n > 0 && !math.IsInf(c.best, -1) {
		c.ran, c.auto = true, a.mean
		c.ok = c.auto >= c.best-0.01
		c.beats = c.auto > c.best+0.01
	}
	return c
}

// realTargets counts issue 19's two pairs-1/n targets over a set of
// comparisons.
type realTargets struct {
	ran, okN, beatN, excluded int
	notOK, beats              []string
}

func realTargetsOf(cmps []realCmp) realTargets {
	var t realTargets
	for _, c := range cmps {
		if !c.ran {
			continue
		}
		t.ran++
		if c.ok {
			t.okN++
		} else {
			t.notOK = append(t.notOK, fmt.Sprintf("%s (auto %.3f, %s %.3f)", c.name, c.auto, c.bestName, c.best))
		}
		if c.beats {
			t.beatN++
			t.beats = append(t.beats, c.name)
		}
	}
	t.excluded = len(cmps) - t.ran
	return t
}

// claims returns the two targets' claims; over says which draws auto's
// mean is taken over.
func (t realTargets) claims(source, over string) []Claim {
	var claims []Claim
	overB := " " + over
	if over == "over the draws" {
		overB = "" // the main claim's rule as it was first written
	}
	{
		v := shareVerdict(t.okN, t.ran)
		reason := ""
		switch v {
		case NotTestable:
			reason = "auto or every unconstrained method failed on every dataset"
		case PartlyHeld:
			reason = fmt.Sprintf("held on %d of the %d datasets", t.okN, t.ran)
		}
		ours := fmt.Sprintf("within 0.01 on %d of %d datasets where both ran (%d excluded: a method failed)", t.okN, t.ran, t.excluded)
		if len(t.notOK) > 0 {
			ours += "; below on " + strings.Join(t.notOK, ", ")
		}
		claims = append(claims, Claim{Source: source, Quote: "auto is never more than 0.01 ARI below the best unconstrained method on the same graph (pairs-1/n)",
			Rule: "mean ARI of auto " + over + " ≥ (best mean ARI of njw, ncut, usc, bethe) − 0.01 on every dataset where both ran: " + quantBands(allOf(t.ran), t.ran, "datasets"),
			Ours: ours, Verdict: v, Reason: reason})
	}
	{
		v := quantVerdict(t.beatN, t.ran, twoThirdsOf(t.ran))
		reason := ""
		if v == NotTestable {
			reason = "auto or every unconstrained method failed on every dataset"
		}
		claims = append(claims, Claim{Source: source, Quote: "auto beats the best unconstrained method by more than 0.01 ARI on at least 2/3 of the datasets (pairs-1/n)",
			Rule: "count the datasets where auto's mean ARI" + overB + " > best unconstrained mean ARI + 0.01; held if the count ≥ 2/3 of the datasets where both ran: " + quantBands(twoThirdsOf(t.ran), t.ran, "datasets") +
				". Until the ledger's rule was made one (review of the claims ledger), a count below 2/3 was not held",
			Ours: fmt.Sprintf("%d of %d (%s)", t.beatN, t.ran, strings.Join(t.beats, ", ")), Verdict: v, Reason: reason})
	}
	return claims
}

// realReplication writes the replication of issue 19's pairs-1/n targets
// on realReplicationSets further draws (fixed, with its rules, before its
// cells were computed) and returns its claims.
func realReplication(md *strings.Builder, results map[string]Values, rows []realRow, unc []realMethod) []Claim {
	from, to := realSets, realSets+realReplicationSets
	over := fmt.Sprintf("over draws %d–%d", from, to-1)
	fmt.Fprintf(md, "## Replication of the pairs-1/n targets on %d further draws\n\n", realReplicationSets)
	fmt.Fprintf(md, "Fixed, with its rules, before its cells were computed: auto (@%s, today's default) runs again at pairs 1/n on draws %d–%d "+
		"of the same generator (the tables use draws 0–%d) on every dataset of at most %d nodes; the three larger ones (wiki, spambase, "+
		"phoneme: one draw above, 3–5 s per auto run) are left out. The unconstrained methods do not depend on the draws: they are the "+
		"runs above. Each target's rule is applied to auto's mean over the %d new draws alone; the column \"all\" pools them with the "+
		"table's. Why: auto@c3 failed target (a) on five datasets by margins that one draw of three could explain, and more draws "+
		"measure that without changing auto or tuning anything.\n\n", realRevision["auto"], from, to-1, realSets-1, realBigN, realReplicationSets)
	md.WriteString("| dataset | best unconstrained | auto, draws 0–2 | auto, new draws (mean ± sd) | auto, all | auto − best, new draws (± SE) | (a) within 0.01 | (b) above by 0.01 | auto chose (new draws) |\n|---|---|---:|---:|---:|---:|---|---|---|\n")
	var sigAbove, sigBelow []string
	var cmps []realCmp
	for _, r := range rows {
		e, _ := catalog.Lookup(r.name)
		if e.N > realBigN {
			continue
		}
		st := realCollectOver(results, r.name, "1/n", "auto", from, to, "ari")
		c := realCompare(results, r.name, unc, st)
		cmps = append(cmps, c)
		old := realCollectOver(results, r.name, "1/n", "auto", 0, realSets, "ari")
		all := realCollectOver(results, r.name, "1/n", "auto", 0, to, "ari")
		yes := func(b bool) string {
			if !c.ran {
				return "–"
			}
			if b {
				return "yes"
			}
			return "**no**"
		}
		newS, diff := "–", "–"
		if st.n > 0 {
			newS = fmt.Sprintf("%.3f ± %.3f (%d)", st.mean, st.sd, st.n)
		}
		if st.n > 1 && c.ran {
			// The unconstrained methods do not depend on the draws, so
			// the difference varies only with auto's draws.
			d, se := st.mean-c.best, st.sd/math.Sqrt(float64(st.n))
			diff = fmt.Sprintf("%+.3f ± %.3f", d, se)
			switch {
			case d > 2*se:
				sigAbove = append(sigAbove, r.name)
			case d < -2*se:
				sigBelow = append(sigBelow, r.name)
			}
		}
		fmt.Fprintf(md, "| %s | %.3f (%s) | %s | %s | %s | %s | %s | %s | %s |\n", r.name, c.best, c.bestName, old, newS, all, diff, yes(c.ok), yes(c.beats), realChoicesOver(results, r.name, "1/n", from, to))
	}
	t := realTargetsOf(cmps)
	claims := t.claims("issue 19, Done means (replication on 10 further draws)", over)
	fmt.Fprintf(md, "\nOn the new draws: (a) within 0.01 of the best unconstrained method on **%d of %d** datasets", t.okN, t.ran)
	if len(t.notOK) > 0 {
		fmt.Fprintf(md, " (below on %s)", strings.Join(t.notOK, ", "))
	}
	fmt.Fprintf(md, ", verdict %s; (b) more than 0.01 above it on **%d of %d**, verdict %s.\n\n", claims[0].Verdict, t.beatN, t.ran, claims[1].Verdict)
	none := func(xs []string) string {
		if len(xs) == 0 {
			return "none"
		}
		return strings.Join(xs, ", ")
	}
	fmt.Fprintf(md, "A reading beside the targets (not a verdict; added after the targets were set): on the new draws auto's mean "+
		"is more than two standard errors above the best unconstrained method on %d of %d datasets (%s) and more than two below "+
		"on %d (%s); on the others the draws cannot tell them apart. The best unconstrained method is picked with the ground "+
		"truth, so this favours it.\n\n", len(sigAbove), t.ran, none(sigAbove), len(sigBelow), none(sigBelow))
	if cluster.AutoDefaultScore == cluster.AutoScoreSatisfied {
		md.WriteString("After this replication auto gained a second held-out score, the ARI of the held-out pairs' 2×2 table " +
			"(Auto.Score = pair-ari), since webkb-texas (5 unequal classes) and breast-tissue (6 classes) suggested that the " +
			"fraction satisfied, dominated by cannot-links, misleads it. It was judged on generated data only, by a criterion " +
			"fixed before the run ([auto-score-dev](../auto-score-dev/README.md), with six generated datasets of unequal " +
			"classes), which kept the fraction satisfied (37 against 36 of 39 datasets within 0.01). So auto, and every " +
			"cell of this page, is unchanged, and the new score was not run on these real datasets.\n\n")
	}
	return claims
}
