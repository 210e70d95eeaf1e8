package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tether-sc/tether/internal/server"
)

// evalJS evaluates expr in the page (awaiting a promise) and returns its
// value, failing the test on an error.
func evalJS[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// waitJS polls the boolean expression cond in the page until it holds,
// failing the test after 30 s.
func waitJS(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(25 * time.Millisecond) {
		if evalJS[bool](t, ctx, "!!("+cond+")") {
			return
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("waited 30 s for %s", cond)
		}
	}
}

// openMoons opens the page and generates n moons, waiting for the first
// partition.
func openMoons(t *testing.T, ctx context.Context, base string, n int) {
	t.Helper()
	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(`body[data-ready="1"]`),
		chromedp.SetValue(`#gen-n`, fmt.Sprint(n)),
		chromedp.Click(`#gen-load`),
		chromedp.WaitVisible(`body[data-partitions="1"]`),
	)
	if err != nil {
		t.Fatal(err)
	}
}

// chooseMethod selects the method name in the page's list as a person
// does (the change event).
func chooseMethod(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	evalJS[bool](t, ctx, fmt.Sprintf(`(() => { const m = document.getElementById("method"); m.value = %q; m.dispatchEvent(new Event("change")); return true; })()`, name))
}

// holdClusters makes the page's cluster requests wait until
// window.hold.release() (or their abort), counting those aborted: a long
// run without a server that takes long.
const holdClusters = `(() => {
	const f = window.fetch, h = window.hold = { aborted: 0, waiting: [], release() { const w = h.waiting; h.waiting = []; w.forEach((r) => r()); h.off = true; } };
	window.fetch = (u, o) => {
		if (h.off || !String(u).endsWith("/cluster")) return f(u, o);
		return new Promise((resolve, reject) => {
			const go = () => f(u, o).then(resolve, reject);
			h.waiting.push(go);
			if (o && o.signal) o.signal.addEventListener("abort", () => { h.aborted++; reject(new DOMException("aborted", "AbortError")); });
		});
	};
	return true;
})()`

// TestLongRunInBrowser holds the page's cluster requests as a long run
// (cosc on 20000 points, 41 s) does and checks what the page shows:
// "clustering with <method>… s" and a Cancel button while it runs, the
// previous partition marked stale with its method's name; a method
// chosen while one runs aborts it (no silent queue); Cancel aborts the
// fetch and says so; the next partition is shown as current. The page
// used to show nothing, keep the old figures under the new method's
// name and queue the requests.
func TestLongRunInBrowser(t *testing.T) {
	base := serve(t)
	ctx, cancel := browser(t)
	defer cancel()
	openMoons(t, ctx, base, 300)
	if of := evalJS[string](t, ctx, `document.getElementById("result-of").textContent`); !strings.Contains(of, "fgpwc") {
		t.Errorf("result panel %q: want the method of the partition, fgpwc", of)
	}
	evalJS[bool](t, ctx, holdClusters)

	chooseMethod(t, ctx, "njw")
	waitJS(t, ctx, `!document.getElementById("running").hidden`)
	got := evalJS[[]string](t, ctx, `[document.getElementById("running").textContent, document.getElementById("result-of").textContent, document.body.dataset.stale, String(document.getElementById("partition").classList.contains("stale")), document.getElementById("status").textContent]`)
	if !strings.Contains(got[0], "clustering with njw") || !strings.Contains(got[0], "Cancel") || !strings.Contains(got[1], "fgpwc") || got[2] != "1" || got[3] != "true" {
		t.Errorf("while njw runs: running %q, result %q, stale %q/%q: want \"clustering with njw… s\" and Cancel, the shown partition named fgpwc and marked stale", got[0], got[1], got[2], got[3])
	}
	// fgpwc's warning (no constraints) is not left as if njw's.
	if strings.Contains(got[4], "fgpwc") {
		t.Errorf("while njw runs the status shows fgpwc's warning %q", got[4])
	}

	// Another method while njw runs: njw's request is aborted.
	chooseMethod(t, ctx, "ncut")
	waitJS(t, ctx, `window.hold.aborted === 1 && document.getElementById("running-text").textContent.includes("ncut")`)

	// Cancel: ncut's request is aborted, the page says so and keeps
	// fgpwc's partition marked stale.
	if err := chromedp.Do(ctx, chromedp.Click(`#cancel`)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `window.hold.aborted === 2 && document.getElementById("running").hidden`)
	got = evalJS[[]string](t, ctx, `[document.getElementById("status").textContent, document.getElementById("result-of").textContent, document.body.dataset.stale, document.body.dataset.partitions]`)
	if !strings.Contains(got[0], "cancelled") || !strings.Contains(got[1], "fgpwc") || got[2] != "1" || got[3] != "1" {
		t.Errorf("after Cancel: status %q, result %q, stale %q, partitions %q: want cancelled, fgpwc's partition stale, still one partition", got[0], got[1], got[2], got[3])
	}

	// Released: Cluster gives ncut's partition, shown as current.
	evalJS[bool](t, ctx, `(window.hold.release(), true)`)
	if err := chromedp.Do(ctx, chromedp.Click(`#recluster`), chromedp.WaitVisible(`body[data-partitions="2"]`)); err != nil {
		t.Fatal(err)
	}
	got = evalJS[[]string](t, ctx, `[document.getElementById("result-of").textContent, document.body.dataset.stale, String(document.getElementById("running").hidden)]`)
	if !strings.HasPrefix(got[0], "shown: ncut") || strings.Contains(got[0], "fgpwc") || got[1] != "" || got[2] != "true" {
		t.Errorf("after ncut's partition: result %q, stale %q, running hidden %s: want ncut's, current", got[0], got[1], got[2])
	}
}

