// Package renyi implements the softmax-floored plug-in estimator of the Rényi
// divergence and its statistical lower bound ([KAD24], Section III-B):
//
//	D̂ = D_λ(p̂, q̂_τ) = 1/(λ−1) · log ∫ p̂(t)^λ q̂_τ(t)^{1−λ} dt,
//	ℓ̂(α) = D̂ + Φ⁻¹(α) σ̂ₙ/√n,                                              (16)
//
// where q̂_τ is the density estimate of q floored by the softmax of eq. (13),
// t_τ = β⁻¹ log(e^{βt} + e^{βτ}), and σ̂ₙ² is the variance estimator of
// eqs. (17)–(18). Since q_τ ≥ q, D_λ(p, q_τ) ≤ D_λ(p, q), so ℓ̂ bounds the true
// divergence from below with asymptotic confidence 1 − α (Theorem 1).
//
// Discrete outputs sum over the values observed in either sample ([Discrete]);
// real outputs integrate the kernel density estimates on the grid they were
// binned on ([Continuous]). Every integral is accumulated in log space, so
// β·q̂ of 10⁵ and more, and q̂_τ^{1−λ} of 10³⁰⁰ and more, never overflow.
package renyi

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/dptest/dptest/internal/density"
	"github.com/dptest/dptest/internal/numeric"
)

// MinSamples is the smallest sample per side the estimator accepts. The bound
// rests on the normal approximation (15) of a plug-in functional whose
// variance (18) is itself estimated; with fewer than a thousand samples the
// plug-in bandwidth, the floor and the delta-method variance are too unstable
// for a stated confidence to mean anything, and no density estimate from so
// few samples resolves a divergence below about 1/√1000 ≈ 0.03 anyway.
const MinSamples = 1000

// Params are the estimator's parameters. The zero value of Tau, Beta and
// Bandwidth selects the defaults described at each field.
type Params struct {
	Lambda float64 // order λ > 1
	Alpha  float64 // 1 − confidence of the lower bound, in (0, 1)

	// Tau is the floor τ of eq. (13), in the unit of the density estimate:
	// probability for discrete outputs, probability per unit of output for
	// real ones. Zero selects the default: for discrete outputs
	// DefaultDiscreteTau; for real outputs the scale-free
	// DefaultRelativeTau/s, with s = min(sd, IQR/1.349) of the pooled sample
	// (so multiplying every output by c multiplies the floor by 1/c, and the
	// estimate does not change).
	Tau float64
	// Beta is the softmax parameter β of eq. (13); zero selects β = 1/τ, the
	// paper's choice (Section III-C).
	Beta float64
	// Bandwidth overrides the kernel bandwidth for real outputs; zero
	// selects Undersmooth(PluginBandwidth) of the sample with the smaller
	// plug-in bandwidth, used for both samples.
	Bandwidth float64
	// TailCount is k of the sparse-region treatment: discrete values seen
	// fewer than k times in the two samples together are merged into one
	// value, and each run of grid points where the pooled sample has fewer
	// than k samples per bandwidth is mapped to one atom
	// (density.SparseRuns). Both are deterministic post-processings of the
	// outputs, so the bound stays a bound; they trade a little tightness for
	// stability. Zero selects DefaultTailCount; a negative value turns the
	// treatment off.
	TailCount float64
	// PaperExact computes (16)–(18) exactly as printed: no bias correction
	// (see [Result.BiasCorrection]) and no sparse-region treatment.
	PaperExact bool
}

// DefaultTailCount is the default [Params.TailCount].
const DefaultTailCount = 100

const (
	// DefaultDiscreteTau is the paper's floor τ = 10⁻⁵ (Section IV-A),
	// applied to probabilities, which have no unit.
	DefaultDiscreteTau = 1e-5
	// DefaultRelativeTau is the floor for real outputs relative to their
	// scale s: τ = 5·10⁻⁵/s. For the paper's mechanisms (s ≈ 5 for b = 5
	// noise, s ≈ 1 for noisy gradient descent) it reproduces the paper's
	// τ = 10⁻⁵ within a factor of five; relative to a normal density's peak
	// 0.4/s it floors at 1.25·10⁻⁴ of the peak (beyond 4.2 sd).
	DefaultRelativeTau = 5e-5
)

