package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tether-sc/tether/dataset/catalog"
	"github.com/tether-sc/tether/experiment"
	"github.com/tether-sc/tether/internal/atomicfile"
)

const reproUsage = `repro [flags] <experiment>... | all | list

Runs the reproductions of the published tables and figures ("list" names
them) and writes their pages. Most of them read public benchmark datasets
that this repository does not ship: UCI sets such as iris, wine and wdbc,
networks such as Zachary's karate club. Package dataset/catalog lists each
one with the files it reads, their layout and their source. -data names
the folder that holds them; without -data, a missing folder or dataset is
skipped and the page says so. Every run rebuilds the ledger (CLAIMS.md) of
-o; "all" writes its index (README.md), and a run by name brings an
existing index up to date from the pages. "list" and "all" stand alone;
an experiment named twice runs once. The exit status is 1 when every
cell of an experiment failed (its page is written all the same); some
failed cells (a method refusing a dataset) leave it 0.`

// quickOut is the default output directory of repro -quick.
const quickOut = "tether-repro-quick"

func runRepro(ctx context.Context, m *Main, args []string) error {
	fs := m.newFlagSet("repro", reproUsage)
	quick := fs.Bool("quick", false, "smoke-test mode: fewer repetitions, smaller problems (default -o: "+quickOut+", never docs/results)")
	out := fs.String("o", filepath.Join("docs", "results"), "output `directory`; experiment e writes into <dir>/e/")
	data := fs.String("data", catalog.DefaultRoot(), "`folder` of the benchmark datasets (see above); by default $TETHER_DATASETS when set, else the developers' layout")
	cache := fs.String("cache", ".tether-cache", "cache `directory` of finished cells (\"\" for none); a cell reading a dataset is cached with a digest of its files, so other data recomputes it")
	fresh := fs.Bool("fresh", false, "ignore the cache and recompute every cell; the cache is replaced only when all have run (Ctrl-C leaves it as it was)")
	workers := fs.Int("workers", 0, "cells run at once (0: number of CPUs)")
	seed := fs.Uint64("seed", 1, "base seed")
	quiet := fs.Bool("quiet", false, "no progress messages")
	estimate := fs.Bool("estimate", false, "run nothing: estimate a fresh run's wall time from the cells' times in the cache, with -workers workers (0: 2)")
	names, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *workers < 0 {
		return usagef("repro", "-workers %d is negative (0 runs as many cells at once as there are CPUs)", *workers)
	}
	if len(names) == 0 {
		return usagef("repro", "name an experiment, all, or list (%s)", usageHint(fs))
	}
	if names, err = reproNames(names); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *quick && !set["o"] {
		// Quick results are smoke tests: they never replace the committed
		// reproductions.
		*out = quickOut
	}
	if set["data"] {
		if st, err := os.Stat(*data); err != nil || !st.IsDir() {
			return usagef("repro", "-data %s is not a directory of datasets (without -data, absent datasets are skipped)", *data)
		}
	}
	if names[0] == "list" {
		tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "EXPERIMENT\tSOURCE\tTITLE")
		for _, e := range experiment.All() {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", e.Name, userSource(e.Source), e.TitleIn(&experiment.Env{DataRoot: *data}))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "\n%s\n", sourcesHelp)
		return nil
	}
	var exps, kept []experiment.Experiment
	if names[0] == "all" {
		exps, kept = splitLong(experiment.All(), *quick)
	} else {
		for _, n := range names {
			e, err := experiment.Lookup(n)
			if err != nil {
				return usagef("repro", "%v", err)
			}
			exps = append(exps, e)
		}
	}
	if *estimate {
		cacheDir := *cache
		if cacheDir != "" && *quick {
			cacheDir = filepath.Join(cacheDir, "quick")
		}
		return printEstimates(m, exps, *data, cacheDir, *quick, *seed, *workers)
	}
	mode := ""
	if *quick {
		mode = " -quick"
	}
	// An -o or a -cache that cannot be written is refused before the
	// experiments run, not when their pages or cells are written.
	outs := []pathFlag{{"-o's ledger", filepath.Join(*out, experiment.LedgerFile)}}
	if *cache != "" && len(exps) > 0 {
		cacheDir := *cache
		if *quick {
			cacheDir = filepath.Join(cacheDir, "quick")
		}
		outs = append(outs, pathFlag{"-cache", filepath.Join(cacheDir, exps[0].Name+".jsonl")})
	}
	if err := checkOutputs("repro", nil, outs); err != nil {
		return err
	}
	rec := m.recorder(ctx, *quiet)
	commit := revision()
	sections := map[string]string{} // by experiment name
	var total experiment.Stats
	var allFailed []string // "name: all N cells failed (first: …)", one per experiment
	t0 := time.Now()
	for _, e := range exps {
		env := &experiment.Env{DataRoot: *data, OutDir: filepath.Join(*out, e.Name), Quick: *quick, Seed: *seed}
		cacheDir := *cache
		if cacheDir != "" && *quick {
			cacheDir = filepath.Join(cacheDir, "quick")
		}
		res, st, err := experiment.Run(ctx, e, env, experiment.RunOptions{Workers: *workers, CacheDir: cacheDir, Fresh: *fresh, Recorder: rec})
		rec.flush()
		if err != nil {
			return err
		}
		fmt.Fprintf(m.Stderr, "%s: %d cells (%d cached, %d run, %d failed) in %s\n", e.Name, st.Cells, st.Cached, st.Ran, st.Failed, st.Elapsed.Round(time.Millisecond))
		total.Cells += st.Cells
		total.Cached += st.Cached
		total.Ran += st.Ran
		total.Failed += st.Failed
		for _, msg := range st.Errors {
			fmt.Fprintf(m.Stderr, "  failed: %s\n", msg)
		}
		if st.Cells > 0 && st.Failed == st.Cells {
			allFailed = append(allFailed, fmt.Sprintf("%s: all %d cells failed (first: %s)", e.Name, st.Cells, st.Errors[0]))
		}
		header := fmt.Sprintf("Generated by `tether repro%s %s` at commit %s (%s): %d cells, %d taken from the cache of earlier runs, %d computed, %d failed.\n\n",
			mode, e.Name, commit, time.Now().UTC().Format("2006-01-02"), st.Cells, st.Cached, st.Ran, st.Failed)
		md := header + experiment.WithClaims(res.Markdown, res.Claims)
		if st.Failed > 0 {
			md += fmt.Sprintf("\n%d cell(s) failed and are missing from the tables above.\n", st.Failed)
		}
		if err := os.MkdirAll(env.OutDir, 0o755); err != nil {
			return err
		}
		// Each experiment's page is put in place as soon as it is written
		// (atomicfile.Write, not the command's staged outputs), as
		// experiment.Run writes its tables: a later experiment that fails
		// or an interrupt keeps the complete pages of those before it.
		if err := atomicfile.Write(ctx, filepath.Join(env.OutDir, "README.md"), func(w io.Writer) error {
			_, err := io.WriteString(w, md)
			return err
		}); err != nil {
			return err
		}
		sections[e.Name] = indexSection(e, env, md)
		fmt.Fprintf(m.Stdout, "wrote %s\n", filepath.Join(env.OutDir, "README.md"))
	}
	// The long experiments all leaves out keep their committed pages,
	// listed in the index as they are.
	var keptNames []string
	for _, e := range kept {
		sec, err := keptSection(*out, e)
		if err != nil {
			return err
		}
		sections[e.Name] = sec
		keptNames = append(keptNames, e.Name)
		fmt.Fprintf(m.Stderr, "%s: long, left out of all (its page as it was; run it by name)\n", e.Name)
	}
	// The ledger is rebuilt from every experiment's claims file, so a run
	// of some experiments keeps the others' claims.
	// Those run now under their title for this run (realdata's names
	// -data), the others under their default title.
	titled := experiment.All()
	for i, e := range titled {
		if slices.ContainsFunc(exps, func(r experiment.Experiment) bool { return r.Name == e.Name }) {
			titled[i].Title = e.TitleIn(&experiment.Env{DataRoot: *data})
		}
	}
	ledger, err := experiment.BuildLedger(*out, titled)
	if err != nil {
		return err
	}
	ledgerPath := filepath.Join(*out, experiment.LedgerFile)
	if err := atomicfile.Write(ctx, ledgerPath, func(w io.Writer) error {
		_, err := io.WriteString(w, ledger)
		return err
	}); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "wrote %s\n", ledgerPath)
	path := filepath.Join(*out, "README.md")
	var page string
	if names[0] == "all" {
		page = indexPage(fmt.Sprintf("Generated by `tether repro%s all` at commit %s in %s: %d cells, %d taken from the cache of earlier runs (-cache, by default .tether-cache), %d computed, %d failed.",
			mode, commit, time.Since(t0).Round(time.Second), total.Cells, total.Cached, total.Ran, total.Failed),
			"`tether repro -fresh all` recomputes every cell"+longNote(keptNames), sections)
	} else {
		// A run by name keeps an existing index in step with the pages:
		// the sections of the experiments it ran are theirs now, the
		// others are read from their pages as they are. It makes no
		// index where there was none (an -o of a few experiments).
		old, err := os.ReadFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return reproFailed(allFailed)
		case err != nil:
			return err
		case !strings.HasPrefix(string(old), indexHeading):
			fmt.Fprintf(m.Stderr, "tether repro: note: %s does not begin %q, so it is not a results index: left as it is\n", path, strings.TrimSpace(indexHeading))
			return reproFailed(allFailed)
		}
		var run []string
		for _, e := range exps {
			run = append(run, e.Name)
		}
		if page, err = indexFromPages(*out, sections, fmt.Sprintf("`tether repro%s %s` at commit %s", mode, strings.Join(run, " "), commit), *quick); err != nil {
			return err
		}
	}
	if err := atomicfile.Write(ctx, path, func(w io.Writer) error {
		_, err := io.WriteString(w, page)
		return err
	}); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "wrote %s\n", path)
	return reproFailed(allFailed)
}

