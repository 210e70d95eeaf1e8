package constraint

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/internal/textline"
)

// ReadLabelsContext stops soon after its context is cancelled while it
// reads an input that never ends, with ctx's error naming the file.
func TestReadLabelsContextStopsMidRead(t *testing.T) {
	testctx.StopsMidRead(t, "0\n", "labels.txt", func(ctx context.Context, r io.Reader) error {
		_, err := ReadLabelsContext(ctx, r, &ReadOptions{File: "labels.txt"})
		return err
	})
}

// ReadLabelsContext and ReadLabelsFileContext give what ReadLabels and
// ReadLabelsFile give, errors included, with a live context; with a
// cancelled one, an error wrapping context.Canceled that names the file.
// Every input has a line: the readers check their context as they take
// lines, as ReadContext does, so an empty input gives no error.
func TestReadLabelsContext(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		n        int
	}{
		{"one per line", "2\n?\n0\n-1\n", 0},
		{"one per line with N", "label\n1\n\n0\n", 3},
		{"pairs", "node,label\n0,1\n3,0\n", 0},
		{"pairs base 1", "# base=1\n1,1\n4,0\n", 5},
		{"more lines than a poll", strings.Repeat("1\n0\n", textline.PollLines), 0},
		{"malformed", "0,1,2\n", 0},
		{"node twice", "0,1\n0,2\n", 0},
		{"too many lines", "1\n0\n1\n", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "labels.txt")
			if err := os.WriteFile(path, []byte(tc.in), 0o600); err != nil {
				t.Fatal(err)
			}
			opt := &ReadOptions{N: tc.n, File: "labels.txt"}
			want, wantErr := ReadLabels(strings.NewReader(tc.in), opt)
			got, err := ReadLabelsContext(context.Background(), strings.NewReader(tc.in), opt)
			if !reflect.DeepEqual(got, want) || errString(err) != errString(wantErr) {
				t.Errorf("ReadLabelsContext = %v, %v; ReadLabels = %v, %v", got, err, want, wantErr)
			}
			wantFile, wantErr := ReadLabelsFile(path, tc.n)
			gotFile, err := ReadLabelsFileContext(context.Background(), path, tc.n)
			if !reflect.DeepEqual(gotFile, wantFile) || errString(err) != errString(wantErr) {
				t.Errorf("ReadLabelsFileContext = %v, %v; ReadLabelsFile = %v, %v", gotFile, err, wantFile, wantErr)
			}
			if !reflect.DeepEqual(gotFile, want) {
				t.Errorf("the file reads %v, the reader %v", gotFile, want)
			}
			if _, err := ReadLabelsContext(testctx.CancelAfter(0), strings.NewReader(tc.in), opt); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "labels.txt") {
				t.Errorf("cancelled ReadLabelsContext: err = %v, want context.Canceled naming the file", err)
			}
			if _, err := ReadLabelsFileContext(testctx.CancelAfter(0), path, tc.n); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), path) {
				t.Errorf("cancelled ReadLabelsFileContext: err = %v, want context.Canceled naming the file", err)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
