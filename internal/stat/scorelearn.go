package stat

import (
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"

	"github.com/dptest/dptest/internal/numeric"
)

// countCells counts values per cell of p.
func countCells(p *Partition, values []float64) []int64 {
	c := make([]int64, p.Cells())
	for _, v := range values {
		c[p.Cell(v)]++
	}
	return c
}

// gStatistic returns the two-sample G statistic of counts cx and cy over
// the same cells,
//
//	G = 2 Σ_c [cx_c ln(cx_c/ex_c) + cy_c ln(cy_c/ey_c)],  ex_c = (cx_c+cy_c)·nx/(nx+ny),
//
// χ² with df = (cells seen) − 1 degrees of freedom when both samples come
// from one distribution.
func gStatistic(cx, cy []int64) (g float64, df int) {
	var nx, ny int64
	for c := range cx {
		nx += cx[c]
		ny += cy[c]
	}
	if nx == 0 || ny == 0 {
		return 0, 0
	}
	fx, fy := float64(nx)/float64(nx+ny), float64(ny)/float64(nx+ny)
	term := func(o int64, e float64) float64 {
		if o == 0 {
			return 0
		}
		return float64(o) * math.Log(float64(o)/e)
	}
	for c := range cx {
		t := float64(cx[c] + cy[c])
		if t == 0 {
			continue
		}
		df++
		g += term(cx[c], t*fx) + term(cy[c], t*fy)
	}
	return 2 * g, df - 1
}

// screenCoordinates tests every coordinate of the fitting samples for a
// difference between X and Y: Welch's z² of the means against the
// two-sided normal quantile, and the G statistic of ScoreCells cells of
// the pooled values against the χ² quantile, each at level
// SelectionLevel/d (Bonferroni over the d coordinates). A coordinate on a
// grid (RepeatsMany) is also tested value by value for values seen on one
// side only (oneSidedZ, at the same level); where that test is telling
// and its key larger, the coordinate's cells are its values (byValue).
func screenCoordinates(fx, fy *Vectors) []coordinate {
	d := fx.Dim
	alpha := SelectionLevel / float64(d)
	zCrit := numeric.UpperNormalQuantile(alpha / 2)
	out := make([]coordinate, d)
	for j := range d {
		xs, ys := fx.Column(j), fy.Column(j)
		c := coordinate{j: j}
		c.meanX, c.varX = meanVar(xs)
		c.meanY, c.varY = meanVar(ys)
		pooled := append(append([]float64(nil), xs...), ys...)
		c.cells = partitionOfCount(pooled, ScoreCells) // sorts pooled
		c.tail = tailEvidence(pooled, xs, ys)
		c.cx, c.cy = countCells(c.cells, xs), countCells(c.cells, ys)
		se2 := c.varX/float64(len(xs)) + c.varY/float64(len(ys))
		z2 := 0.0
		switch diff := c.meanX - c.meanY; {
		case se2 > 0:
			z2 = diff * diff / se2
		case diff != 0:
			z2 = math.Inf(1)
		}
		cellsKey := gKey(c.cx, c.cy, alpha)
		if RepeatsMany(pooled) {
			// A coordinate on a grid: its values one by one may tell
			// what cells of many values hide (a grid whose phase
			// depends on the dataset); kept where they are telling on
			// their own and tell more than the cells.
			vc := valueCells(pooled)
			vx, vy := countCells(vc, xs), countCells(vc, ys)
			if z := oneSidedZ(vx, vy); z > zCrit && z*z/(zCrit*zCrit) > cellsKey {
				c.cells, c.cx, c.cy, c.byValue, cellsKey = vc, vx, vy, true, z*z/(zCrit*zCrit)
			}
		}
		c.key = max(z2/(zCrit*zCrit), cellsKey)
		c.telling = c.key > 1
		out[j] = c
	}
	return out
}

// gKey is the G statistic of counts cx, cy over their quantile at level
// alpha (0 for fewer than two cells seen).
func gKey(cx, cy []int64, alpha float64) float64 {
	g, df := gStatistic(cx, cy)
	if df <= 0 {
		return 0
	}
	return g / numeric.ChiSquareUpperQuantile(float64(df), alpha)
}

