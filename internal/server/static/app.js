// tether serve's page: a canvas scatter of the session's points coloured
// by cluster, constraints by clicks and lasso, undo/redo, and the JSON API
// of docs/api.md. No dependencies; works offline.
"use strict";

const $ = (id) => document.getElementById(id);
const palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
  "#393b79", "#ad494a", "#8ca252", "#de9ed6", "#e7ba52", "#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363"];

const st = {
  id: null, n: 0, xy: null, names: null, truth: null, view: "",
  labels: null, pairs: [], undo: [], redo: [],
  sel: [], lasso: null, group: null, groups: [], // groups: lasso labels, each a list of nodes
  zoom: 1, panX: 0, panY: 0, bounds: null, grid: null,
  busy: false, pending: false, syncing: false, dirty: false, last: null, methods: [],
};

async function api(method, path, body, raw, signal) {
  const opt = { method, headers: {}, signal };
  if (body !== undefined) {
    if (raw) { opt.body = body; } else { opt.body = JSON.stringify(body); opt.headers["Content-Type"] = "application/json"; }
  }
  const r = await fetch("/api/" + path, opt);
  const text = await r.text();
  let v = null;
  try { v = text ? JSON.parse(text) : null; } catch (e) { v = text; }
  if (!r.ok) { const err = new Error(v && v.error ? v.error : r.status + " " + text); err.status = r.status; throw err; }
  return v;
}
// sapi calls the API of the page's session; when the server says the
// session is gone (dropped at the cap, idle, deleted), the page offers to
// start a new one with what it holds (gone).
async function sapi(method, path, body, raw, signal) {
  try {
    return await api(method, "sessions/" + st.id + (path ? "/" + path : ""), body, raw, signal);
  } catch (e) {
    if (e.status === 404 && /^no session/.test(e.message)) gone(e.message);
    throw e;
  }
}

// gone shows that the server no longer holds the session, with a button
// to start a new one with the page's data source and constraints.
function gone(msg) {
  $("gone-text").textContent = msg + ".";
  $("restart").textContent = st.source || st.pairs.length
    ? "Start a new session with these points" + (st.pairs.length ? " and " + st.pairs.length + " constraints" : "")
    : "Start a new session";
  $("gone").hidden = false;
}

// restart creates a new session, sends it the data the page loaded last
// (the generator's request, the uploaded file, the loaded session; the
// server's own data come with the new session) and the constraints the
// page shows, and re-clusters.
async function restart() {
  const pairs = st.pairs, src = st.source;
  const s = await api("POST", "sessions");
  st.id = s.id;
  sessionStorage.setItem("tether-session", s.id);
  $("gone").hidden = true;
  let r = s;
  if (src && src.kind === "generate") r = await sapi("POST", "data", src.body);
  else if (src && src.kind === "upload") r = await sapi("POST", "data?" + src.query, src.bytes, true);
  else if (src && src.kind === "load") r = await sapi("POST", "load", src.text, true);
  if (pairs.length && (src || s.n)) await sapi("PUT", "constraints", { pairs });
  if (src || s.n) await loadPoints();
  st.unsaved = pairs.length > 0 || (src && src.kind === "upload");
  return r;
}
$("restart").onclick = () => busyDo("starting a new session…", restart);

// The page warns before it is left with work the server would lose with
// the page's session: constraints or an upload not saved since.
window.addEventListener("beforeunload", (e) => {
  if (st.unsaved && (st.pairs.length || (st.source && st.source.kind === "upload"))) { e.preventDefault(); e.returnValue = ""; }
});

// The downloads are fetched first, so that an error (the session gone)
// is shown rather than saved as the file; a saved session clears the
// warning on leaving.
for (const id of ["x-labels", "x-cons", "x-summary", "x-save"]) {
  $(id).addEventListener("click", async (e) => {
    e.preventDefault();
    const a = $(id);
    if (!st.id || !a.getAttribute("href")) { status("nothing to download yet: generate or upload data first", "error"); return; }
    try {
      const r = await fetch(a.href);
      if (!r.ok) {
        const text = await r.text();
        let msg = r.status + " " + text;
        try { msg = JSON.parse(text).error || msg; } catch (err) { /* not JSON */ }
        if (r.status === 404 && /^no session/.test(msg)) gone(msg);
        throw new Error(msg);
      }
      const blob = await r.blob(), m = /filename="?([^";]+)"?/.exec(r.headers.get("Content-Disposition") || "");
      const url = URL.createObjectURL(blob), tmp = document.createElement("a");
      tmp.href = url; tmp.download = m ? m[1] : id.slice(2);
      document.body.appendChild(tmp); tmp.click(); tmp.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      if (id === "x-save") st.unsaved = false;
      document.body.dataset.downloads = (+(document.body.dataset.downloads || 0) + 1).toString();
    } catch (err) { status(a.textContent + ": " + err.message, "error"); }
  });
}

