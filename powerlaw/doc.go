// Package powerlaw fits, tests and samples power-law distributions: thesis
// §5.1 (seed 000, eq. 5.1.2 and 5.1.3, Table 5.1) and Clauset, Shalizi &
// Newman, "Power-law distributions in empirical data", SIAM Review 51
// (2009), for the discrete case, the choice of x_min and the goodness-of-fit
// test.
//
// The continuous power law has density p(x) = ((α−1)/x_min)(x/x_min)^{−α}
// for x ≥ x_min (thesis eq. 5.1.2); its maximum-likelihood exponent is
// α̂ = 1 + n(Σ ln(x_i/x_min))⁻¹ (eq. 5.1.3), MLE. The discrete power law on
// the integers x ≥ x_min has p(x) = x^{−α}/ζ(α, x_min) with the Hurwitz zeta
// function (Zeta); DiscreteMLE maximizes its likelihood exactly, and
// DiscreteMLEApprox is the usual closed-form approximation
// 1 + n(Σ ln(x_i/(x_min − ½)))⁻¹. Cluster sizes are integers: use the
// discrete entry points for them (Options.Discrete).
//
// Fit chooses x_min by minimizing the Kolmogorov–Smirnov distance between
// the tail x ≥ x_min and the law fitted to it (KS, KSDiscrete), as Clauset
// et al. do, and GoodnessOfFit gives their semi-parametric bootstrap
// p-value. LinearFit and LogBinFit are the biased graphical estimators that
// thesis Table 5.1 compares against the MLE. Sampler draws from either law
// with a caller-supplied rand.Source.
//
// Errors caused by the data (values below x_min, non-finite values, α ≤ 1,
// empty input) wrap ErrInvalid and name the offending index and value.
package powerlaw