// oneSidedZ tests whether the values counted cx on X and cy on Y are
// seen on one side only more often than one law for both allows: among
// the values seen m ≥ 2 times in all, the number T seen on one side only
// has, under one law and a share f of the draws from X, mean
// Σ f^m + (1 − f)^m and variance Σ p(1 − p) over them (one Bernoulli a
// value); it returns (T − E T)/sd T, 0 when no value repeats. Values of
// one grid for X and another for Y are all one-sided. Unlike the G
// statistic, whose χ² law needs a few counts a cell, it stays calibrated
// when each value is seen only a few times.
func oneSidedZ(cx, cy []int64) float64 {
	var nx, ny int64
	for c := range cx {
		nx += cx[c]
		ny += cy[c]
	}
	if nx == 0 || ny == 0 {
		return 0
	}
	f := float64(nx) / float64(nx+ny)
	var t, mean, variance float64
	for c := range cx {
		m := float64(cx[c] + cy[c])
		if m < 2 {
			continue
		}
		p := math.Pow(f, m) + math.Pow(1-f, m)
		mean += p
		variance += p * (1 - p)
		if cx[c] == 0 || cy[c] == 0 {
			t++
		}
	}
	if variance == 0 {
		return 0
	}
	return (t - mean) / math.Sqrt(variance)
}

// valueCells cuts the line at every value of the sorted values: each value
// a cell of its own, [v, nextafter(v)), with a cell between each two.
func valueCells(sorted []float64) *Partition {
	p := &Partition{}
	cutSorted(sorted, 1, 1, p.add)
	p.atom = append(p.atom, false) // the last cell
	return p
}

// tailEvidence measures how far from one law the two sides' shares of
// their extreme values are: under one law for both, the k most extreme
// pooled values hold a number K of X's values that is binomial(k, f), f
// the share of X's draws. Scanning k up to TailDepth from each end (at
// the ends of groups of tied values, which count wholly, as the cells
// do), it returns the largest of −ln P(K ≥ k_X) and −ln P(k − K ≥ k_Y)
// over k and both ends: a run of m values from one side alone at an end
// scores m·ln 2 at equal sides. Values repeated at the extremes on one
// side only (an output one dataset produces rarely and the other never,
// ±10 beside noise of scale 1 once in 1,000 draws: about 12 of each in
// 12,500 draws a side) score about 8; a shift of a fifth of a standard
// deviation, which tilts the extremes 2:1, scores about 2 to 5. pooled
// is xs and ys together, sorted.
func tailEvidence(pooled, xs, ys []float64) float64 {
	n := len(pooled)
	if n < 4*TailDepth {
		return 0
	}
	share := float64(len(xs)) / float64(n)
	end := func(cut float64, beyond func(v float64) bool, outward bool) float64 {
		counts := map[float64][2]int{}
		for i, side := range [][]float64{xs, ys} {
			for _, v := range side {
				if v == cut || beyond(v) {
					c := counts[v]
					c[i]++
					counts[v] = c
				}
			}
		}
		values := slices.Sorted(maps.Keys(counts))
		if outward {
			slices.Reverse(values)
		}
		best, kx, ky := 0.0, 0, 0
		for _, v := range values {
			kx, ky = kx+counts[v][0], ky+counts[v][1]
			best = max(best, binomialSurprise(kx+ky, kx, share), binomialSurprise(kx+ky, ky, 1-share))
		}
		return best
	}
	low := end(pooled[TailDepth-1], func(v float64) bool { return v < pooled[TailDepth-1] }, false)
	high := end(pooled[n-TailDepth], func(v float64) bool { return v > pooled[n-TailDepth] }, true)
	return max(low, high)
}

// binomialSurprise is −ln P(Bin(k, p) ≥ x), 0 for x = 0.
func binomialSurprise(k, x int, p float64) float64 {
	if x <= 0 {
		return 0
	}
	tail := mathext.RegIncBeta(float64(x), float64(k-x+1), p)
	if !(tail > 0) {
		return math.Inf(1)
	}
	return -math.Log(tail)
}

// meanVar returns the mean and the (unbiased) variance of v, summed in
// v's order.
func meanVar(v []float64) (mean, variance float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		variance += (x - mean) * (x - mean)
	}
	if len(v) > 1 {
		variance /= float64(len(v) - 1)
	}
	return mean, variance
}

// linearScore is the linear discriminant over the coordinates given that
// vary (pooled variance > 0): w = Σ̂⁻¹(μ̂_X − μ̂_Y), Σ̂ the pooled
// covariance with a ridge of 10⁻⁹ of each variance (full for up to
// MaxFullCovariance coordinates, else diagonal). Nil if no coordinate
// varies or every weight is 0.
func linearScore(fx, fy *Vectors, coords []coordinate) *Score {
	var use []coordinate
	for _, c := range coords {
		if c.varX+c.varY > 0 {
			use = append(use, c)
		}
	}
	k := len(use)
	if k == 0 {
		return nil
	}
	diff, scales := make([]float64, k), make([]float64, k)
	for i, c := range use {
		diff[i] = c.meanX - c.meanY
		scales[i] = math.Sqrt(pooledVar(c, fx.Rows(), fy.Rows()))
	}
	var w []float64
	if k <= MaxFullCovariance {
		// Solved on standardised coordinates (the correlation matrix), so
		// that a coordinate in large units does not swamp the others.
		rhs := make([]float64, k)
		for i := range rhs {
			rhs[i] = diff[i] / scales[i]
		}
		if ws, ok := numeric.SolveSymmetric(standardised(pooledCovariance(fx, fy, use), scales), k, rhs); ok {
			w = ws
			for i := range w {
				w[i] /= scales[i]
			}
		}
	}
	if w == nil {
		w = make([]float64, k)
		for i := range w {
			w[i] = diff[i] / (scales[i] * scales[i])
		}
	}
	return linearOf(fx.Dim, use, w, scales)
}

