package hockey

import (
	"math"

	"github.com/dptest/dptest/internal/numeric"
)

// JointLower bounds d = a − w·b from below at level alpha, for a = P(E)
// counted cp times in np draws and b = Q(E) counted cq times in nq
// independent draws, by inverting an exact test of the difference itself
// rather than bounding a and b apart:
//
//	C = {(a, b) : b ∈ [b₋, b₊] and Pr_{a,b}(T ≥ t) > α₂},  T = ĉp/np − w·ĉq/nq,
//
// t the observed T, [b₋, b₊] the two-sided Clopper–Pearson interval of b
// at level α₁ = alpha/10, α₂ = alpha − α₁, and the bound is the least a − w·b
// over C, found from below to within a tenth of the difference's standard
// deviation (leastOverB). The true (a, b) lies outside C with probability
// at most α₁ + α₂, so the bound exceeds d with probability at most alpha;
// TestJointLowerExactCoverage sums the miss probability exactly. The tail
// Pr_{a,b}(T ≥ t) = Σ_j Bin(nq, b)(j)·Pr(Bin(np, a) ≥ ⌈np·(t + w·j/nq)⌉) is
// summed exactly over all but masses below 10⁻²⁰, which are added to it
// (the bound only loosens). Its width is that of the difference,
// z·√(a(1−a)/np + w²·b(1−b)/nq), where the rectangle of two one-sided
// bounds at alpha/2 pays z_{α/4}·(√(a(1−a)/np) + w·√(b(1−b)/nq)): up to
// √2·z_{α/4}/z_{α₂} narrower (1.6 at alpha = 0.007, less the search's
// tenth) for an event both sides produce often (a half-line), and for
// one the other side never produced it need not pay b₊ in full (a larger b
// would have needed a larger a to show the same t), so that it is no
// wider up to w = e^3.5 (Measure.Joint; beyond, the rectangle is). The region
// C is the test's acceptance region at the b it allows (Lehmann and
// Romano, Testing Statistical Hypotheses, §3.5, confidence sets by
// inverting tests; the b-interval restriction is the Berger–Boos device,
// "P values maximised over a confidence set for the nuisance parameter",
// JASA 1994).
func JointLower(cp, np, cq, nq int64, w, alpha float64) float64 {
	if !(w > 0) || math.IsInf(w*float64(np)/float64(nq), 1) {
		panic("hockey: JointLower needs a weight w > 0 with w·np/nq finite")
	}
	a1 := alpha / 10
	a2 := alpha - a1
	bLo, bHi := numeric.BinomialLower(cq, nq, a1/2), numeric.BinomialUpper(cq, nq, a1/2)
	fa, fb := float64(cp)/float64(np), float64(cq)/float64(nq)
	sd := math.Sqrt(fa*(1-fa)/float64(np)) + 1/float64(np)
	j := jointTest{cp: cp, np: np, cq: cq, nq: nq, w: w, alpha: a2, step: sd,
		lastA: max(fa-w*(fb-bLo)-numeric.UpperNormalQuantile(a2)*sd, 0)}
	aStar := func(b, guess float64) float64 {
		j.lastA = guess
		return j.least(b) + w*b
	}
	spread := math.Sqrt(fa*(1-fa)/float64(np)+w*w*fb*(1-fb)/float64(nq)) + 1/float64(np)
	return leastOverB(aStar, j.lastA, w, bLo, bHi, jointTolerance*spread)
}

// JointPrediction predicts JointLower at level alpha for the weight w from
// counts ep, eq expected in n draws per side: (ep − w·eq − s)/n, the
// shortfall s = √(dₐ² + d_b²) of the two sides in quadrature, dₐ the
// variance-stabilised shortfall ep − (√ep − z/2)² of the exact bound of a
// at z = z_{1−α₂} (shrunk by √(1 − ep/n)) and d_b = w·z·√(x(1 − x/n)) for
// x = min((√(eq+1) + z₁/2)², n/2), the b the interval allows that the
// difference's variance is largest at, z₁ = z_{1−α₁/2}. Events of all the
// draws are left out (−Inf).
func JointPrediction(w, alpha float64) func(ep, eq, n float64) float64 {
	a1 := alpha / 10
	z1, z2 := numeric.UpperNormalQuantile(a1/2), numeric.UpperNormalQuantile(alpha-a1)
	return func(ep, eq, n float64) float64 {
		if ep >= n {
			return math.Inf(-1)
		}
		da := (ep - math.Pow(max(math.Sqrt(ep)-z2/2, 0), 2)) * math.Sqrt(max(1-ep/n, 0))
		x := min(math.Pow(math.Sqrt(eq+1)+z1/2, 2), n/2)
		db := w * z2 * math.Sqrt(x*(1-x/n))
		return (ep - w*eq - math.Hypot(da, db)) / n
	}
}

