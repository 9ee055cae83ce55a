package stat

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// learnFrom draws fitting and held-out samples of m rows on each side from
// gen (side 0 is X) and learns their score.
func learnFrom(t *testing.T, seed uint64, d, m int, gen func(r *rand.Rand, side int, v []float64)) *Score {
	t.Helper()
	return learnAllFrom(seed, d, m, gen)[0]
}

// The linear discriminant of Gaussian noise with covariance Σ and means
// differing by Δ is Σ⁻¹Δ: for v = (s + z₁, z₁ + z₂) with z independent
// N(0, 1), Σ = [[1, 1], [1, 2]] and Δ = (1, 0), Σ⁻¹Δ = (2, −1): the
// second coordinate, identical in distribution on both sides, carries half
// the information. Exact truth: weights (2, −1) up to scale.
func TestLearnScoreLinearDiscriminantOfCorrelatedGaussian(t *testing.T) {
	s := learnFrom(t, 1, 2, 20000, func(r *rand.Rand, side int, v []float64) {
		z1, z2 := r.NormFloat64(), r.NormFloat64()
		v[0] = z1 + float64(1-side)
		v[1] = z1 + z2
	})
	require.Equal(t, ScoreLinear, s.Kind, s.String())
	w := map[int]float64{}
	for i, j := range s.Coords {
		w[j] = s.Weights[i]
	}
	require.InDelta(t, -0.5, w[1]/w[0], 0.03, "weights %v", w)
	require.Contains(t, s.String(), "linear discriminant over 2 of 2 coordinates")
}

// A Laplace histogram whose neighbours differ in bin 7 only: the
// coordinate itself carries all the information, and the real-output
// statistics resolve its ratio, so the learned score is v[7].
func TestLearnScoreFindsTheChangedBin(t *testing.T) {
	for _, d := range []int{10, 100} {
		s := learnFrom(t, 2, d, 4000, func(r *rand.Rand, side int, v []float64) {
			for j := range v {
				v[j] = laplace(r)
			}
			v[7] += float64(1 - side)
		})
		require.Equal(t, ScoreCoordinate, s.Kind, "d=%d: %s", d, s)
		require.Equal(t, []int{7}, s.Coords, "d=%d", d)
	}
}

// Laplace noise on every coordinate of a change spread over 5 of 20
// coordinates: the log-likelihood ratio is a sum of per-coordinate clamped
// ratios, which the naive-Bayes score estimates and a linear one does not;
// whichever is chosen must read exactly the five changed coordinates among
// its most telling.
func TestLearnScoreSpreadLaplaceChange(t *testing.T) {
	s := learnFrom(t, 3, 20, 10000, func(r *rand.Rand, side int, v []float64) {
		for j := range v {
			v[j] = laplace(r)
			if j%4 == 0 && side == 0 {
				v[j] += 1
			}
		}
	})
	require.NotEqual(t, ScoreCoordinate, s.Kind, s.String())
	top := map[int]bool{}
	for _, j := range s.Coords[:5] {
		top[j] = true
	}
	require.Equal(t, map[int]bool{0: true, 4: true, 8: true, 12: true, 16: true}, top, s.String())
}

// An output that does not depend on the dataset: no coordinate is telling,
// and the score (whichever) separates nothing beyond chance: its held-out
// G statistic stays within the χ²₃₁ range (its 1 − 10⁻⁶ quantile is 88).
func TestLearnScoreOfIdenticalDistributions(t *testing.T) {
	s := learnFrom(t, 4, 5, 5000, func(r *rand.Rand, _ int, v []float64) {
		for j := range v {
			v[j] = r.NormFloat64()
		}
	})
	require.Less(t, s.Separation, 88.0, s.String())
}

// Constant coordinates (empty bins released as exactly 0) are never
// weighted, and one that is constant but different on the two sides is the
// score on its own: it separates the sides completely.
func TestLearnScoreConstantCoordinates(t *testing.T) {
	s := learnFrom(t, 5, 4, 2000, func(r *rand.Rand, side int, v []float64) {
		v[0], v[1], v[2], v[3] = 0, r.NormFloat64(), 3, r.NormFloat64()
		if side == 0 {
			v[2] = 4
		}
	})
	require.Equal(t, ScoreCoordinate, s.Kind, s.String())
	require.Equal(t, []int{2}, s.Coords)
	require.Equal(t, 4.0, s.Of([]float64{0, 9, 4, 9}))

	s = learnFrom(t, 6, 3, 2000, func(r *rand.Rand, _ int, v []float64) { v[0], v[1], v[2] = 1, 2, 3 })
	require.Equal(t, 0.0, s.Separation, s.String())
}