// Result is an estimate with its lower bound and diagnostics.
type Result struct {
	Estimate   float64 // D̂ = D_λ(p̂, q̂_τ), bias-corrected unless Params.PaperExact
	StdErr     float64 // σ̂ₙ/√n; with unequal sizes √(σ̂₁²/n_p + σ̂₂²/n_q)/((λ−1)Î)
	LowerBound float64 // ℓ̂(α) = D̂ − z_{1−α}·StdErr
	Lambda     float64
	Alpha      float64
	Tau, Beta  float64 // the floor and softmax parameter used
	NP, NQ     int64   // sample sizes

	// Diagnostics.

	// BiasCorrection is the share of Î = ∫p̂^λ q̂_τ^{1−λ} removed as the
	// estimated second-order bias of the plug-in (0 when PaperExact), and
	// Uncorrected the estimate (16) before it.
	BiasCorrection float64
	Uncorrected    float64
	Support        int     // discrete: values after merging rare ones; real: grid points
	Merged         int     // discrete: values seen fewer than TailCount times, merged into one
	Atoms          int     // real: atoms, those of the output and those made of sparse runs of the grid
	TailMass       float64 // real: pooled share of the samples in sparse runs mapped to atoms
	FloorShare     float64 // share of ∫p̂^λ q̂_τ^{1−λ} from points where q̂ < τ
	Bandwidth      float64 // kernel bandwidth (real outputs), 0 for discrete
	GridStep       float64 // grid step (real outputs)
	OutsideP       float64 // share of p's samples outside the grid, clamped to its ends
	OutsideQ       float64 // the same for q
}

// Errors for bad input.
var (
	ErrOrder      = errors.New("renyi: order λ must be > 1 and finite")
	ErrAlpha      = errors.New("renyi: α must lie in (0, 1)")
	ErrTooFew     = fmt.Errorf("renyi: each sample needs at least %d values", MinSamples)
	ErrFloor      = errors.New("renyi: floor τ and softmax β must be positive and finite (or zero for the default)")
	ErrPointMassP = errors.New("renyi: the first sample (of p) is a point mass; a point mass is a discrete output, use the discrete estimator")
	ErrPointMassQ = errors.New("renyi: the second sample (of q) is a point mass; a point mass is a discrete output, use the discrete estimator")
)

func (p Params) check(np, nq int64) error {
	switch {
	case !(p.Lambda > 1) || math.IsInf(p.Lambda, 1):
		return ErrOrder
	case !(p.Alpha > 0 && p.Alpha < 1):
		return ErrAlpha
	case np < MinSamples || nq < MinSamples:
		return fmt.Errorf("%w (got %d and %d)", ErrTooFew, np, nq)
	case p.Tau < 0 || math.IsNaN(p.Tau) || math.IsInf(p.Tau, 0) || p.Beta < 0 || math.IsNaN(p.Beta) || math.IsInf(p.Beta, 0):
		return ErrFloor
	}
	return nil
}

// Discrete estimates D_λ(p ‖ q) from frequency tables of two samples, summing
// over every value seen in either ([KAD24] eqs. (9) and (16)); values seen
// fewer than TailCount times in both samples together are first merged into
// one (see [Params.TailCount]).
func Discrete[O comparable](p, q *density.Freq[O], par Params) (Result, error) {
	if err := par.check(p.N, q.N); err != nil {
		return Result{}, err
	}
	if par.Tau == 0 {
		par.Tau = DefaultDiscreteTau
	}
	if par.Beta == 0 {
		par.Beta = 1 / par.Tau
	}
	var pts points
	support, merged := addCells(&pts, p, q, p.N, q.N, par.tailCount(), 1)
	r := pts.estimate(p.N, q.N, par)
	r.Support = support
	r.Merged = merged
	return r, nil
}

// addCells adds one point per value of two frequency tables (probabilities
// relative to np and nq samples, floor unit unit), merging the values seen
// fewer than k times in both together into one. It returns the number of
// points added and of values merged.
func addCells[O comparable](s *points, p, q *density.Freq[O], np, nq int64, k, unit float64) (support, merged int) {
	var rare density.CountPair
	for _, c := range density.Joint(p, q) {
		if float64(c.P+c.Q) < k {
			rare.P += c.P
			rare.Q += c.Q
			merged++
			continue
		}
		s.addCounts(c, np, nq, unit)
		support++
	}
	if merged > 0 {
		s.addCounts(rare, np, nq, unit)
		support++
	}
	return support, merged
}

