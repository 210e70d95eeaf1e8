// Package tether is a library and command-line tool for semi-supervised
// (constrained) spectral clustering: it partitions a graph, or feature
// vectors turned into a graph, while respecting side information — must-link
// and cannot-link pairs, a few known labels — and reports how well a
// partition matches a reference.
//
// The root package holds only this overview. The work is done by small
// packages, each with one job:
//
//   - graph: the sparse symmetric graph type, k-NN / ε / fully connected
//     graphs from feature vectors, Laplacian and Bethe Hessian operators.
//   - eigen: eigensolvers for a few eigenpairs of large sparse symmetric
//     (and generalized) problems, plus the dense reference solver.
//   - kmeans: k-means as in the thesis (k-means++ seeding, non-emptying
//     update) and weighted kernel k-means.
//   - constraint: labels, must-link / cannot-link sets, closure, files,
//     consistency checks and the seeded generators of the experiments.
//   - cluster: the clustering methods behind one Problem/Settings/Result
//     shape and a registry by name.
//   - metrics: ARI, NMI (every normalization), VI, purity, Hungarian
//     accuracy, MUC, B³, CEAF, CoNLL, violations, cuts.
//   - dataset: readers for CSV, ARFF and graph files, and synthetic
//     generators (dataset/synth).
//   - input: the one loader of a clustering job — data or graph file,
//     generator or benchmark, reference labels, graph construction,
//     constraints and partial labels — into a cluster.Problem, shared by
//     tether cluster, tether serve and the batch package job.
//   - powerlaw: power-law estimation (MLE, KS, x_min, bootstrap, the
//     linear fits of thesis Table 5.1) and sampling.
//   - pitmanyor: the Pitman–Yor process CRP(α, θ), the prior on cluster
//     sizes of thesis ch. 5.
//   - active: which pairwise question to ask a person next (tether
//     serve's "Ask me").
//   - job: one clustering job described by data (a JSON Lines manifest
//     line), the unit of the Apache Beam pipeline of the nested module
//     beam.
//   - progress: how long computations report progress to a Recorder the
//     caller supplies; the library never prints.
//   - experiment: the reproductions of the sources' tables and figures
//     (tether repro), with pages in docs/results.
//
// The command tether (cmd/tether) exposes all of it; see the README.
package tether
