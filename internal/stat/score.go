package stat

import (
	"fmt"
	"slices"
	"strings"
)

// Kinds of [Score].
const (
	// ScoreCoordinate is one coordinate of the output, as it is: the
	// statistic of a mechanism whose datasets differ in one coordinate's
	// distribution (one bin of a histogram), whose ratio, whatever its
	// shape, the real-output statistics then resolve.
	ScoreCoordinate = "coordinate"
	// ScoreLinear is Fisher's linear discriminant wᵀv with w = Σ̂⁻¹(μ̂_X − μ̂_Y),
	// Σ̂ the pooled covariance (diagonal above MaxFullCovariance
	// coordinates): the log-likelihood ratio, up to a constant, of Gaussian
	// noise of any covariance.
	ScoreLinear = "linear"
	// ScoreNaiveBayes is Σⱼ ℓ̂ⱼ(vⱼ), the sum over the telling coordinates of
	// their log-ratio ln p̂ⱼ/q̂ⱼ on ScoreCells cells each: the log-likelihood
	// ratio of noise independent across coordinates (a Laplace histogram).
	ScoreNaiveBayes = "naive Bayes"
	// ScoreQuadratic is the quadratic discriminant, the log-likelihood
	// ratio of Gaussian noise whose covariance depends on the dataset
	// (over at most MaxQuadratic coordinates).
	ScoreQuadratic = "quadratic"
	// ScoreDiagonal is Σⱼ aⱼuⱼ² + bⱼuⱼ, uⱼ = vⱼ − cⱼ, the sum over the
	// telling coordinates (and at least the MaxQuadratic most telling,
	// less those either side holds constant) of their Gaussian log
	// density ratios, up to a constant,
	// ln N(vⱼ; μ̂_Xⱼ, σ̂²_Xⱼ) − ln N(vⱼ; μ̂_Yⱼ, σ̂²_Yⱼ): the log-likelihood
	// ratio of independent Gaussian coordinates whose means and variances
	// depend on the dataset, and a smooth stand-in for the naive-Bayes sum
	// where its cells end, in the tails. A Poisson-subsampled Gaussian's
	// coordinates, a mixture (1−q)·N(0, σ²) + q·N(1, σ²) against N(0, σ²),
	// have a log-ratio that keeps growing beyond the last cell, where the
	// tests of small level live; the cells' sum is flat there.
	ScoreDiagonal = "diagonal quadratic"
)

// Learning rules.
const (
	// MaxFullCovariance is the most coordinates a linear score estimates a
	// full covariance for (d² work per output learned from); beyond, the
	// covariance is taken diagonal.
	MaxFullCovariance = 64
	// MaxNaiveBayes is the most coordinates a naive-Bayes score sums over
	// (the most telling ones).
	MaxNaiveBayes = 64
	// MaxQuadratic is the most coordinates a quadratic score reads (the
	// most telling ones; two covariances of d² entries each are
	// estimated).
	MaxQuadratic = 16
	// ScoreCells is the number of cells of equal pooled mass each
	// coordinate is cut into, to test it and for its log-ratio.
	ScoreCells = 16
	// SelectionLevel is the level, before Bonferroni over the coordinates,
	// at which a coordinate's difference (in mean, or in distribution) makes
	// it telling.
	SelectionLevel = 1e-3
	// SeparationCells is the number of cells of equal pooled held-out
	// mass on which the candidate scores' separation is measured.
	SeparationCells = 32
	// SeparationMargin and SeparationSlack: a candidate listed later (the
	// candidates go from the simplest to the most flexible) replaces the
	// best so far only if its separation exceeds (1 + SeparationMargin)
	// times the best's plus SeparationSlack, about two standard
	// deviations of a G statistic of 31 degrees of freedom under no
	// difference: flexibility that only fits the learning sample's noise
	// does not win.
	SeparationMargin = 0.02
	SeparationSlack  = 16
	// MaxScores is the most scores a screening of vector outputs counts:
	// the chosen one and alternatives the criteria may prefer, of which
	// the last place at least is a tail coordinate's.
	MaxScores = 5
	// TailCoordinates is the most coordinates screened on their own for
	// the imbalance of their extreme values; TailDepth is how many values
	// at each end the imbalance scans (tailEvidence).
	TailCoordinates = 2
	TailDepth       = 16
)