// The G statistic of counts against their closed form, and its χ² degrees
// of freedom.
func TestGStatistic(t *testing.T) {
	g, df := gStatistic([]int64{30, 10, 0}, []int64{10, 30, 0})
	want := 2 * (30*math.Log(30.0/20) + 10*math.Log(10.0/20) + 10*math.Log(10.0/20) + 30*math.Log(30.0/20))
	require.InDelta(t, want, g, 1e-12)
	require.Equal(t, 1, df)
	g, _ = gStatistic([]int64{5, 5}, []int64{5, 5})
	require.Equal(t, 0.0, g)
}

// Rows sorted lexicographically do not depend on the order they were
// added in.
func TestSortRowsIsOrderFree(t *testing.T) {
	a, b := NewVectors(2, 3), NewVectors(2, 3)
	for _, v := range [][]float64{{1, 2}, {0, 5}, {1, 1}} {
		a.Add(v)
	}
	for _, v := range [][]float64{{1, 1}, {1, 2}, {0, 5}} {
		b.Add(v)
	}
	a.SortRows()
	b.SortRows()
	require.Equal(t, []float64{0, 5, 1, 1, 1, 2}, a.V)
	require.Equal(t, a.V, b.V)
}

func laplace(r *rand.Rand) float64 {
	e := r.ExpFloat64()
	if r.IntN(2) == 0 {
		return -e
	}
	return e
}

// Noise whose correlation depends on the dataset: under X both
// coordinates are one N(0, 1) draw, v = (z, z + 0.3w), under Y two
// independent ones, with the same means and the same marginal spread up to
// 5%. No mean differs and the marginals barely do, so only the quadratic
// discriminant, the log-likelihood ratio of two Gaussians, separates the
// sides.
func TestLearnScoreQuadraticForACorrelationLeak(t *testing.T) {
	s := learnFrom(t, 7, 2, 10000, func(r *rand.Rand, side int, v []float64) {
		z := r.NormFloat64()
		v[0] = z
		if side == 0 {
			v[1] = z + 0.3*r.NormFloat64()
		} else {
			v[1] = math.Sqrt(1.09) * r.NormFloat64()
		}
	})
	require.Equal(t, ScoreQuadratic, s.Kind, s.String())
	require.Greater(t, s.Separation, 1000.0, s.String())
	require.Contains(t, s.String(), "quadratic discriminant over 2 of 2 coordinates")
	// The exact log-likelihood ratio −½vᵀ(Σ_X⁻¹ − Σ_Y⁻¹)v, Σ_X = [[1, 1],
	// [1, 1.09]], Σ_Y = diag(1, 1.09), is 0.4587 at (1, 1) and −21.76 at
	// (1, −1): the score differs by 22.22 between them, within 10%.
	require.InEpsilon(t, 22.22, s.Of([]float64{1, 1})-s.Of([]float64{1, -1}), 0.1)
}

// The same leak at an offset of 10⁹ (noisy large counts): the score,
// computed on coordinates centred at their learning means, is the one at
// offset 0 (the same draws, shifted), so its O(1) differences are not
// lost to cancellation between terms of 10¹⁸.
func TestLearnScoreQuadraticAtALargeOffset(t *testing.T) {
	leak := func(off float64) func(r *rand.Rand, side int, v []float64) {
		return func(r *rand.Rand, side int, v []float64) {
			z := r.NormFloat64()
			v[0] = off + z
			if side == 0 {
				v[1] = off + z + 0.3*r.NormFloat64()
			} else {
				v[1] = off + math.Sqrt(1.09)*r.NormFloat64()
			}
		}
	}
	near, far := learnFrom(t, 7, 2, 10000, leak(0)), learnFrom(t, 7, 2, 10000, leak(1e9))
	require.Equal(t, ScoreQuadratic, far.Kind, far.String())
	require.InDelta(t, near.Separation, far.Separation, 0.01*near.Separation)
	for _, v := range [][2]float64{{1, 1}, {1, -1}, {-2, 0.5}} {
		a, b := []float64{v[0], v[1]}, []float64{1e9 + v[0], 1e9 + v[1]}
		require.InDelta(t, near.Of(a)-near.Of([]float64{0, 0}), far.Of(b)-far.Of([]float64{1e9, 1e9}), 0.05, "at %v", v)
	}
}

