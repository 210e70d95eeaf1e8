package catalog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tether-sc/tether/dataset"
	"github.com/tether-sc/tether/graph"
	"github.com/tether-sc/tether/internal/inputfile"
	"github.com/tether-sc/tether/internal/parallel"
	"github.com/tether-sc/tether/internal/suggest"
	"github.com/tether-sc/tether/internal/textline"
	"github.com/tether-sc/tether/internal/wording"
)

// ErrUnknown is wrapped by the error Load returns for a name not in the
// catalogue.
var ErrUnknown = errors.New("catalog: unknown dataset")

// Kind says what a dataset is made of.
type Kind int

const (
	// Features: a feature table; Data.Table is set.
	Features Kind = iota
	// Network: a graph given as such; Data.Graph is set.
	Network
	// Text: high-dimensional sparse document–term data; Data.Terms and a
	// cosine k-NN Data.Graph are set.
	Text
)

// Options controls Load. The zero value applies the preprocessing of the
// FGPWC experiments (seed 003 §5.1).
type Options struct {
	// Raw keeps numeric features as read instead of min–max scaling them to
	// [0,1]. Nominal features are one-hot encoded either way.
	Raw bool
	// KNN is the number of neighbours of the cosine k-NN graph built for
	// Text datasets. If 0, 10 is used.
	KNN int
	// Spelling says how the readers' notes, warnings and errors name the
	// options they suggest (dataset.Options.Spelling,
	// GraphOptions.Spelling): the zero value names the library's options
	// alone.
	Spelling dataset.Spelling
}

// Data is a loaded dataset.
type Data struct {
	Name string
	// Table holds the features of Features datasets and of webkb (nil
	// otherwise).
	Table *dataset.Table
	// Graph holds the graph of Network datasets, the citation graph of
	// webkb (nodes in Table row order) and the cosine k-NN graph of Text
	// datasets.
	Graph *dataset.GraphData
	// Terms holds the document–term matrix of Text datasets.
	Terms *dataset.Sparse
	// Labels is the ground truth, 0…len(ClassNames)−1 per point or node.
	Labels []int
	// ClassNames[c] names class c.
	ClassNames []string
}

// N returns the number of points or nodes.
func (d *Data) N() int { return len(d.Labels) }

// K returns the number of classes.
func (d *Data) K() int { return len(d.ClassNames) }

// Entry describes one dataset of the catalogue.
type Entry struct {
	Name string
	Kind Kind
	// Files are the paths read, relative to the datasets root.
	Files []string
	// N and K are the number of points (or nodes) and classes Load returns.
	N, K int
	// Notes describe the source layout and the preprocessing applied.
	Notes string
	load  func(ctx context.Context, root string, opt *Options) (*Data, error)
}

func scale(opt *Options) dataset.Scale {
	if opt.Raw {
		return dataset.ScaleNone
	}
	return dataset.ScaleMinMax
}

// table returns a loader for a feature table.
func table(file string, topt dataset.Options) func(context.Context, string, *Options) (*Data, error) {
	return func(ctx context.Context, root string, opt *Options) (*Data, error) {
		o := topt
		o.Scale, o.Spelling = scale(opt), opt.Spelling
		t, err := dataset.ReadFile(ctx, filepath.Join(root, file), o)
		if err != nil {
			return nil, err
		}
		return &Data{Table: t, Labels: t.Labels, ClassNames: t.ClassNames}, nil
	}
}

func cols(from, to int) []string {
	var out []string
	for j := from; j <= to; j++ {
		out = append(out, fmt.Sprint(j))
	}
	return out
}