// status shows msg below the figures: kind "error" (a request failed, in
// red), "warn" (the warnings of the library or of the data) or "" (a
// message of progress).
function status(msg, kind) {
  const s = $("status");
  s.textContent = msg || "";
  s.className = msg ? kind || "" : "";
}
// notes shows the notes of the data and the partition (documented choices:
// the column read as the labels, what auto chose), below the status and
// less prominent than its errors and warnings.
function notes(msg) { $("notes").textContent = msg || ""; }
// lines joins a reply's list of messages, one a line.
const lines = (list) => (list && list.length ? list.join("\n") : "");

// ---- view transform -------------------------------------------------------

const canvas = $("plot");
const ctx = canvas.getContext("2d");

function resize() {
  const r = canvas.getBoundingClientRect(), d = window.devicePixelRatio || 1;
  canvas.width = Math.max(1, Math.round(r.width * d));
  canvas.height = Math.max(1, Math.round(r.height * d));
  buildGrid();
  draw();
}

function computeBounds() {
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let i = 0; i < st.n; i++) {
    const x = st.xy[2 * i], y = st.xy[2 * i + 1];
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  if (!(x1 > x0)) { x0 -= 1; x1 += 1; }
  if (!(y1 > y0)) { y0 -= 1; y1 += 1; }
  st.bounds = { x0, x1, y0, y1 };
}

// toScreen returns the CSS-pixel position of node i on the canvas.
function toScreen(i) {
  const pos = positions();
  return [pos[2 * i], pos[2 * i + 1]];
}

// positions returns the CSS-pixel positions of all nodes (x₀, y₀, x₁, …),
// recomputed after a pan, zoom or resize: one pass over the points.
function positions() {
  if (st.pos && !st.posDirty) return st.pos;
  const b = st.bounds, r = canvas.getBoundingClientRect(), pad = 20;
  const s = Math.min((r.width - 2 * pad) / (b.x1 - b.x0), (r.height - 2 * pad) / (b.y1 - b.y0)) * st.zoom;
  const cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2, ox = r.width / 2 + st.panX, oy = r.height / 2 + st.panY;
  if (!st.pos || st.pos.length !== 2 * st.n) st.pos = new Float32Array(2 * st.n);
  const pos = st.pos, xy = st.xy;
  for (let i = 0; i < st.n; i++) {
    pos[2 * i] = ox + (xy[2 * i] - cx) * s;
    pos[2 * i + 1] = oy - (xy[2 * i + 1] - cy) * s;
  }
  st.posDirty = false; st.grid = null;
  return pos;
}

// buildGrid indexes the points' screen positions in 8-pixel cells so that
// hover and click cost O(points nearby), not O(n); it is rebuilt only
// when the view moved and the mouse needs it.
function buildGrid() { st.posDirty = true; st.grid = null; }
function grid() {
  if (!st.n) return null;
  const pos = positions();
  if (st.grid) return st.grid;
  const cell = 8, cells = new Map();
  for (let i = 0; i < st.n; i++) {
    const key = Math.floor(pos[2 * i] / cell) * 1048576 + Math.floor(pos[2 * i + 1] / cell);
    let a = cells.get(key);
    if (!a) cells.set(key, a = []);
    a.push(i);
  }
  return st.grid = { cell, cells, pos };
}

function nearest(x, y, radius) {
  const g = grid();
  if (!g) return -1;
  const { cell, cells, pos } = g;
  let best = -1, bd = radius * radius;
  const cx = Math.floor(x / cell), cy = Math.floor(y / cell), r = Math.ceil(radius / cell);
  for (let gx = cx - r; gx <= cx + r; gx++) for (let gy = cy - r; gy <= cy + r; gy++) {
    const a = cells.get(gx * 1048576 + gy);
    if (!a) continue;
    for (const i of a) {
      const dx = pos[2 * i] - x, dy = pos[2 * i + 1] - y, d = dx * dx + dy * dy;
      if (d <= bd) { bd = d; best = i; }
    }
  }
  return best;
}

// ---- drawing --------------------------------------------------------------

let frame = 0;
function draw() {
  if (frame) return;
  frame = requestAnimationFrame(() => { frame = 0; paint(); });
}

function paint() {
  const t0 = performance.now();
  paintPoints();
  window.tether.paintMs = performance.now() - t0;
}

