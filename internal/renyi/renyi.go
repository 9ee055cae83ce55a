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
// [Both] estimates both directions from one sample of a pair: discrete
// outputs sum over the values observed on either side, real outputs
// integrate the kernel density estimates on the grid they were binned on.
// Every integral is accumulated in log space, so β·q̂ of 10⁵ and more, and
// q̂_τ^{1−λ} of 10³⁰⁰ and more, never overflow.
package renyi

import (
	"errors"
	"fmt"
	"math"

	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/stat"
)

// MinSamples is the smallest sample per side the estimator accepts. The bound
// rests on the normal approximation (15) of a plug-in functional whose
// variance (18) is itself estimated; with fewer than a thousand samples the
// plug-in bandwidth, the floor and the delta-method variance are too unstable
// for a stated confidence to mean anything, and no density estimate from so
// few samples resolves a divergence below about 1/√1000 ≈ 0.03 anyway.
const MinSamples = 1000

// Params are the estimator's parameters. The floors and the tail count
// are given explicitly (dptest's plan holds the values it uses); β and the
// bandwidth have the rules described at each field.
type Params struct {
	Lambda float64 // order λ > 1
	Alpha  float64 // 1 − confidence of the lower bound, in (0, 1)

	// DiscreteTau is the floor τ of eq. (13) on probabilities: discrete
	// outputs, and the atoms of real outputs that have no density part.
	DiscreteTau float64
	// RelativeTau sets the floor of densities relative to their scale s =
	// min(sd, IQR/1.349) of the pooled sample: τ = RelativeTau/s, so that
	// multiplying every output by c multiplies the floor by 1/c and the
	// estimate does not change.
	RelativeTau float64
	// Tau, if positive, is an absolute floor that replaces both: a
	// probability for discrete outputs, a density in output units for real
	// ones ([KAD24] Section IV-A uses τ = 10⁻⁵).
	Tau float64
	// Beta is the softmax parameter β of eq. (13); zero selects β = 1/τ, the
	// paper's choice (Section III-C).
	Beta float64
	// Bandwidth overrides the kernel bandwidth for real outputs; zero
	// selects Undersmooth(SmallerBandwidth) of the sample, used for both
	// sides.
	Bandwidth float64
	// TailCount is k of the sparse-region treatment: discrete values seen
	// fewer than k times in the two samples together are merged into one
	// value, and each run of grid points where the pooled sample has fewer
	// than k samples per bandwidth is mapped to one atom
	// (stat.SparseRuns). Both are deterministic post-processings of the
	// outputs, so the bound stays a bound; they trade a little tightness for
	// stability. Zero or negative turns the treatment off.
	TailCount float64
	// PaperExact computes (16)–(18) exactly as printed: no bias correction
	// (see [Result.BiasCorrection]) and no sparse-region treatment.
	PaperExact bool
}

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
	ErrOrder  = errors.New("renyi: order λ must be > 1 and finite")
	ErrAlpha  = errors.New("renyi: α must lie in (0, 1)")
	ErrTooFew = fmt.Errorf("renyi: each sample needs at least %d values", MinSamples)
	ErrFloor  = errors.New("renyi: floors τ and softmax β must be finite and ≥ 0, and the floor the sample needs positive")
)

func (p Params) check(np, nq int64) error {
	switch {
	case !(p.Lambda > 1) || math.IsInf(p.Lambda, 1):
		return ErrOrder
	case !(p.Alpha > 0 && p.Alpha < 1):
		return ErrAlpha
	case np < MinSamples || nq < MinSamples:
		return fmt.Errorf("%w (got %d and %d)", ErrTooFew, np, nq)
	case !finiteNonNegative(p.Tau) || !finiteNonNegative(p.Beta) || !finiteNonNegative(p.DiscreteTau) || !finiteNonNegative(p.RelativeTau):
		return ErrFloor
	}
	return nil
}

