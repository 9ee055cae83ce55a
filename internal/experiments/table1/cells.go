package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/mechanisms"
)

// sizes are [KMRS24] Table 1's sample sizes n.
var sizes = []int{50_000, 100_000, 500_000}

// published are [KMRS24] Table 1's detections in 10 runs, per tester
// (histogram, hockey-stick classifier, Rényi, MMD) and per n of sizes; −1
// where the tester does not apply (the histogram tester on SVT outputs).
type published [4][3]int

func (p published) best(k int) int {
	b := -1
	for _, t := range p {
		b = max(b, t[k])
	}
	return b
}

// kmrs24 holds Table 1 as printed, by mechanism and ε.
var kmrs24 = map[string]map[float64]published{
	"NonDPLaplace1":  {0.01: {{0, 0, 0}, {9, 8, 9}, {10, 10, 10}, {10, 9, 10}}, 1: {{0, 0, 0}, {10, 10, 10}, {0, 0, 0}, {0, 0, 0}}},
	"NonDPLaplace2":  {0.01: {{10, 10, 10}, {10, 10, 10}, {10, 7, 5}, {0, 1, 0}}, 1: {}},
	"NonDPGaussian1": {0.01: {{0, 0, 0}, {0, 0, 0}, {10, 10, 10}, {10, 4, 10}}, 1: {{0, 0, 0}, {10, 10, 10}, {0, 0, 0}, {0, 0, 0}}},
	"NonDPGaussian2": {0.01: {{0, 0, 0}, {6, 5, 5}, {10, 10, 10}, {0, 0, 0}}, 1: {}},
	"SVT3":           {0.01: {{-1, -1, -1}}, 1: {{-1, -1, -1}}},
	"SVT4":           {0.01: {{-1, -1, -1}, {0, 0, 0}, {0, 0, 0}, {1, 2, 0}}, 1: {{-1, -1, -1}, {10, 10, 10}}},
	"SVT5":           {0.01: {{-1, -1, -1}}, 1: {{-1, -1, -1}, {10, 10, 10}}},
	"SVT6":           {0.01: {{-1, -1, -1}}, 1: {{-1, -1, -1}, {10, 10, 10}}},
}

// cell is one mechanism at one ε on its fixed pair: the claim dptest
// audits, its truth on that pair, and how to audit it at n confirming
// draws per side.
type cell struct {
	mech      string
	eps       float64
	approx    bool // an (ε, δ) claim at delta, else pure ε-DP
	renyi     bool // an RDP claim at order RenyiOrder of value rdpClaim
	rdpClaim  float64
	delta     float64 // the claimed δ
	truth     float64 // the pair's ε (pure DP) or δ(ε) (approximate DP)
	truthNote string  // how the truth was computed, and checks
	correct   bool    // a false-positive row: the mechanism meets its claim
	audit     func(opts ...dptest.Option) (dptest.Report, error)
	// histogram is the histogram tester for this mechanism's outputs
	// (over [0, 1], the records' range, for the means, as DP-Auditorium is
	// configured with a range); nil where it does not apply (vectors).
	histogram *dptest.Tester
}

// meanPair is the fixed add/remove pair of the mean mechanisms: x = (1),
// x′ = (1, 0), records in [0, 1].
var meanPair = fixtures.Pair[[]float64]{X: []float64{1}, Y: []float64{1, 0}}

// dpMeanPair is the false-positive row's pair for DPMean: x = (0),
// x′ = (0, 1), where the count and the sum both change.
var dpMeanPair = fixtures.Pair[[]float64]{X: []float64{0}, Y: []float64{0, 1}}

// svtPair is q = (0, …, 0, 1), q′ = (1, …, 1, 0) with five leading
// answers: the pairs whose pattern ⊥⁵⊤ approaches SVT1's, SVT2's and
// SVT4's exact levels (Lyu, Su and Li) and carries SVT3's unbounded loss
// (for an answer a ≤ 0 of the last query).
var svtPair = fixtures.Pair[[]float64]{X: []float64{0, 0, 0, 0, 0, 1}, Y: []float64{1, 1, 1, 1, 1, 0}}

// svt5Pair is q = (1, 0), q′ = (0, 1): the pattern ⊤⊥ has probability 0
// under q′ (SVT5 adds no query noise).
var svt5Pair = fixtures.Pair[[]float64]{X: []float64{1, 0}, Y: []float64{0, 1}}

// svt6Pair is q = (0, 0, 0, 1, 1, 1), q′ = (1, 1, 1, 0, 0, 0): the pattern
// ⊥³⊤³ has a loss growing with the number of queries.
var svt6Pair = fixtures.Pair[[]float64]{X: []float64{0, 0, 0, 1, 1, 1}, Y: []float64{1, 1, 1, 0, 0, 0}}