// jointTest is the exact test of JointLower for the observed counts.
type jointTest struct {
	cp, np, cq, nq int64
	w, alpha       float64
	q              binomialBand // Bin(nq, b) at the b being tried
	p              binomialBand // Bin(np, a) at the a being tried
	sf             []float64    // survival function of p
	lastA          float64      // the a found at the last b tried (at first a guess)
	step           float64      // the first step of a bracket's search, about a's standard error
}

// least returns the least a − w·b over the a for which (a, b) is in the
// confidence set (the lower end of a bisection on a, so never above the
// exact least), +Inf if none is.
func (j *jointTest) least(b float64) float64 {
	j.q = newBinomialBand(j.nq, b, j.q.pmf)
	if j.tail(1) <= j.alpha {
		return math.Inf(1)
	}
	if j.tail(0) > j.alpha {
		return -j.w * b
	}
	lo, hi := j.bracket()
	// Regula falsi on ln tail − ln α with the Illinois modification: the
	// bracket [lo, hi] keeps tail(lo) ≤ α < tail(hi) and shrinks from both
	// ends, to 10⁻⁴ of a's standard error (lo, the value returned, is below
	// the least a by no more); it falls back to bisection where the log
	// tail is −∞.
	la := math.Log(j.alpha)
	flo, fhi := math.Log(j.tail(lo))-la, math.Log(j.tail(hi))-la
	side := 0
	for i := 0; i < 60 && hi-lo > 1e-4*j.step; i++ {
		mid := hi - fhi*(hi-lo)/(fhi-flo)
		if !(mid > lo && mid < hi) {
			mid = (lo + hi) / 2
		}
		fm := math.Log(j.tail(mid)) - la
		if fm > 0 {
			hi, fhi = mid, fm
			if side == 1 {
				flo /= 2
			}
			side = 1
		} else {
			lo, flo = mid, fm
			if side == -1 {
				fhi /= 2
			}
			side = -1
		}
	}
	j.lastA = lo
	return lo - j.w*b
}

// bracket returns lo < hi with tail(lo) ≤ alpha < tail(hi), searched
// outwards from the a of the last b tried (the least a moves little with
// b) in steps that double.
func (j *jointTest) bracket() (lo, hi float64) {
	step := j.step
	if j.tail(j.lastA) > j.alpha {
		hi = j.lastA
		for {
			lo = max(hi-step, 0)
			if lo == 0 || j.tail(lo) <= j.alpha {
				return lo, hi
			}
			hi, step = lo, 2*step
		}
	}
	lo = j.lastA
	for {
		hi = min(lo+step, 1)
		if hi == 1 || j.tail(hi) > j.alpha {
			return lo, hi
		}
		lo, step = hi, 2*step
	}
}

// tail is an upper bound, exact but for masses below 10⁻²⁰, on
// Pr_{a,b}(T ≥ t) at the b of j.q.
func (j *jointTest) tail(a float64) float64 {
	j.p = newBinomialBand(j.np, a, j.p.pmf)
	j.sf = j.p.survival(j.sf)
	sf := j.sf
	total := j.q.below + j.q.above
	step := float64(j.np) * j.w / float64(j.nq)
	for i, m := range j.q.pmf {
		cq := j.q.lo + int64(i)
		x := float64(j.cp) + step*float64(cq-j.cq)
		k := math.Ceil(x - 1e-9*max(1, math.Abs(x)))
		total += m * j.p.survivalAt(k, sf)
	}
	return min(total, 1)
}

// jointTolerance is how far, in standard deviations of the difference of
// the frequencies, JointLower's bound may lie below the least a − w·b over
// its confidence set: the price of finding that least value rigorously
// (leastOverB), 4% of the bound's distance below the frequencies at the
// default level, for about fifty tests of a b where the set's edge is flat.
const jointTolerance = 0.1