// The linear score is scale-free: a coordinate in units 10⁶ times larger
// that carries nothing does not drown the contrast v₁ − v₂ of two
// coordinates sharing a noise z, whose difference of 0.05 is 5 standard
// deviations of the contrast's own noise (0.01·√2).
func TestLearnScoreLinearIsScaleFree(t *testing.T) {
	s := learnFrom(t, 8, 3, 10000, func(r *rand.Rand, side int, v []float64) {
		z := r.NormFloat64()
		v[0] = 1e6 * r.NormFloat64()
		v[1] = 0.05*float64(1-side) + z + 0.01*r.NormFloat64()
		v[2] = z + 0.01*r.NormFloat64()
	})
	require.Contains(t, []string{ScoreLinear, ScoreQuadratic}, s.Kind, s.String())
	require.Greater(t, s.Separation, 2000.0, s.String())
}

// LearnScores puts the chosen score first and adds, among at most
// MaxScores, the coordinate whose extremes the two sides share most
// unevenly: here coordinate 1, exactly 10 in one Y draw of 500 (about 20 of
// the learning draws), which a weak shift of coordinate 0 outweighs in the
// bulk.
func TestLearnScoresScreenTheTailOfARareValue(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 1))
	var sets [4]*Vectors
	for i := range sets {
		sets[i] = NewVectors(2, 0)
		for range 10000 {
			v := []float64{r.NormFloat64(), r.NormFloat64()}
			if i%2 == 0 {
				v[0] += 0.2
			} else if r.IntN(500) == 0 {
				v[1] = 10
			}
			sets[i].Add(v)
		}
		sets[i].SortRows()
	}
	scores := LearnScores(sets[0], sets[1], sets[2], sets[3])
	require.LessOrEqual(t, len(scores), MaxScores)
	require.NotEqual(t, []int{1}, scores[0].Coords, "the bulk is carried by coordinate 0")
	require.True(t, slices.ContainsFunc(scores, func(s *Score) bool {
		return s.Kind == ScoreCoordinate && s.Coords[0] == 1
	}), "scores: %v", scores)
}

// oneSidedZ is calibrated on values seen a few times each: one law on a
// grid of 2,000 values, 3,000 draws a side (about three a value), gives z
// of mean about 0 and standard deviation about 1 over 200 samples; two
// interleaved grids give a z in the tens.
func TestOneSidedZ(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	count := func(phaseY float64) float64 {
		var xs, ys []float64
		for range 3000 {
			xs = append(xs, float64(r.IntN(2000)))
			ys = append(ys, float64(r.IntN(2000))+phaseY)
		}
		pooled := append(append([]float64(nil), xs...), ys...)
		slices.Sort(pooled)
		vc := valueCells(pooled)
		return oneSidedZ(countCells(vc, xs), countCells(vc, ys))
	}
	var sum, sum2 float64
	const runs = 200
	for range runs {
		z := count(0)
		sum += z
		sum2 += z * z
	}
	mean := sum / runs
	sd := math.Sqrt(sum2/runs - mean*mean)
	require.InDelta(t, 0, mean, 0.25)
	require.InDelta(t, 1, sd, 0.25)
	require.Greater(t, count(0.5), 30.0)
}

// A coordinate on a grid whose phase depends on the dataset (integer
// noise of scale 1,000, plus ½ under X) is cut value by value and scored
// by the naive-Bayes sum of its values' ratios, which separates the sides
// wholly; its cells of equal mass, each holding both grids, do not.
func TestLearnScoreOfAGridWhosePhaseLeaks(t *testing.T) {
	s := learnFrom(t, 9, 3, 5000, func(r *rand.Rand, side int, v []float64) {
		for j := range v {
			v[j] = math.Round(1000 * r.NormFloat64())
		}
		v[0] += 0.5 * float64(1-side)
	})
	require.Equal(t, ScoreNaiveBayes, s.Kind, s.String())
	require.Equal(t, []int{0}, s.Coords)
	require.Greater(t, s.Separation, 1000.0, s.String())
}

