package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tether-sc/tether/internal/server"
)

// TestFGPWCMAutoAfterLoadInBrowser checks fgpwc's M box after a session
// is loaded: the M the server chose and recorded (2k, k = 3: M = 6)
// leaves the box empty, marked "auto", and a new k sends no M (the
// server then picks 2k again: M = 8 for k = 4); an M of another value
// (10) stays in the box, marked "set", and is sent whatever k. The box
// used to keep the saved 6, so that k no longer changed M. And a
// session file whose upload passes the server's upload limit is not
// sent (as an upload that large is not), with the limit in the status.
func TestFGPWCMAutoAfterLoadInBrowser(t *testing.T) {
	base := serveConfig(t, server.Config{MaxUpload: 4096})
	dir := t.TempDir()
	doc := func(name, m string) string {
		file := dir + "/" + name
		d := fmt.Sprintf(`{"tether_session":1,"source":{"generate":{"name":"moons","seed":3,"params":{"n":300}}},"request":{"method":"fgpwc","k":3,"seed":1,"knobs":{"M":%q}}}`, m)
		if err := os.WriteFile(file, []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
		return file
	}
	ctx, cancel := browser(t)
	defer cancel()
	openMoons(t, ctx, base, 300)
	chooseMethod(t, ctx, "fgpwc")
	waitJS(t, ctx, `!window.tether.state.busy`)
	evalJS[bool](t, ctx, `(() => {
		const f = window.fetch, r = window.rec = { cluster: null, load: 0 };
		window.fetch = (u, o) => {
			if (String(u).endsWith("/cluster")) r.cluster = JSON.parse(o.body);
			if (String(u).endsWith("/load")) r.load++;
			return f(u, o);
		};
		return true;
	})()`)
	mBox := `[(document.querySelector('#knobs input[data-knob="M"]') || {}).value, document.getElementById("m-mode").textContent, document.getElementById("m-mode").dataset.mode]`
	load := func(file string) {
		t.Helper()
		parts := evalJS[string](t, ctx, `document.body.dataset.partitions`)
		if err := chromedp.Do(ctx, chromedp.SetUploadFiles(`#load`, []string{file})); err != nil {
			t.Fatal(err)
		}
		waitJS(t, ctx, fmt.Sprintf(`document.body.dataset.partitions !== %q && !window.tether.state.busy`, parts))
	}
	setK := func(k int) {
		t.Helper()
		parts := evalJS[string](t, ctx, `document.body.dataset.partitions`)
		evalJS[bool](t, ctx, fmt.Sprintf(`(() => { const k = document.getElementById("k"); k.value = "%d"; k.dispatchEvent(new Event("change")); return true; })()`, k))
		waitJS(t, ctx, fmt.Sprintf(`document.body.dataset.partitions !== %q && !window.tether.state.busy`, parts))
	}
	sentM := func() (string, bool) {
		t.Helper()
		var knobs map[string]string
		if err := json.Unmarshal([]byte(evalJS[string](t, ctx, `JSON.stringify(window.rec.cluster.knobs || {})`)), &knobs); err != nil {
			t.Fatal(err)
		}
		m, ok := knobs["M"]
		return m, ok
	}

	load(doc("auto.json", "6"))
	if got := evalJS[[]string](t, ctx, mBox); got[0] != "" || got[1] != "auto: 2k = 6" || got[2] != "auto" {
		t.Errorf("session saved with the server's M = 6 for k = 3: M box %q, note %q (%s); want empty, \"auto: 2k = 6\"", got[0], got[1], got[2])
	}
	setK(4)
	if m, ok := sentM(); ok {
		t.Errorf("k = 4 after loading an automatic M: request sent M = %s, want none (the server's 2k)", m)
	}
	if got := evalJS[[]string](t, ctx, `[document.getElementById("result-of").textContent, document.getElementById("m-mode").textContent]`); !strings.Contains(got[0], "M=8") || got[1] != "auto: 2k = 8" {
		t.Errorf("k = 4: result %q, note %q; want the server's M=8 and \"auto: 2k = 8\"", got[0], got[1])
	}

	load(doc("set.json", "10"))
	if got := evalJS[[]string](t, ctx, mBox); got[0] != "10" || got[1] != "set" || got[2] != "set" {
		t.Errorf("session saved with M = 10 for k = 3: M box %q, note %q (%s); want 10, \"set\"", got[0], got[1], got[2])
	}
	setK(5)
	if m, _ := sentM(); m != "10" {
		t.Errorf("k = 5 after loading M = 10: request sent M = %q, want 10", m)
	}

	big := dir + "/big.json"
	up := "x,y\n" + strings.Repeat("1.25,2.5\n", 600) // 5404 bytes > 4096
	d, _ := json.Marshal(map[string]any{"tether_session": 1, "source": map[string]any{"upload": up, "options": map[string]any{}}})
	if err := os.WriteFile(big, d, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.SetUploadFiles(`#load`, []string{big})); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `document.getElementById("status").className === "error"`)
	got := evalJS[[]string](t, ctx, `[document.getElementById("status").textContent, String(window.rec.load)]`)
	if want := fmt.Sprintf("holds an upload of %d bytes, more than this server's upload limit of 4096 bytes: not sent", len(up)); !strings.Contains(got[0], want) || got[1] != "2" {
		t.Errorf("session file with a %d-byte upload: status %q, %s loads sent; want %q and 2 (the two sessions before, not this one)", len(up), got[0], got[1], want)
	}
}
