package server

import (
	"encoding/json"
	"io/fs"
	"log"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestSecurityHeaders: every reply, the page's files, the API's replies
// and its errors, says nosniff, the Content-Security-Policy and
// no-referrer, and the downloads (save, exports) are not to be cached
// (review 92: none of these were set).
func TestSecurityHeaders(t *testing.T) {
	s := newTest(t, Config{})
	id := newSession(t, s, 20)
	callJSON(t, s, "POST", "/api/sessions/"+id+"/cluster", ClusterRequest{K: 2}, nil, http.StatusOK)
	for _, c := range []struct {
		path, host string
		download   bool
	}{
		{"/", testAddr, false},
		{"/app.js", testAddr, false},
		{"/api/methods", testAddr, false},
		{"/api/sessions/nope", testAddr, false},
		{"/api/methods", "evil.example:8080", false}, // 403
		{"/api/sessions/" + id + "/save", testAddr, true},
		{"/api/sessions/" + id + "/export/labels", testAddr, true},
		{"/api/sessions/" + id + "/export/constraints", testAddr, true},
		{"/api/sessions/" + id + "/export/summary", testAddr, true},
	} {
		r := httptest.NewRequest("GET", c.path, nil)
		r.Host = c.host
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		h := w.Result().Header
		for k, want := range map[string]string{
			"X-Content-Type-Options":  "nosniff",
			"Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
			"Referrer-Policy":         "no-referrer",
		} {
			if got := h.Get(k); got != want {
				t.Errorf("GET %s (status %d): %s = %q, want %q", c.path, w.Code, k, got, want)
			}
		}
		if c.download && h.Get("Cache-Control") != "no-store" {
			t.Errorf("GET %s: Cache-Control %q, want no-store", c.path, h.Get("Cache-Control"))
		}
	}
}

// TestPageNeedsNoInline: the page works under the Content-Security-Policy
// default-src 'self', which refuses inline script and style: index.html
// has no inline <script> or <style>, no style attribute and no event
// handler attribute, and app.js writes no markup with them (it sets
// styles through the CSSOM, element.style, which the policy allows) and
// evaluates no strings.
func TestPageNeedsNoInline(t *testing.T) {
	read := func(name string) string {
		b, err := fs.ReadFile(static, "static/"+name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	html := read("index.html")
	for _, c := range []struct{ what, re string }{
		{"an inline script", `<script(\s[^>]*)?>\s*[^<\s]`},
		{"a style element", `<style`},
		{"a style attribute", `\sstyle\s*=`},
		{"an event handler attribute", `\son[a-z]+\s*=`},
		{"a javascript: URL", `javascript:`},
	} {
		if m := regexp.MustCompile(`(?i)` + c.re).FindString(html); m != "" {
			t.Errorf("index.html has %s (%q), which the Content-Security-Policy refuses", c.what, m)
		}
	}
	for _, tag := range regexp.MustCompile(`(?i)<script[^>]*>`).FindAllString(html, -1) {
		if !strings.Contains(tag, "src=") {
			t.Errorf("index.html has a script without src (%q)", tag)
		}
	}
	js := read("app.js")
	for _, c := range []struct{ what, re string }{
		{"markup with a style attribute", `(innerHTML|outerHTML|insertAdjacentHTML)[^;\n]*style\s*=`},
		{"markup with an event handler", `(innerHTML|outerHTML|insertAdjacentHTML)[^;\n]*\son[a-z]+\s*=`},
		{"setAttribute of a style or handler", `setAttribute\(\s*["'](style|on[a-z]+)["']`},
		{"eval", `\beval\(`},
		{"new Function", `new\s+Function\(`},
		{"a string given to setTimeout", `setTimeout\(\s*["']`},
	} {
		if m := regexp.MustCompile(c.re).FindString(js); m != "" {
			t.Errorf("app.js has %s (%q), which the Content-Security-Policy refuses", c.what, m)
		}
	}
	if !strings.Contains(html, `<script src="app.js"></script>`) || !strings.Contains(html, `<link rel="stylesheet" href="style.css">`) {
		t.Errorf("index.html no longer loads app.js and style.css as files")
	}
}

// TestMethodNotAllowed: another method on an API endpoint is 405 with an
// Allow header naming the endpoint's methods, where the API's catch-all
// made it 404 (review 92); an unknown path stays 404.
func TestMethodNotAllowed(t *testing.T) {
	s := newTest(t, Config{})
	for _, c := range []struct {
		method, path, allow string
		want                int
	}{
		{"PUT", "/api/methods", "GET, HEAD", http.StatusMethodNotAllowed},
		{"GET", "/api/sessions/x/cluster", "POST", http.StatusMethodNotAllowed},
		{"POST", "/api/sessions/x", "GET, HEAD, DELETE", http.StatusMethodNotAllowed},
		{"GET", "/api/nope", "", http.StatusNotFound},
	} {
		r := httptest.NewRequest(c.method, c.path, nil)
		r.Host = testAddr
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != c.want || w.Result().Header.Get("Allow") != c.allow {
			t.Errorf("%s %s: status %d, Allow %q; want %d, %q", c.method, c.path, w.Code, w.Result().Header.Get("Allow"), c.want, c.allow)
		}
	}
}

// TestWriteJSONUnencodable: a reply JSON cannot encode (a NaN) is a 500
// saying so, and logged; it was a 200 with an empty body, the encoder's
// error dropped (review 92).
func TestWriteJSONUnencodable(t *testing.T) {
	var logged strings.Builder
	s := New(Config{Log: log.New(&logged, "", 0)}, testAddr)
	rec := httptest.NewRecorder()
	s.writeJSON(rec, http.StatusOK, map[string]float64{"ARI": math.NaN()})
	var e errorReply
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
		t.Fatalf("body %q: %v", rec.Body.String(), err)
	}
	if rec.Code != http.StatusInternalServerError || !strings.Contains(e.Error, "could not be encoded as JSON: json: unsupported value: NaN") {
		t.Errorf("status %d, error %q; want 500 saying the reply could not be encoded", rec.Code, e.Error)
	}
	if !strings.Contains(logged.String(), "encoding a 200 reply: json: unsupported value: NaN") {
		t.Errorf("log %q, want the encoding error", logged.String())
	}
	rec = httptest.NewRecorder()
	s.writeJSON(rec, http.StatusCreated, map[string]float64{"ARI": 0.5})
	if rec.Code != http.StatusCreated || rec.Body.String() != "{\"ARI\":0.5}\n" {
		t.Errorf("a finite reply: status %d, body %q", rec.Code, rec.Body.String())
	}
}