var entries = []Entry{
	{Name: "iris", Files: []string{"iris/iris.csv"}, N: 150, K: 3,
		Notes: "UCI Iris (with the UCI copy's two known wrong rows 35 and 38). No header, 4 numeric features, class last.",
		load:  table("iris/iris.csv", dataset.Options{LabelColumn: "last", Header: dataset.HeaderNo})},
	{Name: "wine", Files: []string{"wine/wine.data"}, N: 178, K: 3,
		Notes: "UCI Wine. Class FIRST (1–3), 13 numeric features, values such as .28.",
		load:  table("wine/wine.data", dataset.Options{LabelColumn: "first", Header: dataset.HeaderNo})},
	{Name: "glass", Files: []string{"glass/glass.data"}, N: 214, K: 6,
		Notes: "UCI Glass. Column 1 is a row Id (dropped, kept in IDs); 9 numeric features; class last (class 4 never occurs, so 6 classes).",
		load:  table("glass/glass.data", dataset.Options{LabelColumn: "last", IDColumn: "1", Header: dataset.HeaderNo})},
	{Name: "ionosphere", Files: []string{"ionosphere/ionosphere.csv"}, N: 351, K: 2,
		Notes: "UCI Ionosphere. 34 numeric features (column 2 is constant 0, scaled to 0), class g/b last.",
		load:  table("ionosphere/ionosphere.csv", dataset.Options{LabelColumn: "last", Header: dataset.HeaderNo})},
	{Name: "hepatitis", Files: []string{"hepatitis/hepatitis.data"}, N: 80, K: 2,
		Notes: "UCI Hepatitis with a header row added by the mirror. Class FIRST (1 = DIE, 2 = LIVE). '?' marks 167 missing cells in 75 rows; those rows are dropped, leaving the 80 complete rows of the FGPWC experiment (seed 003 Table 1): 13 DIE, 67 LIVE. The 13 binary 1/2 codes are kept numeric (min–max maps them to 0/1).",
		load:  table("hepatitis/hepatitis.data", dataset.Options{LabelColumn: "first", Header: dataset.HeaderYes, Missing: dataset.MissingDrop})},
	{Name: "wdbc", Files: []string{"wdbc/wdbc.data"}, N: 569, K: 2,
		Notes: "UCI Breast Cancer Wisconsin (Diagnostic). Column 1 is the patient ID (dropped, kept in IDs), column 2 the class M/B, then 30 numeric features.",
		load:  table("wdbc/wdbc.data", dataset.Options{LabelColumn: "2", IDColumn: "1", Header: dataset.HeaderNo})},
	{Name: "zoo", Files: []string{"zoo/zoo.arff"}, N: 101, K: 7,
		Notes: "UCI Zoo as Weka ARFF (CRLF, '%' comments between data rows). The animal name is the ID; 15 boolean attributes are one-hot encoded (30 columns) and legs is numeric: 31 features. Classes in declaration order mammal, bird, reptile, fish, amphibian, insect, invertebrate.",
		load:  table("zoo/zoo.arff", dataset.Options{IDColumn: "animal"})},
	{Name: "breast-tissue", Files: []string{"breast-tissue/BreastTissue.csv"}, N: 106, K: 6,
		Notes: "UCI Breast Tissue, a CSV conversion with a header and every value double-quoted. Class FIRST (car, fad, mas, gla, con, adi; sorted alphabetically), 9 numeric features.",
		load:  table("breast-tissue/BreastTissue.csv", dataset.Options{LabelColumn: "Class", Header: dataset.HeaderYes})},
	{Name: "hayes-roth", Files: []string{"hayes-roth/hayes-roth.data"}, N: 132, K: 3,
		Notes: "UCI Hayes-Roth training part, as in the FGPWC experiment (132 rows, seed 003 Table 1). Only lines 1–132 are read (the mirror appended a stray row). Column 1 is a meaningless name id (dropped); the 4 integer-coded attributes are categorical and one-hot encoded (15 columns); class last.",
		load: table("hayes-roth/hayes-roth.data", dataset.Options{LabelColumn: "last", IDColumn: "1", Header: dataset.HeaderNo,
			MaxRows: 132, Categorical: cols(2, 5)})},
	{Name: "hayes-roth-160", Files: []string{"hayes-roth/hayes_roth_pmlb.tsv"}, N: 160, K: 3,
		Notes: "PMLB's Hayes-Roth (UCI train + test, 160 rows), tab-separated with a header; the 4 attributes are one-hot encoded; class \"target\" last.",
		load: table("hayes-roth/hayes_roth_pmlb.tsv", dataset.Options{LabelColumn: "target", Header: dataset.HeaderYes,
			Categorical: cols(1, 4)})},
	{Name: "promoters", Files: []string{"promoters/promoters.data"}, N: 106, K: 2,
		Notes: "UCI promoter gene sequences: lines \"class,name,<tabs>sequence\". The name is the ID; the 57 nucleotides (a/c/g/t) are 57 categorical attributes, one-hot encoded. Classes + and −.",
		load:  loadPromoters},
	{Name: "spambase", Files: []string{"spambase/spambase.arff"}, N: 4601, K: 2,
		Notes: "UCI Spambase as ARFF; 57 numeric features; class last (0 = non-spam 2788, 1 = spam 1813).",
		load:  table("spambase/spambase.arff", dataset.Options{})},
	{Name: "tic-tac-toe", Files: []string{"tic-tac-toe/tic-tac-toe.arff"}, N: 958, K: 2,
		Notes: "UCI Tic-Tac-Toe Endgame as ARFF; 9 nominal squares (x/o/b) one-hot encoded to 27 columns; class last.",
		load:  table("tic-tac-toe/tic-tac-toe.arff", dataset.Options{})},
	{Name: "vehicle", Files: []string{"vehicle/vehicle.arff"}, N: 846, K: 4,
		Notes: "UCI Statlog Vehicle Silhouettes as ARFF with quoted attribute names; 18 numeric features; classes opel, saab, bus, van.",
		load:  table("vehicle/vehicle.arff", dataset.Options{})},
	{Name: "heart-statlog", Files: []string{"heart-statlog/heart-statlog.arff"}, N: 270, K: 2,
		Notes: "UCI Statlog Heart as ARFF; 13 attributes all declared real (some are really categorical; kept numeric as declared); classes absent, present.",
		load:  table("heart-statlog/heart-statlog.arff", dataset.Options{})},
	{Name: "phoneme", Files: []string{"phoneme/phoneme.csv"}, N: 5404, K: 2,
		Notes: "ELENA phoneme (2 classes, 5 numeric features already centred and reduced; not the 5-class, 4509-row phoneme of seed 003 Table 1). Class last.",
		load:  table("phoneme/phoneme.csv", dataset.Options{LabelColumn: "last", Header: dataset.HeaderNo})},
	{Name: "karate", Kind: Network, Files: []string{"karate/karate_club.gml"}, N: 34, K: 2,
		Notes: "Zachary's karate club (networkx GML export), 78 unweighted edges; ground truth is the node attribute club (\"Mr. Hi\" 17, \"Officer\" 17).",
		load:  loadKarate},
	{Name: "wiki", Kind: Network, Files: []string{"wiki/Wiki_edgelist.txt", "wiki/Wiki_category.txt"}, N: 2405, K: 17,
		Notes: "Wikipedia hyperlink network (TADW). The directed edge list with duplicates and 1996 self loops is symmetrized: self loops dropped, duplicates and reciprocal links merged (maximum weight 1), giving 11596 undirected edges. Labels from Wiki_category.txt (17 classes 0–16).",
		load:  loadWiki},
	{Name: "classic3", Kind: Text, Files: []string{"classic3/docbyterm.txt", "classic3/documents.txt"}, N: 3891, K: 3,
		Notes: "Classic3 = the cisi (1460), cran (1398) and med (1033) documents of the Classic4 release. Terms holds the 3891×5896 term counts (Porter-stemmed, df ≥ 3); Graph is the symmetric cosine k-NN graph (Options.KNN, default 10) on tf–idf vectors w = count·ln(N/df), df over the 3891 documents, with edge weight the cosine similarity. Classes cisi, cran, med.",
		load:  loadClassic3},
}