// rnmPair is q = (0, 2), q′ = (1, 1), where Report Noisy Max's loss is
// ε + ln(2/(2 + ε)), close to its exact ε.
var rnmPair = fixtures.Pair[[]float64]{X: []float64{0, 2}, Y: []float64{1, 1}}

func on[D any](m dptest.Mechanism[D], p fixtures.Pair[D], claim func(dptest.Mechanism[D], ...dptest.Option) (dptest.Report, error)) func(...dptest.Option) (dptest.Report, error) {
	return func(opts ...dptest.Option) (dptest.Report, error) {
		return claim(m, append([]dptest.Option{dptest.Pairs(p), dptest.Candidates(0)}, opts...)...)
	}
}

func pureDP[D any](eps float64) func(dptest.Mechanism[D], ...dptest.Option) (dptest.Report, error) {
	return func(m dptest.Mechanism[D], opts ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditDP(m, eps, opts...)
	}
}

func approxDP[D any](eps, delta float64) func(dptest.Mechanism[D], ...dptest.Option) (dptest.Report, error) {
	return func(m dptest.Mechanism[D], opts ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditApproxDP(m, eps, delta, opts...)
	}
}

// approxDelta is the δ of the approximate-DP claims ([KMRS24], Section 6).
const approxDelta = 0.01

// meanLaws returns the output laws of a mean mechanism on the pair p
// (records clipped to [0, 1]).
func meanLaws(name string, eps float64, p fixtures.Pair[[]float64]) (x, y meanLaw) {
	l := meanLaw{eps: eps, kappa: 1}
	switch name {
	case "DPMean":
		l.random, l.divideNoisy, l.scaleNoisy = true, true, true
	case "NonDPLaplace1":
	case "NonDPLaplace2":
		l.random, l.scaleNoisy = true, true
	case "NonDPGaussian1":
		l.gaussian, l.kappa = true, math.Sqrt(2*math.Log(1.25/approxDelta))
	case "NonDPGaussian2":
		l.gaussian, l.kappa, l.random, l.scaleNoisy = true, math.Sqrt(2*math.Log(1.25/approxDelta)), true, true
	}
	x, y = l, l
	x.n, x.sum = len(p.X), clippedSum(p.X)
	y.n, y.sum = len(p.Y), clippedSum(p.Y)
	return x, y
}

func clippedSum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += math.Min(1, math.Max(0, x))
	}
	return s
}

// renyiCell is a Gaussian mean's cell at its advertised RDP at order
// RenyiOrder (ClaimedRDP), the claim [KMRS24]'s Rényi tester audits, its
// truth D_λ on the pair by quadrature (NonDPGaussian1's is infinite at
// λ ≥ 4/3: noise of two widths).
func renyiCell(name string, eps float64) cell {
	var m dptest.Mechanism[[]float64]
	var claim float64
	switch name {
	case "NonDPGaussian1":
		g := mechanisms.NonDPGaussian1{Eps: eps, Delta: approxDelta}
		m, claim = dptest.Continuous(g.Sample), g.ClaimedRDP(RenyiOrder)
	default:
		g := mechanisms.NonDPGaussian2{Eps: eps, Delta: approxDelta}
		m, claim = dptest.Continuous(g.Sample), g.ClaimedRDP(RenyiOrder)
	}
	x, y := meanLaws(name, eps, meanPair)
	tr := meanTruthOf(x, y, eps)
	c := cell{mech: name, eps: eps, renyi: true, rdpClaim: claim, truth: tr.Renyi}
	if name == "NonDPGaussian1" {
		c.truth = math.Inf(1)
	}
	c.truthNote = fmt.Sprintf("quadrature: D_%g = %.4g on the grid (mass error %.1g)", RenyiOrder, tr.Renyi, tr.MassErr)
	c.audit = on(m, meanPair, func(m dptest.Mechanism[[]float64], opts ...dptest.Option) (dptest.Report, error) {
		return dptest.AuditRDP(m, RenyiOrder, claim, opts...)
	})
	return c
}