// Continuous estimates D_λ(p ‖ q) from two samples binned on the same grid:
// Gaussian kernel density estimates with a common bandwidth (by default the
// undersmoothed plug-in bandwidth of the sample that needs the finer one),
// evaluated at the grid points, and the integrals of (16)–(18) as Riemann
// sums over the grid, plus the atoms of sparse runs ([Params.TailCount]).
//
// Smoothing both samples with the same kernel is the post-processing
// t ↦ t + hZ, Z ∼ N(0,1), so the divergence the estimate converges to is
// D_λ(p∗K_h ‖ q∗K_h) ≤ D_λ(p ‖ q): the smoothing bias never makes the bound
// invalid, it only makes it less tight.
func Continuous(p, q *density.Binned, par Params) (Result, error) {
	xy, _, err := mixed(p, q, nil, nil, par, false)
	return xy, err
}

// Real estimates D_λ(p ‖ q) from real outputs that mix a density and atoms
// (density.Real): the atoms are discrete cells, with probabilities relative
// to the whole sample, and the rest is estimated as by [Continuous], as a
// sub-density. The floor of an atom is τ·h, the mass of one bandwidth at the
// floor density. Outputs with no continuous part at all (only atoms) are
// estimated as discrete ones, with DefaultDiscreteTau.
func Real(p, q *density.Real, par Params) (Result, error) {
	xy, _, err := mixed(p.Bins, q.Bins, p.Atoms, q.Atoms, par, false)
	return xy, err
}

// RealBoth returns Real(p, q, par) and Real(q, p, par), sharing the
// bandwidth, the density estimates and the atoms, which do not depend on the
// direction.
func RealBoth(p, q *density.Real, par Params) (pq, qp Result, err error) {
	return mixed(p.Bins, q.Bins, p.Atoms, q.Atoms, par, true)
}

// DiscreteBoth returns Discrete(p, q, par) and Discrete(q, p, par).
func DiscreteBoth[O comparable](p, q *density.Freq[O], par Params) (pq, qp Result, err error) {
	if pq, err = Discrete(p, q, par); err != nil {
		return pq, qp, err
	}
	qp, err = Discrete(q, p, par)
	return pq, qp, err
}

// minContinuous is the number of non-atom samples a side needs for its
// plug-in bandwidth to be computed.
const minContinuous = 100

// mixed estimates D_λ(p ‖ q) and, if both, D_λ(q ‖ p) from the same
// density estimates and atoms.
func mixed(pb, qb *density.Binned, pa, qa *density.Freq[float64], par Params, both bool) (pq, qp Result, err error) {
	if pb.Grid != qb.Grid {
		return pq, qp, errors.New("renyi: the two samples are binned on different grids")
	}
	np, nq := pb.N, qb.N
	if pa != nil {
		np += pa.N
		nq += qa.N
	}
	if err := par.check(np, nq); err != nil {
		return pq, qp, err
	}
	// The bandwidth comes from every side with a continuous part.
	h := par.Bandwidth
	if h == 0 {
		h = math.Inf(1)
		var firstErr error
		for i, b := range []*density.Binned{pb, qb} {
			if b.N < minContinuous {
				continue
			}
			hb, err := density.PluginBandwidth(b)
			if err != nil {
				if firstErr == nil {
					firstErr = []error{ErrPointMassP, ErrPointMassQ}[i]
				}
				continue
			}
			h = min(h, hb)
		}
		if math.IsInf(h, 1) {
			if pa == nil {
				if firstErr == nil {
					firstErr = ErrPointMassP
				}
				return pq, qp, firstErr
			}
			h = 0 // only atoms
		} else {
			h = density.Undersmooth(h, int(min(np, nq)))
		}
	} else if !(h > 0) || math.IsInf(h, 0) {
		return pq, qp, errors.New("renyi: bandwidth must be positive and finite")
	}

	var pts points
	r := Result{}
	k := par.tailCount()
	if h > 0 {
		if par.Tau == 0 {
			par.Tau = DefaultRelativeTau / density.Scale(pb, qb)
		}
		if par.Beta == 0 {
			par.Beta = 1 / par.Tau
		}
		pd, vp := pb.Density(h, nil, np)
		qd, vq := qb.Density(h, nil, nq)
		var runs [][2]int
		if k > 0 {
			var keep []bool
			keep, runs = density.SparseRuns(pd, qd, np, nq, h, k, pb, qb)
			if len(runs) > 0 {
				pd, vp = pb.Density(h, keep, np)
				qd, vq = qb.Density(h, keep, nq)
			}
		}
		for i := range pd {
			pts.add(pd[i], qd[i], vp[i], vq[i], pb.Grid.Step, 1)
		}
		// Atoms carry probabilities, not densities: their floor is τ·h, the
		// mass of a bandwidth at the floor density (and β/h), so that β·τ
		// and the floor's meaning stay those of the density part.
		for _, run := range runs {
			pm, qm := pb.RunMass(run[0], run[1], np), qb.RunMass(run[0], run[1], nq)
			pts.addAtom(pm, qm, np, nq, h)
			r.TailMass += (pm + qm) / 2
		}
		r.Support = pb.Grid.Points
		r.Atoms = len(runs)
		r.Bandwidth = h
		r.GridStep = pb.Grid.Step
	} else {
		if par.Tau == 0 {
			par.Tau = DefaultDiscreteTau
		}
		if par.Beta == 0 {
			par.Beta = 1 / par.Tau
		}
		// Binned samples without a bandwidth (a handful between atoms)
		// form one more atom.
		if pb.N+qb.N > 0 {
			pts.addAtom(float64(pb.N)/float64(np), float64(qb.N)/float64(nq), np, nq, 1)
		}
	}
	if pa != nil {
		unit := 1.0
		if h > 0 {
			unit = h
		}
		cells, merged := addCells(&pts, pa, qa, np, nq, k, unit)
		r.Atoms += cells
		r.Merged = merged
	}
	fill := func(est Result, outP, outQ float64) Result {
		est.Support, est.Atoms, est.Merged, est.TailMass = r.Support, r.Atoms, r.Merged, r.TailMass
		est.Bandwidth, est.GridStep = r.Bandwidth, r.GridStep
		est.OutsideP, est.OutsideQ = outP, outQ
		return est
	}
	pq = fill(pts.estimate(np, nq, par), pb.OutsideShare(), qb.OutsideShare())
	if both {
		pts.p, pts.q = pts.q, pts.p
		pts.vp, pts.vq = pts.vq, pts.vp
		qp = fill(pts.estimate(nq, np, par), qb.OutsideShare(), pb.OutsideShare())
	}
	return pq, qp, nil
}