// Both estimates D_λ(M(X) ‖ M(Y)) and D_λ(M(Y) ‖ M(X)) from one sample of
// both sides: a *stat.Table of discrete outputs, summing over every value
// seen on either side ([KAD24] eqs. (9) and (16)), or a *stat.Continuous
// of real outputs, integrating kernel density estimates on the sample's
// grid and summing over its atoms (see [Params.TailCount] for the values
// and sparse regions merged first).
//
// Smoothing both sides with the same kernel is the post-processing
// t ↦ t + hZ, Z ∼ N(0,1), so the divergence a kernel estimate converges to
// is D_λ(p∗K_h ‖ q∗K_h) ≤ D_λ(p ‖ q): the smoothing bias never makes the
// bound invalid, it only makes it less tight.
func Both(s stat.Sample, par Params) (xy, yx Result, err error) {
	switch s := s.(type) {
	case *stat.Table:
		if xy, err = table(s, par, false); err != nil {
			return xy, yx, err
		}
		yx, err = table(s, par, true)
		return xy, yx, err
	case *stat.Continuous:
		return mixed(s.P.Bins, s.Q.Bins, s.P.Atoms, s.Q.Atoms, par)
	}
	return xy, yx, fmt.Errorf("renyi: no estimator for a sample of type %T", s)
}

// table estimates D_λ(p ‖ q) from a table of discrete outputs, or
// D_λ(q ‖ p) if reverse.
func table(t *stat.Table, par Params, reverse bool) (Result, error) {
	np, nq := t.NP, t.NQ
	if reverse {
		np, nq = nq, np
	}
	if err := par.check(np, nq); err != nil {
		return Result{}, err
	}
	if par.Tau == 0 {
		par.Tau = par.DiscreteTau
	}
	if par.Tau == 0 {
		return Result{}, ErrFloor
	}
	if par.Beta == 0 {
		par.Beta = 1 / par.Tau
	}
	var pts points
	support, merged := addCells(&pts, orientedCells(t.Cells, reverse), np, nq, par.tailCount(), 1)
	r := pts.estimate(np, nq, par)
	r.Support = support
	r.Merged = merged
	return r, nil
}

// orientedCells returns the cells of a table sorted by (P, Q), with P and Q
// swapped first if reverse, so that the estimate of either direction sums
// its terms in one order whatever the map order of the counts.
func orientedCells(cells []stat.Cell, reverse bool) []stat.Cell {
	if !reverse {
		return cells
	}
	out := make([]stat.Cell, len(cells))
	for i, c := range cells {
		out[i] = stat.Cell{Value: c.Value, P: c.Q, Q: c.P}
	}
	stat.SortCells(out)
	return out
}