// Score maps a vector output to a number: a deterministic function fixed on
// a learning sample of both datasets before the outputs it maps are drawn,
// so every divergence bound on the scores of fresh outputs is a bound on the
// outputs (data processing; [KMRS24] Section 5 reduces vectors by a fixed
// projection the same way).
type Score struct {
	Kind string
	Dim  int
	// Coords are the coordinates the score reads, the most telling first
	// (for a linear score, by |wⱼ|·sⱼ, sⱼ the coordinate's pooled standard
	// deviation).
	Coords []int
	// Weights, for a linear score, are wⱼ of Coords[i], scaled so that the
	// largest |wⱼ|·sⱼ is 1; for a quadratic or diagonal quadratic one, its
	// linear part.
	Weights []float64
	scales  []float64 // sⱼ of Coords[i], for a linear score
	// centre, for a linear or (diagonal) quadratic score (their learners set it), is
	// the pooled learning mean of Coords[i] (coordinate.mid), subtracted
	// before the score is computed: outputs
	// at an offset of 10⁹ (noisy large counts) would otherwise lose the
	// score's O(1) differences to cancellation between terms of 10¹⁸.
	centre []float64
	// quad, for a quadratic score, is its matrix over Coords, row-major:
	// the score is Σ_ab quad[a,b]·u_a·u_b + Σ_a Weights[a]·u_a, u = v − centre.
	quad []float64
	// square, for a diagonal quadratic score, are aⱼ of Coords[i]: the
	// score is Σ_i square[i]·u_i² + Weights[i]·u_i, u = v − centre.
	square []float64
	// cells and logRatio, for a naive-Bayes score: per Coords[i], its
	// cells and their log-ratios.
	cells    []*Partition
	logRatio [][]float64
	// Separation is the two-sample G statistic of the score's values on
	// the held-out learning sample, counted in SeparationCells cells: the
	// score with the largest was chosen.
	Separation float64
}

// Of returns the score of output v (of length Dim). It only reads the
// score, so workers may call it at once.
func (s *Score) Of(v []float64) float64 {
	switch s.Kind {
	case ScoreCoordinate:
		return v[s.Coords[0]]
	case ScoreLinear:
		t := 0.0
		for i, j := range s.Coords {
			t += s.Weights[i] * (v[j] - s.centre[i])
		}
		return t
	case ScoreQuadratic:
		k, t := len(s.Coords), 0.0
		for a, i := range s.Coords {
			row := 0.0
			for b, j := range s.Coords {
				row += s.quad[a*k+b] * (v[j] - s.centre[b])
			}
			t += (row + s.Weights[a]) * (v[i] - s.centre[a])
		}
		return t
	case ScoreDiagonal:
		t := 0.0
		for i, j := range s.Coords {
			u := v[j] - s.centre[i]
			t += (s.square[i]*u + s.Weights[i]) * u
		}
		return t
	}
	t := 0.0
	for i, j := range s.Coords {
		t += s.logRatio[i][s.cells[i].Cell(v[j])]
	}
	return t
}

// String describes the score for a report: its kind and the coordinates
// that carry it, the most telling first.
func (s *Score) String() string {
	switch s.Kind {
	case ScoreCoordinate:
		return fmt.Sprintf("coordinate v[%d] of %d", s.Coords[0], s.Dim)
	case ScoreLinear:
		var b strings.Builder
		fmt.Fprintf(&b, "linear discriminant over %d of %d coordinates, weights (per standard deviation)", len(s.Coords), s.Dim)
		for i := range min(4, len(s.Coords)) {
			fmt.Fprintf(&b, " %+.3g·v[%d]", s.Weights[i]*s.scales[i], s.Coords[i])
		}
		if len(s.Coords) > 4 {
			fmt.Fprintf(&b, " + %d smaller", len(s.Coords)-4)
		}
		b.WriteString(", on coordinates centred at their learning means")
		return b.String()
	}
	var b strings.Builder
	switch s.Kind {
	case ScoreQuadratic:
		fmt.Fprintf(&b, "quadratic discriminant over %d of %d coordinates, the most telling:", len(s.Coords), s.Dim)
	case ScoreDiagonal:
		fmt.Fprintf(&b, "diagonal quadratic discriminant over %d of %d coordinates (the sum of their Gaussian log density ratios, from each side's mean and variance), the most telling:", len(s.Coords), s.Dim)
	default:
		fmt.Fprintf(&b, "sum of the log density ratios of %d of %d coordinates:", len(s.Coords), s.Dim)
	}
	for i := range min(4, len(s.Coords)) {
		fmt.Fprintf(&b, " v[%d]", s.Coords[i])
	}
	if len(s.Coords) > 4 {
		fmt.Fprintf(&b, " and %d more", len(s.Coords)-4)
	}
	if s.Kind == ScoreQuadratic || s.Kind == ScoreDiagonal {
		b.WriteString(", on coordinates centred at their learning means")
	}
	return b.String()
}