// TestErrorMarksStaleInBrowser chooses a method the server refuses
// after a partition and checks that the error is red and the partition
// on screen is marked stale under its own method's name, not shown as
// the failed one's (the page left opplc's figures beside labelprop's
// error).
func TestErrorMarksStaleInBrowser(t *testing.T) {
	base := serve(t)
	ctx, cancel := browser(t)
	defer cancel()
	openMoons(t, ctx, base, 300)
	chooseMethod(t, ctx, "njw")
	waitJS(t, ctx, `document.body.dataset.partitions === "2"`)
	// k = 2000 > n: refused.
	evalJS[bool](t, ctx, `(() => { const k = document.getElementById("k"); k.value = "2000"; k.dispatchEvent(new Event("change")); document.getElementById("recluster").click(); return true; })()`)
	waitJS(t, ctx, `document.getElementById("status").className === "error"`)
	got := evalJS[[]string](t, ctx, `[document.getElementById("status").textContent, document.getElementById("result-of").textContent, document.body.dataset.stale, getComputedStyle(document.getElementById("ari")).color, getComputedStyle(document.getElementById("status")).color]`)
	if !strings.Contains(got[1], "njw · k 2") || !strings.Contains(got[1], "failed") || got[2] != "1" || got[3] == "rgb(34, 34, 34)" || got[4] != "rgb(170, 0, 0)" {
		t.Errorf("after a refused request: status %q, result %q, stale %q, ARI colour %s, status colour %s: want the error in red and njw's figures greyed, named njw k 2", got[0], got[1], got[2], got[3], got[4])
	}
}