function paintPoints() {
  const d = window.devicePixelRatio || 1;
  ctx.setTransform(d, 0, 0, d, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!st.n) return;
  const pos = positions(), size = st.n > 20000 ? 2 : st.n > 3000 ? 3 : 5, h = size / 2;
  // One path per colour: few state changes, fast at 10⁵ points.
  const colours = st.labels ? palette.length : 1, w = canvas.width / d, hh = canvas.height / d;
  for (let c = 0; c < colours; c++) {
    ctx.fillStyle = st.labels ? palette[c] : "#888";
    ctx.beginPath();
    for (let i = 0; i < st.n; i++) {
      if (st.labels && st.labels[i] % palette.length !== c) continue;
      const x = pos[2 * i], y = pos[2 * i + 1];
      if (x < -h || y < -h || x > w + h || y > hh + h) continue;
      ctx.rect(x - h, y - h, size, size);
    }
    ctx.fill();
  }
  // Constraints as lines (the last 2000).
  ctx.lineWidth = 1.2;
  for (const p of st.pairs.slice(-2000)) {
    ctx.strokeStyle = p.kind === "ml" ? "rgba(0,150,90,.8)" : "rgba(200,40,40,.8)";
    ctx.setLineDash(p.kind === "ml" ? [] : [4, 3]);
    ctx.beginPath();
    ctx.moveTo(pos[2 * p.i], pos[2 * p.i + 1]);
    ctx.lineTo(pos[2 * p.j], pos[2 * p.j + 1]);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  ctx.strokeStyle = "#000";
  ctx.lineWidth = 2;
  for (const i of st.sel) { ctx.beginPath(); ctx.arc(pos[2 * i], pos[2 * i + 1], 7, 0, 2 * Math.PI); ctx.stroke(); }
  if (st.group) {
    ctx.strokeStyle = "rgba(0,0,0,.5)"; ctx.lineWidth = 1;
    for (const i of st.group) { ctx.beginPath(); ctx.arc(pos[2 * i], pos[2 * i + 1], 4, 0, 2 * Math.PI); ctx.stroke(); }
  }
  if (st.lasso && st.lasso.length > 1) {
    ctx.strokeStyle = "#333"; ctx.setLineDash([3, 3]);
    ctx.beginPath(); ctx.moveTo(st.lasso[0][0], st.lasso[0][1]);
    for (const [x, y] of st.lasso) ctx.lineTo(x, y);
    ctx.closePath(); ctx.stroke(); ctx.setLineDash([]);
  }
}

// ---- mouse ----------------------------------------------------------------

let drag = null;
canvas.addEventListener("mousedown", (e) => {
  const r = canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
  drag = { x, y, x0: x, y0: y, moved: false, lasso: e.shiftKey };
  if (drag.lasso) st.lasso = [[x, y]];
});
window.addEventListener("mousemove", (e) => {
  const r = canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
  if (drag) {
    if (Math.abs(x - drag.x0) + Math.abs(y - drag.y0) > 3) drag.moved = true;
    if (drag.lasso) { st.lasso.push([x, y]); draw(); }
    else if (drag.moved) { st.panX += x - drag.x; st.panY += y - drag.y; drag.x = x; drag.y = y; buildGrid(); draw(); }
    return;
  }
  if (e.target !== canvas) { $("tip").hidden = true; return; }
  const i = nearest(x, y, 8), tip = $("tip");
  if (i < 0) { tip.hidden = true; return; }
  const name = st.names ? " · " + st.names[i] : "";
  const c = st.labels ? " · cluster " + st.labels[i] : "";
  const t = st.truth ? " · reference " + st.truth[i] : "";
  tip.textContent = "node " + i + name + c + t;
  tip.style.left = (x + 12) + "px"; tip.style.top = (y + 12) + "px"; tip.hidden = false;
});
window.addEventListener("mouseup", (e) => {
  if (!drag) return;
  const d = drag; drag = null;
  if (d.lasso) { finishLasso(); return; }
  if (d.moved) return;
  const i = nearest(d.x0, d.y0, 8);
  if (i >= 0) pick(i);
});
canvas.addEventListener("wheel", (e) => {
  e.preventDefault();
  const r = canvas.getBoundingClientRect(), x = e.clientX - r.left - r.width / 2, y = e.clientY - r.top - r.height / 2;
  const f = Math.exp(-e.deltaY * 0.0015);
  st.panX = x - (x - st.panX) * f; st.panY = y - (y - st.panY) * f; st.zoom *= f;
  buildGrid(); draw();
}, { passive: false });

function pick(i) {
  if (st.sel.length === 2) st.sel = [];
  if (st.sel[0] === i) st.sel = []; else st.sel.push(i);
  const [a, b] = st.sel;
  $("pair").textContent = st.sel.length === 0 ? "click two points" : st.sel.length === 1 ? "node " + a + ": click another" : "nodes " + a + " and " + b;
  $("ml").disabled = $("cl").disabled = st.sel.length !== 2;
  draw();
}

function inPolygon(x, y, poly) {
  let inside = false;
  for (let a = 0, b = poly.length - 1; a < poly.length; b = a++) {
    const [xa, ya] = poly[a], [xb, yb] = poly[b];
    if ((ya > y) !== (yb > y) && x < (xb - xa) * (y - ya) / (yb - ya) + xa) inside = !inside;
  }
  return inside;
}

function finishLasso() {
  const poly = st.lasso; st.lasso = null;
  if (!poly || poly.length < 3) { draw(); return; }
  const pos = positions(), g = [];
  for (let i = 0; i < st.n; i++) if (inPolygon(pos[2 * i], pos[2 * i + 1], poly)) g.push(i);
  st.group = g.length ? g : null;
  $("lasso-info").textContent = g.length + " points";
  $("together").disabled = $("this-label").disabled = g.length < 2 && !(g.length === 1 && st.groups.length);
  draw();
}

// ---- constraints, undo/redo -------------------------------------------------

const sameKey = (p) => Math.min(p.i, p.j) + "," + Math.max(p.i, p.j);

// change replaces the constraint list with next (undoable), sends it and
// re-clusters.
async function change(next) {
  st.undo.push(st.pairs); st.redo = [];
  st.unsaved = true;
  await setPairs(next);
}

// setPairs shows the list next at once and sends it to the server, one PUT
// at a time: a change made while a PUT is in flight is sent when that one
// returns, only the latest list (each PUT carries the whole list), so quick
// clicks neither queue on the server (it lets only 4 requests wait for a
// session) nor come back out of order; then one re-clustering.
async function setPairs(next) {
  st.pairs = next;
  renderPairs();
  if (st.syncing) { st.dirty = true; return; }
  // A partition in flight is of the old list: stop it, so that the PUT
  // does not wait behind it.
  supersede();
  st.syncing = true;
  try {
    do {
      st.dirty = false;
      const r = await sapi("PUT", "constraints", { pairs: st.pairs });
      st.stored = r.pairs;
      if (!st.dirty) { st.pairs = r.pairs; renderPairs(); }
    } while (st.dirty);
    st.syncing = false;
    await recluster();
  } catch (e) {
    // The server kept its list: show that one, not the refused change.
    status("constraints not stored: " + e.message, "error");
    if (st.stored && $("gone").hidden) { st.pairs = st.stored; renderPairs(); }
  }
  st.syncing = false;
}

function addPairs(add) {
  const m = new Map(st.pairs.map((p) => [sameKey(p), p]));
  for (const p of add) m.set(sameKey(p), p);
  return change([...m.values()]);
}

function renderPairs() {
  $("undo").disabled = !st.undo.length; $("redo").disabled = !st.redo.length;
  $("ncons").textContent = st.pairs.length ? "(" + st.pairs.length + ")" : "";
  const ol = $("cons"); ol.textContent = "";
  st.pairs.slice(-200).forEach((p) => {
    const li = document.createElement("li");
    li.innerHTML = '<span class="' + p.kind + '">' + p.kind + "</span> " + p.i + " – " + p.j + " ";
    const b = document.createElement("button"); b.textContent = "delete";
    b.setAttribute("aria-label", "delete " + (p.kind === "ml" ? "must-link" : "cannot-link") + " pair " + p.i + "–" + p.j);
    b.onclick = () => change(st.pairs.filter((q) => q !== p));
    li.appendChild(b); ol.appendChild(li);
  });
  draw();
}

$("ml").onclick = () => { const [i, j] = st.sel; pick(i); pick(i); addPairs([{ i, j, kind: "ml" }]); };
$("cl").onclick = () => { const [i, j] = st.sel; pick(i); pick(i); addPairs([{ i, j, kind: "cl" }]); };
$("undo").onclick = () => { if (st.undo.length) { st.redo.push(st.pairs); setPairs(st.undo.pop()); } };
$("redo").onclick = () => { if (st.redo.length) { st.undo.push(st.pairs); setPairs(st.redo.pop()); } };
$("clear").onclick = () => { st.groups = []; renderGroups(); change([]); };

// The lasso: "all together" chains the group by must-links to its first
// point; "this label" does the same and adds a cannot-link from it to the
// first point of every other labelled group (a label is a group).
function star(g) { return g.slice(1).map((j) => ({ i: g[0], j, kind: "ml" })); }
$("together").onclick = () => { const g = st.group; st.group = null; addPairs(star(g)); lassoDone(); };
$("this-label").onclick = () => {
  const g = st.group; st.group = null;
  let idx = +$("label-of").value;
  if (idx >= st.groups.length) { st.groups.push([g[0]]); idx = st.groups.length - 1; }
  const head = st.groups[idx][0], members = [head, ...g.filter((i) => i !== head)];
  const add = star(members);
  st.groups.forEach((o, k) => { if (k !== idx) add.push({ i: head, j: o[0], kind: "cl" }); });
  renderGroups(); addPairs(add); lassoDone();
};
function lassoDone() { $("lasso-info").textContent = "shift-drag around points"; $("together").disabled = $("this-label").disabled = true; }
function renderGroups() {
  const s = $("label-of"); s.textContent = "";
  st.groups.forEach((g, k) => s.add(new Option("label " + (k + 1), k)));
  s.add(new Option("new label", st.groups.length));
  s.value = st.groups.length; // a new label unless the person picks one
}

// ---- clustering -------------------------------------------------------------

// request returns the cluster request of the bar: the method, k, the
// knobs in its boxes and, after a loaded session, that session's knobs
// without a box (for the same method), seed and graph options.
function request() {
  const method = $("method").value, knobs = {}, x = st.loaded;
  if (x && x.method === method) Object.assign(knobs, x.knobs);
  for (const inp of $("knobs").querySelectorAll("input")) {
    if (inp.value.trim() !== "") knobs[inp.dataset.knob] = inp.value.trim();
    else delete knobs[inp.dataset.knob];
  }
  const kText = $("k").value.trim();
  $("k").removeAttribute("aria-invalid");
  if ((kText !== "" && !/^\d+$/.test(kText)) || $("k").validity.badInput) {
    $("k").setAttribute("aria-invalid", "true");
    status("k must be a whole number of clusters (1, 2, 3, …), or empty for auto (estimated by the methods that can); not " + JSON.stringify($("k").value), "error");
    return null;
  }
  const req = { method, k: +kText || 0, seed: 1, knobs };
  if (x) for (const f of ["seed", "regularize", "disconnected"]) if (x[f] !== undefined) req[f] = x[f];
  return req;
}

// restoreRequest sets the bar to a loaded session's cluster request req
// (method, k, knobs) and the generator boxes to its source (name, seed,
// n), so that the page re-clusters as the session did.
function restoreRequest(req, source) {
  const g = source && source.generate;
  if (g && st.gens.some((x) => x.name === g.name)) {
    $("gen").value = g.name;
    if (g.seed !== undefined) $("gen-seed").value = g.seed;
    if (g.params && g.params.n !== undefined) $("gen-n").value = g.params.n;
  }
  st.loaded = null;
  if (!req) return;
  const method = req.method || "fgpwc";
  if (!st.methods.some((m) => m.name === method)) return;
  $("method").value = method;
  renderKnobs();
  $("k").value = req.k ? String(req.k) : "";
  const knobs = Object.assign({}, req.knobs);
  // The server records the M it chose (2k) among the knobs: that one
  // stays automatic (follows k); an M of another value was set and
  // stays in its box.
  if (method === "fgpwc" && knobs.M !== undefined && String(knobs.M) === String(autoM(req.k || 0))) delete knobs.M;
  for (const inp of $("knobs").querySelectorAll("input")) inp.value = knobs[inp.dataset.knob] !== undefined ? knobs[inp.dataset.knob] : "";
  showKnobModes();
  st.loaded = { method, k: req.k || 0, knobs, seed: req.seed, regularize: req.regularize, disconnected: req.disconnected };
}

// autoM is the M the server gives fgpwc when the request does not (its
// fgpwcServerM without -fgpwc-m): 2k, at most 200, or 32 for the
// automatic k (the cap n − 1 aside).
const autoM = (k) => k > 0 ? Math.min(2 * k, 200) : 32;

// showKnobModes says beside fgpwc's M box whether M is automatic (the
// box empty: 2k, following k) or set (the box's value, whatever k).
function showKnobModes() {
  const inp = $("knobs").querySelector('input[data-knob="M"]'), note = $("m-mode");
  if (!inp || !note) return;
  const k = +$("k").value || 0;
  if (inp.value.trim() === "") {
    note.textContent = "auto: 2k = " + autoM(k);
    note.dataset.mode = "auto";
    note.title = "M follows k (the server's 2k); type a value to fix it";
  } else {
    note.textContent = "set";
    note.dataset.mode = "set";
    note.title = "M is fixed at " + inp.value.trim() + " whatever k; empty the box for 2k";
  }
}

const startHint = "Generate or upload data to start: Generate (a generated data set) or a file in the bar above.";

// describe names a cluster request or reply as the result panel shows
// it: the method, k ("auto" for 0) and the knobs it ran with.
function describe(method, k, knobs) {
  const kv = Object.entries(knobs || {}).sort(([a], [b]) => a < b ? -1 : 1).map(([n, v]) => n + "=" + v);
  return method + " · k " + (k ? k : "auto") + (kv.length ? " · " + kv.join(" ") : "");
}

// stale marks the partition on screen as not the current request's
// (one runs, failed or was cancelled): the figures and the points are
// greyed and the panel says whose they are.
function stale(on, why) {
  $("partition").classList.toggle("stale", on);
  $("plot-wrap").classList.toggle("stale", on && !!st.labels);
  document.body.dataset.stale = on ? "1" : "";
  const of = st.shown ? "shown: " + st.shown : "";
  $("result-of").textContent = on && why ? (of ? of + " (" + why + ")" : why) : of;
}

// running shows the request in flight with its elapsed seconds and the
// Cancel button; running(null) hides it.
let runTimer = 0;
function running(method) {
  clearInterval(runTimer); runTimer = 0;
  $("running").hidden = !method;
  if (!method) return;
  const t0 = performance.now(), tick = () => { $("running-text").textContent = "clustering with " + method + "… " + ((performance.now() - t0) / 1000).toFixed(0) + " s"; };
  tick(); runTimer = setInterval(tick, 500);
}

// supersede aborts the cluster request in flight, if any, without a
// message: a newer request (or a change of data or constraints, after
// which it re-clusters) takes its place. The server stops the work of a
// request whose client left.
function supersede() {
  const c = st.ctrl;
  if (!c) return;
  st.ctrl = null; st.busy = false;
  c.abort();
  running(null);
}

// recluster asks for a new partition; a request made while one runs
// aborts that one (the server stops its work) and takes its place.
async function recluster() {
  if (!st.id || !st.n) { status(startHint); return; }
  const req = request();
  if (!req) return;
  supersede();
  const ctrl = new AbortController();
  st.ctrl = ctrl; st.busy = true;
  running(req.method);
  stale(true, "clustering with " + req.method + "…");
  // The warnings and notes shown are the previous partition's (a
  // message of progress, busyDo's, stays).
  if ($("status").className) { status(""); notes(""); }
  const t0 = performance.now();
  try {
    const r = await sapi("POST", "cluster", req, false, ctrl.signal);
    if (st.ctrl !== ctrl) return;
    showReply(r, req.knobs, (performance.now() - t0).toFixed(0) + " ms total", req.k);
  } catch (e) {
    if (st.ctrl !== ctrl) return; // superseded: the newer request reports
    if (e.name === "AbortError") {
      status("cancelled: " + req.method + " stopped");
      stale(true, "clustering with " + req.method + " cancelled");
    } else {
      status(req.method + ": " + e.message, "error"); notes("");
      stale(true, "clustering with " + req.method + " failed");
    }
  } finally {
    if (st.ctrl === ctrl) { st.ctrl = null; st.busy = false; running(null); }
  }
}
// showReply shows the partition r (a cluster reply) as current: its
// labels, figures, the method, k and knobs it ran with (r.knobs, else
// knobs, those sent), its warnings and notes.
function showReply(r, knobs, total, k) {
  st.labels = r.labels; st.last = r;
  st.shown = describe(r.method, r.k, r.knobs || knobs);
  const set = Object.entries(r.knobs || knobs || {}).sort(([a], [b]) => a < b ? -1 : 1).map(([n, v]) => " -set " + n + "=" + v).join("");
  $("repro").textContent = "CLI: tether cluster <data> -method " + r.method + " -k " + (k !== undefined ? k : r.k) + " -seed " + (st.loaded && st.loaded.seed !== undefined ? st.loaded.seed : 1) + set +
    (r.constraints[0] + r.constraints[1] ? " -constraints constraints.csv" : "");
  const f = r.figures || {};
  $("ari").textContent = f.ARI !== undefined ? f.ARI.toFixed(4) : "–";
  $("nmi").textContent = f.NMI !== undefined ? f.NMI.toFixed(4) : "–";
  $("violations").textContent = r.violated_ml + " of " + r.constraints[0] + " ml, " + r.violated_cl + " of " + r.constraints[1] + " cl";
  $("sizes").textContent = r.sizes.join(" ");
  $("time").textContent = r.ms.toFixed(0) + " ms server (" + r.mode + ")" + (total ? ", " + total : "");
  stale(false);
  document.body.dataset.partitions = (+(document.body.dataset.partitions || 0) + 1).toString();
  status(lines(r.warnings), "warn");
  notes(lines(r.notes));
  draw();
}
$("cancel").onclick = () => { if (st.ctrl) st.ctrl.abort(); };
$("recluster").onclick = () => recluster();
$("k").onchange = () => { showKnobModes(); recluster(); };
$("method").onchange = () => { renderKnobs(); recluster(); };

// The main knobs of each method shown in the bar (all others through the
// API); an empty box means the default.
const mainKnobs = { fgpwc: ["M", "SigmaML", "SigmaCL", "MaxIter"] };
function renderKnobs() {
  const m = st.methods.find((x) => x.name === $("method").value), box = $("knobs");
  box.textContent = "";
  if (!m) return;
  const names = mainKnobs[m.name] || (m.knobs || []).filter((k) => k.range).slice(0, 3).map((k) => k.name);
  for (const k of (m.knobs || []).filter((k) => names.includes(k.name))) {
    const l = document.createElement("label"); l.title = k.doc;
    l.append(k.name + " ");
    const inp = document.createElement("input"); inp.dataset.knob = k.name; inp.placeholder = "default";
    inp.onchange = () => { showKnobModes(); recluster(); };
    l.appendChild(inp);
    if (m.name === "fgpwc" && k.name === "M") {
      inp.placeholder = "auto";
      const note = document.createElement("small"); note.id = "m-mode"; note.className = "hint";
      l.append(" ", note);
    }
    box.appendChild(l);
  }
  showKnobModes();
}

// ---- data -----------------------------------------------------------------

// loadPoints reads the session's points and constraints and
// re-clusters, or, given last (a loaded session's partition), shows it.
async function loadPoints(last) {
  const p = await sapi("GET", "points");
  st.n = p.n; st.xy = p.xy; st.names = p.names || null; st.truth = p.truth || null; st.view = p.view;
  st.labels = null; st.shown = null; st.sel = []; st.group = null; st.groups = []; st.undo = []; st.redo = [];
  st.zoom = 1; st.panX = st.panY = 0;
  const c = await sapi("GET", "constraints");
  st.pairs = c.pairs; st.stored = c.pairs;
  computeBounds(); buildGrid(); renderPairs(); renderGroups();
  $("empty").hidden = st.n > 0;
  // The hints of the data before are stale.
  $("questions").textContent = ""; $("pair").textContent = "click two points"; lassoDone();
  $("ml").disabled = $("cl").disabled = true;
  canvas.setAttribute("aria-label", "scatter plot of " + p.n + " points of " + p.name + ", coloured by cluster");
  $("help").textContent = p.name + " · " + p.n + " points · view: " + p.view + " · click two points: must-link/cannot-link · shift-drag: lasso · wheel: zoom · drag: pan";
  for (const [id, path] of [["x-labels", "export/labels"], ["x-cons", "export/constraints"], ["x-summary", "export/summary"], ["x-save", "save"]])
    $(id).href = "/api/sessions/" + st.id + "/" + path;
  if (last) showReply(last, {}, "", st.loaded ? st.loaded.k : undefined); else await recluster();
}

// busyDo shows msg while f runs, then the warnings of the data reply f
// returns (a small table's neighbour count…) before the status the
// re-clustering left, and its notes (a names column…) before the
// re-clustering's notes; an error replaces all.
async function busyDo(msg, f) {
  supersede();
  status(msg);
  notes("");
  try {
    const r = await f();
    const after = $("status").textContent === msg ? "" : $("status").textContent;
    const kind = $("status").className === "error" ? "error" : "warn";
    status([lines(r && r.warnings), after].filter((x) => x).join("\n"), kind);
    notes([lines(r && r.notes), $("notes").textContent].filter((x) => x).join("\n"));
  } catch (e) { status(e.message, "error"); notes(""); }
}

// weightOptions returns the options of the weights boxes, normalize
// weights and self loops, for the next data loaded, generated or
// uploaded (docs/api.md: normalize_weights, self_loops); the server
// checks the self loops' weight.
function weightOptions() {
  const o = {};
  if ($("normalize").checked) o.normalize_weights = true;
  const loops = $("self-loops").value.trim();
  if (loops !== "") o.self_loops = loops;
  return o;
}

// showOptions sets the boxes of the upload and of the weights to the
// options o of a loaded session's data (docs/api.md: kind, scale,
// normalize_weights, self_loops), so that the page shows what the data
// were read with, and a next upload is read alike unless they change.
function showOptions(o) {
  o = o || {};
  $("upload-kind").value = o.kind || "";
  const scale = (o.scale || "").toLowerCase();
  $("upload-scale").value = scale === "none" ? "" : scale;
  $("normalize").checked = !!o.normalize_weights;
  $("self-loops").value = o.self_loops ? String(o.self_loops) : "";
}

$("gen-load").onclick = () => busyDo("generating…", async () => {
  st.loaded = null;
  const g = st.gens.find((x) => x.name === $("gen").value);
  const params = {};
  if (g && "n" in g.defaults) params.n = +$("gen-n").value;
  const options = weightOptions();
  if (options.self_loops !== undefined) options.self_loops = +options.self_loops;
  const body = { generate: { name: $("gen").value, seed: +$("gen-seed").value, params }, options };
  const r = await sapi("POST", "data", body);
  st.source = { kind: "generate", body }; st.unsaved = false;
  await loadPoints();
  return r;
});
$("upload").onchange = (e) => busyDo("reading…", async () => {
  const f = e.target.files[0]; if (!f) return;
  e.target.value = ""; // the same file chosen again is a change
  st.loaded = null;
  const q = new URLSearchParams({ name: f.name });
  if ($("upload-kind").value) q.set("kind", $("upload-kind").value);
  if ($("upload-scale").value) q.set("scale", $("upload-scale").value);
  for (const [k, v] of Object.entries(weightOptions())) q.set(k, String(v));
  if (f.size > st.maxUpload) throw new Error(f.name + " is " + mib(f.size) + ", more than this server's upload limit of " + mib(st.maxUpload) + ": not sent");
  const bytes = await f.arrayBuffer();
  const r = await upload("data?" + q, bytes, f.name);
  st.source = { kind: "upload", query: q.toString(), bytes }; st.unsaved = true;
  await loadPoints();
  return r;
});
$("load").onchange = (e) => busyDo("loading session…", async () => {
  const f = e.target.files[0]; if (!f) return;
  e.target.value = "";
  const text = await f.text();
  // The upload a session holds is under the upload limit (the server
  // refuses it after the whole document was sent): check it here, as
  // for an upload.
  let held = 0;
  try {
    const src = (JSON.parse(text) || {}).source || {};
    if (typeof src.upload === "string") held = new TextEncoder().encode(src.upload).length;
    else if (typeof src.upload_base64 === "string") held = Math.floor(src.upload_base64.replace(/=+$/, "").length * 3 / 4);
  } catch (err) { /* not JSON: the server says what is wrong */ }
  if (held > st.maxUpload) throw new Error(f.name + " holds an upload of " + mib(held) + ", more than this server's upload limit of " + mib(st.maxUpload) + ": not sent");
  const r = await sapi("POST", "load", text, true);
  st.source = { kind: "load", text }; st.unsaved = false;
  let doc = {};
  try { doc = JSON.parse(text) || {}; } catch (err) { /* the server read it: nothing to show */ }
  showOptions(doc.source && doc.source.options);
  restoreRequest(doc.request, doc.source);
  await loadPoints(r && r.last);
  return r;
});

// mib formats a byte count in MiB.
const mib = (b) => b < 1048576 ? b + " bytes" : (b / 1048576).toFixed(b < 10485760 ? 1 : 0) + " MiB";

// upload sends bytes to the session's path as an upload, showing in the
// status how much is sent (fetch gives no upload progress), and returns
// the reply's JSON; errors as sapi's.
function upload(path, bytes, name) {
  return new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open("POST", "/api/sessions/" + st.id + "/" + path);
    x.upload.onprogress = (e) => { if (e.lengthComputable && e.total > 1048576) status("sending " + name + ": " + mib(e.loaded) + " of " + mib(e.total) + "…"); };
    x.upload.onload = () => status("reading…"); // busyDo's message: the server reads it now
    x.onerror = () => reject(new Error("sending " + name + " failed: the server is not reachable"));
    x.onload = () => {
      let v = null;
      try { v = x.responseText ? JSON.parse(x.responseText) : null; } catch (e) { v = x.responseText; }
      if (x.status >= 200 && x.status < 300) { resolve(v); return; }
      const err = new Error(v && v.error ? v.error : x.status + " " + x.responseText);
      err.status = x.status;
      if (x.status === 404 && /^no session/.test(err.message)) gone(err.message);
      reject(err);
    };
    x.send(bytes);
  });
}