// learnAllFrom is learnFrom returning every score LearnScores keeps.
func learnAllFrom(seed uint64, d, m int, gen func(r *rand.Rand, side int, v []float64)) []*Score {
	r := rand.New(rand.NewPCG(seed, 1))
	var sets [4]*Vectors
	for i := range sets {
		sets[i] = NewVectors(d, m)
		v := make([]float64, d)
		for range m {
			gen(r, i%2, v)
			sets[i].Add(v)
		}
		sets[i].SortRows()
	}
	return LearnScores(sets[0], sets[1], sets[2], sets[3])
}

// The diagonal quadratic of independent Gaussian coordinates is their
// log-likelihood ratio: X = (N(0.3, 1.5²), N(−0.2, 0.8²), N(0, 1)) against
// Y = N(0, 1)³ has ln f_X/f_Y(v) = Σⱼ −(vⱼ − μⱼ)²/(2σⱼ²) + vⱼ²/2 + const.
// Exact truth: learned from 10⁵ rows a side, the score's differences
// between outputs match the log-ratio's within 3% (relative, or 0.03
// absolute where the difference is below 1). A coordinate one side holds
// constant is left out.
func TestDiagonalScoreIsTheGaussianLogRatio(t *testing.T) {
	mu, sd := []float64{0.3, -0.2, 0}, []float64{1.5, 0.8, 1}
	r := rand.New(rand.NewPCG(3, 1))
	const d, m = 4, 100000
	fx, fy := NewVectors(d, m), NewVectors(d, m)
	v := make([]float64, d)
	for range m {
		for side, to := range []*Vectors{fx, fy} {
			for j := range 3 {
				v[j] = r.NormFloat64()
				if side == 0 {
					v[j] = mu[j] + sd[j]*v[j]
				}
			}
			v[3] = float64(side) * r.NormFloat64() // constant 0 under X
			to.Add(v)
		}
	}
	s := diagonalScore(d, screenCoordinates(fx, fy))
	require.Equal(t, []int{0, 1, 2}, s.Coords, "the coordinate X holds constant is left out")
	require.Contains(t, s.String(), "diagonal quadratic discriminant over 3 of 4 coordinates")
	logRatio := func(v []float64) float64 {
		l := 0.0
		for j := range 3 {
			z := (v[j] - mu[j]) / sd[j]
			l += -z*z/2 - math.Log(sd[j]) + v[j]*v[j]/2
		}
		return l
	}
	points := [][]float64{{0, 0, 0, 0}, {2, 0, 0, 5}, {-3, 1, 0, 0}, {0, -2, 1, -1}, {4, 2, -1, 0}, {1, 1, 1, 9}}
	for _, p := range points[1:] {
		want := logRatio(p) - logRatio(points[0])
		got := s.Of(p) - s.Of(points[0])
		require.InDelta(t, want, got, 0.03*math.Max(1, math.Abs(want)), "at %v", p)
	}
}

// Ten steps of a Poisson-subsampled Gaussian (each coordinate
// (1−q)·N(0, 1) + q·N(1, 1) under X, N(0, 1) under Y, q = 0.05), learned
// from plan.MaxPilot rows a side as an audit does. Its tests of small level
// live in the tails, where the log-ratio keeps growing: measured as
// μ = Φ⁻¹(P) − Φ⁻¹(Q) at Q = 0.003, the exact likelihood ratio's test
// shows 0.31 and the population's diagonal quadratic 0.29 (4·10⁶ draws a
// side). Learned at seeds 1–10, the diagonal quadratic shows 0.266–0.289,
// the full quadratic discriminant (noisy in its 55 covariances)
// 0.235–0.266, the linear discriminant about 0.22 and the naive-Bayes sum
// of cell ratios, flat beyond its last cells, about 0.20. The test learns
// at seed 4, the lowest of the ten for the diagonal quadratic (0.266),
// and asks for 0.25 and more than every other score kept. Fresh draws,
// 10⁶ a side: the standard error of each μ measured is about 0.007.
func TestDiagonalScoreKeepsASubsampledGaussiansTail(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 2·10⁷ coordinates")
	}
	const q, d = 0.05, 10
	gen := func(r *rand.Rand, side int, v []float64) {
		for j := range v {
			v[j] = r.NormFloat64()
			if side == 0 && r.Float64() < q {
				v[j]++
			}
		}
	}
	scores := learnAllFrom(4, d, 1<<14, gen)
	require.Equal(t, ScoreDiagonal, scores[0].Kind, "the diagonal quadratic separates most: %s", scores[0])
	require.Len(t, scores[0].Coords, d, "every coordinate read, the telling ones and the rest up to MaxQuadratic")
	r := rand.New(rand.NewPCG(5, 1))
	const n, level = 1000000, 0.003
	sx, sy := make([][]float64, len(scores)), make([][]float64, len(scores))
	v := make([]float64, d)
	for range n {
		for side, to := range [][][]float64{sx, sy} {
			gen(r, side, v)
			for k, s := range scores {
				to[k] = append(to[k], s.Of(v))
			}
		}
	}
	probit := func(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }
	mu := make([]float64, len(scores))
	for k := range scores {
		slices.Sort(sx[k])
		slices.Sort(sy[k])
		i, _ := slices.BinarySearch(sx[k], sy[k][int(n*(1-level))])
		mu[k] = probit(1-float64(i)/n) - probit(level)
	}
	require.Greater(t, mu[0], 0.25, "μ shown by the diagonal quadratic's test of level %v", level)
	for k := 1; k < len(scores); k++ {
		require.Greater(t, mu[0], mu[k], "the diagonal quadratic's tail against the %s's", scores[k].Kind)
	}
}