// TestLoadSessionRestoresInBrowser loads a saved session (generated
// moons of seed 3, n = 400, the request cvqe, k = 3, MaxIter 50)
// through the page and checks that the bar shows its method, k, knob and
// the generator boxes its name, seed and n, that the partition shown is
// the server's (the loaded session's) and that the session's last
// request is still the saved one: the page used to re-cluster with its
// own defaults (fgpwc, k = 2).
func TestLoadSessionRestoresInBrowser(t *testing.T) {
	base := serve(t)
	file := t.TempDir() + "/session.json"
	const doc = `{"tether_session":1,"source":{"generate":{"name":"moons","seed":3,"params":{"n":400}}},"constraints":[{"i":0,"j":5,"kind":"ml"}],"request":{"method":"cvqe","k":3,"seed":1,"knobs":{"MaxIter":"50"}}}`
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := browser(t)
	defer cancel()
	openMoons(t, ctx, base, 300)
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(`#load`, []string{file}), chromedp.WaitVisible(`body[data-partitions="2"]`)); err != nil {
		t.Fatal(err)
	}
	// Let a re-clustering the page might start after the load finish.
	waitJS(t, ctx, `!window.tether.state.busy && !window.tether.state.syncing`)
	time.Sleep(300 * time.Millisecond)
	waitJS(t, ctx, `!window.tether.state.busy`)
	got := evalJS[[]string](t, ctx, `[document.getElementById("method").value, document.getElementById("k").value,
		(document.querySelector('#knobs input[data-knob="MaxIter"]') || {}).value || "", document.getElementById("gen").value,
		document.getElementById("gen-seed").value, document.getElementById("gen-n").value, document.getElementById("result-of").textContent,
		document.body.dataset.partitions]`)
	if want := []string{"cvqe", "3", "50", "moons", "3", "400"}; !slices.Equal(got[:6], want) || !strings.Contains(got[6], "cvqe · k 3") || got[7] != "2" {
		t.Errorf("after loading the session: method, k, MaxIter, generator, seed, n %q, want %q; result %q (want cvqe · k 3), partitions %s (want 2: the loaded one, no re-clustering with other settings)", got[:6], want, got[6], got[7])
	}
	sid := evalJS[string](t, ctx, `window.tether.state.id`)
	resp, err := http.Get(base + "/api/sessions/" + sid + "/export/summary")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var sum struct {
		Method  string `json:"method"`
		K       int    `json:"k"`
		Labels  []int  `json:"labels"`
		Request struct {
			Method string            `json:"method"`
			K      int               `json:"k"`
			Knobs  map[string]string `json:"knobs"`
		} `json:"request"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&sum); err != nil {
		t.Fatal(err)
	}
	labels := evalJS[[]int](t, ctx, `window.tether.state.labels`)
	if sum.Request.Method != "cvqe" || sum.Request.K != 3 || sum.Request.Knobs["MaxIter"] != "50" || !slices.Equal(labels, sum.Labels) {
		t.Errorf("server's last request %+v, want cvqe k 3 MaxIter 50; page's labels equal the server's: %v", sum.Request, slices.Equal(labels, sum.Labels))
	}
}

// addPair adds the constraint kind ("ml" or "cl") between nodes i and j
// through the page's buttons, as two clicks on the points would.
func addPair(t *testing.T, ctx context.Context, i, j int, kind string) {
	t.Helper()
	evalJS[bool](t, ctx, fmt.Sprintf(`(() => { window.tether.state.sel = [%d, %d]; const b = document.getElementById(%q); b.disabled = false; b.click(); return true; })()`, i, j, kind))
}

// leaveWarns reports whether the page would ask before being left (its
// beforeunload handler cancels the event).
const leaveWarns = `(() => { const e = new Event("beforeunload", { cancelable: true }); window.dispatchEvent(e); return e.defaultPrevented; })()`

// TestSessionGoneInBrowser checks the page's handling of work the
// server may lose: it asks before being left with constraints not saved
// (not after "save session"); a constraint the server refuses is not
// shown as added; when the server has dropped the session, "save
// session" says so instead of failing silently, and the page offers a
// new session with its points and constraints, which it creates. The
// page used to lose the work silently and fail every action.
func TestSessionGoneInBrowser(t *testing.T) {
	base := serve(t)
	ctx, cancel := browser(t)
	defer cancel()
	openMoons(t, ctx, base, 300)
	if evalJS[bool](t, ctx, leaveWarns) {
		t.Errorf("generated data without constraints: the page asks before being left")
	}
	addPair(t, ctx, 0, 299, "ml")
	waitJS(t, ctx, `document.body.dataset.partitions === "2"`)
	if !evalJS[bool](t, ctx, leaveWarns) {
		t.Errorf("a constraint not saved: the page does not ask before being left")
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#x-save`)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.body.dataset.downloads === "1"`)
	if evalJS[bool](t, ctx, leaveWarns) {
		t.Errorf("after save session: the page still asks before being left")
	}

	// A PUT the server refuses (400): the page shows the server's list.
	evalJS[bool](t, ctx, `(() => { const f = window.fetch; window.fetch = (u, o) => { if (o && o.method === "PUT") { window.fetch = f; return Promise.resolve(new Response('{"error":"refused for the test"}', { status: 400 })); } return f(u, o); }; return true; })()`)
	addPair(t, ctx, 1, 298, "cl")
	waitJS(t, ctx, `document.getElementById("status").textContent.includes("refused for the test")`)
	if got := evalJS[[]int](t, ctx, `[window.tether.state.pairs.length, document.querySelectorAll("#cons li").length]`); got[0] != 1 || got[1] != 1 {
		t.Errorf("after a refused constraint: page holds %d pairs, lists %d, want 1 (the server's)", got[0], got[1])
	}

	// The server drops the session.
	sid := evalJS[string](t, ctx, `window.tether.state.id`)
	req, _ := http.NewRequest(http.MethodDelete, base+"/api/sessions/"+sid, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if err := chromedp.Do(ctx, chromedp.Click(`#x-save`)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `!document.getElementById("gone").hidden`)
	if got := evalJS[string](t, ctx, `document.getElementById("status").textContent`); !strings.Contains(got, "no session") {
		t.Errorf("save session of a dropped session: status %q, want the server's \"no session\"", got)
	}
	addPair(t, ctx, 2, 297, "ml")
	waitJS(t, ctx, `document.getElementById("status").className === "error"`)
	if err := chromedp.Do(ctx, chromedp.Click(`#restart`), chromedp.WaitVisible(`body[data-partitions="3"]`)); err != nil {
		t.Fatal(err)
	}
	nid := evalJS[string](t, ctx, `window.tether.state.id`)
	resp, err = http.Get(base + "/api/sessions/" + nid)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var info struct {
		N           int `json:"n"`
		Constraints int `json:"constraints"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
		t.Fatal(err)
	}
	if nid == sid || info.N != 300 || info.Constraints != 2 || !evalJS[bool](t, ctx, `document.getElementById("gone").hidden`) {
		t.Errorf("after \"start a new session\": session %s (was %s), n %d, %d constraints; want a new session of 300 points and the 2 constraints the page held", nid, sid, info.N, info.Constraints)
	}
}

// TestKnobsShownInBrowser checks that the page shows the knobs its
// partition ran with, fgpwc's M included (the server's 2k for k = 2, 4;
// tether cluster picks M itself, so without it the CLI's partition
// differed: QA, moons n 900), with the tether cluster line that
// reproduces it, and that the summary download records M.
func TestKnobsShownInBrowser(t *testing.T) {
	base := serve(t)
	ctx, cancel := browser(t)
	defer cancel()
	openMoons(t, ctx, base, 300)
	got := evalJS[[]string](t, ctx, `[document.getElementById("result-of").textContent, document.getElementById("repro").textContent]`)
	if !strings.Contains(got[0], "fgpwc · k 2 · M=4") || !strings.Contains(got[1], "tether cluster <data> -method fgpwc -k 2 -seed 1 -set M=4") {
		t.Errorf("result %q, CLI line %q: want fgpwc · k 2 · M=4 and its tether cluster line", got[0], got[1])
	}
	var sum struct {
		Request struct {
			Knobs map[string]string `json:"knobs"`
		} `json:"request"`
	}
	if err := json.Unmarshal([]byte(evalJS[string](t, ctx, `fetch(document.getElementById("x-summary").href).then(r => r.text())`)), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Request.Knobs["M"] != "4" {
		t.Errorf("summary's request knobs %v, want M = 4", sum.Request.Knobs)
	}
}

// TestLabelMethodsDisabledInBrowser checks that the methods of partial
// labels alone, which the API cannot give (they always failed from the
// page with "needs partial labels"), are greyed out in the list with a
// title saying why, and the others are not.
func TestLabelMethodsDisabledInBrowser(t *testing.T) {
	base := serve(t)
	ctx, cancel := browser(t)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
		t.Fatal(err)
	}
	got := evalJS[[]string](t, ctx, `[...document.getElementById("method").options].filter(o => o.disabled).map(o => o.value + ": " + o.title)`)
	var names []string
	for _, g := range got {
		name, title, _ := strings.Cut(g, ": ")
		names = append(names, name)
		if !strings.Contains(title, "needs partial labels") {
			t.Errorf("%s is greyed out with the title %q: want it to say it needs partial labels", name, title)
		}
	}
	if want := []string{"labelprop", "mavro", "mavro-k", "noa-ssc"}; !slices.Equal(names, want) {
		t.Errorf("greyed out: %q, want %q", names, want)
	}
}

// TestUploadTooLargeInBrowser starts a server whose upload limit is 1000
// bytes and chooses a 2000-byte file: the page refuses it before sending
// it (an oversized upload, 69 MB, was sent in full, 38 s, before the
// server's refusal), saying the limit, which it also shows beside the
// file box.
func TestUploadTooLargeInBrowser(t *testing.T) {
	base := serveConfig(t, server.Config{MaxUpload: 1000})
	file := t.TempDir() + "/big.csv"
	if err := os.WriteFile(file, []byte("x,y\n"+strings.Repeat("1.25,2.5\n", 222)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := browser(t)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
		t.Fatal(err)
	}
	evalJS[bool](t, ctx, `(() => {
		const c = window.sent = { n: 0 }, f = window.fetch, send = XMLHttpRequest.prototype.send;
		window.fetch = (u, o) => { if (String(u).includes("/data")) c.n++; return f(u, o); };
		XMLHttpRequest.prototype.send = function (b) { c.n++; return send.call(this, b); };
		return true;
	})()`)
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(`#upload`, []string{file})); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.getElementById("status").className === "error"`)
	got := evalJS[[]string](t, ctx, `[document.getElementById("status").textContent, String(window.sent.n), document.getElementById("upload-limit").textContent]`)
	if !strings.Contains(got[0], "more than this server's upload limit of 1000 bytes") || got[1] != "0" || got[2] != "≤ 1000 bytes" {
		t.Errorf("status %q, %s requests sent, limit shown %q: want the limit in the status, nothing sent, the limit beside the box", got[0], got[1], got[2])
	}
}

