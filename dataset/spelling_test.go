package dataset

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// Front ends' spellings as job and internal/server give them (their own
// tests check theirs through job.Run and an upload).
var (
	jsonSpelling   = Spelling{Front: "job", Style: StyleJSON, Label: "label", KNN: "knn"}
	optionSpelling = Spelling{Front: "serve", Style: StyleOption, Label: "label", ID: "id", Missing: "missing"}
)

// TestSpellingOption checks how each style writes an option with its
// value, and that an option the front end lacks is reported so.
func TestSpellingOption(t *testing.T) {
	for _, c := range []struct {
		sp          Spelling
		flag, value string
		want        string
		ok          bool
	}{
		{Spelling{}, "missing", "drop", "-missing drop", true},
		{Spelling{}, "drop", "", "-drop", true},
		{Spelling{Style: StyleJSON}, "knn", "5", "-knn 5", true}, // Front "": the command line
		{jsonSpelling, "knn", "5", `"knn": 5`, true},
		{jsonSpelling, "label", "none", `"label": "none"`, true},
		{jsonSpelling, "label", "", `"label"`, true},
		{jsonSpelling, "missing", "drop", "", false},
		{jsonSpelling, "sigma", "local:5", "", false},
		{optionSpelling, "missing", "drop", "option missing drop", true},
		{optionSpelling, "id", "name", "option id name", true},
		{optionSpelling, "knn", "5", "", false},
		{optionSpelling, "no-such-flag", "1", "", false},
	} {
		got, ok := c.sp.Option(c.flag, c.value)
		if got != c.want || ok != c.ok {
			t.Errorf("%+v.Option(%q, %q) = %q, %v; want %q, %v", c.sp, c.flag, c.value, got, ok, c.want, c.ok)
		}
	}
}

// TestSpellingHint checks the parenthesis naming the front end's option
// and the library's, and the library's alone where the front end lacks
// it.
func TestSpellingHint(t *testing.T) {
	for _, c := range []struct {
		sp                         Spelling
		flag, value, what, library string
		want                       string
	}{
		{Spelling{}, "missing", "drop", "", "Options.Missing = MissingDrop", "(tether: -missing drop; library: Options.Missing = MissingDrop)"},
		{jsonSpelling, "missing", "drop", "", "Options.Missing = MissingDrop", "(library: Options.Missing = MissingDrop)"},
		{optionSpelling, "missing", "drop", "", "Options.Missing = MissingDrop", "(serve: option missing drop; library: Options.Missing = MissingDrop)"},
		{jsonSpelling, "label", "none", " makes it a feature", `Options.LabelColumn "none"`, `(job: "label": "none" makes it a feature; library: Options.LabelColumn "none")`},
		{Spelling{}, "label", "y", " takes it instead", "", "(tether: -label y takes it instead)"},
		{optionSpelling, "label", "y", " takes it instead", "", "(serve: option label y takes it instead)"},
		{optionSpelling, "drop", "3", " leaves it out", "", ""},
		{optionSpelling, "categorical", "3", " encodes it", "Options.Categorical", "(library: Options.Categorical encodes it)"},
	} {
		if got := c.sp.Hint(c.flag, c.value, c.what, c.library); got != c.want {
			t.Errorf("%+v.Hint(%q, %q, %q, %q) = %q, want %q", c.sp, c.flag, c.value, c.what, c.library, got, c.want)
		}
	}
}

// TestSpelledTableMessages reads tables whose notes, warnings and errors
// suggest an option, with tether's spelling (unchanged), a job's and the
// web app's, and checks each message names only options the front end
// has.
func TestSpelledTableMessages(t *testing.T) {
	const (
		missing  = "x,y\n1,2\n?,3\n4,5\n6,7\n"
		color    = "x,color\n1,red\n2,blue\n3,red\n4,blue\n"
		mixed    = "x,code\n1,a1\n2,2\n3,3\n4,4\n"
		idLike   = "x,tag\n1,a\n2,b\n3,c\n4,d\n5,e\n6,f\n7,g\n8,h\n9,i\n10,j\n11,a\n12,b\n"
		names    = "x,tag\n1,a\n2,b\n3,c\n4,d\n"
		cli, job = "cli", "job"
	)
	type want map[string]string // by front end: a substring of a message
	for _, c := range []struct {
		name    string
		content string
		opt     Options
		want    want
	}{
		{"dropped rows", missing, Options{Missing: MissingDrop}, want{
			cli:   "dropped 1 of 4 rows with missing values (tether: -missing drop; library: Options.Missing = MissingDrop): line 3",
			job:   "dropped 1 of 4 rows with missing values (library: Options.Missing = MissingDrop): line 3",
			"web": "dropped 1 of 4 rows with missing values (serve: option missing drop; library: Options.Missing = MissingDrop): line 3",
		}},
		{"imputed", missing, Options{Missing: MissingImpute}, want{
			cli:   "by its most frequent value (tether: -missing impute; library: Options.Missing = MissingImpute)",
			job:   "by its most frequent value (library: Options.Missing = MissingImpute)",
			"web": "by its most frequent value (serve: option missing impute; library: Options.Missing = MissingImpute)",
		}},
		{"one-hot note", color, Options{}, want{
			cli:   `column "color": 2 categories one-hot encoded into 2 features (-drop color leaves it out)`,
			job:   `column "color": 2 categories one-hot encoded into 2 features (deleting the column from the file leaves it out)`,
			"web": `column "color": 2 categories one-hot encoded into 2 features (deleting the column from the file leaves it out)`,
		}},
		{"identifier error", names, Options{}, want{
			cli:   "give it as the ID column (tether: -id tag; library: Options.IDColumn), or one-hot encode it anyway (tether: -categorical 2; library: Options.Categorical)",
			job:   "give it as the ID column (library: Options.IDColumn), or one-hot encode it anyway (library: Options.Categorical)",
			"web": "give it as the ID column (serve: option id tag; library: Options.IDColumn), or one-hot encode it anyway (library: Options.Categorical)",
		}},
		{"identifier-like", idLike, Options{}, want{
			cli:   "not a feature; -drop tag leaves it out, -id tag makes it the names of the rows",
			job:   "not a feature; deleting the column from the file leaves it out",
			"web": "not a feature; deleting the column from the file leaves it out, option id tag makes it the names of the rows",
		}},
		{"mixed column", mixed, Options{}, want{
			cli:   "or one-hot encode the column (tether: -categorical 2; library: Options.Categorical)",
			job:   "or one-hot encode the column (library: Options.Categorical)",
			"web": "or one-hot encode the column (library: Options.Categorical)",
		}},
	} {
		for front, sp := range map[string]Spelling{cli: {}, job: jsonSpelling, "web": optionSpelling} {
			t.Run(c.name+"/"+front, func(t *testing.T) {
				opt := c.opt
				opt.Spelling = sp
				tab, err := Read(context.Background(), strings.NewReader(c.content), "t.csv", opt)
				var msgs []string
				if err != nil {
					msgs = []string{err.Error()}
				} else {
					msgs = slices.Concat(tab.Notes, tab.Warnings)
				}
				if !slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, c.want[front]) }) {
					t.Errorf("messages %q, want one with %q", msgs, c.want[front])
				}
				if front != cli && slices.ContainsFunc(msgs, func(m string) bool { return strings.Contains(m, "tether: -") || strings.Contains(m, "(-") }) {
					t.Errorf("messages %q name tether's flags", msgs)
				}
			})
		}
	}
}