// tailEvidence is −ln P(Bin(k, f) ≥ k_X) at its most surprising k: X's
// 16 values above every other output, beside a bulk both sides share
// value for value (ties count wholly, so the low end shows nothing), at
// equal sizes (f = ½), score exactly 16·ln 2. binomialSurprise is checked
// against the sum of the binomial terms.
func TestTailEvidenceOfARunOfOneSide(t *testing.T) {
	xs, ys := make([]float64, 0, 1000), make([]float64, 0, 1000)
	for i := range 1000 {
		if i < 984 {
			xs = append(xs, float64(i)/1000)
		} else {
			xs = append(xs, float64(100+i))
		}
		ys = append(ys, float64(i)/1000)
	}
	pooled := slices.Concat(xs, ys)
	slices.Sort(pooled)
	require.InDelta(t, 16*math.Ln2, tailEvidence(pooled, xs, ys), 1e-9)
	for _, c := range []struct {
		k, x int
		p    float64
	}{{10, 7, 0.5}, {16, 16, 0.3}, {30, 4, 0.05}} {
		tail := 0.0
		for j := c.x; j <= c.k; j++ {
			tail += math.Exp(lchoose(c.k, j) + float64(j)*math.Log(c.p) + float64(c.k-j)*math.Log1p(-c.p))
		}
		require.InDelta(t, -math.Log(tail), binomialSurprise(c.k, c.x, c.p), 1e-9, "%+v", c)
	}
	require.Zero(t, binomialSurprise(5, 0, 0.5))
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// Two coordinates shifted by a fifth of a standard deviation make five
// candidate scores, more than the places kept; a third coordinate whose
// value one dataset alone sets to ±10 once in 1,000 draws (about 12 of
// each in 12,500 learning draws a side) keeps the last place, in each of
// ten learnings. Before that place was kept, the candidates filled all
// four and the coordinate was never screened. Over learnings at seeds
// 100–139 it keeps the place in 39 of 40 (ranked by the |z| of X's count
// among the 16 extremes, the ranking before tailEvidence, in 34 of 40;
// in seed 8 here a shifted coordinate's 16 largest values all come from
// X, and the tie goes to the less telling coordinate).
func TestLearnScoresKeepATailPlaceBesideManyCandidates(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		scores := learnAllFrom(seed, 3, 12500, func(r *rand.Rand, side int, v []float64) {
			v[0], v[1], v[2] = r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
			if side == 0 {
				v[0] += 0.2
				v[1] += 0.2
			}
			if r.IntN(1000) == 0 {
				v[2] = 10 - 20*float64(side) + 0.01*r.NormFloat64()
			}
		})
		require.Len(t, scores, MaxScores, "seed %d", seed)
		last := scores[MaxScores-1]
		require.Equal(t, ScoreCoordinate, last.Kind, "seed %d: %v", seed, scores)
		require.Equal(t, []int{2}, last.Coords, "seed %d: %v", seed, scores)
	}
}
