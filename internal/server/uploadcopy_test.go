package server

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/tether-sc/tether/internal/testmem"
)

// TestUploadIsNotCopied measures the bytes a 4 MiB upload allocates up to
// the readers: the request is refused by checkApplies (gml_label, an
// option of graphs, on a feature table named by kind), just before
// readData would parse it. The body's buffer (readBodyOf, its
// Content-Length known) is the one the readers get and the session keeps
// (uploadText): 1 × the upload, plus the request's small change. Before,
// handleData copied it into a string and readSource the string into bytes
// again: 3 × (12.6 MB here). The bound, 1.25 ×, leaves 1 MiB for the
// rest of the request, which allocates a few KiB.
func TestUploadIsNotCopied(t *testing.T) {
	const size = 4 << 20
	s := newTest(t, Config{MaxUpload: 2 * size})
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
	path := "/api/sessions/" + info.ID + "/data?name=a.csv&kind=features&gml_label=club"
	body := bytes.Repeat([]byte("1,2,3\n"), size/6)
	// Once to warm the server (its pools and maps), then measured.
	if code, b := call(t, s, "POST", path, "text/csv", body); code != http.StatusBadRequest || !bytes.Contains(b, []byte("gml_label")) {
		t.Fatalf("status %d, %s; want 400 naming gml_label", code, b)
	}
	var code int
	got := testmem.Allocated(func() { code, _ = call(t, s, "POST", path, "text/csv", body) })
	if code != http.StatusBadRequest {
		t.Fatalf("status %d, want 400", code)
	}
	t.Logf("an upload of %d bytes allocated %d bytes before parsing (%.2f ×)", len(body), got, float64(got)/float64(len(body)))
	if limit := uint64(len(body)) * 5 / 4; got > limit {
		t.Errorf("an upload of %d bytes allocated %d bytes before parsing, want at most %d (1.25 ×)", len(body), got, limit)
	}
}
