#!/usr/bin/python3
"""Reference values for tether/metrics, computed independently with scikit-learn.

Writes sklearn_reference.tsv next to this file. Run with Debian's python3
(python3-sklearn 1.2.1, scipy 1.10.1, numpy 1.24.2):

    /usr/bin/python3 metrics/testdata/sklearn_reference.py

The Go test (reference_test.go) regenerates every partition pair from the
columns seed, n, k1, k2, truth, pred, spread with the same splitmix64 stream
and checks the FNV-1a checksum of the labels before comparing the figures.

Generator (all arithmetic on unsigned 64-bit integers):
  next(): state += 0x9E3779B97F4A7C15; z = state;
          z = (z ^ z>>30) * 0xBF58476D1CE4E5B9; z = (z ^ z>>27) * 0x94D049BB133111EB;
          return z ^ z>>31
  uniform(k) = next() % k;  unit() = (next() >> 11) * 2**-53
  truth modes: uniform: uniform(k1); skewed: floor(k1*u*u*u), u = unit() (evaluated
               left to right); one: 0; singletons: i
  pred modes:  indep: uniform(k2); noisyP: if uniform(100) < P then uniform(k2) else
               truth[i] % k2; perm: perm[truth[i]] where perm is range(k1) shuffled by
               Fisher-Yates (for j = k1-1 down to 1: swap j with uniform(j+1));
               split: 2*truth[i] + uniform(2); same: truth[i]; singletons: i; one: 0
  The truth labels are drawn first (all n), then the permutation (perm mode),
  then the prediction labels in item order.
  spread 1 maps every label v to v*1000003 - 77 (labels of both partitions).

Figures (natural logarithms):
  ari          sklearn.metrics.adjusted_rand_score
  rand         sklearn.metrics.rand_score
  mi           sklearn.metrics.mutual_info_score
  h_true/pred  sklearn.metrics.cluster.entropy
  nmi_*        sklearn.metrics.normalized_mutual_info_score(average_method=*)
  nmi_joint    mi / (h_true + h_pred - mi), with scikit-learn's conventions
               (1 when both are one cluster, 0 when mi == 0)
  vi           h_true + h_pred - 2 mi
  homogeneity, completeness, v_measure: homogeneity_completeness_v_measure
  accuracy     scipy.optimize.linear_sum_assignment(C, maximize=True) on the dense
               contingency matrix C, matched count / n
  purity       sum over predicted clusters of max over classes of C / n (numpy)
"""
import os
import sys

import numpy as np
import scipy
import sklearn
from scipy.optimize import linear_sum_assignment
from sklearn import metrics as skm
from sklearn.metrics.cluster import contingency_matrix, entropy

M64 = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & M64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def uniform(self, k):
        return self.next() % k

    def unit(self):
        return (self.next() >> 11) * 2.0**-53


def generate(seed, n, k1, k2, tmode, pmode, spread):
    r = SplitMix64(seed)
    if tmode == "uniform":
        truth = [r.uniform(k1) for _ in range(n)]
    elif tmode == "skewed":
        truth = []
        for _ in range(n):
            u = r.unit()
            truth.append(int(k1 * u * u * u))
    elif tmode == "one":
        truth = [0] * n
    elif tmode == "singletons":
        truth = list(range(n))
    else:
        raise ValueError(tmode)
    if pmode == "indep":
        pred = [r.uniform(k2) for _ in range(n)]
    elif pmode.startswith("noisy"):
        pct = int(pmode[5:])
        pred = []
        for t in truth:
            if r.uniform(100) < pct:
                pred.append(r.uniform(k2))
            else:
                pred.append(t % k2)
    elif pmode == "perm":
        perm = list(range(k1))
        for j in range(k1 - 1, 0, -1):
            s = r.uniform(j + 1)
            perm[j], perm[s] = perm[s], perm[j]
        pred = [perm[t] for t in truth]
    elif pmode == "split":
        pred = [2 * t + r.uniform(2) for t in truth]
    elif pmode == "same":
        pred = list(truth)
    elif pmode == "singletons":
        pred = list(range(n))
    elif pmode == "one":
        pred = [0] * n
    else:
        raise ValueError(pmode)
    if spread:
        truth = [v * 1000003 - 77 for v in truth]
        pred = [v * 1000003 - 77 for v in pred]
    return truth, pred


