package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestSaveLoadsBack: a saved session loads back whatever its upload
// holds. json.Marshal wrote every <, > and & as 6 bytes (\u003c), and
// /load took no more than an upload, so a saved upload near the limit
// could not be loaded (review 92); a file that is not UTF-8 was saved
// with its bytes replaced by U+FFFD. Now the document has no HTML
// escapes, an upload that is not UTF-8 or whose escapes would pass its
// base64 is saved as upload_base64, and /load takes the largest save
// (loadLimit). Here MaxUpload is 4000 bytes: names with < and & in a
// CSV, a Latin-1 name, and an edge list 3000 bytes long whose comment of
// control characters (\x01: 6 bytes each in JSON) made an 18 000-byte
// save.
func TestSaveLoadsBack(t *testing.T) {
	s := newTest(t, Config{MaxUpload: 4000})
	rows := func(name func(i int) string) string {
		var b strings.Builder
		b.WriteString("name,x,y\n")
		for i := range 20 {
			b.WriteString(name(i) + "," + strings.Repeat("1", i%3+1) + "." + string(rune('0'+i%10)) + "," + string(rune('0'+i*7%10)) + "\n")
		}
		return b.String()
	}
	for _, c := range []struct {
		name, upload string
		base64       bool
	}{
		{"names.csv", rows(func(i int) string { return "<a&b>" + string(rune('a'+i)) }), false},
		{"latin1.csv", rows(func(i int) string { return "caf\xe9" + string(rune('a'+i)) }), true},
		{"g.edges", "# " + strings.Repeat("\x01", 2900) + "\n0 1\n1 2\n2 0\n3 4\n4 5\n5 3\n2 3\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var info sessionInfo
			callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
			base := "/api/sessions/" + info.ID
			if code, b := call(t, s, "POST", base+"/data?name="+c.name, "text/plain", []byte(c.upload)); code != http.StatusOK {
				t.Fatalf("upload: status %d, %s", code, b)
			}
			callJSON(t, s, "POST", base+"/cluster", ClusterRequest{K: 2, Seed: 1}, nil, http.StatusOK)
			code, doc := call(t, s, "GET", base+"/save", "", nil)
			if code != http.StatusOK {
				t.Fatalf("save: status %d, %s", code, doc)
			}
			if bytes.Contains(doc, []byte(`\u003c`)) || bytes.Contains(doc, []byte(`\u0026`)) {
				t.Errorf("the saved session has HTML escapes: %.200s", doc)
			}
			var saved savedSession
			if err := json.Unmarshal(doc, &saved); err != nil {
				t.Fatal(err)
			}
			if got := saved.Source.UploadBase64 != nil; got != c.base64 || string(saved.Source.UploadBase64)+string(saved.Source.Upload) != c.upload {
				t.Errorf("saved as base64 %v (want %v), the upload kept intact %v", got, c.base64, string(saved.Source.UploadBase64)+string(saved.Source.Upload) == c.upload)
			}
			if limit := s.loadLimit(); int64(len(doc)) > limit {
				t.Errorf("a save of %d bytes, beyond load's limit of %d", len(doc), limit)
			}
			var again sessionInfo
			callJSON(t, s, "POST", "/api/sessions", nil, &again, http.StatusCreated)
			if code, b := call(t, s, "POST", "/api/sessions/"+again.ID+"/load", "application/json", doc); code != http.StatusOK {
				t.Fatalf("load: status %d, %s", code, b)
			}
			ss, _ := s.sessions.get(again.ID)
			if string(ss.source.Upload) != c.upload {
				t.Errorf("the loaded upload differs from the one saved")
			}
		})
	}
}