// coordinate is what the learning sample says of one coordinate.
type coordinate struct {
	j       int
	meanX   float64
	meanY   float64
	varX    float64
	varY    float64
	cells   *Partition // ScoreCells cells of the pooled values, or each value its own (byValue)
	byValue bool       // cells are valueCells: a grid's values one by one
	cx, cy  []int64    // the values of each side per cell
	key     float64    // how telling: the larger of its two tests over their thresholds
	telling bool       // a test passed its threshold
	tail    float64    // how unevenly the sides share its extreme values (tailEvidence)
}

// mid is the coordinate's pooled learning mean, the centre of the linear
// and quadratic scores (Score.centre).
func (c coordinate) mid() float64 { return (c.meanX + c.meanY) / 2 }

// LearnScore returns the score [LearnScores] chooses first.
func LearnScore(fitX, fitY, holdX, holdY *Vectors) *Score {
	return LearnScores(fitX, fitY, holdX, holdY)[0]
}

// LearnScores learns the scores of vector outputs from a fitting sample
// of each dataset (fitX on X, fitY on Y) and orders them on a held-out
// sample of each (holdX, holdY), all drawn before the outputs the scores
// will map. Every coordinate is tested for a difference in mean (Welch's
// z) and in distribution (the G statistic on ScoreCells cells; for a
// coordinate on a grid, also a test of its values one by one), each at
// SelectionLevel/d. The candidates are the most telling coordinate alone,
// the linear discriminant over every coordinate and over the telling ones,
// the naive-Bayes sum over the telling ones, the diagonal quadratic over
// the telling ones and at least the MaxQuadratic most telling (where two
// or more are telling) and the quadratic discriminant over the
// MaxQuadratic most telling, in this order; the
// first score returned is the one whose held-out scores separate most
// (largest G statistic on SeparationCells cells; a later candidate must
// beat an earlier one by SeparationMargin and SeparationSlack). The
// others follow, at most MaxScores in all: the other candidates by
// separation, at most MaxScores − 1 in all, then the TailCoordinates
// coordinates whose extreme values (the TailDepth largest and smallest
// pooled) come most unevenly from the two sides (tailEvidence; at equal
// evidence the less telling first), as many as places are left, so that a leak held by rare values of one
// coordinate, which barely moves the bulk, is still screened however
// many candidates there are (a coordinate already kept alone is not
// added twice). The rows must be sorted
// ([Vectors.SortRows]) for the result not to depend on the workers.
func LearnScores(fitX, fitY, holdX, holdY *Vectors) []*Score {
	coords := screenCoordinates(fitX, fitY)
	cands := candidates(fitX, fitY, coords)
	best := 0
	for i, s := range cands {
		s.Separation = separation(s, holdX, holdY)
		if s.Separation > (1+SeparationMargin)*cands[best].Separation+SeparationSlack {
			best = i
		}
	}
	out := []*Score{cands[best]}
	rest := slices.Delete(slices.Clone(cands), best, best+1)
	slices.SortStableFunc(rest, func(a, b *Score) int { return -cmpFloat(a.Separation, b.Separation) })
	out = append(out, rest[:min(len(rest), MaxScores-2)]...)
	byTail := slices.Clone(coords)
	slices.SortStableFunc(byTail, func(a, b coordinate) int {
		// Equal evidence (a run of TailDepth values of one side at an
		// end scores its most): the less telling first, whose leak the
		// candidates read least.
		if c := -cmpFloat(a.tail, b.tail); c != 0 {
			return c
		}
		return cmpFloat(a.key, b.key)
	})
	for _, c := range byTail[:min(TailCoordinates, len(byTail))] {
		if len(out) < MaxScores && !slices.ContainsFunc(out, func(s *Score) bool { return s.Kind == ScoreCoordinate && s.Coords[0] == c.j }) {
			s := &Score{Kind: ScoreCoordinate, Dim: fitX.Dim, Coords: []int{c.j}}
			s.Separation = separation(s, holdX, holdY)
			out = append(out, s)
		}
	}
	return out
}

