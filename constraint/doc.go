// Package constraint holds the side information of semi-supervised
// clustering (SPEC §5): partial labels, pairwise must-link and cannot-link
// constraints with optional weights, their files, consistency checks
// (must-link closure, contradictions) and the seeded generators of the
// experimental protocols of the sources.
package constraint
