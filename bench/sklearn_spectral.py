#!/usr/bin/env python3
"""Time scikit-learn's SpectralClustering on a CSV written by `tether gen`.

Usage: sklearn_spectral.py FILE.csv K [SOLVER]
The file has a header, feature columns, and the label column last.
Prints one JSON object: seconds (fit only, after loading), ARI, peak RSS.
Uses affinity="nearest_neighbors", n_neighbors=10 and eigen_solver SOLVER
(default "lobpcg", the configuration the tether benchmark compares
against; "arpack" and "amg" are scikit-learn's others).
"""
import json
import resource
import sys
import time

import numpy as np
import sklearn
from sklearn.cluster import SpectralClustering
from sklearn.metrics import adjusted_rand_score


def main():
    path, k = sys.argv[1], int(sys.argv[2])
    solver = sys.argv[3] if len(sys.argv) > 3 else "lobpcg"
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    x, y = data[:, :-1], data[:, -1].astype(int)
    t0 = time.perf_counter()
    model = SpectralClustering(
        n_clusters=k,
        affinity="nearest_neighbors",
        n_neighbors=10,
        eigen_solver=solver,
        assign_labels="kmeans",
        random_state=0,
        n_jobs=2,
    )
    labels = model.fit_predict(x)
    secs = time.perf_counter() - t0
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({
        "tool": "scikit-learn " + sklearn.__version__ + ", " + solver,
        "n": int(x.shape[0]),
        "seconds": secs,
        "ari": adjusted_rand_score(y, labels),
        "peak_rss_mb": rss_kb / 1024.0,
    }))


if __name__ == "__main__":
    main()