// TestUploadSameFileTwiceInBrowser checks that the file box is emptied
// after an upload, so that choosing the same file again uploads it
// again (it did nothing: the box's value had not changed).
func TestUploadSameFileTwiceInBrowser(t *testing.T) {
	base := serve(t)
	file := t.TempDir() + "/pts.csv"
	if err := os.WriteFile(file, []byte("x,y\n0,0\n0,1\n1,0\n5,5\n5,6\n6,5\n0.5,0.5\n5.5,5.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := browser(t)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`body[data-ready="1"]`),
		chromedp.SetUploadFiles(`#upload`, []string{file}), chromedp.WaitVisible(`body[data-partitions="1"]`)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `!window.tether.state.busy && !document.getElementById("status").textContent.startsWith("reading")`)
	if v := evalJS[string](t, ctx, `document.getElementById("upload").value`); v != "" {
		t.Errorf("after an upload the file box holds %q: choosing the same file again would do nothing", v)
	}
}

// TestKBoxInBrowser checks the k box: a change re-clusters with the new
// k (it did nothing until Cluster was clicked), its placeholder says an
// empty box means auto, and k = 2.5 is refused on the page with a plain
// message, nothing sent (the page showed a raw Go JSON error).
func TestKBoxInBrowser(t *testing.T) {
	base := serve(t)
	ctx, cancel := browser(t)
	defer cancel()
	openMoons(t, ctx, base, 300)
	setK := func(v string) {
		evalJS[bool](t, ctx, fmt.Sprintf(`(() => { const k = document.getElementById("k"); k.value = %q; k.dispatchEvent(new Event("change")); return true; })()`, v))
	}
	setK("3")
	waitJS(t, ctx, `document.body.dataset.partitions === "2"`)
	if got := evalJS[[]int](t, ctx, `window.tether.state.last.sizes`); len(got) != 3 {
		t.Errorf("after k = 3: %d clusters, want 3", len(got))
	}
	if p := evalJS[string](t, ctx, `document.getElementById("k").placeholder`); p != "auto" {
		t.Errorf("k's placeholder %q, want auto", p)
	}
	evalJS[bool](t, ctx, `(() => { const f = window.fetch; window.clusters = 0; window.fetch = (u, o) => { if (String(u).endsWith("/cluster")) window.clusters++; return f(u, o); }; return true; })()`)
	setK("2.5")
	waitJS(t, ctx, `document.getElementById("status").className === "error"`)
	got := evalJS[[]string](t, ctx, `[document.getElementById("status").textContent, String(window.clusters)]`)
	if !strings.Contains(got[0], "k must be a whole number") || strings.Contains(got[0], "json") || got[1] != "0" {
		t.Errorf("k = 2.5: status %q, %s cluster requests: want a plain message and none sent", got[0], got[1])
	}
}

// TestFirstContactInBrowser checks the page before any data: it says to
// generate or upload data, and so do Cluster and "Suggest pairs" (the
// first did nothing, the second left "cluster first" after the data
// loaded); once data are loaded the hints are gone.
func TestFirstContactInBrowser(t *testing.T) {
	base := serve(t)
	ctx, cancel := browser(t)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`body[data-ready="1"]`), chromedp.Click(`#recluster`), chromedp.Click(`#ask`)); err != nil {
		t.Fatal(err)
	}
	const start = "Generate or upload data to start"
	got := evalJS[[]string](t, ctx, `[document.getElementById("empty").hidden ? "" : document.getElementById("empty").textContent, document.getElementById("status").textContent, document.getElementById("questions").textContent]`)
	for k, name := range []string{"plot", "status after Cluster", "questions after Suggest pairs"} {
		if !strings.Contains(got[k], start) {
			t.Errorf("no data: %s %q, want %q", name, got[k], start)
		}
	}
	if err := chromedp.Do(ctx, chromedp.SetValue(`#gen-n`, "300"), chromedp.Click(`#gen-load`), chromedp.WaitVisible(`body[data-partitions="1"]`)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `!document.getElementById("status").textContent.startsWith("generating")`)
	got = evalJS[[]string](t, ctx, `[String(document.getElementById("empty").hidden), document.getElementById("status").textContent, document.getElementById("questions").textContent]`)
	if got[0] != "true" || strings.Contains(got[1], start) || got[2] != "" {
		t.Errorf("after data loaded: start hint hidden %s, status %q, questions %q: want the hints gone", got[0], got[1], got[2])
	}
}

