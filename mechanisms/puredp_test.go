package mechanisms

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ---- ReportNoisyMax ----

// rnmProbs returns P(argmax = i) for noisy max with Lap(b) noise, by
// quadrature of lapMaxTerm.
func rnmProbs(q []float64, b float64) []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range q {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	p := make([]float64, len(q))
	for i := range q {
		f := func(t float64) float64 { return lapMaxTerm(t, i, q, b) }
		p[i] = integrate(f, lo-60*b, hi+60*b, q, 8)
	}
	return p
}

// lapMaxTerm returns f(t − v_i) Π_{j≠i} F(t − v_j), for f and F the density
// and CDF of Lap(0, b): the density of v_i + Lap(b) at t jointly with every
// other v_j + Lap(b) staying below t.
func lapMaxTerm(t float64, i int, v []float64, b float64) float64 {
	p := laplacePDF(t, v[i], b)
	for j := range v {
		if j != i {
			p *= laplaceCDF(t, v[j], b)
		}
	}
	return p
}

func TestReportNoisyMaxSampler(t *testing.T) {
	m := ReportNoisyMax{Eps: 1}
	q := []float64{0, 1, 1.5, 3, 2}
	p := rnmProbs(q, 2)
	r := newTestRand(1, 2)
	counts := make([]int, len(q))
	for range 40000 {
		counts[m.Sample(r, q)]++
	}
	checkFitsPMF(t, counts, p)
}

// The closed form of the witness sequence q = (0, M), q′ = (1, M−1) matches
// quadrature, stays below ε and tends to it; no neighbouring pair of a small
// exhaustive family exceeds ε.
func TestReportNoisyMaxEpsilon(t *testing.T) {
	for _, eps := range []float64{0.2, 0.7, 1.5} {
		m := ReportNoisyMax{Eps: eps}
		require.Equal(t, eps, m.Epsilon())
		b := 2 / eps
		closed := func(M float64) float64 {
			return eps + math.Log((2+(M-2)*eps/2)/(2+M*eps/2))
		}
		for _, M := range []float64{2, 3, 5, 10, 20} {
			pq := rnmProbs([]float64{0, M}, b)
			pq2 := rnmProbs([]float64{1, M - 1}, b)
			got := math.Log(pq2[0] / pq[0])
			assert.InDelta(t, closed(M), got, 1e-9, "eps=%v M=%v", eps, M)
			assert.Less(t, got, eps)
		}
		assert.InDelta(t, eps, closed(1e7), 1e-6)

		// Exhaustive: q ∈ {0,1,2}³, q′ = q + δ with δ ∈ {−1,0,1}³.
		worst := 0.0
		var grid [][]float64
		for a := 0; a < 3; a++ {
			for b2 := 0; b2 < 3; b2++ {
				for c := 0; c < 3; c++ {
					grid = append(grid, []float64{float64(a), float64(b2), float64(c)})
				}
			}
		}
		for _, q := range grid {
			pq := rnmProbs(q, b)
			for d := 0; d < 27; d++ {
				q2 := []float64{q[0] + float64(d%3-1), q[1] + float64(d/3%3-1), q[2] + float64(d/9-1)}
				pq2 := rnmProbs(q2, b)
				for i := range q {
					worst = math.Max(worst, math.Abs(math.Log(pq[i]/pq2[i])))
				}
			}
		}
		assert.LessOrEqual(t, worst, eps+1e-9, "eps=%v", eps)
		assert.Greater(t, worst, eps/2, "eps=%v", eps)
	}
}

// ---- ExponentialMechanism ----

// expMechDensity returns t ↦ f_s(t), normalised by quadrature of
// exp(−λ|s − t|) over [0, s + 60/λ].
func expMechDensity(lambda, s float64) func(float64) float64 {
	u := func(t float64) float64 { return math.Exp(-lambda * math.Abs(s-t)) }
	z := integrate(u, 0, s+60/lambda, []float64{s}, 16)
	return func(t float64) float64 { return u(t) / z }
}