// linearOf orders the weights by |wⱼ|·sⱼ, drops zeros and scales the
// largest to 1.
func linearOf(dim int, use []coordinate, w, scales []float64) *Score {
	idx := make([]int, 0, len(w))
	for i := range w {
		if w[i] != 0 && !math.IsNaN(w[i]) && !math.IsInf(w[i], 0) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return -cmpFloat(math.Abs(w[a])*scales[a], math.Abs(w[b])*scales[b])
	})
	top := math.Abs(w[idx[0]]) * scales[idx[0]]
	s := &Score{Kind: ScoreLinear, Dim: dim}
	for _, i := range idx {
		s.Coords = append(s.Coords, use[i].j)
		s.Weights = append(s.Weights, w[i]/top)
		s.scales = append(s.scales, scales[i])
		s.centre = append(s.centre, use[i].mid())
	}
	return s
}

func pooledVar(c coordinate, nx, ny int) float64 {
	return (c.varX*float64(nx-1) + c.varY*float64(ny-1)) / float64(nx+ny-2)
}

// pooledCovariance is the pooled covariance of the coordinates given, each
// side centred at its own mean, row-major.
func pooledCovariance(fx, fy *Vectors, use []coordinate) []float64 {
	cov := scatter(fx, use, func(c coordinate) float64 { return c.meanX })
	sy := scatter(fy, use, func(c coordinate) float64 { return c.meanY })
	for i := range cov {
		cov[i] += sy[i]
	}
	return covarianceOf(cov, len(use), fx.Rows()+fy.Rows()-2)
}

// scatter is Σᵢ (vᵢ − m)(vᵢ − m)ᵀ over the rows of v, on the coordinates
// given, its lower triangle filled, row-major.
func scatter(v *Vectors, use []coordinate, mean func(coordinate) float64) []float64 {
	k := len(use)
	s := make([]float64, k*k)
	centred := make([]float64, k)
	for r := range v.Rows() {
		row := v.Row(r)
		for i, c := range use {
			centred[i] = row[c.j] - mean(c)
		}
		for a := range k {
			for b := 0; b <= a; b++ {
				s[a*k+b] += centred[a] * centred[b]
			}
		}
	}
	return s
}

// covarianceOf divides a scatter matrix by n and mirrors it.
func covarianceOf(s []float64, k, n int) []float64 {
	for a := range k {
		for b := 0; b <= a; b++ {
			s[a*k+b] /= float64(n)
			s[b*k+a] = s[a*k+b]
		}
	}
	return s
}

// standardised turns a covariance into the covariance of the coordinates
// divided by scales (the correlation matrix when they are the standard
// deviations) plus a ridge of 10⁻⁹, which keeps it positive definite when
// coordinates are collinear (the bins of a histogram of a fixed number of
// records sum to a constant). Every unit of every coordinate is alike to
// it.
func standardised(cov, scales []float64) []float64 {
	k := len(scales)
	out := make([]float64, k*k)
	for a := range k {
		for b := range k {
			out[a*k+b] = cov[a*k+b] / (scales[a] * scales[b])
		}
		out[a*k+a] += 1e-9
	}
	return out
}

// inverse returns the inverse of the symmetric positive-definite k×k
// matrix a, or nil.
func inverse(a []float64, k int) []float64 {
	inv := make([]float64, k*k)
	e := make([]float64, k)
	for j := range k {
		clear(e)
		e[j] = 1
		col, ok := numeric.SolveSymmetric(a, k, e)
		if !ok {
			return nil
		}
		for i := range k {
			inv[i*k+j] = col[i]
		}
	}
	return inv
}