// TestFaviconInBrowser checks that the page names an icon the server
// serves (every load logged a 404 for /favicon.ico in the console).
func TestFaviconInBrowser(t *testing.T) {
	base := serve(t)
	ctx, cancel := browser(t)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
		t.Fatal(err)
	}
	got := evalJS[[]string](t, ctx, `(async () => {
		const l = document.querySelector('link[rel="icon"]');
		if (!l) return ["no icon link", ""];
		const r = await fetch(l.href);
		return [String(r.status), r.headers.get("Content-Type") || ""];
	})()`)
	if got[0] != "200" || !strings.HasPrefix(got[1], "image/") {
		t.Errorf("the page's icon: %s, %s; want 200 and an image", got[0], got[1])
	}
}

// TestPhoneWidthInBrowser loads data at a phone's width, 375 px: the
// page does not scroll sideways and the plot takes the width, the panel
// under it (the panel stayed 300 px wide beside a 75 px plot).
func TestPhoneWidthInBrowser(t *testing.T) {
	base := serve(t)
	ctx, cancel := browser(t)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(375, 740)); err != nil {
		t.Fatal(err)
	}
	openMoons(t, ctx, base, 300)
	got := evalJS[[]float64](t, ctx, `(() => {
		const p = document.getElementById("plot").getBoundingClientRect(), a = document.querySelector("aside").getBoundingClientRect();
		return [document.documentElement.scrollWidth, p.width, p.height, a.top - p.bottom, a.width];
	})()`)
	if got[0] > 375 || got[1] < 330 || got[2] < 250 || got[3] < 0 || got[4] < 330 {
		t.Errorf("at 375 px: page %v px wide, plot %v×%v, panel %v px below the plot and %v px wide; want no sideways scroll, the plot and the panel under it full width", got[0], got[1], got[2], got[3], got[4])
	}
}

