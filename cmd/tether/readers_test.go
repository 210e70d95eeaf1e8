package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runReaders runs tether with args and returns stdout, stderr and the error.
func runReaders(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	m := NewMain()
	m.Stdout, m.Stderr = &out, &errb
	err := m.Run(context.Background(), args)
	return out.String(), errb.String(), err
}

// writeFile writes content to name in a fresh temporary directory.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestClusterNamedNodes: an edge list mixing integers and names is refused
// with a message naming the flag, and -named-nodes reads it.
func TestClusterNamedNodes(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5; i++ {
		for j := i + 1; j < 5; j++ {
			b.WriteString(strings.Join([]string{string(rune('0' + i)), string(rune('0' + j))}, " ") + "\n")
			b.WriteString(strings.Join([]string{"x" + string(rune('0'+i)), "x" + string(rune('0'+j))}, " ") + "\n")
		}
	}
	b.WriteString("4 x0\n")
	p := writeFile(t, "g.txt", b.String())
	_, _, err := runReaders(t, "cluster", "-graph-file", p, "-k", "2", "-quiet", "-o", os.DevNull)
	if err == nil || !strings.Contains(err.Error(), "-named-nodes") || !strings.Contains(err.Error(), "g.txt:2") {
		t.Fatalf("err = %v, want a mix error naming g.txt:2 and -named-nodes", err)
	}
	if _, _, err := runReaders(t, "cluster", "-graph-file", p, "-k", "2", "-named-nodes", "-quiet", "-o", os.DevNull); err != nil {
		t.Fatal(err)
	}
}
