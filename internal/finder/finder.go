// Package finder proposes points of the unit box [0, 1]^k, one trial at a
// time, from what the trials before showed: the dataset finders of
// [KMRS24], Section 5 (random search, grid search and a Gaussian-process
// bandit). The caller maps a point to a pair of neighbouring datasets and
// screens it; the finders never see draws, only the screening's rank of
// each point, so whatever they propose, the audit's false-failure bound is
// unchanged.
package finder

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// Proposer proposes the point of the next trial, given the score of every
// point it proposed before (in order; larger is more telling), or false
// when it has no more.
type Proposer interface {
	Next(scores []float64) ([]float64, bool)
}

// Random proposes independent uniform points of [0, 1]^k, from a
// generator of seed: DP-Auditorium's random search.
func Random(k int, seed uint64) Proposer {
	return &random{k: k, r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))}
}

type random struct {
	k int
	r *rand.Rand
}

func (f *random) Next([]float64) ([]float64, bool) { return uniform(f.r, f.k), true }

func uniform(r *rand.Rand, k int) []float64 {
	z := make([]float64, k)
	for i := range z {
		z[i] = r.Float64()
	}
	return z
}

// Grid proposes the points of the regular grid of g points per axis over
// [0, 1]^k, ends included, g ≥ 2 the least with g^k ≥ points, in
// lexicographic order (the last axis fastest); then no more.
func Grid(k, points int) Proposer {
	g := 2
	for pow(g, k) < points {
		g++
	}
	return &grid{k: k, g: g, total: pow(g, k)}
}

// pow is g^k, saturating at math.MaxInt.
func pow(g, k int) int {
	p := 1
	for i := 0; i < k; i++ {
		if p > math.MaxInt/g {
			return math.MaxInt
		}
		p *= g
	}
	return p
}

type grid struct {
	k, g, total, next int
}

func (f *grid) Next([]float64) ([]float64, bool) {
	if f.next >= f.total {
		return nil, false
	}
	z := make([]float64, f.k)
	for i, rest := f.k-1, f.next; i >= 0; i-- {
		z[i] = float64(rest%f.g) / float64(f.g-1)
		rest /= f.g
	}
	f.next++
	return z, true
}

// Bandit parameters.
const (
	// BanditStart is how many uniform points a bandit proposes before it
	// fits its Gaussian process.
	BanditStart = 2
	// BanditCandidates is how many uniform points it scores by UCB to
	// choose each next one.
	BanditCandidates = 1000
	// BanditLength is the RBF kernel's length scale on [0, 1]^k.
	BanditLength = 0.25
	// BanditNoise is the observation noise variance of the standardised
	// scores.
	BanditNoise = 0.01
	// BanditDelta is GP-UCB's δ in β_t = 2 ln(|C| t² π² / (6δ)).
	BanditDelta = 0.1
)

// Bandit is GP-UCB (Srinivas, Krause, Kakade and Seeger, 2010) over
// [0, 1]^k: after BanditStart uniform points, each next point maximises
// μ(z) + √β_t·σ(z) over BanditCandidates uniform points, μ and σ² the
// posterior mean and variance of a Gaussian process with the RBF kernel
// exp(−|z − z′|²/(2ℓ²)), ℓ = BanditLength, fitted to the standardised
// scores with noise variance BanditNoise (Cholesky, gonum/mat). Infinite
// scores are clipped to the finite ones' range widened by one. This is the
// bandit [KMRS24] runs through Vizier.
func Bandit(k int, seed uint64) Proposer {
	return &bandit{k: k, r: rand.New(rand.NewPCG(seed, 0x632be59bd9b4e019))}
}

type bandit struct {
	k      int
	r      *rand.Rand
	points [][]float64
}

func (f *bandit) Next(scores []float64) ([]float64, bool) {
	var z []float64
	if len(f.points) < BanditStart || len(scores) < len(f.points) {
		z = uniform(f.r, f.k)
	} else {
		z = f.ucb(standardised(scores[:len(f.points)]))
	}
	f.points = append(f.points, z)
	return z, true
}

// ucb returns the candidate of largest upper confidence bound.
func (f *bandit) ucb(y []float64) []float64 {
	n := len(f.points)
	kk := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := rbf(f.points[i], f.points[j])
			if i == j {
				v += BanditNoise
			}
			kk.SetSym(i, j, v)
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(kk) {
		return uniform(f.r, f.k)
	}
	alpha := mat.NewVecDense(n, nil)
	if err := chol.SolveVecTo(alpha, mat.NewVecDense(n, y)); err != nil {
		return uniform(f.r, f.k)
	}
	beta := 2 * math.Log(BanditCandidates*float64(n*n)*math.Pi*math.Pi/(6*BanditDelta))
	var best []float64
	bestU := math.Inf(-1)
	kc, v := mat.NewVecDense(n, nil), mat.NewVecDense(n, nil)
	for c := 0; c < BanditCandidates; c++ {
		z := uniform(f.r, f.k)
		for i, p := range f.points {
			kc.SetVec(i, rbf(p, z))
		}
		if err := chol.SolveVecTo(v, kc); err != nil {
			continue
		}
		mean, variance := mat.Dot(kc, alpha), 1-mat.Dot(kc, v)
		if u := mean + math.Sqrt(beta*math.Max(0, variance)); u > bestU {
			best, bestU = z, u
		}
	}
	if best == nil {
		return uniform(f.r, f.k)
	}
	return best
}

func rbf(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
	}
	return math.Exp(-d / (2 * BanditLength * BanditLength))
}

// standardised centres the scores on their mean and divides them by their
// standard deviation (1 if 0), infinite ones clipped first to one beyond
// the finite ones' range (−1 and 1 if none is finite).
func standardised(scores []float64) []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range scores {
		if !math.IsInf(s, 0) && !math.IsNaN(s) {
			lo, hi = math.Min(lo, s), math.Max(hi, s)
		}
	}
	if lo > hi {
		lo, hi = 0, 0
	}
	y := make([]float64, len(scores))
	mean := 0.0
	for i, s := range scores {
		switch {
		case math.IsInf(s, 1):
			s = hi + 1
		case math.IsInf(s, -1) || math.IsNaN(s):
			s = lo - 1
		}
		y[i] = s
		mean += s / float64(len(scores))
	}
	sd := 0.0
	for _, v := range y {
		sd += (v - mean) * (v - mean) / float64(len(y))
	}
	sd = math.Sqrt(sd)
	if sd == 0 {
		sd = 1
	}
	for i := range y {
		y[i] = (y[i] - mean) / sd
	}
	return y
}
