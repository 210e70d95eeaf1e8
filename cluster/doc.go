// Package cluster holds tether's clustering methods. Every method shares one
// shape, after gonum's optimize.Minimize: a Problem (graph, k, constraints or
// labels) says what is solved, *Settings say how randomness, restarts, the
// eigensolver and progress are handled, and a Method value with exported
// knobs says which algorithm runs. Methods are also registered by name (see
// Methods and New) for the command-line tool.
package cluster