// contrast returns the WCAG contrast ratio of two "rgb(r, g, b)" colours.
func contrast(t *testing.T, a, b string) float64 {
	t.Helper()
	lum := func(c string) float64 {
		var r, g, bl float64
		if _, err := fmt.Sscanf(strings.Replace(c, "rgba", "rgb", 1), "rgb(%f, %f, %f", &r, &g, &bl); err != nil {
			t.Fatalf("colour %q: %v", c, err)
		}
		lin := func(v float64) float64 {
			v /= 255
			if v <= 0.03928 {
				return v / 12.92
			}
			return math.Pow((v+0.055)/1.055, 2.4)
		}
		return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(bl)
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// TestAccessibilityInBrowser checks what QA found missing for a person
// with a screen reader or low vision: every select has a label; a
// constraint's delete button says which pair; the canvas has a name and
// a description; the help and the notes have a contrast of 4.5:1 at
// least on white; the knob boxes do not run into the next knob's name.
func TestAccessibilityInBrowser(t *testing.T) {
	base := serve(t)
	ctx, cancel := browser(t)
	defer cancel()
	openMoons(t, ctx, base, 300)
	addPair(t, ctx, 0, 299, "ml")
	waitJS(t, ctx, `document.body.dataset.partitions === "2"`)
	unlabelled := evalJS[[]string](t, ctx, `[...document.querySelectorAll("select")].filter(s => !s.labels.length || ![...s.labels].some(l => l.textContent.trim())).map(s => s.id)`)
	if len(unlabelled) > 0 {
		t.Errorf("selects without a label: %q", unlabelled)
	}
	got := evalJS[[]string](t, ctx, `[document.querySelector("#cons li button").getAttribute("aria-label") || "", document.getElementById("plot").getAttribute("role") || "",
		document.getElementById("plot").getAttribute("aria-label") || "", document.getElementById("plot").getAttribute("aria-describedby") || "",
		getComputedStyle(document.getElementById("help")).color, getComputedStyle(document.getElementById("notes")).color]`)
	if got[0] != "delete must-link pair 0–299" {
		t.Errorf("the constraint's delete button is named %q, want \"delete must-link pair 0–299\"", got[0])
	}
	if got[1] != "img" || !strings.Contains(got[2], "300 points") || got[3] != "help" {
		t.Errorf("canvas role %q, name %q, described by %q: want img, a name giving the 300 points, the help", got[1], got[2], got[3])
	}
	for k, name := range []string{"help", "notes"} {
		if c := contrast(t, got[4+k], "rgb(255, 255, 255)"); c < 4.5 {
			t.Errorf("%s colour %s: contrast %.2f on white, want ≥ 4.5", name, got[4+k], c)
		}
	}
	gaps := evalJS[[]float64](t, ctx, `(() => { const ls = [...document.querySelectorAll("#knobs label")], g = [];
		for (let i = 1; i < ls.length; i++) if (ls[i].getBoundingClientRect().top === ls[i - 1].getBoundingClientRect().top) g.push(ls[i].getBoundingClientRect().left - ls[i - 1].querySelector("input").getBoundingClientRect().right);
		return g; })()`)
	if len(gaps) == 0 {
		t.Fatal("no knob boxes side by side to measure")
	}
	for _, g := range gaps {
		if g < 4 {
			t.Errorf("a knob's name starts %.1f px after the box before it, want ≥ 4 (gaps %v)", g, gaps)
			break
		}
	}
}

// TestReloadResumesInBrowser reloads the page after a constraint: the
// tab resumes its session, with its points, constraint and partition
// (a reload gave a new, empty session).
func TestReloadResumesInBrowser(t *testing.T) {
	base := serve(t)
	ctx, cancel := browser(t)
	defer cancel()
	openMoons(t, ctx, base, 300)
	addPair(t, ctx, 0, 299, "ml")
	waitJS(t, ctx, `document.body.dataset.partitions === "2"`)
	sid := evalJS[string](t, ctx, `window.tether.state.id`)
	labels := evalJS[[]int](t, ctx, `window.tether.state.labels`)
	// Leave without the prompt (a test cannot answer it).
	evalJS[bool](t, ctx, `(window.tether.state.unsaved = false, true)`)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(`body[data-ready="1"]`)); err != nil {
		t.Fatal(err)
	}
	got := evalJS[[]string](t, ctx, `[window.tether.state.id, String(window.tether.state.n), String(window.tether.state.pairs.length), document.getElementById("result-of").textContent]`)
	if got[0] != sid || got[1] != "300" || got[2] != "1" || !strings.Contains(got[3], "fgpwc") {
		t.Errorf("after a reload: session %s (was %s), %s points, %s constraints, result %q; want the same session, 300 points, 1 constraint, fgpwc's partition", got[0], sid, got[1], got[2], got[3])
	}
	if after := evalJS[[]int](t, ctx, `window.tether.state.labels || []`); !slices.Equal(after, labels) {
		t.Errorf("after a reload the partition shown differs from the one before")
	}
}
