package tetherbeam

import (
	"context"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/tether-sc/tether/beam/internal/fakegcs"
)

// gcsStore is a store on gs://bucket, a fake GCS server (fakegcs.Start)
// that Beam's gcs file system reaches through STORAGE_EMULATOR_HOST. Its
// put and files go to the server directly, not through Beam.
func gcsStore(t *testing.T, bucket, dir string) (store, *fakegcs.Server) {
	srv := fakegcs.Start(t, bucket)
	gs := "gs://" + bucket + "/"
	return store{
		dir: gs + dir,
		put: func(name string, b []byte) {
			srv.Put(bucket, strings.TrimPrefix(name, gs), b)
		},
		files: func(prefix string) []string {
			var out []string
			for _, o := range srv.Objects(t, bucket, strings.TrimPrefix(prefix, gs)) {
				out = append(out, gs+o)
			}
			return out
		},
		missing: "storage: object doesn't exist",
	}, srv
}

// TestBatchGCSEqualsLocal: checkBatchEqualsLocal on gs:// paths, Beam's
// gcs file system talking to a fake GCS server in process: the jobs read
// their files from the bucket and write their labels and results.jsonl
// there (a temporary object, then a copy and a removal), and the objects
// are those of the same jobs run on local paths, read back from the
// server itself.
func TestBatchGCSEqualsLocal(t *testing.T) {
	st, _ := gcsStore(t, "tether-batch", "batch")
	checkBatchEqualsLocal(t, st)
}

// TestFilesGCS: Files on gs:// (a fake GCS server) reads what the server
// holds, writes through a temporary object that it does not leave, says
// which object is missing, and removes an object, a missing one being no
// error.
func TestFilesGCS(t *testing.T) {
	st, srv := gcsStore(t, "tether-files", "f")
	ctx := context.Background()
	f := &Files{}
	defer f.Close()
	st.put("gs://tether-files/f/in.csv", []byte("1,2\n"))
	if b, err := f.ReadFile(ctx, "gs://tether-files/f/in.csv"); err != nil || string(b) != "1,2\n" {
		t.Fatalf("read %q, %v", b, err)
	}
	if _, err := f.ReadFile(ctx, "gs://tether-files/f/nope.csv"); err == nil || !strings.Contains(err.Error(), st.missing) {
		t.Fatalf("missing object: %v", err)
	}
	const name = "gs://tether-files/f/a.labels"
	if err := f.WriteFile(ctx, name, func(w io.Writer) error { _, err := io.WriteString(w, "0\n1\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, err := srv.Content("tether-files", "f/a.labels"); err != nil || string(b) != "0\n1\n" {
		t.Fatalf("on the server: %q, %v", b, err)
	}
	if got, want := st.files("gs://tether-files/f/"), []string{name, "gs://tether-files/f/in.csv"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("bucket holds %q, want %q", got, want)
	}
	for i := range 2 { // the second time, the object is missing
		if err := f.Remove(ctx, name); err != nil {
			t.Fatalf("removal %d: %v", i+1, err)
		}
	}
	if got, want := st.files("gs://tether-files/f/"), []string{"gs://tether-files/f/in.csv"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after the removal, bucket holds %q, want %q", got, want)
	}
}
