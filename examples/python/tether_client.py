#!/usr/bin/env python3
"""A client for tether serve's JSON API (docs/api.md), standard library only.

    tether serve &                      # prints http://127.0.0.1:8080/
    python3 tether_client.py http://127.0.0.1:8080/

Run as a script it clusters generated two moons, answers ten questions
from the reference labels (an oracle standing in for a person), and prints
the ARI before and after; then it checks that the server honours the
graph options regularize and disconnected on a graph with an isolated
node. Import it to drive the server from your own code; with UCI's iris.csv
(no header, the class in the last column: label="last" makes it the
reference labels, whose ARI and NMI "figures" holds, instead of a feature):

    from tether_client import Client
    c = Client("http://127.0.0.1:8080/")
    s = c.session()
    s.upload(open("iris.csv", "rb").read(), name="iris.csv", label="last")
    s.add([(0, 1, "ml"), (0, 100, "cl")])
    print(s.cluster(k=3)["figures"])
    print(s.cluster(method="njw", k=3, regularize="mean")["sizes"])

(TestPythonClient runs this example, on a file of iris's form.)
"""

import json
import sys
import urllib.error
import urllib.parse
import urllib.request


class APIError(Exception):
    """An error reply of the server: status and message."""

    def __init__(self, status, message):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


class Client:
    """The server at base (e.g. "http://127.0.0.1:8080/").

    timeout is the socket timeout in seconds. The server sends nothing
    until its reply, and answers 503 when a request reaches its
    -compute-timeout (2 minutes by default, counted once the request's
    body is read, waiting for its session included), so the default
    leaves a minute more for the reply to arrive: raise both together.
    """

    def __init__(self, base, timeout=180):
        self.base = base.rstrip("/") + "/api/"
        self.timeout = timeout

    def request(self, method, path, body=None, raw=None, content_type=None):
        """Sends one request; returns the decoded JSON reply or the text."""
        data, headers = None, {}
        if raw is not None:
            data = raw
            headers["Content-Type"] = content_type or "application/octet-stream"
        elif body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                text = r.read().decode()
                if r.headers.get_content_type() == "application/json" and text:
                    return json.loads(text)
                return text
        except urllib.error.HTTPError as e:
            text = e.read().decode()
            try:
                msg = json.loads(text)["error"]
            except (ValueError, KeyError):
                msg = text
            raise APIError(e.code, msg) from None

    def methods(self):
        return self.request("GET", "methods")

    def generators(self):
        return self.request("GET", "generators")

    def session(self):
        """Creates a session."""
        info = self.request("POST", "sessions")
        return Session(self, info["id"])


class Session:
    """One session of the server: data, constraints, partition."""

    def __init__(self, client, sid):
        self.c = client
        self.id = sid

    def _r(self, method, path="", **kw):
        return self.c.request(method, "sessions/" + self.id + ("/" + path if path else ""), **kw)

    def info(self):
        return self._r("GET")

    def delete(self):
        return self._r("DELETE")

    def generate(self, name, seed=1, **params):
        return self._r("POST", "data", body={"generate": {"name": name, "seed": seed, "params": params}})

    def load_file(self, path, **options):
        """Loads a file under the server's -data root."""
        return self._r("POST", "data", body={"file": path, "options": options})

    def upload(self, content, name, **options):
        """Uploads a file's content (bytes) with reader options (label, scale, ...)."""
        q = urllib.parse.urlencode(dict(name=name, **options))
        return self._r("POST", "data?" + q, raw=content, content_type="text/plain")

    def points(self):
        return self._r("GET", "points")

    def constraints(self):
        return self._r("GET", "constraints")["pairs"]

    @staticmethod
    def _pairs(pairs):
        return [{"i": i, "j": j, "kind": kind} for i, j, kind in pairs]

    def add(self, pairs):
        """Adds (i, j, "ml" | "cl") pairs."""
        return self._r("POST", "constraints", body={"pairs": self._pairs(pairs)})["pairs"]

    def set(self, pairs):
        return self._r("PUT", "constraints", body={"pairs": self._pairs(pairs)})["pairs"]

    def remove(self, i, j):
        return self._r("DELETE", f"constraints/{i}/{j}")["pairs"]

    def clear(self):
        return self._r("DELETE", "constraints")["pairs"]

    def cluster(self, method="fgpwc", k=0, seed=1, cold=False, regularize=None, disconnected=None, **knobs):
        """Partitions the data with the constraints; knobs are the method's (M=8, SigmaML=0.2).

        regularize ("auto", "none", "mean" or a number tau >= 0, optionally
        followed by "+complete") and disconnected ("attach" or "strict") are
        tether cluster's -regularize and -disconnected; None sends nothing,
        leaving the server's (tether serve's flags, auto and attach by
        default). Another value is the server's 400 (APIError).
        """
        body = {"method": method, "k": k, "seed": seed, "cold": cold, "knobs": {n: str(v) for n, v in knobs.items()}}
        if regularize is not None:
            body["regularize"] = str(regularize)
        if disconnected is not None:
            body["disconnected"] = disconnected
        return self._r("POST", "cluster", body=body)

    def suggest(self, count=5, seed=0):
        return self._r("POST", "suggest", body={"count": count, "seed": seed})["questions"]

    def export_labels(self):
        return self._r("GET", "export/labels")

    def export_constraints(self):
        return self._r("GET", "export/constraints")

    def export_summary(self):
        return self._r("GET", "export/summary")

    def save(self):
        """Returns the session document as text (for load)."""
        doc = self._r("GET", "save")
        return doc if isinstance(doc, str) else json.dumps(doc)

    def load(self, document):
        return self._r("POST", "load", raw=document.encode(), content_type="application/json")