// reproFailed returns the error of a run in which some experiments had
// every cell fail (allFailed, one line each): the pages and the ledger
// are written first, so the failures are on record, but the exit status
// is 1. A run where some cells of an experiment succeeded returns nil (its
// page lists the failed cells), as do experiments without cells (every
// dataset missing: "not run" is not a failure).
func reproFailed(allFailed []string) error {
	if len(allFailed) == 0 {
		return nil
	}
	return fmt.Errorf("repro: %s", strings.Join(allFailed, "; "))
}

// reproNames checks and tidies repro's positional arguments: "list" and
// "all" must be alone (a usage error otherwise: list takes no names, and
// all already runs every experiment), and an experiment named twice runs
// once (the later mentions are dropped, the order kept).
func reproNames(names []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if (n == "list" || n == "all") && len(names) > 1 {
			return nil, usagef("repro", "%s must be alone (got %s)", n, strings.Join(names, " "))
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// indexHeading begins the results index: a run by name rewrites a
// README.md of -o only when it begins so.
const indexHeading = "# Reproductions\n"

// indexFromPages returns the results index of folder out after a run by
// name (by, in words): the sections of the experiments that run wrote
// (sections, by name), and those of every other experiment whose page is
// in out, read from it (keptSection). An experiment without a page is
// left out, but for a long one outside quick mode, which gets the
// placeholder "all" gives it. Cost: one read of each page.
func indexFromPages(out string, sections map[string]string, by string, quick bool) (string, error) {
	all := make(map[string]string, len(sections))
	for _, e := range experiment.All() {
		if s, ok := sections[e.Name]; ok {
			all[e.Name] = s
			continue
		}
		if _, err := os.Stat(filepath.Join(out, e.Name, "README.md")); err != nil && !(e.Long && !quick) {
			continue
		}
		s, err := keptSection(out, e)
		if err != nil {
			return "", err
		}
		all[e.Name] = s
	}
	how := "`tether repro all` makes the index from a run of every experiment but the long ones, which it shows as committed"
	if quick {
		how = "`tether repro -quick all` makes the index from a run of every experiment"
	}
	return indexPage("Assembled by "+by+" from the pages of this folder: the sections of the experiments it ran are that run's, the others are their pages as they were (each page's first line says how and when it was made).", how, all), nil
}

// indexPage returns the results index: its heading, the sentence that
// says how it was made (made), the one that says how to remake it
// (remake, without its full stop), the discussion and the sections of
// the experiments (by name, in experiment.All's order).
func indexPage(made, remake string, sections map[string]string) string {
	return indexHeading + "\n" + made + " Each section is also in its own folder, with CSV files of every figure and PNG plots where the source has figures. " +
		remake + ". Every published claim checked, with its verdict: [CLAIMS.md](CLAIMS.md).\n\n" + reproDiscussion + "\n" + joinSections(sections)
}

// splitLong returns the experiments `tether repro all` runs and those it
// leaves out and keeps as they are: the Long ones, unless quick.
func splitLong(list []experiment.Experiment, quick bool) (run, kept []experiment.Experiment) {
	for _, e := range list {
		if e.Long && !quick {
			kept = append(kept, e)
		} else {
			run = append(run, e)
		}
	}
	return run, kept
}

// keptSection returns the index section of a long experiment that all
// left out: its page in out as it was, or a line saying how to run it
// when out has none.
func keptSection(out string, e experiment.Experiment) (string, error) {
	md, err := os.ReadFile(filepath.Join(out, e.Name, "README.md"))
	if errors.Is(err, os.ErrNotExist) {
		md = []byte(fmt.Sprintf("Not run: a long experiment, left out of `tether repro all`; run `tether repro %s`.\n", e.Name))
	} else if err != nil {
		return "", err
	}
	return indexSection(e, nil, string(md)), nil
}

// longNote returns the index's words on the long experiments all left
// out (names), or "" when none was.
func longNote(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" but those of the long experiments, which it leaves out and shows as committed (%s: run them by name)", strings.Join(names, ", "))
}

// indexSection returns the section of the results index for experiment
// e, whose page md a run with env wrote (nil: a page kept as it was),
// under e's title for that run (realdata's names the data root read).
func indexSection(e experiment.Experiment, env *experiment.Env, md string) string {
	return fmt.Sprintf("## [%s](%s/README.md): %s\n\n%s\n", e.Name, e.Name, e.TitleIn(env), shiftHeadings(md, e.Name))
}

// joinSections returns the index's sections in the order of
// experiment.All (by name).
func joinSections(sections map[string]string) string {
	var list []string
	for _, e := range experiment.All() {
		if s, ok := sections[e.Name]; ok {
			list = append(list, s)
		}
	}
	return strings.Join(list, "\n")
}

// printEstimates prints, per experiment, the time a fresh run would take
// (experiment.EstimateRun) and the total.
func printEstimates(m *Main, exps []experiment.Experiment, data, cacheDir string, quick bool, seed uint64, workers int) error {
	if cacheDir == "" {
		return usagef("repro", "-estimate reads the cache: -cache must name it")
	}
	if workers <= 0 {
		workers = 2
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "EXPERIMENT\tCELLS\tCACHED\tMEASURED\tREPORTED\tUNTIMED\tCELL-SECONDS\tWALL(%d workers)\t\n", workers)
	var tot experiment.Estimate
	var wall time.Duration
	for _, e := range exps {
		env := &experiment.Env{DataRoot: data, Quick: quick, Seed: seed}
		est, err := experiment.EstimateRun(e, env, cacheDir, workers)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.0f\t%s\t\n", est.Name, est.Cells, est.Cached, est.Measured, est.Reported, est.Untimed(), est.CellSeconds, est.Wall.Round(time.Second))
		tot.Cells += est.Cells
		tot.Cached += est.Cached
		tot.Measured += est.Measured
		tot.Reported += est.Reported
		tot.CellSeconds += est.CellSeconds
		wall += est.Wall
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t%d\t%d\t%.0f\t%s\t\n", tot.Cells, tot.Cached, tot.Measured, tot.Reported, tot.Cells-tot.Measured-tot.Reported, tot.CellSeconds, wall.Round(time.Second))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(m.Stdout, "MEASURED cells carry the wall time the runner recorded; REPORTED ones only the experiment's own \"seconds\" figure (often the method alone: a lower bound); UNTIMED ones (not cached, or cached without a time) count as 0. Reports and plots are not counted.")
	return nil
}

// shiftHeadings demotes Markdown headings by two levels and rewrites
// relative links (and a page's links up one level, to the ledger or another
// page) so a section reads well inside the results page.
func shiftHeadings(md, dir string) string {
	lines := strings.Split(md, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			lines[i] = "##" + l
		}
		lines[i] = relink(lines[i], dir)
		// A page's links up one level (the ledger, other pages) point
		// beside the results page.
		lines[i] = strings.ReplaceAll(lines[i], "](../", "](")
	}
	return strings.Join(lines, "\n")
}

// relink prefixes the relative link targets "](target)" of a Markdown line
// with dir/, leaving absolute URLs, anchors and rooted paths alone.
func relink(line, dir string) string {
	var b strings.Builder
	for {
		i := strings.Index(line, "](")
		if i < 0 {
			b.WriteString(line)
			return b.String()
		}
		b.WriteString(line[:i+2])
		line = line[i+2:]
		target := strings.TrimPrefix(line, "./")
		if !strings.Contains(target[:min(len(target), 8)], "://") && !strings.HasPrefix(target, "#") && !strings.HasPrefix(target, "/") && !strings.HasPrefix(target, "../") {
			b.WriteString(dir + "/")
			line = target
		}
	}
}

// revision returns the VCS revision the binary was built from, or asks git.
func revision() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if rev != "" {
			if len(rev) > 12 {
				rev = rev[:12]
			}
			if dirty {
				rev += "+dirty"
			}
			return rev
		}
	}
	if b, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output(); err == nil {
		rev := strings.TrimSpace(string(b))
		if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
			rev += "+dirty"
		}
		return rev
	}
	return "unknown"
}