func (par Params) tailCount() float64 {
	switch {
	case par.PaperExact || par.TailCount < 0:
		return 0
	case par.TailCount == 0:
		return DefaultTailCount
	}
	return par.TailCount
}

// points are the support points of the estimate: density (or probability)
// values of p and q, their estimator variances, the integration weight w
// (grid step for densities, 1 for probabilities) and the unit by which the
// floor τ is multiplied (and β divided) at that point.
type points struct {
	p, q, vp, vq, w, unit []float64
}

func (s *points) add(p, q, vp, vq, w, unit float64) {
	s.p = append(s.p, p)
	s.q = append(s.q, q)
	s.vp = append(s.vp, vp)
	s.vq = append(s.vq, vq)
	s.w = append(s.w, w)
	s.unit = append(s.unit, unit)
}

func (s *points) addCounts(c density.CountPair, np, nq int64, unit float64) {
	pm := float64(c.P) / float64(np)
	qm := float64(c.Q) / float64(nq)
	s.addAtom(pm, qm, np, nq, unit)
}

func (s *points) addAtom(pm, qm float64, np, nq int64, unit float64) {
	s.add(pm, qm, pm*(1-pm)/float64(np), qm*(1-qm)/float64(nq), 1, unit)
}

// estimate evaluates (16)–(18) over the points. With Î = ∫p̂^λ q̂_τ^{1−λ}:
//
//	σ̂₁² = λ² (∫ p̂^{2λ−1} q̂_τ^{2−2λ} − Î²),
//	σ̂₂² = (1−λ)² (∫ π(q̂)² q̂_τ^{−2λ} q̂ p̂^{2λ} − (∫ π(q̂) q̂_τ^{−λ} q̂ p̂^λ)²),
//	Var(D̂) ≈ (σ̂₁²/n_p + σ̂₂²/n_q) / ((λ−1) Î)²,
//
// which for n_p = n_q = n is σ̂ₙ²/n of eq. (18). Each integral is a
// log-sum-exp, and only the ratios ∫…/Î and ∫…/Î² are exponentiated.
//
// Bias correction. The plug-in Î is biased upwards: t ↦ t^λ and
// t ↦ t_τ^{1−λ} are convex, so noise in p̂ and q̂ raises Î by, to second order,
//
//	B = ∫ ½ λ(λ−1) p̂^{λ−2} q̂_τ^{1−λ} Var p̂  +  ½ p̂^λ g″(q̂) Var q̂,
//	g(t) = t_τ^{1−λ},  g″(t) = (λ−1) t_τ^{−λ} (λ π(t)²/t_τ − β π(t)(1−π(t))),
//
// with Var p̂, Var q̂ the estimator's pointwise variances. Every
// bandwidth-sized cell of the support contributes about λ(λ−1)/(2nh) to
// B/Î whatever its density, so the bias grows with the support and λ and,
// at λ = 7, exceeds the standard error. Unless PaperExact, the estimate uses
// Î − B̂ (a Miller–Madow-type correction), which leaves the variance (18)
// unchanged to first order. The correction is capped at half of Î; a larger
// one means the sample is far too small for the plug-in.
func (s *points) estimate(np, nq int64, par Params) Result {
	lam := par.Lambda
	n := len(s.p)
	logI := make([]float64, 0, n)  // λ log p̂ + (1−λ) log q̂_τ
	logA1 := make([]float64, 0, n) // (2λ−1) log p̂ + (2−2λ) log q̂_τ
	logB1 := make([]float64, 0, n) // log π + log q̂ − λ log q̂_τ + λ log p̂
	logB2 := make([]float64, 0, n) // 2 log π + log q̂ − 2λ log q̂_τ + 2λ log p̂
	logFloored := make([]float64, 0, n)
	var biasPos, biasNeg []float64 // logs of the positive and negative parts of B
	lhalf := math.Log(0.5 * (lam - 1))
	llam := math.Log(lam)
	for i := range s.p {
		if !(s.p[i] > 0) {
			continue
		}
		tau, beta := par.Tau*s.unit[i], par.Beta/s.unit[i]
		lw := math.Log(s.w[i])
		lp := math.Log(s.p[i])
		qi := max(s.q[i], 0)
		lqt := math.Log(numeric.SoftFloor(qi, tau, beta))
		ti := lam*lp + (1-lam)*lqt + lw
		logI = append(logI, ti)
		logA1 = append(logA1, (2*lam-1)*lp+(2-2*lam)*lqt+lw)
		pi := numeric.SoftFloorSlope(qi, tau, beta)
		if qi > 0 && pi > 0 {
			lpi := math.Log(pi)
			lq := math.Log(qi)
			logB1 = append(logB1, lpi+lq-lam*lqt+lam*lp+lw)
			logB2 = append(logB2, 2*lpi+lq-2*lam*lqt+2*lam*lp+lw)
		}
		if qi < tau {
			logFloored = append(logFloored, ti)
		}
		if par.PaperExact {
			continue
		}
		if s.vp[i] > 0 {
			biasPos = append(biasPos, lhalf+llam+(lam-2)*lp+(1-lam)*lqt+math.Log(s.vp[i])+lw)
		}
		if s.vq[i] > 0 && pi > 0 {
			lv := math.Log(s.vq[i]) + lw
			biasPos = append(biasPos, lhalf+llam+lam*lp-(lam+1)*lqt+2*math.Log(pi)+lv)
			if pi < 1 {
				biasNeg = append(biasNeg, lhalf+math.Log(beta)+lam*lp-lam*lqt+math.Log(pi)+math.Log1p(-pi)+lv)
			}
		}
	}
	lI := numeric.LogSumExp(logI)
	lA1 := numeric.LogSumExp(logA1)
	lB1 := numeric.LogSumExp(logB1)
	lB2 := numeric.LogSumExp(logB2)

	uncorrected := lI / (lam - 1)
	corr := 0.0 // B̂/Î
	if !par.PaperExact {
		corr = math.Exp(numeric.LogSumExp(biasPos)-lI) - math.Exp(numeric.LogSumExp(biasNeg)-lI)
		corr = min(max(corr, 0), 0.5)
	}
	est := (lI + math.Log1p(-corr)) / (lam - 1)
	// σ̂₁²/Î² and σ̂₂²/Î², exponentiating only ratios.
	v1 := lam * lam * math.Max(math.Exp(lA1-2*lI)-1, 0)
	v2 := (1 - lam) * (1 - lam) * math.Max(math.Exp(lB2-2*lI)-math.Exp(2*(lB1-lI)), 0)
	se := math.Sqrt(v1/float64(np)+v2/float64(nq)) / (lam - 1)
	z := distuv.UnitNormal.Quantile(1 - par.Alpha)
	floorShare := 0.0
	if len(logFloored) > 0 {
		floorShare = math.Exp(numeric.LogSumExp(logFloored) - lI)
	}
	return Result{
		Estimate:       est,
		StdErr:         se,
		LowerBound:     est - z*se,
		Lambda:         lam,
		Alpha:          par.Alpha,
		Tau:            par.Tau,
		Beta:           par.Beta,
		NP:             np,
		NQ:             nq,
		BiasCorrection: corr,
		Uncorrected:    uncorrected,
		FloorShare:     floorShare,
	}
}
