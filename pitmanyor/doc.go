// Package pitmanyor is the Pitman–Yor Chinese restaurant process
// CRP(α, θ) in the parametrization of thesis §5.1.3 and §5.2.1 (seed 000;
// Pitman 2006 for the formulas): the first customer sits at the first
// table; with m customers seated at k tables, the next one joins table c
// with probability (n_c − θ)/(α + m) and opens a new table with probability
// (α + kθ)/(α + m). θ ∈ [0, 1) is the discount, α > −θ the concentration;
// θ = 0 is the Dirichlet-process CRP. Partitions drawn from it have
// power-law distributed cluster sizes (exponent 1 + θ for θ > 0) and about
// Γ(α+1)/(θΓ(α+θ))·n^θ clusters for θ > 0, α ln(1 + n/α) for θ = 0
// (CRP.ExpectedClusters): the prior of the partition-level supervision of
// thesis chapter 5.
//
// The package has its own name rather than living in powerlaw because it is
// about partitions (label slices, as in metrics and cluster), not about
// samples of numbers: power-law means and OPPLC (thesis §5.2–5.3) use its
// LogProb and its seating probabilities, the benchmark generators its
// Sample, and none of them needs the estimators of powerlaw.
//
// Parameters outside θ ∈ [0, 1), α > −θ give errors wrapping ErrInvalid.
package pitmanyor
