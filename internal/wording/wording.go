// Package wording holds the few helpers that make tether's messages read
// as English: a count with its noun in the singular or the plural, and a
// word that agrees with a count.
package wording

import "strconv"

// Count returns n followed by one when n is 1, by many otherwise: "1
// node", "3 nodes", "0 categories". Cost O(len(one) + len(many)).
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Form(n, one, many)
}

// Form returns one when n is 1, else many: the words after a count that
// agree with it ("holds" or "hold"). Cost O(1).
func Form(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