def fnv(labels):
    h = 0xCBF29CE484222325
    for v in labels:
        x = v & M64
        for _ in range(8):
            h ^= x & 0xFF
            h = (h * 0x100000001B3) & M64
            x >>= 8
    return h


def cases():
    out = []
    seed = 1
    ladder = [1, 2, 3, 5, 10, 30, 70, 100, 300, 1000, 3000, 10000]
    for n in ladder:
        ks = sorted({1, 2, 3, max(1, n // 10), max(1, n // 3), n} | ({7, 40} if n >= 40 else set()))
        ks = [k for k in ks if k <= min(n, 1000)]
        for k1 in ks:
            for k2, tmode, pmode in [
                (k1, "uniform", "indep"),
                (max(1, k1 // 2 + 1), "uniform", "indep"),
                (k1, "skewed", "noisy20"),
                (max(1, k1 + 2), "uniform", "noisy50"),
                (k1, "uniform", "perm"),
                (2 * k1, "skewed", "split"),
            ]:
                k2 = min(k2, max(1, n))
                if pmode == "split":
                    k2 = 2 * k1
                out.append((seed, n, k1, k2, tmode, pmode, seed % 3 == 0))
                seed += 1
    for n in [1, 2, 5, 50, 1000]:
        for tmode, pmode in [("one", "one"), ("singletons", "singletons"), ("one", "singletons"),
                             ("singletons", "one"), ("uniform", "same"), ("uniform", "one"),
                             ("one", "indep"), ("singletons", "indep")]:
            out.append((seed, n, min(n, 4), min(n, 3), tmode, pmode, seed % 2 == 0))
            seed += 1
    return out


def figures(truth, pred):
    n = len(truth)
    t, p = np.array(truth, dtype=np.int64), np.array(pred, dtype=np.int64)
    mi = skm.mutual_info_score(t, p)
    h1, h2 = entropy(t), entropy(p)
    f = {
        "ari": skm.adjusted_rand_score(t, p),
        "rand": skm.rand_score(t, p),
        "mi": mi,
        "h_true": h1,
        "h_pred": h2,
    }
    for m in ["arithmetic", "geometric", "min", "max"]:
        f["nmi_" + m] = skm.normalized_mutual_info_score(t, p, average_method=m)
    if len(np.unique(t)) == 1 and len(np.unique(p)) == 1:
        f["nmi_joint"] = 1.0
    elif mi == 0:
        f["nmi_joint"] = 0.0
    else:
        f["nmi_joint"] = mi / (h1 + h2 - mi)
    f["vi"] = h1 + h2 - 2 * mi
    hom, com, v = skm.homogeneity_completeness_v_measure(t, p)
    f["homogeneity"], f["completeness"], f["v_measure"] = hom, com, v
    c = contingency_matrix(t, p)
    rows, cols = linear_sum_assignment(c, maximize=True)
    f["accuracy"] = int(c[rows, cols].sum()) / n
    f["purity"] = int(c.max(axis=0).sum()) / n
    return f


COLUMNS = ["ari", "rand", "mi", "h_true", "h_pred", "nmi_arithmetic", "nmi_geometric", "nmi_min",
           "nmi_max", "nmi_joint", "vi", "homogeneity", "completeness", "v_measure", "accuracy", "purity"]


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sklearn_reference.tsv")
    lines = [
        "# Reference figures for tether/metrics; generated by sklearn_reference.py (see its docstring).",
        "# Python %s, scikit-learn %s, scipy %s, numpy %s" % (
            sys.version.split()[0], sklearn.__version__, scipy.__version__, np.__version__),
        "\t".join(["seed", "n", "k1", "k2", "truth", "pred", "spread", "checksum"] + COLUMNS),
    ]
    for seed, n, k1, k2, tmode, pmode, spread in cases():
        truth, pred = generate(seed, n, k1, k2, tmode, pmode, spread)
        f = figures(truth, pred)
        check = "%016x" % (fnv(truth) ^ (fnv(pred) * 31 & M64))
        row = [str(seed), str(n), str(k1), str(k2), tmode, pmode, str(int(spread)), check]
        row += [repr(float(f[c])) for c in COLUMNS]
        lines.append("\t".join(row))
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
    print("wrote %d cases to %s" % (len(lines) - 3, path))


if __name__ == "__main__":
    main()