func init() {
	for _, u := range []struct {
		name string
		n    int
	}{{"cornell", 195}, {"texas", 187}, {"washington", 230}, {"wisconsin", 265}} {
		u := u
		entries = append(entries, Entry{
			Name: "webkb-" + u.name, Kind: Features,
			Files: []string{"webkb/" + u.name + ".content", "webkb/" + u.name + ".cites"},
			N:     u.n, K: 5,
			Notes: "LINQS WebKB, " + u.name + ": tab-separated \"url f1…f1703 label\", 1703 binary word features (kept 0/1; constant columns become 0 under min–max), classes course, faculty, project, staff, student. The URL is the ID. Graph is the citation graph of the .cites file (\"cited citing\" URL pairs), symmetrized, self-links dropped, nodes in Table row order.",
			load: func(ctx context.Context, root string, opt *Options) (*Data, error) {
				return loadWebKB(ctx, root, u.name, opt)
			},
		})
	}
}

// Names returns the names of the catalogued datasets, sorted.
func Names() []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.Name
	}
	sort.Strings(out)
	return out
}

// Lookup returns the entry of the named dataset.
func Lookup(name string) (Entry, bool) {
	for _, e := range entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// DefaultRoot returns the datasets folder: $TETHER_DATASETS when set,
// otherwise ../shared/datasets relative to the working directory.
func DefaultRoot() string {
	if r := os.Getenv("TETHER_DATASETS"); r != "" {
		return r
	}
	return filepath.Join("..", "shared", "datasets")
}

// Load reads the named dataset from the datasets folder root (one
// subfolder per dataset, the files its Entry names) with the preprocessing documented on its Entry. A
// nil opt means the zero Options. Errors wrap ErrUnknown for unknown names
// and name the file and line for read problems. It is LoadContext with a
// context that is never cancelled.
func Load(name, root string, opt *Options) (*Data, error) {
	return LoadContext(context.Background(), name, root, opt)
}

// LoadContext is Load checking ctx before every read of a file, every
// textline.PollLines lines of the files it parses itself, and while it builds a
// graph (Classic3's cosine k-NN graph: once per document); a FIFO without
// a writer is waited for until ctx is cancelled. A cancelled load returns
// ctx's error, wrapped with the dataset's name and, while a file is read,
// the file and the line reached.
func LoadContext(ctx context.Context, name, root string, opt *Options) (*Data, error) {
	e, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w %q%s (known: %s)", ErrUnknown, name, suggest.Hint(name, Names()), strings.Join(Names(), ", "))
	}
	if opt == nil {
		opt = &Options{}
	}
	d, err := e.load(ctx, root, opt)
	if err != nil {
		return nil, fmt.Errorf("catalog: %s: %w", name, err)
	}
	d.Name = name
	return d, nil
}

