package numeric

import "gonum.org/v1/gonum/stat/distuv"

// NormalQuantile returns Φ⁻¹(p), the p-quantile of the standard normal
// distribution, for p in (0, 1).
func NormalQuantile(p float64) float64 { return distuv.UnitNormal.Quantile(p) }

// UpperNormalQuantile returns z_{1−α} = Φ⁻¹(1 − α): a one-sided normal
// bound at level α lies z_{1−α} standard errors from the estimate.
func UpperNormalQuantile(alpha float64) float64 { return distuv.UnitNormal.Quantile(1 - alpha) }

// ChiSquareUpperQuantile returns the (1 − α)-quantile of the χ² distribution
// with df degrees of freedom: a two-sample G statistic over df + 1 cells of
// two samples of one distribution exceeds it with probability about α.
func ChiSquareUpperQuantile(df, alpha float64) float64 {
	return distuv.ChiSquared{K: df}.Quantile(1 - alpha)
}

// NormalCDF returns Φ(x), the standard normal distribution function.
func NormalCDF(x float64) float64 { return distuv.UnitNormal.CDF(x) }
