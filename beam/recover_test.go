package tetherbeam

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// The results of the runs of the recovery tests: the earlier run
// (results.jsonl, described by the earlier labels "old ID") and the run
// whose commit a killed process cut short (its temporary results file,
// the new labels "new ID"), which went through its jobs in that file's
// order: c (no earlier labels), b, e (failing now), a, d.
var (
	earlierResults = okLine("a") + okLine("b") + failedLine("c") + okLine("d") + okLine("e")
	cutResults     = okLine("c") + okLine("b") + failedLine("e") + okLine("a") + okLine("d")
	// earlierRun is the folder as the earlier run left it, with
	// x.labels of a job of neither manifest and a file of no job.
	earlierRun = map[string]string{
		ResultsFile: earlierResults,
		"a.labels":  "old a\n", "b.labels": "old b\n", "d.labels": "old d\n", "e.labels": "old e\n",
		"x.labels": "old x\n", "notes.txt": "notes\n",
	}
	// cutRun is the folder after a commit killed once it had put c's
	// and b's new labels in place, set aside e's and then a's earlier
	// ones, and not yet reached d.
	cutRun = with(earlierRun, map[string]string{
		".results.jsonl.tmp": cutResults,
		"c.labels":           "new c\n",                                 // put in place
		"b.labels":           "new b\n", ".b.labels.tmp.old": "old b\n", // set aside, then put in place
		"e.labels": "", ".e.labels.tmp.old": "old e\n", // set aside (failing now)
		"a.labels": "", ".a.labels.tmp.old": "old a\n", ".a.labels.tmp": "new a\n", // set aside, cut before the move
		".d.labels.tmp": "new d\n", // not reached
	})
	// newRun is the folder as the cut run's commit would have left it.
	newRun = map[string]string{
		ResultsFile: cutResults,
		"a.labels":  "new a\n", "b.labels": "new b\n", "c.labels": "new c\n", "d.labels": "new d\n",
		"x.labels": "old x\n", "notes.txt": "notes\n",
	}
)

// okLine and failedLine are result lines of job id, succeeded and failed.
func okLine(id string) string { return `{"id":"` + id + `","method":"njw"}` + "\n" }
func failedLine(id string) string {
	return `{"id":"` + id + `","method":"njw","error":"input: nope.csv: no such file"}` + "\n"
}

// with returns a copy of m changed by ch: a file of ch with content ""
// is left out.
func with(m, ch map[string]string) map[string]string {
	out := maps.Clone(m)
	for name, content := range ch {
		if content == "" {
			delete(out, name)
		} else {
			out[name] = content
		}
	}
	return out
}

