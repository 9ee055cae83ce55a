// Package hockey bounds, from one event's counts, the measures of privacy
// that a single test between two output distributions P = M(X) and
// Q = M(Y) can show: the hockey-stick divergence of approximate DP and the
// Gaussian-DP level μ of f-DP ([KMRS24] Sections 3–4; Dong, Roth and Su,
// "Gaussian differential privacy", JRSS B 2022).
//
// Both are suprema over events E of a function m(P(E), Q(E)) that
// increases in P(E) and decreases in Q(E):
//
//	H_{e^ε}(P ‖ Q) = sup_E P(E) − e^ε·Q(E)             ((ε, δ)-DP iff ≤ δ)
//	μ(P, Q)       ≥ sup_E Φ⁻¹(P(E)) − Φ⁻¹(Q(E))        (μ-GDP iff ≤ μ)
//
// (the second because μ-GDP bounds every test's power by the trade-off
// curve G_μ(α) = Φ(Φ⁻¹(1 − α) − μ): the test rejecting Q on E has level
// α = Q(E) and power P(E) ≤ 1 − G_μ(Q(E)) = Φ(Φ⁻¹(Q(E)) + μ)). So one event
// counted in fresh draws, with exact Clopper–Pearson bounds P(E) ≥ a₋ and
// Q(E) ≤ b₊, bounds either measure from below by m(a₋, b₊): a
// finite-sample bound, no normal approximation. The hockey-stick
// divergence, linear in the two, is bounded tighter by an exact test of
// the difference a − e^ε·b itself (JointLower), whose width adds the two
// sides' in quadrature rather than in sum.
package hockey

import (
	"fmt"
	"math"

	"github.com/dptest/dptest/internal/numeric"
)

// Measure is a privacy measure of two output distributions that one event
// E bounds from below through m(P(E), Q(E)), increasing in its first
// argument and decreasing in its second.
type Measure struct {
	// Name is the measure of P = M(X) against Q = M(Y), for reports:
	// "H_{e^ε}(M(X)‖M(Y))".
	Name string
	// Of is m(a, b) for a = P(E), b = Q(E) in [0, 1].
	Of func(a, b float64) float64
	// Least returns the least true value of the measure that any event
	// could show above threshold from n draws per side with probability
	// about 1 − β, its bound at level alpha (Bound: each side at alpha/2),
	// zBeta = z_{1−β}; +Inf if none could. It is the floor of an audit's
	// resolution, however narrow the bound of the event it confirmed (a
	// small event's bound is narrow because it holds little, not because a
	// violation would show in it).
	Least func(threshold float64, n int, alpha, zBeta float64) float64
	// Weight is e^ε for the hockey-stick divergence H_{e^ε}, 0 for other
	// measures.
	Weight float64
	// Allowed returns the largest P(E) that a claim of the measure at
	// threshold allows an event with Q(E) = q: min(1, e^ε·q + δ) for the
	// hockey-stick divergence, Φ(Φ⁻¹(q) + μ) for Gaussian DP (the power
	// 1 − G_μ(q) of the best test of level q).
	Allowed func(q, threshold float64) float64
}