// meanCell is a mean mechanism's cell, its truth by quadrature.
func meanCell(name string, eps float64, correct bool) cell {
	var m dptest.Mechanism[[]float64]
	approx := false
	switch name {
	case "DPMean":
		m = dptest.Continuous(mechanisms.DPMean{Eps: eps}.Sample)
	case "NonDPLaplace1":
		m = dptest.Continuous(mechanisms.NonDPLaplace1{Eps: eps}.Sample)
	case "NonDPLaplace2":
		m = dptest.Continuous(mechanisms.NonDPLaplace2{Eps: eps}.Sample)
	case "NonDPGaussian1":
		m, approx = dptest.Continuous(mechanisms.NonDPGaussian1{Eps: eps, Delta: approxDelta}.Sample), true
	case "NonDPGaussian2":
		m, approx = dptest.Continuous(mechanisms.NonDPGaussian2{Eps: eps, Delta: approxDelta}.Sample), true
	}
	pair := meanPair
	if name == "DPMean" {
		pair = dpMeanPair
	}
	x, y := meanLaws(name, eps, pair)
	tr := meanTruthOf(x, y, eps)
	h := dptest.HistogramOver(0, 1, 100)
	c := cell{mech: name, eps: eps, correct: correct, histogram: &h}
	if approx {
		c.approx, c.delta, c.truth = true, approxDelta, tr.Hockey
		c.audit = on(m, pair, approxDP[[]float64](eps, approxDelta))
	} else {
		c.truth = tr.Loss
		if tr.LossAtEdge {
			c.truth = math.Inf(1)
		}
		c.audit = on(m, pair, pureDP[[]float64](eps))
	}
	c.truthNote = fmt.Sprintf("quadrature; largest |mass−1| %.1g; loss %.4g%s, δ(ε) %.4g", tr.MassErr, tr.Loss, map[bool]string{true: " (largest at the grid's end: unbounded)"}[tr.LossAtEdge], tr.Hockey)
	return c
}

// svtCell is an SVT's cell at threshold T = 0 and cut-off c = 1, its
// truth by exact enumeration of the answer patterns.
func svtCell(name string, eps float64, correct bool) cell {
	h := dptest.Histogram(100)
	c := cell{mech: name, eps: eps, correct: correct, histogram: &h}
	p := svtPair
	var spec svtSpec
	var m dptest.Mechanism[[]float64]
	switch name {
	case "SVT1":
		spec = svtSpec{bRho: 2 / eps, bNu: 4 / eps, c: 1}
		m = dptest.Discrete(mechanisms.SVT1{Eps: eps, C: 1}.Sample)
	case "SVT2":
		m = dptest.Discrete(mechanisms.SVT2{Eps: eps, C: 1}.Sample)
	case "SVT3":
		spec = svtSpec{bRho: 2 / eps, bNu: 2 / eps, c: 1}
		s3 := mechanisms.SVT3{Eps: eps, C: 1}
		m = dptest.Vector(func(r *rand.Rand, x []float64) []float64 { return svt3Vector(s3.Sample(r, x), len(x)) })
		c.histogram = nil
	case "SVT4":
		spec = svtSpec{bRho: 4 / eps, bNu: 4 / (3 * eps), c: 1}
		m = dptest.Discrete(mechanisms.SVT4{Eps: eps, C: 1}.Sample)
	case "SVT5":
		spec, p = svtSpec{bRho: 2 / eps}, svt5Pair
		m = dptest.Discrete(mechanisms.SVT5{Eps: eps}.Sample)
	case "SVT6":
		spec, p = svtSpec{bRho: 2 / eps, bNu: 2 / eps}, svt6Pair
		m = dptest.Discrete(mechanisms.SVT6{Eps: eps}.Sample)
	}
	c.audit = on(m, p, pureDP[[]float64](eps))
	switch name {
	case "SVT2":
		c.truth, c.truthNote = eps, "at most ε (Lyu, Su and Li, Theorem 2 via SVT1's argument); not computed on the pair"
	case "SVT3":
		full, pattern := spec.svt3Loss(p.X, p.Y)
		c.truth = full
		c.truthNote = fmt.Sprintf("exact enumeration, the answers' densities on a grid; pattern alone %.4g", pattern)
	default:
		loss, mq, mqq := spec.patternLoss(p.X, p.Y)
		c.truth = loss
		c.truthNote = fmt.Sprintf("exact enumeration; pattern masses %.9f, %.9f", mq, mqq)
	}
	return c
}

// svt3Vector is SVT3's release with cut-off 1 as a vector of two
// coordinates: the position (1-based) of its ⊤ and that ⊤'s noisy answer,
// or (0, 0) when every answer is ⊥.
func svt3Vector(o mechanisms.SVT3Output, _ int) []float64 {
	for i, a := range o.Pattern {
		if a == 'T' {
			return []float64{float64(i + 1), o.Noisy()[0]}
		}
	}
	return []float64{0, 0}
}

// rnmCell is Report Noisy Max on rnmPair, whose loss there is
// ε + ln(2/(2 + ε)).
func rnmCell(eps float64) cell {
	m := dptest.Discrete(mechanisms.ReportNoisyMax{Eps: eps}.Sample)
	h := dptest.Histogram(100)
	return cell{mech: "ReportNoisyMax", eps: eps, correct: true, histogram: &h,
		truth: eps + math.Log(2/(2+eps)), truthNote: "closed form ε + ln(2/(2+ε))",
		audit: on(m, rnmPair, pureDP[[]float64](eps))}
}