func TestExponentialMechanismSampler(t *testing.T) {
	for _, tc := range []struct{ lambda, s float64 }{{0.7, 1.3}, {3, 1}, {0.2, 2}} {
		m := ExponentialMechanism{Lambda: tc.lambda}
		f := expMechDensity(tc.lambda, tc.s)
		edges := grid(0.1, tc.s+6/tc.lambda, 0.1/math.Max(1, tc.lambda/2))
		cdf := func(e float64) float64 { return integrate(f, 0, e, []float64{tc.s}, 2) }
		r := newTestRand(3, uint64(tc.lambda*10))
		x := []float64{tc.s}
		neg := 0
		checkFitsCDF(t, 40000, func() float64 {
			v := m.Sample(r, x)
			if v < 0 {
				neg++
			}
			return v
		}, cdf, edges)
		assert.Zero(t, neg, "outputs must be non-negative")
	}
}

func TestExponentialMechanismClamps(t *testing.T) {
	m := ExponentialMechanism{Lambda: 1}
	r1, r2 := newTestRand(5, 6), newTestRand(5, 6)
	for range 100 {
		require.Equal(t, m.Sample(r1, []float64{2}), m.Sample(r2, []float64{7}))
	}
	r1, r2 = newTestRand(5, 7), newTestRand(5, 7)
	for range 100 {
		require.Equal(t, m.Sample(r1, []float64{1}), m.Sample(r2, []float64{-3}))
	}
}

// sup over s, s′ ∈ [1, 2] (grid) and t ≥ 0 (grid) of |ln f_s − ln f_s′|,
// with normalisers by quadrature, equals Epsilon.
func TestExponentialMechanismEpsilon(t *testing.T) {
	for _, lambda := range []float64{0.2, 0.7, 1.5, 4} {
		m := ExponentialMechanism{Lambda: lambda}
		ss := grid(1, 2, 0.125)
		fs := make([]func(float64) float64, len(ss))
		for i, s := range ss {
			fs[i] = expMechDensity(lambda, s)
		}
		ts := grid(0, 8, 0.01)
		worst := 0.0
		for i := range ss {
			for j := range ss {
				for _, tt := range ts {
					worst = math.Max(worst, math.Log(fs[i](tt)/fs[j](tt)))
				}
			}
		}
		assert.InDelta(t, m.Epsilon(), worst, 1e-9, "λ=%v", lambda)
		assert.Less(t, m.Epsilon(), 2*lambda)
	}
	// ε = 2λ − 3λ² + O(λ³): "ε ≈ 2λ for small λ" ([AKD22], Section V).
	assert.InDelta(t, 2e-4-3e-8, ExponentialMechanism{Lambda: 1e-4}.Epsilon(), 1e-11)
}

// ---- ContinuousNoisyMax ----

// cnmDensity returns the density Σ_i lapMaxTerm(t, i, v, 1/λ) of
// max_i (v_i + Lap(1/λ)).
func cnmDensity(lambda float64, v []float64) func(float64) float64 {
	b := 1 / lambda
	return func(t float64) float64 {
		s := 0.0
		for i := range v {
			s += lapMaxTerm(t, i, v, b)
		}
		return s
	}
}

func TestContinuousNoisyMaxSampler(t *testing.T) {
	m := ContinuousNoisyMax{Lambda: 1.2, K: 3}
	x := []float64{0.1, 0.5, 0.9}
	cdf := func(e float64) float64 {
		p := 1.0
		for _, v := range x {
			p *= laplaceCDF(e, v, 1/m.Lambda)
		}
		return p
	}
	edges := grid(-2, 5, 0.2)
	r := newTestRand(7, 8)
	checkFitsCDF(t, 40000, func() float64 { return m.Sample(r, x) }, cdf, edges)

	// Components outside [0, 1] are clamped.
	r1, r2 := newTestRand(9, 9), newTestRand(9, 9)
	for range 100 {
		require.Equal(t, m.Sample(r1, []float64{0, 1, 0.5}), m.Sample(r2, []float64{-4, 3, 0.5}))
	}
}