// TestSmallGeneratedData: generated points of n ≤ 10 get the graph an
// upload of as many rows gets (input.FitSpec: K = n − 1, with a warning);
// they failed "knn graph needs 1 ≤ K < n" (review 92).
func TestSmallGeneratedData(t *testing.T) {
	s := newTest(t, Config{})
	for _, n := range []float64{3, 6, 10} {
		var info sessionInfo
		callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
		body, _ := json.Marshal(map[string]any{"generate": map[string]any{"name": "moons", "seed": 1, "params": map[string]float64{"n": n}}})
		code, b := call(t, s, "POST", "/api/sessions/"+info.ID+"/data", "application/json", body)
		if code != http.StatusOK || !strings.Contains(string(b), "neighbours") {
			t.Errorf("moons of %g points: status %d, %s; want 200 with the small-set warning", n, code, b)
		}
	}
}

// TestDegenerateScaleAdvice: points so often identical that the RBF width
// σ cannot come from their distances (blobs with noise 0, a table of
// repeated rows) are refused saying what the request can do; the
// library's "give σ explicitly" named what only the operator can
// (tether serve -sigma; review 92).
func TestDegenerateScaleAdvice(t *testing.T) {
	s := newTest(t, Config{})
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
	base := "/api/sessions/" + info.ID
	body, _ := json.Marshal(map[string]any{"generate": map[string]any{"name": "blobs", "params": map[string]float64{"noise": 0}}})
	for _, c := range []struct {
		what, path, ctype, body, want string
	}{
		{"blobs, noise 0", base + "/data", "application/json", string(body), "give generator blobs a noise above 0"},
		{"repeated rows", base + "/data?name=p.csv", "text/csv", strings.Repeat("1,1\n", 7), "make the rows differ"},
	} {
		code, b := call(t, s, "POST", c.path, c.ctype, []byte(c.body))
		if code != http.StatusBadRequest || !strings.Contains(string(b), c.want) || !strings.Contains(string(b), "tether serve -sigma") || strings.Contains(string(b), "give σ explicitly") {
			t.Errorf("%s: status %d, %s; want 400 saying %q and naming the operator's -sigma, not \"give σ explicitly\"", c.what, code, b, c.want)
		}
	}
}

// TestSummaryNoHTMLEscapes: the summary export writes the names of an
// upload as they are; it wrote each <, > and & as \u003c, \u003e and
// \u0026 (json.MarshalIndent escapes HTML), as saves did before review 92.
func TestSummaryNoHTMLEscapes(t *testing.T) {
	s := newTest(t, Config{})
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
	base := "/api/sessions/" + info.ID
	var csv strings.Builder
	csv.WriteString("name,x,y\n")
	for i := range 12 {
		fmt.Fprintf(&csv, "<a&b>%c,%d.%d,%d\n", 'a'+i, i%2*5, i, i%3)
	}
	if code, b := call(t, s, "POST", base+"/data?name=%3Cdata%26.csv", "text/csv", []byte(csv.String())); code != http.StatusOK {
		t.Fatalf("upload: status %d, %s", code, b)
	}
	callJSON(t, s, "POST", base+"/cluster", ClusterRequest{K: 2, Seed: 1}, nil, http.StatusOK)
	code, doc := call(t, s, "GET", base+"/export/summary", "", nil)
	if code != http.StatusOK {
		t.Fatalf("summary: status %d, %s", code, doc)
	}
	for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
		if bytes.Contains(doc, []byte(esc)) {
			t.Errorf("the summary has the HTML escape %s: %.300s", esc, doc)
		}
	}
	if !bytes.Contains(doc, []byte(`"<a&b>a"`)) || !bytes.Contains(doc, []byte(`"input": "<data&.csv"`)) {
		t.Errorf("the summary lacks the names as uploaded: %.300s", doc)
	}
	var sum summaryReply
	if err := json.Unmarshal(doc, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Names[0] != "<a&b>a" || sum.N != 12 {
		t.Errorf("summary names %q, n %d", sum.Names, sum.N)
	}
}

