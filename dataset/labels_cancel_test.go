package dataset

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tether-sc/tether/internal/testctx"
	"github.com/tether-sc/tether/internal/textline"
)

// ReadLabelsContext, ReadLabelsFileContext and
// ReadLabelsFileOptionsContext give what ReadLabels, ReadLabelsFile and
// ReadLabelsFileOptions give, errors included, with a live context; with a
// cancelled one, an error wrapping context.Canceled that names the file
// (an empty input too: the context is checked before every read).
func TestReadLabelsContext(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		opt      LabelOptions
	}{
		{"one per line", "0\n2\n1\n-1\n", LabelOptions{}},
		{"pairs", "node,label\n2,1\n0,0\n", LabelOptions{}},
		{"pairs with N", "1 1\n", LabelOptions{N: 3}},
		{"strings", "b\na\nb\n", LabelOptions{}},
		{"more lines than a poll", strings.Repeat("1\n0\n", textline.PollLines), LabelOptions{}},
		{"empty", "", LabelOptions{}},
		{"strict", "1\nx\n", LabelOptions{Strict: true}},
		{"node twice", "0 1\n0 2\n", LabelOptions{}},
		{"count", "1\n2\n", LabelOptions{N: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "labels.txt")
			if err := os.WriteFile(path, []byte(tc.in), 0o600); err != nil {
				t.Fatal(err)
			}
			want, wantErr := ReadLabels(strings.NewReader(tc.in), "l", tc.opt)
			got, err := ReadLabelsContext(context.Background(), strings.NewReader(tc.in), "l", tc.opt)
			if !reflect.DeepEqual(got, want) || errString(err) != errString(wantErr) {
				t.Errorf("ReadLabelsContext = %v, %v; ReadLabels = %v, %v", got, err, want, wantErr)
			}
			wantFile, wantFileErr := ReadLabelsFileOptions(path, tc.opt)
			gotFile, err := ReadLabelsFileOptionsContext(context.Background(), path, tc.opt)
			if !reflect.DeepEqual(gotFile, wantFile) || errString(err) != errString(wantFileErr) {
				t.Errorf("ReadLabelsFileOptionsContext = %v, %v; ReadLabelsFileOptions = %v, %v", gotFile, err, wantFile, wantFileErr)
			}
			if wantErr == nil && !reflect.DeepEqual(gotFile, want) {
				t.Errorf("the file reads %v, the reader %v", gotFile, want)
			}
			if tc.opt == (LabelOptions{}) {
				want, wantErr := ReadLabelsFile(path)
				got, err := ReadLabelsFileContext(context.Background(), path)
				if !reflect.DeepEqual(got, want) || errString(err) != errString(wantErr) {
					t.Errorf("ReadLabelsFileContext = %v, %v; ReadLabelsFile = %v, %v", got, err, want, wantErr)
				}
			}
			for name, read := range map[string]func(context.Context) error{
				"ReadLabelsContext": func(ctx context.Context) error {
					_, err := ReadLabelsContext(ctx, strings.NewReader(tc.in), path, tc.opt)
					return err
				},
				"ReadLabelsFileOptionsContext": func(ctx context.Context) error {
					_, err := ReadLabelsFileOptionsContext(ctx, path, tc.opt)
					return err
				},
				"ReadLabelsFileContext": func(ctx context.Context) error {
					_, err := ReadLabelsFileContext(ctx, path)
					return err
				},
			} {
				if err := read(testctx.CancelAfter(0)); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), path) {
					t.Errorf("cancelled %s: err = %v, want context.Canceled naming the file", name, err)
				}
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
