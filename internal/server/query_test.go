package server

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestUnknownQueryRefused: every endpoint (apiRoutes, so a new one is
// covered) answers a request with a query parameter it does not take
// with 400 naming it and those it takes (none but for an upload to POST
// …/data), before doing anything: POST …/data?x=1 with a JSON body loaded
// the data and ignored x. A JSON body to …/data refuses the upload's
// options too (they would be ignored), a query that does not parse is
// refused, and an upload's own options still pass.
func TestUnknownQueryRefused(t *testing.T) {
	s := newTest(t, Config{})
	id := newSession(t, s, 30)
	concrete := strings.NewReplacer("{id}", id, "{i}", "0", "{j}", "1")
	for _, r := range s.apiRoutes() {
		method, path, _ := strings.Cut(r.pattern, " ")
		code, b := call(t, s, method, concrete.Replace(path)+"?x=1", "application/json", []byte(`{}`))
		takes := "it takes none"
		if r.query != nil {
			takes = "the options are name, kind, label"
		}
		if code != http.StatusBadRequest || !strings.Contains(string(b), `unknown query parameter \"x\" (`+takes) || !strings.Contains(string(b), ") of "+r.pattern) {
			t.Errorf("%s?x=1: status %d, %s; want 400 naming x and saying %q", r.pattern, code, b, takes)
		}
	}
	if info, ok := s.sessions.get(id); !ok || info.data == nil || info.data.Graph.N() != 30 {
		t.Errorf("the session changed under the refused requests")
	}
	for _, c := range []struct {
		path, ctype, body string
		code              int
		want              string
	}{
		{"/data?name=a.json", "application/json", `{"generate":{"name":"moons","seed":1,"params":{"n":20}}}`, http.StatusBadRequest, `query parameters (name) are options of an upload`},
		{"/data?%zz=1", "text/csv", "1,2\n3,4\n5,6\n", http.StatusBadRequest, "does not parse"},
		{"/cluster?k=3", "application/json", `{"method":"njw","k":2}`, http.StatusBadRequest, `unknown query parameter \"k\"`},
		{"/data?name=t.csv&label=last", "text/csv", "1,2,a\n3,4,b\n5,6,a\n7,8,b\n", http.StatusOK, `"name":"t.csv"`},
	} {
		code, b := call(t, s, "POST", "/api/sessions/"+id+c.path, c.ctype, []byte(c.body))
		if code != c.code || !strings.Contains(string(b), c.want) {
			t.Errorf("POST …%s: status %d, %s; want %d with %q", c.path, code, b, c.code, c.want)
		}
	}
}

// TestJSONQueryRefusedWhileBusy: POST …/data with a JSON body and a query
// (the upload's options, which a JSON body gives in its "options") is
// refused 400 at once, while another request holds the session: the
// refusal was made inside handleData, after withSession had waited for
// the session's turn (behind a clustering, up to the compute limit).
func TestJSONQueryRefusedWhileBusy(t *testing.T) {
	s := newTest(t, Config{})
	id := newSession(t, s, 30)
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	s.mux.HandleFunc("POST /api/sessions/{id}/test-hold", s.withSession(func(w http.ResponseWriter, r *http.Request, ss *session) {
		entered <- struct{}{}
		<-release
		w.WriteHeader(http.StatusNoContent)
	}))
	held := callAsync(t, s, "POST", "/api/sessions/"+id+"/test-hold", "application/json", []byte(`{}`))
	<-entered
	refused := callAsync(t, s, "POST", "/api/sessions/"+id+"/data?name=a.json", "application/json; charset=utf-8", []byte(`{"generate":{"name":"moons","seed":1,"params":{"n":20}}}`))
	late := false
	select {
	case got := <-refused:
		if got.code != http.StatusBadRequest || !strings.Contains(string(got.body), "query parameters (name) are options of an upload") {
			t.Errorf("JSON body with a query: status %d, %s; want 400 naming name", got.code, got.body)
		}
	case <-time.After(5 * time.Second):
		t.Errorf("JSON body with a query: no reply after 5 s while the session was busy; want 400 at once")
		late = true
	}
	close(release)
	if got := <-held; got.code != http.StatusNoContent {
		t.Errorf("holding request: status %d, %s", got.code, got.body)
	}
	if late {
		<-refused // the old code's reply, once its turn came
	}
	if info, ok := s.sessions.get(id); !ok || info.data == nil || info.data.Graph.N() != 30 {
		t.Errorf("the session changed under the refused request")
	}
}
