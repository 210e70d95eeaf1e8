// Package synth generates synthetic data sets with known classes: the
// point clouds of the clustering literature (two moons, concentric and
// interlaced circles, xor, Gaussian blobs) and graphs drawn from the sparse
// stochastic block model of seed 004 §3.1 and from its degree-corrected form
// with power-law degrees (Karrer & Newman 2011).
//
// Every generator takes a rand.Source (nil means a fixed documented seed)
// and returns the same output for the same seed. Point generators return an
// n×d *mat.Dense and the label of each row, rows grouped by label; SBM and
// DCSBM return a *graph.Graph and the block of each node (DCSBM also the
// degree propensities). Invalid parameters
// (which usually come from command-line flags) are reported as errors
// wrapping ErrInvalid, never panics; so are sizes beyond MaxValues, before
// anything is allocated.
//
// Generators lists the generators by name ("moons", "circles",
// "interlaced", "xor", "blobs", "sbm", "dcsbm") with their parameters and documented
// defaults, and Lookup finds one: tether gen, tether cluster -gen and the
// experiment harness all go through it, so a name means the same data
// everywhere.
package synth