// ShownBeside is the most that an audit of n draws per side could show,
// each side bounded at alpha/2 as Bound's rectangle does at the expected
// counts, of outputs that hold a share s of P's draws and none of Q's,
// joined to the claim's best test of level q (P a mixture: (1 − s)·P′ +
// s·U, the pair (P′, Q) at the claim, threshold):
//
//	sup over q of m(a₋(n·((1 − s)·Allowed(q, threshold) + s)), b₊(n·q)),
//
// q = 0 and q on a grid of 32 values a decade from ½ down to where n·q
// falls below ½ (at most 20 decades), counts rounded, a₋ and b₊ the exact
// one-sided bounds. Where the other dataset may never produce them, such
// outputs hide a violation of any size, and the question is whether n
// draws could have shown it: for a Gaussian-DP level, when ShownBeside
// exceeds the claim. (Above q = ½ the level only falls, to within the
// counts' rounding: with x = 1 − Allowed(q, threshold),
// Φ⁻¹(1 − (1 − s)·x) − Φ⁻¹(1 − x) falls and Φ⁻¹(q + ·) − Φ⁻¹(q) rises
// with q there.)
func (m Measure) ShownBeside(s float64, n int64, alpha, threshold float64) float64 {
	fn := float64(n)
	at := func(q float64) float64 {
		p := (1-s)*m.Allowed(q, threshold) + s
		kp, kq := min(int64(math.Round(fn*p)), n), int64(math.Round(fn*q))
		return m.Of(numeric.BinomialLower(kp, n, alpha/2), numeric.BinomialUpper(kq, n, alpha/2))
	}
	best := at(0)
	for k := 0; k <= 32*20; k++ {
		q := 0.5 * math.Pow(10, -float64(k)/32)
		if fn*q < 0.5 {
			break
		}
		if v := at(q); v > best {
			best = v
		}
	}
	return best
}

// HockeyStick is the hockey-stick divergence of order e^ε,
// m(a, b) = a − e^ε·b ([KMRS24], eq. (3)); (ε, δ)-DP holds iff it is at most
// δ over every event, neighbouring pair and direction.
func HockeyStick(eps float64) Measure {
	w := math.Exp(eps)
	return Measure{
		Name: fmt.Sprintf("H_{e^%s}", trim(eps)),
		Of: func(a, b float64) float64 {
			if b == 0 {
				return a // e^ε·0 is 0 even when e^ε overflows
			}
			return a - w*b
		},
		Least:  leastHockeyStick(eps),
		Weight: w,
		Allowed: func(q, delta float64) float64 {
			if q == 0 {
				return min(delta, 1)
			}
			return min(w*q+delta, 1)
		},
	}
}

// leastHockeyStick: the least noisy violation of size δ′ is an event with
// P(E) = δ′ and Q(E) = 0, whose bound is a₋ − e^ε·u₀, u₀ = 1 − (α/2)^{1/n}
// the upper bound of a count of 0 and a₋ ≈ δ′ − z_{1−α/2}·√(δ′/n). It
// exceeds δ with probability 1 − β when δ′ − k·√δ′ ≥ δ + e^ε·u₀,
// k = (z_{1−α/2} + z_{1−β})/√n: at δ′ = s², s = (k + √(k² + 4(δ + e^ε·u₀)))/2.
// No event shows a violation when δ + e^ε·u₀ ≥ 1 (+Inf). It is the
// rectangle's floor, kept for Bound's joint test too, which shows such an
// event on as few draws or fewer up to JointMaxEps.
func leastHockeyStick(eps float64) func(threshold float64, n int, alpha, zBeta float64) float64 {
	return func(threshold float64, n int, alpha, zBeta float64) float64 {
		u0 := numeric.BinomialUpper(0, int64(n), alpha/2)
		c := threshold + math.Exp(eps)*u0
		if !(c < 1) {
			return math.Inf(1)
		}
		k := (numeric.UpperNormalQuantile(alpha/2) + zBeta) / math.Sqrt(float64(n))
		s := (k + math.Sqrt(k*k+4*c)) / 2
		return s * s
	}
}

// Gaussian is the Gaussian-DP level of one test, m(a, b) = Φ⁻¹(a) − Φ⁻¹(b):
// the μ of the Gaussian trade-off curve G_μ through the test's level b and
// power a. Its supremum over events is the μ of the pair when the pair's
// trade-off curve is Gaussian (shifted normals: every threshold test gives
// Δ/σ), and below it otherwise.
func Gaussian() Measure {
	return Measure{
		Name: "μ",
		Of: func(a, b float64) float64 {
			return numeric.NormalQuantile(a) - numeric.NormalQuantile(b)
		},
		Least: leastGaussian,
		Allowed: func(q, mu float64) float64 {
			return numeric.NormalCDF(numeric.NormalQuantile(q) + mu)
		},
	}
}