// quadraticScore is the quadratic discriminant over up to MaxQuadratic
// coordinates that vary, the most telling first: the log-likelihood
// ratio of Gaussian noise whose covariance depends on the dataset,
//
//	ln p/q (v) = −½ vᵀ(Σ̂_X⁻¹ − Σ̂_Y⁻¹)v + (Σ̂_X⁻¹μ̂_X − Σ̂_Y⁻¹μ̂_Y)ᵀv + const,
//
// each side's covariance estimated on its own. It sees a leak in the
// spread or the correlations of the noise that leaves every mean and
// every marginal alone. Nil if no coordinate varies on both sides or a
// covariance is singular.
func quadraticScore(fx, fy *Vectors, coords []coordinate) *Score {
	var use []coordinate
	for _, c := range coords {
		if c.varX > 0 && c.varY > 0 && len(use) < MaxQuadratic {
			use = append(use, c)
		}
	}
	k := len(use)
	if k == 0 {
		return nil
	}
	scales := make([]float64, k)
	for i, c := range use {
		scales[i] = math.Sqrt(pooledVar(c, fx.Rows(), fy.Rows()))
	}
	// Each side's inverse covariance, inverted on standardised
	// coordinates: Σ⁻¹ = S⁻¹(S⁻¹ΣS⁻¹)⁻¹S⁻¹.
	inv := func(v *Vectors, mean func(coordinate) float64) []float64 {
		m := inverse(standardised(covarianceOf(scatter(v, use, mean), k, v.Rows()-1), scales), k)
		for a := range m {
			m[a] /= scales[a/k] * scales[a%k]
		}
		return m
	}
	ix := inv(fx, func(c coordinate) float64 { return c.meanX })
	iy := inv(fy, func(c coordinate) float64 { return c.meanY })
	if ix == nil || iy == nil {
		return nil
	}
	// On coordinates centred at c, the pooled means, the linear part is
	// Σ̂_X⁻¹(μ̂_X − c) − Σ̂_Y⁻¹(μ̂_Y − c).
	s := &Score{Kind: ScoreQuadratic, Dim: fx.Dim, quad: make([]float64, k*k), Weights: make([]float64, k)}
	for a, c := range use {
		s.Coords = append(s.Coords, c.j)
		s.centre = append(s.centre, c.mid())
		for b, e := range use {
			s.quad[a*k+b] = -0.5 * (ix[a*k+b] - iy[a*k+b])
			s.Weights[a] += ix[a*k+b]*(e.meanX-e.mid()) - iy[a*k+b]*(e.meanY-e.mid())
		}
	}
	return s
}

// diagonalScore sums the Gaussian log density ratios of the coordinates
// (ScoreDiagonal) from each side's learning mean and variance: on
// u = v − c, c the pooled mean, ln N(v; μ_X, σ²_X) − ln N(v; μ_Y, σ²_Y) is,
// up to a constant, a·u² + b·u with a = (1/σ²_Y − 1/σ²_X)/2 and
// b = (μ_X − c)/σ²_X − (μ_Y − c)/σ²_Y, larger where X is the likelier.
// Coordinates either side holds constant are left out (their ratio is not
// Gaussian), and so are those whose coefficients are not finite (a
// variance below float64's normal range); nil if none is left.
func diagonalScore(dim int, coords []coordinate) *Score {
	s := &Score{Kind: ScoreDiagonal, Dim: dim}
	for _, c := range coords {
		if !(c.varX > 0 && c.varY > 0) {
			continue
		}
		mid := c.mid()
		a := (1/c.varY - 1/c.varX) / 2
		b := (c.meanX-mid)/c.varX - (c.meanY-mid)/c.varY
		if math.IsNaN(a) || math.IsInf(a, 0) || math.IsNaN(b) || math.IsInf(b, 0) {
			continue
		}
		s.Coords = append(s.Coords, c.j)
		s.centre = append(s.centre, mid)
		s.square = append(s.square, a)
		s.Weights = append(s.Weights, b)
	}
	if len(s.Coords) == 0 {
		return nil
	}
	return s
}

// naiveBayesScore sums the log-ratios ln((cxᵢ + ½)/(nx + C/2)) −
// ln((cyᵢ + ½)/(ny + C/2)) of the fitting counts in each telling
// coordinate's C cells.
func naiveBayesScore(dim int, telling []coordinate) *Score {
	s := &Score{Kind: ScoreNaiveBayes, Dim: dim}
	for _, c := range telling {
		var nx, ny int64
		for i := range c.cx {
			nx += c.cx[i]
			ny += c.cy[i]
		}
		half := float64(len(c.cx)) / 2
		lr := make([]float64, len(c.cx))
		for i := range lr {
			lr[i] = math.Log((float64(c.cx[i])+0.5)/(float64(nx)+half)) - math.Log((float64(c.cy[i])+0.5)/(float64(ny)+half))
		}
		s.Coords = append(s.Coords, c.j)
		s.cells = append(s.cells, c.cells)
		s.logRatio = append(s.logRatio, lr)
	}
	return s
}