// reproDiscussion opens the results page: why our figures differ from the
// published ones, in general; each section adds its own specifics.
const reproDiscussion = `## Where we differ from the papers, and why

- **Graphs.** The sources rarely state σ of their RBF kernels, k of their k-NN graphs, or their
  preprocessing beyond min–max scaling and one-hot encoding. Each section names the graph it uses (the same
  for every method of a table), so our absolute figures are comparable across methods but only in shape
  with the published ones. Where a method's published score is far below ours (e.g. SL on moons), the
  published graph was probably less favourable, not the method worse. The
  [graph-sensitivity](graph-sensitivity/README.md) page tests this: Tables 3.1, 4.2 and 4.4 re-run on seven
  plausible graphs (k-NN for several k, full RBF with three rules for σ), with the graph that brings each
  column nearest the published values and whether the published ranking survives.
- **Datasets.** Some published datasets are not available here (imdb, dermatology, ecoli) or differ
  (phoneme: the 2-class ELENA set instead of a 5-class one; wiki: 2405 nodes and 17 classes instead of an
  835-node, 3-class subset). They are listed as not run or marked.
- **k-means and randomness.** We use thesis Alg. 4 with seeded restarts; the sources' k-means
  implementations and seeds are unknown. Constraint sets and labelled nodes are drawn with fixed seeds,
  so every figure here is reproducible bit for bit, but it is one draw of the protocol: standard
  deviations are given wherever the protocol repeats.
- **Budgets.** Some experiments use fewer repetitions than the papers (stated in each section) to keep a
  fresh ` + "`tether repro -fresh all`" + ` within an hour on a 2-core machine. ` + "`tether repro -estimate all`" + `
  estimates that time from the cells' recorded times; [fresh-run.md](fresh-run.md) gives the real fresh
  runs, timed by hand with the commit and the date of each (the times are not restated here, where they
  would go stale), per experiment, and the cells that dominate them.
- **Metrics.** Each section states its ARI/NMI variant (e.g. NMI with the joint-entropy normalization of
  the thesis, or 2I/(H₁+H₂) of seeds 001 and 004; FGPWC's ARI on unconstrained pairs only).
- **FGPWC's options beyond the paper** were measured on these tables, some with their ground truth:
  [fgpwc-notes.md](fgpwc-notes.md) (written by hand, not generated) gives the measurements behind each.
`