// TestRemovePartialRecoversKilledCommit: RemovePartial after a commit
// that a killed process cut short (simulated by the files it leaves) puts
// the folder back as results.jsonl describes it: the earlier labels the
// commit had set aside (".ID.labels.tmp.old") back in place, those it had
// put in place or not reached alike, no labels for a job of no earlier
// labels (c), and no temporary file, on a local folder, memfs:// and
// gs:// (a fake GCS server). It used to remove the set-aside labels with
// the other temporaries: the labels of a and e were lost, b's were the
// new ones, c had labels, beside an earlier results.jsonl that lists a,
// b and e as succeeded and c as failed. A commit that ended but for its
// removals has its leftovers removed, and a set-aside file RemovePartial
// can neither put back nor tell to be a leftover is left, with an error
// naming it, as is every temporary file.
func TestRemovePartialRecoversKilledCommit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		kinds  []string
		before map[string]string
		after  map[string]string
		err    string // in RemovePartial's error ("": none)
	}{
		{"cut after some renames", nil, cutRun, earlierRun, ""},
		{"cut inside renames (copy done, removal not)", nil, with(earlierRun, map[string]string{
			// A rename on GCS is a copy and a removal: each job
			// here as if the commit was cut between the two (only
			// one can be, the others done or not reached).
			".results.jsonl.tmp": cutResults,
			"c.labels":           "new c\n", ".c.labels.tmp": "new c\n", // moving c
			".a.labels.tmp.old": "old a\n", ".a.labels.tmp": "new a\n", // setting a aside
			".e.labels.tmp.old": "old e\n",                                                             // setting e aside (failing now)
			"b.labels":          "new b\n", ".b.labels.tmp": "new b\n", ".b.labels.tmp.old": "old b\n", // moving b
			".d.labels.tmp": "new d\n",
		}), earlierRun, ""},
		{"cut before the first set-aside", nil, with(earlierRun, map[string]string{
			".results.jsonl.tmp": cutResults,
			"c.labels":           "new c\n", // the only rename done
			".a.labels.tmp":      "new a\n", ".b.labels.tmp": "new b\n", ".d.labels.tmp": "new d\n",
		}), earlierRun, ""},
		{"killed writing the temporary results file", nil, with(earlierRun, map[string]string{
			".results.jsonl.tmp": cutResults[:len(cutResults)-10], // no commit began
			".a.labels.tmp":      "new a\n", ".b.labels.tmp": "new b\n", ".c.labels.tmp": "new c\n", ".d.labels.tmp": "new d\n",
		}), earlierRun, ""},
		{"results file copied, its temporary not removed", nil, with(newRun, map[string]string{
			".results.jsonl.tmp": cutResults,
			".a.labels.tmp.old":  "old a\n", ".b.labels.tmp.old": "old b\n", ".d.labels.tmp.old": "old d\n", ".e.labels.tmp.old": "old e\n",
		}), newRun, ""},
		{"commit ended, cut in its removals", nil, with(newRun, map[string]string{
			".b.labels.tmp.old": "old b\n", ".e.labels.tmp.old": "old e\n",
		}), newRun, ""},
		{"temporary results file lost (earlier versions)", nil, with(earlierRun, map[string]string{
			"a.labels": "", ".a.labels.tmp.old": "old a\n", ".a.labels.tmp": "new a\n",
			"e.labels": "", ".e.labels.tmp.old": "old e\n",
		}), earlierRun, ""},
		{"set-aside labels of no job of results.jsonl", nil, with(earlierRun, map[string]string{
			".z.labels.tmp.old": "old z\n", ".a.labels.tmp": "new a\n",
		}), with(earlierRun, map[string]string{
			".z.labels.tmp.old": "old z\n", ".a.labels.tmp": "new a\n",
		}), ".z.labels.tmp.old holds earlier labels of job z, whose labels file OUT/z.labels is missing"},
	} {
		kinds := tc.kinds
		if kinds == nil {
			kinds = []string{"local", "memfs", "gs"}
		}
		for _, kind := range kinds {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				st := commitStore(t, kind)
				for name, content := range tc.before {
					st.put(name, content)
				}
				for call := 1; call <= 2; call++ {
					err := RemovePartial(context.Background(), st.out)
					want := strings.ReplaceAll(tc.err, "OUT", st.out)
					if tc.err == "" && err != nil || tc.err != "" && (!errors.Is(err, ErrUnrecovered) || !strings.Contains(err.Error(), want)) {
						t.Fatalf("call %d: error %v, want %q", call, err, want)
					}
					if got := st.contents(); !reflect.DeepEqual(got, tc.after) {
						t.Fatalf("call %d: the folder holds\n%q\nwant\n%q", call, got, tc.after)
					}
				}
			})
		}
	}
}

// TestRecoverCommit: recoverCommit undoes a commit cut short and leaves
// the folder as the earlier run left it, with the cut run's labels back
// in their staged files (a retry of the commit in the same run puts them
// in place again; RemovePartial removes them) and no temporary results
// file; a folder of no cut commit is left as it is.
func TestRecoverCommit(t *testing.T) {
	staged := with(earlierRun, map[string]string{
		".a.labels.tmp": "new a\n", ".b.labels.tmp": "new b\n", ".c.labels.tmp": "new c\n", ".d.labels.tmp": "new d\n",
	})
	for _, tc := range []struct {
		name          string
		before, after map[string]string
	}{
		{"cut", cutRun, staged},
		{"earlier run", earlierRun, earlierRun},
		{"staged labels", staged, staged},
	} {
		for _, kind := range []string{"local", "memfs", "gs"} {
			t.Run(kind+"/"+tc.name, func(t *testing.T) {
				st := commitStore(t, kind)
				for name, content := range tc.before {
					st.put(name, content)
				}
				ctx := context.Background()
				fs, err := filesystem.New(ctx, st.out+"/"+ResultsFile)
				if err != nil {
					t.Fatal(err)
				}
				defer fs.Close()
				for call := 1; call <= 2; call++ {
					if err := recoverCommit(ctx, fs, st.out); err != nil {
						t.Fatalf("call %d: %v", call, err)
					}
					if got := st.contents(); !reflect.DeepEqual(got, tc.after) {
						t.Fatalf("call %d: the folder holds\n%q\nwant\n%q", call, got, tc.after)
					}
				}
			})
		}
	}
}