def main(base):
    c = Client(base)
    s = c.session()
    s.generate("moons", seed=1, n=600)
    truth = s.points()["truth"]
    first = s.cluster(k=2)
    print(f"no constraints: ARI {first['figures']['ARI']:.3f}")
    asked = []
    for _ in range(10):
        qs = s.suggest(count=1, seed=len(asked))
        i, j = qs[0]["i"], qs[0]["j"]
        kind = "ml" if truth[i] == truth[j] else "cl"
        asked.append((i, j, kind))
        s.add([(i, j, kind)])
        last = s.cluster(k=2)
    print(f"after {len(asked)} answers: ARI {last['figures']['ARI']:.3f} ({last['mode']}, {last['ms']:.0f} ms)")
    labels = s.export_labels().splitlines()
    assert labels[0] == "node,cluster" and len(labels) == len(truth) + 1, labels[:2]
    assert s.export_constraints().count("\n") == len(asked) + 1
    assert s.export_summary()["n"] == len(truth)
    doc = s.save()
    other = c.session()
    other.load(doc)
    assert len(other.constraints()) == len(asked)
    try:
        s.upload(b"x,y\n1,2\n3,abc\n", name="bad.csv")
        raise AssertionError("a bad upload was accepted")
    except APIError as e:
        assert e.status == 400 and "bad.csv" in e.message, e
        print(f"bad upload refused: {e.message}")
    s.delete()
    other.delete()
    graph_options(c)
    print("ok")


def cliques_mtx():
    """Two 10-cliques joined by an edge, a pair and an isolated node 22 (Matrix Market)."""
    edges = [(10 * c + j, 10 * c + i) for c in range(2) for i in range(10) for j in range(i + 1, 10)]
    edges += [(10, 9), (21, 20)]
    lines = ["%%MatrixMarket matrix coordinate real symmetric", f"23 23 {len(edges)}"]
    lines += [f"{i + 1} {j + 1} 1" for i, j in edges]
    return ("\n".join(lines) + "\n").encode()


def graph_options(c):
    """Checks that the server honours cluster's regularize and disconnected."""
    g = c.session()
    g.upload(cliques_mtx(), name="cliques.mtx")
    try:
        g.cluster(k=2, disconnected="strict")
        raise AssertionError("disconnected=strict clustered a graph with an isolated node")
    except APIError as e:
        assert e.status == 400 and "node 22 has degree 0" in e.message, e
        print(f"disconnected=strict refused: {e.message}")
    r = g.cluster(k=2, disconnected="attach")
    assert sum(r["sizes"]) == 23 and any("attached" in w for w in r.get("warnings", [])), r
    print(f"disconnected=attach: sizes {r['sizes']}")
    g.cluster(method="njw", k=2, regularize="0.5+complete")
    assert g.export_summary()["request"]["regularize"] == "0.5+complete"
    g.cluster(method="njw", k=2, regularize=2)
    assert g.export_summary()["request"]["regularize"] == "2"
    for bad in [dict(regularize="sometimes"), dict(disconnected="loose")]:
        try:
            g.cluster(k=2, **bad)
            raise AssertionError(f"{bad} was accepted")
        except APIError as e:
            assert e.status == 400 and list(bad.values())[0] in e.message, e
            print(f"{bad} refused: {e.message}")
    g.delete()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: tether_client.py http://127.0.0.1:8080/")
    main(sys.argv[1])
