//go:build race

package cluster

// raceEnabled reports a build with the race detector, which makes the
// loops of the dense kernels 5–20 times slower: wall-clock bounds meant
// for a normal build (TestCancelStops) are scaled by it.
const raceEnabled = true
