package mechanisms

import (
	"math"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// amMix returns E[g(ñ)] for the noisy count ñ = max{10⁻¹², n + τ},
// τ ~ Lap(2/ε) of [KMRS24], Section 6.1: the atom P(n + τ ≤ 10⁻¹²)·g(10⁻¹²)
// plus ∫_{u > 10⁻¹²} f_τ(u − n) g(u) du by quadrature, cut geometrically
// near 0 (g may vary on any scale there) and at the given break points.
func amMix(n int, eps float64, g func(u float64) float64, breaks []float64) float64 {
	bt := 2 / eps
	nf := float64(n)
	hi := nf + 80*bt
	br := append(geomBreaks(1e-9, hi, 1.25), nf)
	br = append(br, breaks...)
	atom := laplaceCDF(minNoisyCount, nf, bt) * g(minNoisyCount)
	return atom + integrateW(func(u float64) float64 { return laplacePDF(u, nf, bt) * g(u) }, minNoisyCount, hi, br, bt)
}

// amLogNormal returns the log-density of N(mu, sigma²) as a function, for
// renyiByQuadrature.
func amLogNormal(mu, sigma float64) func(float64) float64 {
	return func(t float64) float64 { return logNormalPDF(t, mu, sigma) }
}

// ---- DPMean ----

// dpMeanDensity is the density of DPMean at t: given ñ = u the output is
// Σ/u + Lap(2Δ/(uε)), of density u·f_{Lap(2Δ/ε)}(tu − Σ).
func dpMeanDensity(x []float64, eps, delta float64) func(float64) float64 {
	s := sum(x)
	return func(t float64) float64 {
		return amMix(len(x), eps, func(u float64) float64 {
			return u * laplacePDF(t*u, s, 2*delta/eps)
		}, []float64{s / t})
	}
}

func TestDPMeanSampler(t *testing.T) {
	m := DPMean{Eps: 1}
	x := []float64{0.2, 0.9, 0.5, 0.4}
	s := sum(x)
	cdf := func(e float64) float64 {
		return amMix(len(x), m.Eps, func(u float64) float64 {
			return laplaceCDF((e*u-s)*m.Eps/2, 0, 1)
		}, []float64{s / e})
	}
	edges := grid(-3, 4, 0.25)
	r := newTestRand(71, 72)
	checkFitsCDF(t, 40000, func() float64 { return m.Sample(r, x) }, cdf, edges)

	// Records are clipped to [Lo, Hi].
	mc := DPMean{Eps: 1, Lo: -1, Hi: 2}
	r1, r2 := newTestRand(73, 74), newTestRand(73, 74)
	for range 100 {
		require.Equal(t, mc.Sample(r1, []float64{2, -1, 0.5}), mc.Sample(r2, []float64{5, -3, 0.5}))
	}
	// The empty dataset is fine.
	assert.False(t, math.IsNaN(m.Sample(r, nil)))
}

// Epsilon is never exceeded on a grid of outputs for several pairs, and is
// approached by x = (0), x′ = (0, 1) as t → −∞.
func TestDPMeanEpsilon(t *testing.T) {
	for _, eps := range []float64{0.5, 1} {
		m := DPMean{Eps: eps}
		require.Equal(t, eps, m.Epsilon())
		f0, f1 := dpMeanDensity([]float64{0}, eps, 1), dpMeanDensity([]float64{0, 1}, eps, 1)
		tt := -60 / eps
		assert.InDelta(t, eps, math.Log(f0(tt)/f1(tt)), 1e-6, "ε=%v", eps)
		pairs := [][2][]float64{
			{{0}, {0, 1}},
			{{0.3, 0.7}, {0.3, 0.7, 1}},
			{{0.3, 0.7}, {0.3, 0.7, 0}},
			{nil, {1}},
			{{1, 1, 1}, {1, 1, 1, 0}},
		}
		worst := 0.0
		for _, pr := range pairs {
			fa, fb := dpMeanDensity(pr[0], eps, 1), dpMeanDensity(pr[1], eps, 1)
			for _, tt := range grid(-60/eps, 60/eps, 2/eps) {
				worst = math.Max(worst, math.Abs(math.Log(fa(tt)/fb(tt))))
			}
		}
		assert.LessOrEqual(t, worst, eps+1e-9, "ε=%v", eps)
		assert.Greater(t, worst, eps-1e-6, "ε=%v", eps)
	}
}

// ---- NonDPLaplace1, NonDPLaplace2 ----

func TestNonDPLaplace1(t *testing.T) {
	m := NonDPLaplace1{Eps: 1}
	x := []float64{0.2, 0.9}
	edges := grid(-4, 5, 0.25)
	r := newTestRand(81, 82)
	checkFitsCDF(t, 40000, func() float64 { return m.Sample(r, x) }, func(e float64) float64 { return laplaceCDF(e, 0.55, 1) }, edges)

	assert.Equal(t, 1.0, m.ClaimedEpsilon())
	assert.True(t, math.IsInf(m.Epsilon(), 1))
	assert.True(t, math.IsNaN(m.Sample(r, nil)))
	// x = (1), x′ = (1, 0): Lap(1, 2/ε) against Lap(1/2, 1/ε), a loss that
	// grows like tε/2.
	for _, eps := range []float64{0.01, 1} {
		loss := func(tt float64) float64 {
			return math.Log(laplacePDF(tt, 1, 2/eps) / laplacePDF(tt, 0.5, 1/eps))
		}
		assert.Less(t, loss(-10/eps), loss(-100/eps))
		assert.Greater(t, loss(-1000/eps), 400.0)
	}
}

// nonDPLaplace2Density is the density of NonDPLaplace2 on x at t.
func nonDPLaplace2Density(x []float64, eps float64) func(float64) float64 {
	mu := sum(x) / float64(len(x))
	return func(t float64) float64 {
		return amMix(len(x), eps, func(u float64) float64 { return laplacePDF(t, mu, 2/(u*eps)) }, nil)
	}
}

func TestNonDPLaplace2(t *testing.T) {
	m := NonDPLaplace2{Eps: 1}
	x := []float64{0.2, 0.9, 0.5, 0.4}
	mu := sum(x) / 4
	cdf := func(e float64) float64 {
		return amMix(len(x), m.Eps, func(u float64) float64 { return laplaceCDF((e-mu)*u*m.Eps/2, 0, 1) }, nil)
	}
	edges := grid(-3, 4, 0.25)
	r := newTestRand(83, 84)
	checkFitsCDF(t, 40000, func() float64 { return m.Sample(r, x) }, cdf, edges)
	assert.Equal(t, 1.0, m.ClaimedEpsilon())
	assert.True(t, math.IsNaN(m.Sample(r, nil)))

	// The witness of the doc comment: ε = 0.01, x = (1), x′ = (1, 0), t = 1.
	eps := 0.01
	got := math.Log(nonDPLaplace2Density([]float64{1}, eps)(1) / nonDPLaplace2Density([]float64{1, 0}, eps)(1))
	t.Logf("NonDPLaplace2 witness: loss %.4g at t = 1", got)
	assert.InDelta(t, 0.8, got, 0.05)
	assert.Greater(t, got, 50*NonDPLaplace2{Eps: eps}.ClaimedEpsilon())
}

// ---- NonDPGaussian1, NonDPGaussian2 ----

// The claimed curve is the Laplace count's RDP plus the Gaussian sum's, each
// computed here by quadrature.
func TestGaussianMeansClaimedRDP(t *testing.T) {
	for _, eps := range []float64{0.5, 1} {
		delta := 1e-5
		kappa := math.Sqrt(2 * math.Log(1.25/delta))
		b := 2 / eps
		sg := 2 * kappa / eps
		for _, lambda := range []float64{1.5, 2, 5} {
			lap := renyiByQuadrature(
				func(t float64) float64 { return logLaplacePDF(t, 0, b) },
				func(t float64) float64 { return logLaplacePDF(t, 1, b) },
				lambda, []float64{-80 * b, 0, 1, 80 * b})
			gauss := renyiByQuadrature(amLogNormal(0, sg), amLogNormal(1, sg), lambda, []float64{-40 * sg, 40 * sg})
			want := lap + gauss
			assert.InDelta(t, want, NonDPGaussian1{Eps: eps, Delta: delta}.ClaimedRDP(lambda), 1e-9)
			assert.InDelta(t, want, NonDPGaussian2{Eps: eps, Delta: delta}.ClaimedRDP(lambda), 1e-9)
		}
		assert.True(t, math.IsInf(NonDPGaussian1{Eps: eps, Delta: delta}.ClaimedRDP(math.Inf(1)), 1))
		e, d := NonDPGaussian2{Eps: eps, Delta: delta}.ClaimedApproxDP()
		assert.Equal(t, [2]float64{eps, delta}, [2]float64{e, d})
	}
	// R_Lap at λ = +Inf is 1/b, and large orders do not overflow.
	assert.Equal(t, 0.5, laplaceRDPCount(math.Inf(1), 2))
	assert.InDelta(t, 1e3, laplaceRDPCount(1e6, 1e-3), 1)
}

func TestNonDPGaussian1(t *testing.T) {
	m := NonDPGaussian1{Eps: 1, Delta: 1e-5}
	kappa := math.Sqrt(2 * math.Log(1.25/m.Delta))
	c := 2 * kappa / m.Eps
	x := []float64{0.2, 0.9, 0.5, 0.4}
	sd := c / 4
	edges := grid(-8, 9, 0.5)
	r := newTestRand(91, 92)
	checkFitsCDF(t, 40000, func() float64 { return m.Sample(r, x) }, func(e float64) float64 { return normalCDF(e, 0.5, sd) }, edges)
	assert.True(t, math.IsNaN(m.Sample(r, nil)))

	// D_λ between sizes n and n+1 with the largest mean change R/(n+1), both
	// directions, by quadrature; the worst is n = 1, forward, = RDP(λ).
	div := func(lambda float64, n int, forward bool) float64 {
		s0, s1 := c/float64(n), c/float64(n+1)
		d := 1 / float64(n+1)
		lp, lq := amLogNormal(0, s0), amLogNormal(d, s1)
		if !forward {
			lp, lq = lq, lp
		}
		return renyiByQuadrature(lp, lq, lambda, []float64{-40 * s0, 40 * s0})
	}
	for _, lambda := range []float64{1.05, 1.2, 1.3} {
		want := m.RDP(lambda)
		assert.InDelta(t, want, div(lambda, 1, true), 1e-9, "λ=%v", lambda)
		for n := 1; n <= 60; n++ {
			assert.LessOrEqual(t, div(lambda, n, true), want+1e-9, "λ=%v n=%d", lambda, n)
			assert.LessOrEqual(t, div(lambda, n, false), want+1e-9, "λ=%v n=%d", lambda, n)
		}
		assert.Greater(t, want, m.ClaimedRDP(lambda))
	}
	// From λ = 4/3 on, p^λ q^{1−λ} for sizes 1 and 2 grows as t → −∞.
	for _, lambda := range []float64{4.0 / 3, 1.5, 2} {
		assert.True(t, math.IsInf(m.RDP(lambda), 1))
		lp, lq := amLogNormal(0, c), amLogNormal(0.5, c/2)
		g := func(tt float64) float64 { return lambda*lp(tt) + (1-lambda)*lq(tt) }
		assert.Greater(t, g(-1000*c), g(-10*c), "λ=%v", lambda)
	}
	e, d := m.ClaimedApproxDP()
	assert.Equal(t, [2]float64{1, 1e-5}, [2]float64{e, d})
}

func TestNonDPGaussian2(t *testing.T) {
	m := NonDPGaussian2{Eps: 1, Delta: 1e-5}
	kappa := math.Sqrt(2 * math.Log(1.25/m.Delta))
	x := []float64{0.2, 0.9, 0.5, 0.4}
	mu := 0.5
	cdf := func(e float64) float64 {
		return amMix(len(x), m.Eps, func(u float64) float64 {
			return normalCDF((e-mu)*u*m.Eps/(2*kappa), 0, 1)
		}, nil)
	}
	edges := grid(-8, 9, 0.5)
	r := newTestRand(93, 94)
	checkFitsCDF(t, 40000, func() float64 { return m.Sample(r, x) }, cdf, edges)
	assert.True(t, math.IsNaN(m.Sample(r, nil)))

	// The witness of the doc comment: ε = 0.01, δ = 10⁻⁵, x = (1),
	// x′ = (1, 0), λ = 1.5. By the data-processing inequality, D_λ of the
	// outputs binned into cells (from the exact CDFs) is a lower bound on
	// D_λ (up to quadrature error, far below the margin).
	eps := 0.01
	w := NonDPGaussian2{Eps: eps, Delta: 1e-5}
	cdfOf := func(x []float64) func(float64) float64 {
		mu := sum(x) / float64(len(x))
		return func(e float64) float64 {
			return amMix(len(x), eps, func(u float64) float64 {
				return normalCDF((e-mu)*u*eps/(2*kappa), 0, 1)
			}, nil)
		}
	}
	edges = []float64{0.75}
	for _, v := range geomBreaks(0.05, 1e4, 1.15) {
		edges = append(edges, 0.75-v, 0.75+v)
	}
	sort.Float64s(edges)
	pa, pb := binProbs(edges, cdfOf([]float64{1})), binProbs(edges, cdfOf([]float64{1, 0}))
	lambda := 1.5
	sum := 0.0
	for i := range pa {
		if pa[i] > 0 && pb[i] > 0 {
			sum += math.Pow(pa[i], lambda) * math.Pow(pb[i], 1-lambda)
		}
	}
	lower := math.Log(sum) / (lambda - 1)
	claim := w.ClaimedRDP(lambda)
	t.Logf("NonDPGaussian2 witness: D_1.5 ≥ %.4g, claimed %.4g", lower, claim)
	assert.Greater(t, lower, 0.003)
	assert.Greater(t, lower, 100*claim)
}

// ---- ScaledGD ----

func TestScaledGD(t *testing.T) {
	m := ScaledGD{Sigma: 2, S: 0.5, ClipNorm: 1, LearningRate: 0.1, Theta0: 0.5}
	x := []float64{3, -0.2, 0.5}
	// Clipped gradients: θ₀ − x_i = −2.5 → −1, 0.7, 0.
	mean := 0.5 - 0.1*(-1+0.7+0)
	sd := 0.1 * 0.5 * 2 * 1
	edges := grid(mean-4*sd, mean+4*sd, sd/4)
	r := newTestRand(101, 102)
	checkFitsCDF(t, 40000, func() float64 { return m.Sample(r, x) }, func(e float64) float64 { return normalCDF(e, mean, sd) }, edges)

	// Defaults: G = η = 1, θ₀ = 0.
	r1, r2 := newTestRand(103, 104), newTestRand(103, 104)
	for range 100 {
		require.Equal(t,
			ScaledGD{Sigma: 2, S: 0.5, ClipNorm: 1, LearningRate: 1}.Sample(r1, x),
			ScaledGD{Sigma: 2, S: 0.5}.Sample(r2, x))
	}

	// The worst pair x = (), x′ = (v) with |θ₀ − v| ≥ G: the outputs are
	// Gaussians with means ηG apart and standard deviation ηSσG.
	for _, tc := range []ScaledGD{
		{Sigma: 2, S: 0.5},
		{Sigma: 1.3, S: 1, ClipNorm: 3, LearningRate: 0.05, Theta0: -1},
		{Sigma: 0.8, S: 0.7, ClipNorm: 0.5, LearningRate: 2},
	} {
		g, eta := tc.ClipNorm, tc.LearningRate
		if g == 0 {
			g = 1
		}
		if eta == 0 {
			eta = 1
		}
		sd := eta * tc.S * tc.Sigma * g
		for _, lambda := range []float64{1.5, 2, 8} {
			want := renyiByQuadrature(amLogNormal(tc.Theta0, sd), amLogNormal(tc.Theta0-eta*g, sd), lambda, []float64{tc.Theta0 - 60*sd, tc.Theta0 + 60*sd})
			assert.InDelta(t, want, tc.RDP(lambda), 1e-9*math.Max(1, want))
			assert.InDelta(t, lambda/(2*tc.Sigma*tc.Sigma), tc.ClaimedRDP(lambda), 1e-12)
			assert.InDelta(t, tc.RDP(lambda)*tc.S*tc.S, tc.ClaimedRDP(lambda), 1e-12)
		}
		// Adding a record moves the mean by exactly −η·clip_G(θ₀ − v).
		ra, rb := newTestRand(105, 106), newTestRand(105, 106)
		far := tc.Theta0 + 10*g
		assert.InDelta(t, eta*g, tc.Sample(ra, []float64{far})-tc.Sample(rb, nil), 1e-9)
	}
	assert.True(t, math.IsInf(m.RDP(math.Inf(1)), 1))
}

func TestAuditoriumPanics(t *testing.T) {
	r := newTestRand(1, 1)
	x := []float64{0.5}
	cases := []struct {
		msg string
		f   func()
	}{
		{"mechanisms: DPMean.Eps must be positive and finite, got 0", func() { DPMean{}.Sample(r, x) }},
		{"mechanisms: DPMean.Eps must be positive and finite, got -1", func() { DPMean{Eps: -1}.Epsilon() }},
		{"mechanisms: DPMean needs finite Lo < Hi, got [1, 1]", func() { DPMean{Eps: 1, Lo: 1, Hi: 1}.Sample(r, x) }},
		{"mechanisms: DPMean needs finite Lo < Hi, got [2, 0]", func() { DPMean{Eps: 1, Lo: 2}.Epsilon() }},
		{"mechanisms: DPMean needs finite Lo < Hi, got [-Inf, 1]", func() { DPMean{Eps: 1, Lo: math.Inf(-1), Hi: 1}.Epsilon() }},
		{"mechanisms: NonDPLaplace1.Eps must be positive and finite, got 0", func() { NonDPLaplace1{}.ClaimedEpsilon() }},
		{"mechanisms: NonDPLaplace1.Eps must be positive and finite, got 0", func() { NonDPLaplace1{}.Epsilon() }},
		{"mechanisms: NonDPLaplace1 needs finite Lo < Hi, got [0, NaN]", func() { NonDPLaplace1{Eps: 1, Hi: math.NaN()}.Sample(r, x) }},
		{"mechanisms: NonDPLaplace2.Eps must be positive and finite, got +Inf", func() { NonDPLaplace2{Eps: math.Inf(1)}.Sample(r, x) }},
		{"mechanisms: NonDPLaplace2.Eps must be positive and finite, got 0", func() { NonDPLaplace2{}.ClaimedEpsilon() }},
		{"mechanisms: NonDPGaussian1.Eps must be positive and finite, got 0", func() { NonDPGaussian1{Delta: 0.1}.Sample(r, x) }},
		{"mechanisms: NonDPGaussian1.Delta must lie in (0, 1), got 0", func() { NonDPGaussian1{Eps: 1}.ClaimedRDP(2) }},
		{"mechanisms: NonDPGaussian1.Delta must lie in (0, 1), got 1", func() { NonDPGaussian1{Eps: 1, Delta: 1}.RDP(1.1) }},
		{"mechanisms: order λ must be > 1, got 1", func() { NonDPGaussian1{Eps: 1, Delta: 0.1}.RDP(1) }},
		{"mechanisms: order λ must be > 1, got 0.5", func() { NonDPGaussian1{Eps: 1, Delta: 0.1}.ClaimedRDP(0.5) }},
		{"mechanisms: NonDPGaussian1.Delta must lie in (0, 1), got 0", func() { NonDPGaussian1{Eps: 1}.ClaimedApproxDP() }},
		{"mechanisms: NonDPGaussian2.Eps must be positive and finite, got 0", func() { NonDPGaussian2{Delta: 0.1}.ClaimedApproxDP() }},
		{"mechanisms: NonDPGaussian2.Delta must lie in (0, 1), got NaN", func() { NonDPGaussian2{Eps: 1, Delta: math.NaN()}.Sample(r, x) }},
		{"mechanisms: order λ must be > 1, got NaN", func() { NonDPGaussian2{Eps: 1, Delta: 0.1}.ClaimedRDP(math.NaN()) }},
		{"mechanisms: ScaledGD.Sigma must be positive and finite, got 0", func() { ScaledGD{S: 1}.Sample(r, x) }},
		{"mechanisms: ScaledGD.S must be positive and finite, got 0", func() { ScaledGD{Sigma: 1}.RDP(2) }},
		{"mechanisms: ScaledGD.ClipNorm must be positive and finite, got -1", func() { ScaledGD{Sigma: 1, S: 1, ClipNorm: -1}.ClaimedRDP(2) }},
		{"mechanisms: ScaledGD.LearningRate must be positive and finite, got -0.1", func() { ScaledGD{Sigma: 1, S: 1, LearningRate: -0.1}.Sample(r, x) }},
		{"mechanisms: ScaledGD.Theta0 must be finite, got +Inf", func() { ScaledGD{Sigma: 1, S: 1, Theta0: math.Inf(1)}.Sample(r, x) }},
		{"mechanisms: order λ must be > 1, got 1", func() { ScaledGD{Sigma: 1, S: 1}.RDP(1) }},
	}
	for _, c := range cases {
		require.PanicsWithValue(t, c.msg, c.f)
	}
}