// ---- Ask me -------------------------------------------------------------------

$("ask").onclick = async () => {
  const ol = $("questions"); ol.textContent = "";
  if (!st.n) { ol.textContent = startHint; return; }
  try {
    const r = await sapi("POST", "suggest", { count: 5, seed: st.pairs.length });
    for (const q of r.questions) {
      const li = document.createElement("li");
      li.textContent = q.i + " – " + q.j + " ";
      li.title = q.why;
      for (const kind of ["ml", "cl"]) {
        const b = document.createElement("button"); b.textContent = kind === "ml" ? "together" : "apart";
        b.setAttribute("aria-label", "nodes " + q.i + " and " + q.j + " " + b.textContent);
        b.onclick = () => { li.remove(); addPairs([{ i: q.i, j: q.j, kind }]); };
        li.appendChild(b);
      }
      li.onmouseenter = () => { st.sel = [q.i, q.j]; draw(); };
      ol.appendChild(li);
    }
    if (!r.questions.length) ol.textContent = "no question to ask";
  } catch (e) { ol.textContent = e.message; }
};

// ---- start ----------------------------------------------------------------------

async function start() {
  window.addEventListener("resize", resize);
  const [methods, gens] = await Promise.all([api("GET", "methods"), api("GET", "generators")]);
  st.methods = methods; st.gens = gens; st.maxUpload = 64 << 20;
  for (const m of methods) {
    const o = new Option(m.name + (m.fast ? " (fast)" : ""), m.name, m.name === "fgpwc", m.name === "fgpwc");
    o.title = m.summary || "";
    // The API gives pairs only: a method of partial labels alone would
    // fail with "needs partial labels" (tether cluster -partial-labels
    // runs it).
    if (m.supervision === "labels") {
      o.disabled = true; o.text += " (needs partial labels)";
      o.title = m.name + " needs partial labels, which the page cannot give (it sends must-links and cannot-links; the lasso's \"This label\" makes pairs): run it with tether cluster -partial-labels";
    }
    $("method").add(o);
  }
  for (const g of gens) $("gen").add(new Option(g.name, g.name, g.name === "moons", g.name === "moons"));
  renderKnobs(); renderGroups();
  // A reload of the tab resumes its session while the server holds it
  // (its id kept in the tab's sessionStorage); otherwise a new one.
  let s = null;
  const prev = sessionStorage.getItem("tether-session");
  if (prev) {
    try { s = await api("GET", "sessions/" + encodeURIComponent(prev)); } catch (e) { s = null; }
    if (s && !s.n) s = null;
  }
  const resumed = !!s;
  if (!s) s = await api("POST", "sessions");
  st.id = s.id;
  sessionStorage.setItem("tether-session", s.id);
  if (s.max_upload) st.maxUpload = s.max_upload;
  $("upload").title = "CSV, TSV, ARFF, edge list, .mtx, .gml; at most " + mib(st.maxUpload);
  $("upload-limit").textContent = "≤ " + mib(st.maxUpload);
  resize();
  if (resumed) {
    // The method and k of the session's last partition, which is shown.
    const last = s.last;
    if (last && st.methods.some((m) => m.name === last.method)) { $("method").value = last.method; renderKnobs(); $("k").value = String(last.k); showKnobModes(); }
    await busyDo("resuming the session…", async () => { await loadPoints(last); return s; });
  } else if (s.n) {
    // The server's own data (tether serve -input, -graph-file, -gen):
    // the warnings and notes of loading it, printed on its standard
    // error, are in the new session's reply, shown as an upload's.
    await busyDo("loading…", async () => { await loadPoints(); return s; });
  }
  document.body.dataset.ready = "1";
}

// Hooks for the end-to-end test (e2e/): screen position of a node and the
// last partition.
// show draws the given points and labels without a session (tests
// measure drawing and hovering at 10⁵ points with it).
function show(xy, labels) {
  st.n = xy.length / 2; st.xy = xy; st.labels = labels; st.pairs = []; st.sel = [];
  st.zoom = 1; st.panX = st.panY = 0;
  computeBounds(); buildGrid(); paint();
}
window.tether = { toScreen, state: st, show, paint, nearest, buildGrid };
start().catch((e) => status(e.message, "error"));
