// Package wording holds the few helpers that make tether's messages read
// as English: a count with its noun in the singular or the plural, a
// word that agrees with a count, and a byte count in binary units.
package wording

import (
	"fmt"
	"strconv"
	"strings"
)

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

// Bytes formats a byte count for messages with binary units and one
// decimal: "1.2 GiB", "300.0 MiB", "2.0 KiB", "512 B".
func Bytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}

// Numbers writes v, two numbers or more, as a list for a message: "3 and
// 7", "3, 7 and 9", or, past five, the first four and how many more ("1,
// 2, 3, 4 and 2 more"). One number is written alone. Cost O(min(len(v),
// 5)).
func Numbers(v []int) string {
	if len(v) > 5 {
		return fmt.Sprintf("%d, %d, %d, %d and %d more", v[0], v[1], v[2], v[3], len(v)-4)
	}
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