// leastGaussian: no event's bound from n draws per side exceeds
// Φ⁻¹(a₊) − Φ⁻¹(b₋) at the most extreme counts (n of n, 0 of n), about
// 2·Φ⁻¹(1 − ln(2/α)/n) (8.8 at a million draws): a claim at or above it
// cannot be shown violated (+Inf); below it, the confirmations' own widths
// set the resolution (threshold).
func leastGaussian(threshold float64, n int, alpha, _ float64) float64 {
	lo := numeric.BinomialUpper(0, int64(n), alpha/2)
	if 2*numeric.NormalQuantile(1-lo) <= threshold {
		return math.Inf(1)
	}
	return threshold
}

// Result is a bound of a measure from one event's counts.
type Result struct {
	// Estimate is m at the frequencies, a count of 0 or n taken as ½ or
	// n − ½.
	Estimate float64
	// LowerBound is max(m(a₋, b₊), 0), a₋ and b₊ the exact one-sided
	// Clopper–Pearson bounds at level alpha/2 each, or for the
	// hockey-stick divergence of Measure.Joint max(JointLower, 0): it
	// exceeds the true m(P(E), Q(E)) with probability at most alpha.
	LowerBound float64
	// StdErr is half the width, in units of z_{1−alpha}, of the interval
	// from m(a₋, b₊) to m(a₊, b₋), the values the confidence rectangle
	// allows (for the hockey-stick divergence of Measure.Joint the larger
	// distance from the frequencies' difference to JointLower's two sides;
	// not clipped at 0: an event far inside the claim has a width
	// too): the standard error a normal interval of that width would
	// have, which sets the audit's resolution (+Inf when the counts cannot
	// limit the measure).
	StdErr float64
}

// Bound bounds m(P(E), Q(E)) from below at level alpha from the event
// counted cp times in np draws of P and cq times in nq draws of Q.
func (m Measure) Bound(cp, np, cq, nq int64, alpha float64) Result {
	if m.Joint() {
		return m.jointBound(cp, np, cq, nq, alpha)
	}
	return m.RectangleBound(cp, np, cq, nq, alpha)
}

// RectangleBound is Bound by the rectangle of the exact one-sided bounds
// a₋ and b₊ at level alpha/2 each for every measure: for the hockey-stick
// divergence wider than Bound's (up to √2 for an event both sides produce
// alike) and a thousand times cheaper, for screenings, whose bounds only
// decide where to look.
func (m Measure) RectangleBound(cp, np, cq, nq int64, alpha float64) Result {
	aLo, aHi := numeric.BinomialLower(cp, np, alpha/2), numeric.BinomialUpper(cp, np, alpha/2)
	bLo, bHi := numeric.BinomialLower(cq, nq, alpha/2), numeric.BinomialUpper(cq, nq, alpha/2)
	low := m.Of(aLo, bHi)
	lb := max(low, 0)
	if math.IsNaN(lb) {
		lb = 0
	}
	width := m.Of(aHi, bLo) - low
	if math.IsNaN(width) {
		width = math.Inf(1)
	}
	est := max(m.Of(Half(cp, np), Half(cq, nq)), lb)
	return Result{Estimate: est, LowerBound: lb, StdErr: width / (2 * numeric.UpperNormalQuantile(alpha))}
}

// Joint reports whether Bound bounds the measure by JointLower, the exact
// test of the difference, rather than by the rectangle of two one-sided
// bounds: for the hockey-stick divergence of ε ≤ JointMaxEps.
func (m Measure) Joint() bool { return m.Weight > 0 && m.Weight <= math.Exp(JointMaxEps) }

// JointMaxEps is the largest ε whose hockey-stick divergence Bound bounds
// by JointLower. Beyond it an event the other side barely produced (a
// count of 0 to 2, the least violation the resolution floor Least
// describes) can need more draws to show under the joint test than under
// the rectangle: up to 1.7% more at ε = 4.5 and 2.5% at ε = 6 (n = 10³–10⁶,
// levels 10⁻⁴–0.05, thresholds 0–100/n), and at ε = 3.9–4 with P(E) near 1
// at n ≤ 10³ up to 15 draws more. At ε ≤ 3.5 none more, at n = 200–10⁶,
// levels 10⁻⁶–0.05 and thresholds 0 to n/2 draws.
const JointMaxEps = 3.5

