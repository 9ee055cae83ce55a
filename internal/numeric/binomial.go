package numeric

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// BinomialLower returns the exact one-sided lower confidence bound of
// Clopper and Pearson for the success probability of k successes in n
// trials at level alpha: the p with P(Bin(n, p) ≥ k) = alpha, that is the
// alpha-quantile of Beta(k, n − k + 1); 0 when k = 0. The bound holds at
// every n and k, with no normal approximation.
func BinomialLower(k, n int64, alpha float64) float64 {
	checkBinomial(k, n, alpha)
	if k == 0 {
		return 0
	}
	return distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(alpha)
}

// BinomialUpper returns the exact one-sided upper confidence bound of
// Clopper and Pearson at level alpha: the (1 − alpha)-quantile of
// Beta(k + 1, n − k); 1 when k = n. For k = 0 it is 1 − alpha^{1/n}.
func BinomialUpper(k, n int64, alpha float64) float64 {
	checkBinomial(k, n, alpha)
	if k == n {
		return 1
	}
	if k == 0 {
		return -math.Expm1(math.Log(alpha) / float64(n))
	}
	return distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(1 - alpha)
}

func checkBinomial(k, n int64, alpha float64) {
	if n < 1 || k < 0 || k > n || !(alpha > 0 && alpha < 1) {
		panic("numeric: binomial bound needs 0 ≤ k ≤ n, n ≥ 1 and alpha in (0, 1)")
	}
}