// readFile returns the contents of the file path, as os.ReadFile does,
// after checking ctx; the file is opened with inputfile.Open, so a FIFO
// without a writer or a pipe whose writer is slow stops waiting once ctx
// is cancelled.
func readFile(ctx context.Context, path string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := inputfile.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(f)
	if cerr := ctx.Err(); cerr != nil {
		return nil, fmt.Errorf("%s: reading stopped: %w", path, cerr)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return raw, nil
}

func loadPromoters(ctx context.Context, root string, opt *Options) (*Data, error) {
	path := filepath.Join(root, "promoters/promoters.data")
	raw, err := readFile(ctx, path)
	if err != nil {
		return nil, err
	}
	// Rewrite "class,name,<tabs>sequence" as class,name,n1,…,n57.
	var b strings.Builder
	for ln, line := range strings.Split(strings.TrimRight(string(raw), "\r\n"), "\n") {
		if err := textline.Poll(ctx, path, ln); err != nil {
			return nil, err
		}
		parts := strings.Split(strings.TrimRight(line, "\r"), ",")
		if len(parts) != 3 {
			return nil, fmt.Errorf("%s:%d: %d comma-separated fields, want 3", path, ln+1, len(parts))
		}
		seq := strings.TrimSpace(parts[2])
		if len(seq) != 57 {
			return nil, fmt.Errorf("%s:%d: sequence of %d nucleotides, want 57", path, ln+1, len(seq))
		}
		b.WriteString(strings.TrimSpace(parts[0]) + "," + strings.TrimSpace(parts[1]))
		for _, c := range seq {
			b.WriteByte(',')
			b.WriteRune(c)
		}
		b.WriteByte('\n')
	}
	t, err := dataset.Read(ctx, strings.NewReader(b.String()), path, dataset.Options{
		LabelColumn: "first", IDColumn: "2", Header: dataset.HeaderNo, Categorical: cols(3, 59), Scale: scale(opt), Spelling: opt.Spelling,
	})
	if err != nil {
		return nil, err
	}
	return &Data{Table: t, Labels: t.Labels, ClassNames: t.ClassNames}, nil
}

func loadKarate(ctx context.Context, root string, opt *Options) (*Data, error) {
	g, err := dataset.ReadGraphFileOptions(ctx, filepath.Join(root, "karate/karate_club.gml"), dataset.GraphOptions{LabelAttr: "club", Spelling: opt.Spelling})
	if err != nil {
		return nil, err
	}
	return &Data{Graph: g, Labels: g.Labels, ClassNames: g.ClassNames}, nil
}

func loadWiki(ctx context.Context, root string, opt *Options) (*Data, error) {
	lab, err := dataset.ReadLabelsFileOptionsContext(ctx, filepath.Join(root, "wiki/Wiki_category.txt"), dataset.LabelOptions{Strict: true})
	if err != nil {
		return nil, err
	}
	g, err := dataset.ReadGraphFileOptions(ctx, filepath.Join(root, "wiki/Wiki_edgelist.txt"), dataset.GraphOptions{
		Base: dataset.Base0, NumNodes: len(lab.Labels), DropSelfLoops: true, Duplicates: dataset.DupMax, Spelling: opt.Spelling,
	})
	if err != nil {
		return nil, err
	}
	for i, l := range lab.Labels {
		if l < 0 {
			return nil, fmt.Errorf("wiki/Wiki_category.txt: node %d has no category", i)
		}
	}
	names := classNumbers(lab.Labels)
	return &Data{Graph: g, Labels: lab.Labels, ClassNames: names}, nil
}

// classNumbers returns "0", "1", … up to the largest label.
func classNumbers(labels []int) []string {
	k := 0
	for _, l := range labels {
		k = max(k, l+1)
	}
	out := make([]string, k)
	for c := range out {
		out[c] = fmt.Sprint(c)
	}
	return out
}

func loadWebKB(ctx context.Context, root, uni string, opt *Options) (*Data, error) {
	content := filepath.Join(root, "webkb", uni+".content")
	t, err := dataset.ReadFile(ctx, content, dataset.Options{
		Delimiter: "\t", Header: dataset.HeaderNo, IDColumn: "first", LabelColumn: "last", Scale: scale(opt), Spelling: opt.Spelling,
	})
	if err != nil {
		return nil, err
	}
	index := make(map[string]int, len(t.IDs))
	for i, id := range t.IDs {
		index[id] = i
	}
	cites := filepath.Join(root, "webkb", uni+".cites")
	raw, err := readFile(ctx, cites)
	if err != nil {
		return nil, err
	}
	var edges []graph.Edge
	for ln, line := range strings.Split(string(raw), "\n") {
		if err := textline.Poll(ctx, cites, ln); err != nil {
			return nil, err
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("%s:%d: %s, want \"cited citing\"", cites, ln+1, wording.Count(len(f), "field", "fields"))
		}
		a, okA := index[f[0]]
		b, okB := index[f[1]]
		if !okA || !okB {
			return nil, fmt.Errorf("%s:%d: URL not in %s", cites, ln+1, content)
		}
		if a != b {
			edges = append(edges, graph.Edge{I: min(a, b), J: max(a, b), W: 1})
		}
	}
	// Merge duplicates and reciprocal links into weight 1.
	sort.Slice(edges, func(x, y int) bool {
		if edges[x].I != edges[y].I {
			return edges[x].I < edges[y].I
		}
		return edges[x].J < edges[y].J
	})
	uniq := edges[:0]
	for _, e := range edges {
		if len(uniq) == 0 || uniq[len(uniq)-1] != e {
			uniq = append(uniq, e)
		}
	}
	g, err := graph.FromEdges(len(t.IDs), uniq)
	if err != nil {
		return nil, err
	}
	return &Data{Table: t, Graph: &dataset.GraphData{G: g, Names: t.IDs}, Labels: t.Labels, ClassNames: t.ClassNames}, nil
}

func loadClassic3(ctx context.Context, root string, opt *Options) (*Data, error) {
	docs := filepath.Join(root, "classic3/documents.txt")
	raw, err := readFile(ctx, docs)
	if err != nil {
		return nil, err
	}
	// Document i (1-based line) → Classic3 row, or −1.
	var row []int
	var labels []int
	var names []string
	for ln, line := range strings.Split(strings.TrimRight(string(raw), "\r\n"), "\n") {
		if err := textline.Poll(ctx, docs, ln); err != nil {
			return nil, err
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("%s:%d: %s, want \"name class\"", docs, ln+1, wording.Count(len(f), "field", "fields"))
		}
		switch f[1] {
		case "1", "2", "3":
			row = append(row, len(labels))
			labels = append(labels, int(f[1][0]-'1'))
			names = append(names, f[0])
		default:
			row = append(row, -1)
		}
	}
	terms, err := readDocByTerm(ctx, filepath.Join(root, "classic3/docbyterm.txt"), row, len(labels))
	if err != nil {
		return nil, err
	}
	k := opt.KNN
	if k <= 0 {
		k = 10
	}
	g, err := cosineKNN(ctx, dataset.TFIDF(terms), k)
	if err != nil {
		return nil, err
	}
	return &Data{Terms: terms, Graph: &dataset.GraphData{G: g, Names: names}, Labels: labels, ClassNames: []string{"cisi", "cran", "med"}}, nil
}

// readDocByTerm reads the "docs terms nnz" header and the 1-based
// "doc term count" triplets (dataset.ReadDocTermFile), keeping the
// documents with row[doc−1] ≥ 0 as row row[doc−1] (increasing with doc).
func readDocByTerm(ctx context.Context, path string, row []int, n int) (*dataset.Sparse, error) {
	all, err := dataset.ReadDocTermFileContext(ctx, path, 0)
	if err != nil {
		return nil, err
	}
	if all.Rows != len(row) {
		return nil, fmt.Errorf("%s:1: %d documents, documents.txt lists %d", path, all.Rows, len(row))
	}
	s := &dataset.Sparse{Rows: n, Cols: all.Cols, Ptr: make([]int, n+1)}
	for d, r := range row {
		if r < 0 {
			continue
		}
		idx, val := all.Row(d)
		s.Idx = append(s.Idx, idx...)
		s.Val = append(s.Val, val...)
		s.Ptr[r+1] = len(s.Idx)
	}
	for i := 1; i <= n; i++ {
		s.Ptr[i] = max(s.Ptr[i], s.Ptr[i-1])
	}
	return s, nil
}

// cosineKNN returns the symmetric k-NN graph ("either is a neighbour") of
// the rows of s under cosine similarity, weighted by the similarity; rows
// with no non-zero are isolated. Dot products go through an inverted index,
// costing O(Σ_t df_t²) plus O(n²·k) at worst for the selection, on GOMAXPROCS
// goroutines. ctx is checked once per row; a cancelled ctx returns its
// error.
func cosineKNN(ctx context.Context, s *dataset.Sparse, k int) (*graph.Graph, error) {
	n := s.Rows
	norm := make([]float64, n)
	for i := 0; i < n; i++ {
		_, v := s.Row(i)
		var ss float64
		for _, x := range v {
			ss += x * x
		}
		norm[i] = math.Sqrt(ss)
	}
	// Inverted index: term → (row, value).
	tptr := make([]int, s.Cols+1)
	for _, j := range s.Idx {
		tptr[j+1]++
	}
	for j := 0; j < s.Cols; j++ {
		tptr[j+1] += tptr[j]
	}
	trow := make([]int32, len(s.Idx))
	tval := make([]float64, len(s.Idx))
	fill := append([]int(nil), tptr[:s.Cols]...)
	for i := 0; i < n; i++ {
		idx, v := s.Row(i)
		for q, j := range idx {
			trow[fill[j]], tval[fill[j]] = int32(i), v[q]
			fill[j]++
		}
	}
	nb := make([][]graph.Edge, n)
	type cand struct {
		j int
		s float64
	}
	// Per goroutine: the dot products of row i with every row (kept zero
	// between rows) and the k best candidates.
	type scratch struct {
		acc []float64
		cs  []cand
	}
	err := parallel.ForState(ctx, n, 0, func() *scratch { return &scratch{acc: make([]float64, n)} },
		func(st *scratch, i int) error {
			if norm[i] == 0 {
				return nil
			}
			acc, cs := st.acc, st.cs
			idx, v := s.Row(i)
			for q, j := range idx {
				for t := tptr[j]; t < tptr[j+1]; t++ {
					acc[trow[t]] += v[q] * tval[t]
				}
			}
			// Keep the k best candidates in order (higher cosine first,
			// then smaller index): insertion costs O(k) per candidate.
			cs = cs[:0]
			better := func(a, b cand) bool { return a.s > b.s || a.s == b.s && a.j < b.j }
			for j, a := range acc {
				if a == 0 {
					continue
				}
				acc[j] = 0
				if j == i {
					continue
				}
				c := cand{j, a / (norm[i] * norm[j])}
				if len(cs) == k && !better(c, cs[k-1]) {
					continue
				}
				if len(cs) < k {
					cs = append(cs, c)
				} else {
					cs[k-1] = c
				}
				for q := len(cs) - 1; q > 0 && better(cs[q], cs[q-1]); q-- {
					cs[q], cs[q-1] = cs[q-1], cs[q]
				}
			}
			for _, c := range cs {
				nb[i] = append(nb[i], graph.Edge{I: min(i, c.j), J: max(i, c.j), W: math.Min(c.s, 1)})
			}
			st.cs = cs // keep the grown buffer
			return nil
		})
	if err != nil {
		return nil, err
	}
	var edges []graph.Edge
	for _, e := range nb {
		edges = append(edges, e...)
	}
	// An edge chosen from both ends appears twice with the same weight:
	// keep one.
	sort.Slice(edges, func(a, b int) bool {
		if edges[a].I != edges[b].I {
			return edges[a].I < edges[b].I
		}
		return edges[a].J < edges[b].J
	})
	uniq := edges[:0]
	for _, e := range edges {
		if len(uniq) > 0 && uniq[len(uniq)-1].I == e.I && uniq[len(uniq)-1].J == e.J {
			continue
		}
		uniq = append(uniq, e)
	}
	return graph.FromEdges(n, uniq)
}