// leastOverB returns a lower bound, within tol of the least value, of
// a*(b) − w·b over b in [lo, hi], for aStar(b, guess) nondecreasing in b
// (+Inf beyond the confidence set's edge; guess a starting point for its
// search): the tail falls as b grows, so the least a in the set can only
// grow with it. On a cell [b₀, b₁] every point of the set has
// a − w·b ≥ a*(b₀) − w·b₁, so the least of these over a partition of
// [lo, hi] bounds the minimum from below, however a*(b) bends or jumps
// (near P(E) = 1, where the set ends at a b inside the interval, or on a
// coarse lattice of counts, where it is a sawtooth). The partition starts
// as 8 cells and the cell of the least bound is halved until that bound
// is within tol of the least point value found.
func leastOverB(aStar func(b, guess float64) float64, guess, w, lo, hi, tol float64) float64 {
	if !(hi > lo) {
		return aStar(lo, guess) - w*lo
	}
	type cell struct{ b0, b1, a0 float64 }
	const first = 8
	cells := make([]cell, 0, first+64)
	best := math.Inf(1) // the least a*(b) − w·b seen: the minimum is at most this
	b0, a0 := lo, aStar(lo, guess)
	best = min(best, a0-w*lo)
	for i := 1; i <= first; i++ {
		b1 := lo + (hi-lo)*float64(i)/first
		a1 := aStar(b1, nextGuess(a0, w*(b1-b0), guess))
		best = min(best, a1-w*b1)
		cells = append(cells, cell{b0, b1, a0})
		b0, a0 = b1, a1
	}
	bound := func(c cell) float64 { return c.a0 - w*c.b1 }
	for range 400 {
		k, low := 0, bound(cells[0])
		for i, c := range cells[1:] {
			if v := bound(c); v < low {
				k, low = i+1, v
			}
		}
		if low >= best-tol {
			return low
		}
		c := cells[k]
		mid := (c.b0 + c.b1) / 2
		if !(mid > c.b0 && mid < c.b1) {
			return low
		}
		am := aStar(mid, nextGuess(c.a0, w*(mid-c.b0), guess))
		best = min(best, am-w*mid)
		cells[k] = cell{c.b0, mid, c.a0}
		cells = append(cells, cell{mid, c.b1, am})
	}
	low := math.Inf(1)
	for _, c := range cells {
		low = min(low, bound(c))
	}
	return low
}

// nextGuess is where the search for a*(b) starts: the a found at a b
// below it moved by w times the step in b (the test's mean a − w·b held),
// or the first guess where that a was +Inf.
func nextGuess(a0, shift, first float64) float64 {
	if math.IsInf(a0, 1) {
		return first
	}
	return min(a0+shift, 1)
}

// binomialBand is the probability mass function of Bin(n, p) on
// lo, lo+1, …, lo+len(pmf)−1, with upper bounds below and above on the
// masses it leaves out on either side (each near bandFloor), the masses
// scaled to sum to 1.
type binomialBand struct {
	lo           int64
	pmf          []float64
	below, above float64
}

const bandFloor = 1e-20

// newBinomialBand computes the band from the mode outwards by the ratios of
// successive masses, reusing buf. Past the mode each ratio is smaller than
// the one before, so a left-out tail is at most a geometric series.
func newBinomialBand(n int64, p float64, buf []float64) binomialBand {
	switch {
	case p <= 0:
		return binomialBand{lo: 0, pmf: append(buf[:0], 1)}
	case p >= 1:
		return binomialBand{lo: n, pmf: append(buf[:0], 1)}
	}
	odds := p / (1 - p)
	mode := min(int64(math.Floor(float64(n+1)*p)), n)
	lg := func(x int64) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
	peak := math.Exp(lg(n) - lg(mode) - lg(n-mode) + float64(mode)*math.Log(p) + float64(n-mode)*math.Log1p(-p))
	// Downwards from the mode into buf (reversed afterwards), then upwards.
	down := append(buf[:0], peak)
	m, k := peak, mode
	below := 0.0
	for k > 0 {
		r := float64(k) / (float64(n-k+1) * odds) // mass(k−1)/mass(k)
		if m < bandFloor && r < 1 {
			below = m * r / (1 - r)
			break
		}
		m *= r
		k--
		down = append(down, m)
	}
	lo := k
	for i, j := 0, len(down)-1; i < j; i, j = i+1, j-1 {
		down[i], down[j] = down[j], down[i]
	}
	pmf := down
	m, k = peak, mode
	above := 0.0
	for k < n {
		r := float64(n-k) / float64(k+1) * odds // mass(k+1)/mass(k)
		if m < bandFloor && r < 1 {
			above = m * r / (1 - r)
			break
		}
		m *= r
		k++
		pmf = append(pmf, m)
	}
	// Scaled to sum to 1: ln Γ(n+1) carries an error near 10⁻¹⁶ of its
	// size, 10⁻⁹ of the masses at n = 10⁶; scaled, they are too large by at
	// most the left-out masses, which only loosens the bound.
	total := 0.0
	for _, m := range pmf {
		total += m
	}
	for i := range pmf {
		pmf[i] /= total
	}
	return binomialBand{lo: lo, pmf: pmf, below: below, above: above}
}

// survival returns sf with sf[i] an upper bound on Pr(K ≥ lo + i),
// reusing buf.
func (b binomialBand) survival(buf []float64) []float64 {
	if cap(buf) < len(b.pmf) {
		buf = make([]float64, len(b.pmf))
	}
	sf := buf[:len(b.pmf)] // every entry is written below
	acc := b.above
	for i := len(b.pmf) - 1; i >= 0; i-- {
		acc += b.pmf[i]
		sf[i] = acc
	}
	return sf
}

// survivalAt is an upper bound on Pr(K ≥ k) from sf.
func (b binomialBand) survivalAt(k float64, sf []float64) float64 {
	switch {
	case k <= float64(b.lo):
		return 1
	case k > float64(b.lo)+float64(len(sf)-1):
		return b.above
	}
	return min(sf[int64(k)-b.lo], 1)
}
