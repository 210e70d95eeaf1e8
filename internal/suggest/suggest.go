// Package suggest finds, for a misspelt name, the known name the user
// probably meant, for "did you mean" hints in error messages.
package suggest

import "strings"

// Closest returns the name of names nearest to want, ignoring case: one
// equal to want once hyphens are left out of both, else, for want of 3
// bytes or more, the first one within one edit per 4 bytes of want (at
// least one; Distance), else "". Cost O(len(names)·len(want)·len(name)).
func Closest(want string, names []string) string {
	want = strings.ToLower(strings.TrimSpace(want))
	bare := strings.ReplaceAll(want, "-", "")
	best, bestD := "", max(1, len(want)/4)+1
	if len(want) < 3 {
		bestD = 1 // only the hyphen rule
	}
	for _, n := range names {
		ln := strings.ToLower(n)
		d := Distance(want, ln)
		if bare != "" && strings.ReplaceAll(ln, "-", "") == bare {
			d = 0
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// Hint returns ": did you mean N?" for N = Closest(want, names), or "".
func Hint(want string, names []string) string {
	if c := Closest(want, names); c != "" {
		return ": did you mean " + c + "?"
	}
	return ""
}

// Distance returns the optimal-string-alignment distance between a and b,
// in bytes: insertions, deletions, substitutions and swaps of two
// adjacent bytes each count 1 (Damerau 1964, without edits of a swapped
// pair). Cost O(len(a)·len(b)).
func Distance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			sub := d[i-1][j-1]
			if a[i-1] != b[j-1] {
				sub++
			}
			d[i][j] = min(sub, d[i-1][j]+1, d[i][j-1]+1)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
