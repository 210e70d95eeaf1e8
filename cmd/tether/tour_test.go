package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeTour returns the commands of the ```sh block under "## A short
// tour" in README.md: its lines that are neither blank nor comments.
func readmeTour(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cmds []string
	section, block := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case !section && trimmed == "## A short tour":
			section = true
		case section && !block && strings.HasPrefix(line, "## "):
			return cmds
		case section && !block && trimmed == "```sh":
			block = true
		case block && trimmed == "```":
			return cmds
		case block && trimmed != "" && !strings.HasPrefix(trimmed, "#"):
			cmds = append(cmds, line)
		}
	}
	return cmds
}

// TestTourScriptRunsTheReadme checks that docs/tour.sh runs exactly the
// commands of the README's tour, that every tether command there names a
// subcommand that exists, and (without -short) runs the script with the
// shared datasets hidden, so that the lines using them must be skipped
// cleanly. CI runs it with the datasets (.ci/run).
func TestTourScriptRunsTheReadme(t *testing.T) {
	want := readmeTour(t)
	if len(want) < 10 {
		t.Fatalf("README tour has %d commands: %q", len(want), want)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script := filepath.Join("..", "..", "docs", "tour.sh")
	out, err := exec.Command("bash", script, "--list").Output()
	if err != nil {
		t.Fatalf("tour.sh --list: %v", err)
	}
	got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tour.sh lists\n%s\nREADME has\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	names := map[string]bool{}
	for _, c := range commands() {
		names[c.name] = true
	}
	for _, c := range want {
		f := strings.Fields(c)
		if f[0] == "./tether" && (len(f) < 2 || !names[f[1]]) {
			t.Errorf("tour command %q: unknown subcommand", c)
		}
	}
	if testing.Short() {
		t.Skip("running the tour: skipped under -short")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build the binary")
	}
	cmd := exec.Command("bash", script)
	cmd.Env = append(os.Environ(), "TOUR_SHARED="+filepath.Join(t.TempDir(), "absent"))
	log, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tour.sh: %v\n%s", err, log)
	}
	shared := 0 // the lines from the first that uses the shared datasets on
	for _, c := range want {
		if shared > 0 || strings.Contains(c, "../shared/datasets") {
			shared++
		}
	}
	if n := strings.Count(string(log), "skipped (no ../shared/datasets)"); n != shared || shared == 0 {
		t.Errorf("%d lines skipped, want the %d from the first on ../shared/datasets\n%s", n, shared, log)
	}
}

// The README's start section installs the command with go install from
// the clone, and names the path of this package (package main) in the
// module of go.mod for an install without a clone (which fails until the
// module is published: review 137), so that both keep working if the
// module or the command moves.
func TestReadmeInstallLine(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module := ""
	for _, l := range strings.Split(string(mod), "\n") {
		if m, ok := strings.CutPrefix(l, "module "); ok {
			module = strings.TrimSpace(m)
		}
	}
	start, _, _ := strings.Cut(string(readme), "\n## tether serve")
	if want := "go install ./cmd/tether"; !strings.Contains(start, "\n"+want+"\n") {
		t.Errorf("README's start section lacks the line %q", want)
	}
	if want := "`go install " + module + "/cmd/tether@latest`"; module == "" || !strings.Contains(start, want) {
		t.Errorf("README's start section does not name %s", want)
	}
}