// candidates are the scores LearnScores chooses among, in its order.
func candidates(fitX, fitY *Vectors, coords []coordinate) []*Score {
	var telling []coordinate
	for _, c := range coords {
		if c.telling {
			telling = append(telling, c)
		}
	}
	telling = byKey(telling)
	var cands []*Score
	if len(telling) > 0 {
		cands = append(cands, &Score{Kind: ScoreCoordinate, Dim: fitX.Dim, Coords: []int{telling[0].j}})
	}
	if s := linearScore(fitX, fitY, coords); s != nil {
		cands = append(cands, s)
	}
	if len(telling) > 1 && len(telling) < len(coords) {
		if s := linearScore(fitX, fitY, telling); s != nil {
			cands = append(cands, s)
		}
	}
	// Over one coordinate, the naive-Bayes sum is a function of it that
	// its own cells already order, unless they are its values one by one
	// (byValue), whose ratios need not follow their order.
	if len(telling) > 1 || len(telling) == 1 && telling[0].byValue {
		cands = append(cands, naiveBayesScore(fitX.Dim, telling[:min(len(telling), MaxNaiveBayes)]))
	}
	// With one telling coordinate the diagonal quadratic is left out: it
	// would lean on that coordinate, whose own cells, ordered by ratio,
	// already hold its level sets, and it would take the place of the
	// second tail coordinate among the MaxScores kept (a rare value of
	// another coordinate, beside the one that shifts). With two or more it reads
	// the telling ones (at most MaxNaiveBayes) and at least the
	// MaxQuadratic most telling, as the quadratic discriminant does: a
	// leak spread thinly over several coordinates leaves some of them
	// short of the selection level (ten subsampled steps: 4 to 9 of 10 at
	// plan.MaxPilot rows), and each costs the score only its two
	// estimated coefficients.
	if len(telling) > 1 {
		k := max(min(len(telling), MaxNaiveBayes), min(len(coords), MaxQuadratic))
		if s := diagonalScore(fitX.Dim, byKey(coords)[:k]); s != nil {
			cands = append(cands, s)
		}
	}
	if s := quadraticScore(fitX, fitY, byKey(coords)); s != nil {
		cands = append(cands, s)
	}
	if len(cands) == 0 {
		// Every coordinate constant, or no linear score: the first
		// coordinate, which then shows no difference.
		cands = append(cands, &Score{Kind: ScoreCoordinate, Dim: fitX.Dim, Coords: []int{0}})
	}
	return cands
}

// byKey returns the coordinates, the most telling first.
func byKey(cs []coordinate) []coordinate {
	out := slices.Clone(cs)
	slices.SortStableFunc(out, func(a, b coordinate) int { return -cmpFloat(a.key, b.key) })
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// separation is the G statistic of the score's values on the two held-out
// samples, counted in SeparationCells cells of their pooled values.
func separation(s *Score, hx, hy *Vectors) float64 {
	sx, sy := make([]float64, hx.Rows()), make([]float64, hy.Rows())
	for i := range sx {
		sx[i] = s.Of(hx.Row(i))
	}
	for i := range sy {
		sy[i] = s.Of(hy.Row(i))
	}
	part := partitionOfCount(append(append([]float64(nil), sx...), sy...), SeparationCells)
	cx, cy := countCells(part, sx), countCells(part, sy)
	g, _ := gStatistic(cx, cy)
	return g
}