// addCells adds one point per cell (probabilities relative to np and nq
// samples, floor unit unit), merging the values seen fewer than k times on
// both sides together into one. It returns the number of points added and
// of values merged.
func addCells(s *points, cells []stat.Cell, np, nq int64, k, unit float64) (support, merged int) {
	var rare stat.Cell
	for _, c := range cells {
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

// mixed estimates D_λ(p ‖ q) and D_λ(q ‖ p) of real outputs that mix a
// density and atoms from the same density estimates and atoms: the atoms
// are discrete cells, with probabilities relative to the whole sample, and
// the rest is a sub-density. The floor of an atom is τ·h, the mass of one
// bandwidth at the floor density. Outputs with no continuous part at all
// (only atoms) are estimated as discrete ones, with the discrete floor.
func mixed(pb, qb *stat.Binned, pa, qa *stat.Freq[float64], par Params) (pq, qp Result, err error) {
	if pb.Grid != qb.Grid {
		return pq, qp, errors.New("renyi: the two samples are binned on different grids")
	}
	np, nq := pb.N+pa.N, qb.N+qa.N
	if err := par.check(np, nq); err != nil {
		return pq, qp, err
	}
	h, err := bandwidth(pb, qb, par, min(np, nq))
	if err != nil {
		return pq, qp, err
	}
	var pts points
	r := Result{}
	k := par.tailCount()
	if h > 0 {
		if par.Tau == 0 && par.RelativeTau > 0 {
			par.Tau = par.RelativeTau / stat.Scale(pb, qb)
		}
		r = addDensity(&pts, pb, qb, np, nq, h, k)
	} else {
		if par.Tau == 0 {
			par.Tau = par.DiscreteTau
		}
		// Binned samples without a bandwidth (a handful between atoms)
		// form one more atom.
		if pb.N+qb.N > 0 {
			pts.addAtom(float64(pb.N)/float64(np), float64(qb.N)/float64(nq), np, nq, 1)
		}
	}
	if !(par.Tau > 0) {
		return pq, qp, ErrFloor
	}
	if par.Beta == 0 {
		par.Beta = 1 / par.Tau
	}
	unit := 1.0
	if h > 0 {
		unit = h
	}
	cells, merged := addCells(&pts, stat.Tabulate(pa, qa).Cells, np, nq, k, unit)
	r.Atoms += cells
	r.Merged = merged
	fill := func(est Result, outP, outQ float64) Result {
		est.Support, est.Atoms, est.Merged, est.TailMass = r.Support, r.Atoms, r.Merged, r.TailMass
		est.Bandwidth, est.GridStep = r.Bandwidth, r.GridStep
		est.OutsideP, est.OutsideQ = outP, outQ
		return est
	}
	pq = fill(pts.estimate(np, nq, par), pb.OutsideShare(), qb.OutsideShare())
	pts.p, pts.q = pts.q, pts.p
	pts.vp, pts.vq = pts.vq, pts.vp
	qp = fill(pts.estimate(nq, np, par), qb.OutsideShare(), pb.OutsideShare())
	return pq, qp, nil
}

// bandwidth returns the kernel bandwidth of a mixed sample: the override,
// or the undersmoothed smaller plug-in bandwidth of the two sides, or 0 when
// no side has one (the binned outputs are then one more atom).
func bandwidth(pb, qb *stat.Binned, par Params, n int64) (float64, error) {
	if h := par.Bandwidth; h != 0 {
		if !(h > 0) || math.IsInf(h, 0) {
			return 0, errors.New("renyi: bandwidth must be positive and finite")
		}
		return h, nil
	}
	if h, ok, _ := stat.SmallerBandwidth(pb, qb); ok {
		return stat.Undersmooth(h, int(n)), nil
	}
	return 0, nil
}

// addDensity adds the grid points of the kernel estimates with bandwidth h
// and the atoms of their sparse runs, and returns the diagnostics.
func addDensity(pts *points, pb, qb *stat.Binned, np, nq int64, h, k float64) Result {
	var r Result
	sm := stat.NewSmoother(pb.Grid, h)
	pd, vp := sm.Density(pb, nil, np)
	qd, vq := sm.Density(qb, nil, nq)
	var runs [][2]int
	if k > 0 {
		var keep []bool
		keep, runs = stat.SparseRuns(pd, qd, np, nq, h, k, pb, qb)
		if len(runs) > 0 {
			pd, vp = sm.Density(pb, keep, np)
			qd, vq = sm.Density(qb, keep, nq)
		}
	}
	for i := range pd {
		pts.add(pd[i], qd[i], vp[i], vq[i], pb.Grid.Step, 1)
	}
	// Atoms carry probabilities, not densities: their floor is τ·h, the
	// mass of a bandwidth at the floor density (and β/h), so that β·τ and
	// the floor's meaning stay those of the density part.
	for _, run := range runs {
		pm, qm := pb.RunMass(run[0], run[1], np), qb.RunMass(run[0], run[1], nq)
		pts.addAtom(pm, qm, np, nq, h)
		r.TailMass += (pm + qm) / 2
	}
	r.Support = pb.Grid.Points
	r.Atoms = len(runs)
	r.Bandwidth = h
	r.GridStep = pb.Grid.Step
	return r
}

func (par Params) tailCount() float64 {
	if par.PaperExact || par.TailCount < 0 {
		return 0
	}
	return par.TailCount
}

func finiteNonNegative(v float64) bool { return v >= 0 && !math.IsInf(v, 1) }

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

func (s *points) addCounts(c stat.Cell, np, nq int64, unit float64) {
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
	z := numeric.UpperNormalQuantile(par.Alpha)
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
