package numeric

import (
	"math"

	"gonum.org/v1/gonum/mathext"
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
	upperTail := func(p float64) float64 { return nanAsOne(mathext.RegIncBeta(float64(k), float64(n-k+1), p)) } // P(Bin(n, p) ≥ k)
	if p := (distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}).Quantile(alpha); solves(upperTail(p), alpha) {
		return p
	}
	lo, _ := solveMonotone(func(p float64) float64 { return -upperTail(p) }, -alpha, 0, float64(k)/float64(n))
	return lo
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
	lowerTail := func(p float64) float64 { return nanAsOne(mathext.RegIncBeta(float64(n-k), float64(k+1), 1-p)) } // P(Bin(n, p) ≤ k)
	if p := (distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}).Quantile(1 - alpha); solves(lowerTail(p), alpha) {
		return p
	}
	_, hi := solveMonotone(lowerTail, alpha, float64(k)/float64(n), 1)
	return hi
}

// solves reports whether a tail probability at a bound is its level to
// within 10⁻⁶ of it. gonum's Beta quantile misses by orders of magnitude
// for a few successes in many trials at small levels (3 of 10⁶ at
// 5·10⁻⁶: an upper bound of 0.035 for 2.0·10⁻⁵), and by 0.3% at levels
// near 10⁻¹¹; where it misses, the bound is solved for again.
func solves(tail, alpha float64) bool { return math.Abs(tail/alpha-1) <= 1e-6 }

// nanAsOne is a tail probability, 1 if it could not be computed: a
// solveMonotone then moves the bound away from k/n, never towards it.
func nanAsOne(p float64) float64 {
	if math.IsNaN(p) {
		return 1
	}
	return p
}

// solveMonotone brackets the root of f(p) = target for f decreasing on
// [lo, hi] with f(lo) ≥ target ≥ f(hi), by bisection (on ln p while the
// bracket spans more than a factor of two) to 10⁻¹³ of its upper end, and
// returns the bracket: f(lo) ≥ target ≥ f(hi).
func solveMonotone(f func(float64) float64, target, lo, hi float64) (float64, float64) {
	for range 400 {
		if hi-lo <= 1e-13*hi {
			break
		}
		mid := (lo + hi) / 2
		if lo > 0 && hi > 2*lo {
			mid = math.Sqrt(lo * hi)
		} else if lo == 0 && hi > 1e-300 {
			mid = hi * 1e-3
		}
		if f(mid) >= target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, hi
}

func checkBinomial(k, n int64, alpha float64) {
	if n < 1 || k < 0 || k > n || !(alpha > 0 && alpha < 1) {
		panic("numeric: binomial bound needs 0 ≤ k ≤ n, n ≥ 1 and alpha in (0, 1)")
	}
}
