package experiment

// cspRowNormRev is the revision of the cells that run CSP with k > 2.
// Since CSP scales the rows of its (k − 1)-vector embedding to unit length
// before k-means (seed 002 §6.1, line 298; cluster.CSP.NoRowNormalize),
// those cells' results differ from the ones cached before, so their keys
// name the column "csp@rownorm" and they are recomputed. CSP at k = 2 is a
// sign split, which the scaling does not change, and the other methods
// are untouched: their cells keep their keys and stay cached.
const cspRowNormRev = "rownorm"

// cspColumn returns the name of method's column in the key of a cell with
// k classes: "csp@rownorm" (cspRowNormRev) for CSP with k > 2, method
// itself otherwise.
func cspColumn(method string, k int) string {
	if method == "csp" && k > 2 {
		return method + "@" + cspRowNormRev
	}
	return method
}