// TestRecoverCommitRenameFails: a set-aside labels file that cannot be
// put back (its labels file's place is taken by a folder) is left, with
// tmp and the staged labels, and RemovePartial's error names both files;
// the other jobs are put back all the same, and once the folder is out of
// the way a second call completes the recovery.
func TestRecoverCommitRenameFails(t *testing.T) {
	st := commitStore(t, "local")
	for name, content := range cutRun {
		st.put(name, content)
	}
	if err := os.MkdirAll(filepath.Join(st.out, "a.labels", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := RemovePartial(context.Background(), st.out)
	if !errors.Is(err, ErrUnrecovered) {
		t.Errorf("error %v, want one wrapping ErrUnrecovered", err)
	}
	for _, want := range []string{"putting the earlier labels " + filepath.Join(st.out, ".a.labels.tmp.old") + " back to " + filepath.Join(st.out, "a.labels"), "rename it to", "no temporary file of"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want one containing %q", err, want)
		}
	}
	got := st.contents()
	for name, content := range map[string]string{".a.labels.tmp.old": "old a\n", ".a.labels.tmp": "new a\n", ".results.jsonl.tmp": cutResults, "b.labels": "old b\n", "e.labels": "old e\n", ".c.labels.tmp": "new c\n"} {
		if got[name] != content {
			t.Errorf("%s holds %q, want %q", name, got[name], content)
		}
	}
	if _, ok := got["c.labels"]; ok {
		t.Errorf("c.labels is left")
	}
	if err := os.RemoveAll(filepath.Join(st.out, "a.labels")); err != nil {
		t.Fatal(err)
	}
	if err := RemovePartial(context.Background(), st.out); err != nil {
		t.Fatal(err)
	}
	if got := st.contents(); !reflect.DeepEqual(got, earlierRun) {
		t.Fatalf("after the second call the folder holds\n%q\nwant\n%q", got, earlierRun)
	}
}

// TestCommitAfterKilledCommit: a run after one whose commit a killed
// process cut short leaves, when its commit completes, its own output,
// and when it fails or is cancelled, once RemovePartial has run, the
// folder as the run before the cut one left it: its writeResultsFn
// recovers before it writes its temporary results file over the cut
// one's (whose removal, on a failure, left the set-aside labels looking
// like a finished commit's leftovers, which RemovePartial removed). With
// RemovePartial before the run, as tether-beam does, the run's jobs may
// include c, the job of no earlier labels that the cut commit put in
// place, and no temporary file is left. Without it, the run's staged
// labels would hide that c's were moved (the run here has no c), and the
// cut run's labels that the recovery moved back to their staged files
// stay beside a completed run's output, for RemovePartial.
func TestCommitAfterKilledCommit(t *testing.T) {
	for _, cleanFirst := range []bool{true, false} {
		ids := []string{"a", "b", "d", "e"}
		if cleanFirst {
			ids = append(ids, "c")
		}
		var lines []string
		newer := map[string]string{}
		for _, id := range ids {
			lines = append(lines, strings.TrimSuffix(okLine(id), "\n"))
			newer[id+".labels"] = "newer " + id + "\n"
		}
		for _, kind := range []string{"local", "memfs", "gs"} {
			for _, tc := range writeResultsCases {
				name := kind + "/" + tc.name
				if !cleanFirst {
					name = kind + "/no RemovePartial first/" + tc.name
				}
				t.Run(name, func(t *testing.T) {
					st := commitStore(t, kind)
					for name, content := range cutRun {
						st.put(name, content)
					}
					if cleanFirst {
						if err := RemovePartial(context.Background(), st.out); err != nil {
							t.Fatal(err)
						}
						if got := st.contents(); !reflect.DeepEqual(got, earlierRun) {
							t.Fatalf("after RemovePartial before the run the folder holds\n%q\nwant the earlier run's\n%q", got, earlierRun)
						}
					}
					for _, id := range ids {
						st.put("."+id+".labels.tmp", newer[id+".labels"])
					}
					err := runCommit(t, st, lines, tc)
					if tc.completes() {
						if err != nil {
							t.Fatal(err)
						}
						want := with(earlierRun, newer)
						want[ResultsFile] = strings.Join(lines, "\n") + "\n"
						if !cleanFirst {
							want[".c.labels.tmp"] = "new c\n"
						}
						if got := st.contents(); !reflect.DeepEqual(got, want) {
							t.Fatalf("the folder holds\n%q\nwant\n%q", got, want)
						}
						return
					}
					if err := RemovePartial(context.Background(), st.out); err != nil {
						t.Fatal(err)
					}
					if got := st.contents(); !reflect.DeepEqual(got, earlierRun) {
						t.Fatalf("after RemovePartial the folder holds\n%q\nwant the earlier run's\n%q", got, earlierRun)
					}
				})
			}
		}
	}
}

// TestOutcomesOf: only the complete lines of a results file are read,
// the first line of an id counts, and lines of no valid id are left out.
func TestOutcomesOf(t *testing.T) {
	b := okLine("a") + failedLine("b") + failedLine("a") + "not json\n" + okLine("../x") + `{"id":"c","met`
	got := outcomesOf([]byte(b))
	want := map[string]bool{"a": false, "b": true}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("outcomes %v, want %v", got, want)
	}
	if ids := slices.Sorted(maps.Keys(got)); len(ids) != 2 {
		t.Fatalf("ids %q", ids)
	}
}