func TestContinuousNoisyMaxEpsilon(t *testing.T) {
	r := newTestRand(11, 12)
	for _, tc := range []struct {
		lambda float64
		k      int
	}{{0.5, 1}, {1.5, 1}, {0.5, 3}, {1.5, 3}} {
		m := ContinuousNoisyMax{Lambda: tc.lambda, K: tc.k}
		eps := m.Epsilon()
		require.InDelta(t, float64(tc.k)*tc.lambda, eps, 1e-15)
		zero, one := make([]float64, tc.k), make([]float64, tc.k)
		for i := range one {
			one[i] = 1
		}
		f0, f1 := cnmDensity(tc.lambda, zero), cnmDensity(tc.lambda, one)
		b := 1 / tc.lambda
		require.InDelta(t, 1, integrate(f0, -60*b, 1+60*b, []float64{0, 1}, 16), 1e-9, "density integrates to 1")
		// Attained on t ≤ 0.
		for _, tt := range []float64{-5, -1, 0} {
			assert.InDelta(t, eps, math.Log(f0(tt)/f1(tt)), 1e-9)
		}
		// Nowhere exceeded, for the extreme pair and random pairs of the cube.
		pairs := [][2][]float64{{zero, one}}
		for range 20 {
			v, w := make([]float64, tc.k), make([]float64, tc.k)
			for i := range v {
				v[i], w[i] = r.Float64(), r.Float64()
			}
			pairs = append(pairs, [2][]float64{v, w})
		}
		worst := 0.0
		for _, pr := range pairs {
			fv, fw := cnmDensity(tc.lambda, pr[0]), cnmDensity(tc.lambda, pr[1])
			for _, tt := range grid(-10, 10, 0.01) {
				worst = math.Max(worst, math.Abs(math.Log(fv(tt)/fw(tt))))
			}
		}
		assert.InDelta(t, eps, worst, 1e-9)
	}
}

func TestPureDPPanics(t *testing.T) {
	r := newTestRand(1, 1)
	cases := []struct {
		msg string
		f   func()
	}{
		{"mechanisms: ReportNoisyMax.Eps must be positive and finite, got 0", func() { ReportNoisyMax{}.Sample(r, []float64{1}) }},
		{"mechanisms: ReportNoisyMax.Eps must be positive and finite, got -1", func() { ReportNoisyMax{Eps: -1}.Epsilon() }},
		{"mechanisms: ReportNoisyMax.Eps must be positive and finite, got +Inf", func() { ReportNoisyMax{Eps: math.Inf(1)}.Epsilon() }},
		{"mechanisms: ReportNoisyMax needs at least one query answer", func() { ReportNoisyMax{Eps: 1}.Sample(r, nil) }},
		{"mechanisms: ExponentialMechanism.Lambda must be positive and finite, got 0", func() { ExponentialMechanism{}.Epsilon() }},
		{"mechanisms: ExponentialMechanism.Lambda must be positive and finite, got NaN", func() { ExponentialMechanism{Lambda: math.NaN()}.Sample(r, []float64{1}) }},
		{"mechanisms: ExponentialMechanism needs x = (s), one statistic, got 2 values", func() { ExponentialMechanism{Lambda: 1}.Sample(r, []float64{1, 2}) }},
		{"mechanisms: ContinuousNoisyMax.Lambda must be positive and finite, got 0", func() { ContinuousNoisyMax{K: 1}.Epsilon() }},
		{"mechanisms: ContinuousNoisyMax.K must be at least 1, got 0", func() { ContinuousNoisyMax{Lambda: 1}.Epsilon() }},
		{"mechanisms: ContinuousNoisyMax.K must be at least 1, got -2", func() { ContinuousNoisyMax{Lambda: 1, K: -2}.Sample(r, nil) }},
		{"mechanisms: ContinuousNoisyMax needs len(x) = K = 3, got 2", func() { ContinuousNoisyMax{Lambda: 1, K: 3}.Sample(r, []float64{0, 1}) }},
	}
	for _, c := range cases {
		require.PanicsWithValue(t, c.msg, c.f)
	}
}