// jointBound is Bound for a measure a − e^ε·b: the lower bound JointLower,
// and a StdErr of the larger distance, from the frequencies' own
// difference, down to it or up to the upper bound the same test gives,
// in units of z_{1−alpha} (a small count's upper side is the longer).
func (m Measure) jointBound(cp, np, cq, nq int64, alpha float64) Result {
	w := m.Weight
	lo := JointLower(cp, np, cq, nq, w, alpha)
	hi := -w * JointLower(cq, nq, cp, np, 1/w, alpha)
	lb := max(lo, 0)
	est := max(m.Of(Half(cp, np), Half(cq, nq)), lb)
	raw := float64(cp)/float64(np) - w*float64(cq)/float64(nq)
	return Result{Estimate: est, LowerBound: lb, StdErr: max(raw-lo, hi-raw, 0) / numeric.UpperNormalQuantile(alpha)}
}

// Half is the frequency c/n with a count of 0 or n taken as ½ or n − ½,
// so that a measure of it is finite.
func Half(c, n int64) float64 { return min(max(float64(c), 0.5), float64(n)-0.5) / float64(n) }

// GaussianProfile is the privacy profile of μ-GDP, the least δ with which
// it implies (ε, δ)-DP (Dong, Roth and Su 2022, Corollary 2.13):
//
//	δ_μ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2),
//
// also the exact δ(ε) of the Gaussian mechanism of sensitivity Δ and noise
// σ at μ = Δ/σ (Balle and Wang 2018, Theorem 8).
func GaussianProfile(mu, eps float64) float64 {
	if mu == 0 {
		return 0
	}
	a := math.Exp(logNormalCDF(-eps/mu + mu/2))
	// e^ε·Φ(x) in log space: e^ε overflows long before the product does.
	b := math.Exp(eps + logNormalCDF(-eps/mu-mu/2))
	return max(a-b, 0)
}

// logNormalCDF is ln Φ(x) = ln(erfc(−x/√2)/2), accurate far in the lower
// tail.
func logNormalCDF(x float64) float64 { return numeric.LogErfc(-x/math.Sqrt2) - math.Ln2 }

func trim(v float64) string { return fmt.Sprintf("%.4g", v) }

// Point is one test of a trade-off curve between P and Q: the test that
// rejects Q on an event E has level Q(E) and power P(E).
type Point struct {
	Level, Power float64 // frequencies Q̂(E), P̂(E)
	// LevelHi and PowerLo bound the level from above and the power from
	// below, simultaneously over the points of one curve (see TradeOff).
	LevelHi, PowerLo float64
}

// TradeOff returns the empirical trade-off points of tests counted cp[j]
// times in n draws of P and cq[j] times in n draws of Q, with a band that
// holds for all of them at once with probability at least 1 − alpha
// (Clopper–Pearson at alpha/(2J) for each of the 2J bounds, J tests).
// Under μ-GDP every true point has Power ≤ Φ(Φ⁻¹(Level) + μ).
func TradeOff(cp, cq []int64, n int64, alpha float64) []Point {
	each := alpha / float64(2*max(len(cp), 1))
	out := make([]Point, len(cp))
	for j := range cp {
		out[j] = Point{
			Level: float64(cq[j]) / float64(n), Power: float64(cp[j]) / float64(n),
			LevelHi: numeric.BinomialUpper(cq[j], n, each), PowerLo: numeric.BinomialLower(cp[j], n, each),
		}
	}
	return out
}

// Profile is the privacy profile the tests show at ε, the largest
// P̂(E) − e^ε·Q̂(E) over them (0 at least): an estimate of the
// hockey-stick divergence H_{e^ε}, not a bound.
func Profile(points []Point, eps float64) float64 {
	m := HockeyStick(eps)
	best := 0.0
	for _, p := range points {
		best = max(best, m.Of(p.Power, p.Level))
	}
	return best
}
