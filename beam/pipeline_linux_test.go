package tetherbeam

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tether-sc/tether/internal/testctx"
)

// TestCheckManifestFIFOCancels: CheckManifest on a local FIFO nobody
// writes to (whose os.Open, in Beam's local file system, blocked deaf to
// ctx) returns soon after ctx is cancelled, with an error wrapping ctx's
// that names the manifest; with a writer it reads what is written.
func TestCheckManifestFIFOCancels(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content string // written to the FIFO after 200 ms; "" for no writer
		want    error  // wrapped by the error; nil for none
	}{
		{"no writer", "", context.Canceled},
		{"a writer", `{"id":"a","gen":"moons","k":2}` + "\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fifo := testctx.Mkfifo(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tc.content != "" {
				go func() {
					time.Sleep(200 * time.Millisecond)
					os.WriteFile(fifo, []byte(tc.content), 0)
				}()
			} else {
				time.AfterFunc(200*time.Millisecond, cancel)
			}
			done := make(chan error, 1)
			go func() {
				_, err := CheckManifest(ctx, fifo)
				done <- err
			}()
			select {
			case err := <-done:
				if tc.want == nil && err != nil || tc.want != nil && (!errors.Is(err, tc.want) || !strings.Contains(err.Error(), fifo)) {
					t.Fatalf("error %v, want one wrapping %v naming %s", err, tc.want, fifo)
				}
			case <-time.After(1200 * time.Millisecond):
				if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
					w.Close() // unblocks the open
				}
				<-done
				t.Fatal("CheckManifest did not return within 1 s of the cancellation")
			}
		})
	}
}