// TestRepliesCounted: the replies of 64 KiB or more count against the
// bytes in transit, its client's share and the server's budget, as the
// request bodies do, while they are written: a client that does not read
// its saves gets 429 once they pass its share, and the server 503 once
// the replies pass its budget; written, they count no more. Review 116:
// 20 connections not reading a save of 60 MB each took the server from
// 384 MB to 2.3 GB. Here MaxUpload is 100 KiB: the budget is 512 000
// bytes and a client's share 256 000, and the save of a 95 KB upload
// is counted (stuckWriter: a client that reads nothing until released).
// The points reply has no HTML escapes.
func TestRepliesCounted(t *testing.T) {
	s := newTest(t, Config{MaxUpload: 100 << 10, MaxBody: 1 << 10, MaxConstraints: 100})
	if s.bodyBudget != 512000 || s.clientShare != 256000 {
		t.Fatalf("budget %d, share %d; the test assumes 512000 and 256000", s.bodyBudget, s.clientShare)
	}
	var info sessionInfo
	callJSON(t, s, "POST", "/api/sessions", nil, &info, http.StatusCreated)
	var csv strings.Builder
	csv.WriteString("name,x,y\n")
	for i := 0; csv.Len() < 90000; i++ {
		fmt.Fprintf(&csv, "<p%d>,%d.%03d,%d.%03d\n", i, i%97, i%1000, i%89, (7*i)%1000)
	}
	save := "/api/sessions/" + info.ID + "/save"
	if code, b := call(t, s, "POST", "/api/sessions/"+info.ID+"/data?name=p.csv", "text/csv", []byte(csv.String())); code != http.StatusOK {
		t.Fatalf("upload: status %d, %s", code, b)
	}
	code, doc := call(t, s, "GET", save, "", nil)
	if code != http.StatusOK || len(doc) < 90000 || len(doc) > 128000 {
		t.Fatalf("save: status %d, %d bytes; want 200 and 90 000 to 128 000 bytes", code, len(doc))
	}
	code, points := call(t, s, "GET", "/api/sessions/"+info.ID+"/points", "", nil)
	if code != http.StatusOK || !bytes.Contains(points, []byte(`"<p0>"`)) || bytes.Contains(points, []byte(`\u003c`)) {
		t.Errorf("points: status %d; want 200 with the names as they are, <p0>, without \\u003c escapes", code)
	}
	// stuck starts a GET of the save from client, which does not read it.
	var stuck []chan struct{}
	stuckSave := func(client string) {
		r := httptest.NewRequest("GET", save, nil)
		r.Host, r.RemoteAddr = testAddr, client+":1234"
		w := &stuckWriter{header: http.Header{}, writing: make(chan struct{}), release: make(chan struct{})}
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.ServeHTTP(w, r)
		}()
		select {
		case <-w.writing:
		case <-done:
			t.Fatalf("a save for %s returned without writing", client)
		}
		stuck = append(stuck, w.release)
		t.Cleanup(func() { <-done })
	}
	refused := func(client string, want int, msg string) {
		t.Helper()
		code, b := call(t, s, "GET", save, "", nil, "RemoteAddr", client+":1234")
		if code != want || !strings.Contains(string(b), msg) {
			t.Errorf("a save for %s: status %d, %.300s; want %d saying %q", client, code, b, want, msg)
		}
	}
	stuckSave("192.0.2.1")
	stuckSave("192.0.2.1")
	refused("192.0.2.1", http.StatusTooManyRequests, "and this reply, of up to")
	for _, c := range []string{"192.0.2.2", "192.0.2.3", "192.0.2.4"} {
		stuckSave(c)
	}
	refused("192.0.2.5", http.StatusServiceUnavailable, "and this reply, of up to")
	for _, r := range stuck {
		close(r)
	}
	waitFor(t, "the replies uncounted once written", func() bool { return s.bodyHeld.Load() == 0 })
	refused("192.0.2.1", http.StatusOK, "")
}
