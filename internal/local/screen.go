package local

import (
	"errors"
	"fmt"
	"math"

	"github.com/dptest/dptest/internal/stat"
)

// PeakPenalty is the number of standard errors the screening subtracts from
// the loss at each output before taking the maximiser t̂: the maximum of a
// noisy curve over hundreds of bandwidths, or of many rarely seen values, is
// otherwise found where the estimate is noisiest rather than where the loss
// is largest ([AKD22]'s DPL takes the plain argmax; its Proposition 1 holds
// for both).
const PeakPenalty = 3

// EventSlack is the share of the peak loss an event may give up: the
// confirmation's event gathers every output whose screening loss is, within
// two standard errors, within EventSlack·ε̂ of the peak ε̂ (the contiguous
// interval around t̂ for real outputs, the set of such values for discrete
// ones). The ratio of the event's probabilities is an average of the ratios
// inside it, so the event loses at most about that share of the loss, while
// its probability, and so the precision of the confirmation, can grow by
// orders of magnitude (the Laplace mechanism's loss is flat on a half-line;
// randomized response has half its outputs at the peak).
const EventSlack = 0.1

// LossBandwidthFactor multiplies the smaller plug-in bandwidth of the two
// densities (stat.SmallerBandwidth) to give the screening bandwidth of the
// loss curve. The loss is a difference of log densities, whose smoothing
// biases (h²/2)·f″/f largely cancel where the two densities have the same
// shape, so its mean squared error is smallest at a larger bandwidth than
// either density's; among the factors 1, 2 and 3, 2 gave the smallest error
// in the Figure 6 experiment of internal/experiments/figure4 for both
// continuous mechanisms (the rate n^{−1/5} of (C3) is unchanged).
const LossBandwidthFactor = 2

// Params configure the screening. dptest's plan gives every field.
type Params struct {
	// Region is C for real outputs, in output units; if both ends are zero,
	// C is the central range of the pooled pilot that leaves out RegionTail
	// of it on each side (stat.RealDesign.PilotRange).
	Region     [2]float64
	RegionTail float64
	// Tau is the floor of the truncated estimates (Algorithms 1–2): a
	// probability for discrete outputs, a density in output units for real
	// ones. If zero, the floor is FloorCount samples' worth: FloorCount/n
	// for probabilities, FloorCount/(n·h) for densities of bandwidth h.
	Tau        float64
	FloorCount float64
}

// ErrNoFloor reports Params with neither Tau nor FloorCount.
var ErrNoFloor = errors.New("local: the screening needs a floor τ or a floor count")

// Screen estimates both directions' maximal loss (DPL, Algorithm 3) from
// one sample of a pair: TDDE for a *stat.Table of discrete outputs, TKDE
// for a *stat.Continuous of real ones.
func Screen(s stat.Sample, par Params) (xy, yx Estimate, err error) {
	if !(par.Tau > 0 || par.FloorCount > 0) {
		return xy, yx, ErrNoFloor
	}
	switch s := s.(type) {
	case *stat.Table:
		xy, yx = screenTable(s, par)
		return xy, yx, nil
	case *stat.Continuous:
		return screenReal(s, par)
	}
	return xy, yx, fmt.Errorf("local: no screening for a sample of type %T", s)
}

// screenTable estimates both directions' maximal loss from a table of
// discrete outputs (DPL with TDDE): for every value seen,
//
//	ℓ̂(t) = ln(f̂_x(t) ∨ τ) − ln(f̂_{x′}(t) ∨ τ),
//
// maximised for D(x→x′) and minimised (sign flipped) for D(x′→x). The peak
// t̂ maximises ℓ̂(t) − PeakPenalty·se(t), so that a value seen a handful of
// times does not win by noise; the event of each direction is the set of
// values within EventSlack of the peak loss, located at t̂ (ties go to the
// smallest fmt.Sprint, so the choice does not depend on map order).
func screenTable(t *stat.Table, par Params) (xy, yx Estimate) {
	np, nq := float64(t.NP), float64(t.NQ)
	tau := par.Tau
	if tau == 0 {
		tau = par.FloorCount / math.Min(np, nq)
	}
	type cell struct {
		v     any
		l, se float64
	}
	cells := make([]cell, len(t.Cells))
	for i, c := range t.Cells {
		fp, fq := float64(c.P)/np, float64(c.Q)/nq
		_, _, se := logRatioSE(float64(c.P), np, float64(c.Q), nq)
		l := math.Log(math.Max(fp, tau)) - math.Log(math.Max(fq, tau))
		cells[i] = cell{c.Value, l, se}
	}
	pick := func(sign float64) Estimate {
		best := -1
		for i, c := range cells {
			if best < 0 || better(sign*c.l-PeakPenalty*c.se, sign*cells[best].l-PeakPenalty*cells[best].se, c.v, cells[best].v) {
				best = i
			}
		}
		peak := sign * cells[best].l
		var members []any
		for _, c := range cells {
			if sign*c.l+2*c.se >= peak-EventSlack*math.Abs(peak) {
				members = append(members, c.v)
			}
		}
		ev := stat.Event{Kind: stat.ValueSet, Members: members, Location: cells[best].v}
		return Estimate{Loss: peak, StdErr: cells[best].se, Event: ev}
	}
	if len(cells) == 0 {
		return xy, yx
	}
	return pick(1), pick(-1)
}

func better(l, best float64, v, bestV any) bool {
	if l != best {
		return l > best
	}
	return fmt.Sprint(v) < fmt.Sprint(bestV)
}

// screenReal estimates both directions' maximal loss of real outputs (DPL
// with TKDE, Algorithm 1): Gaussian kernel estimates with a common
// bandwidth, LossBandwidthFactor times the smaller plug-in bandwidth of the
// two sides (the density-optimal rate of (C3), no undersmoothing), floored
// at τ, on the grid points in C, and the atoms' floored probabilities. The
// peak t̂ maximises ℓ̂(t) − PeakPenalty·se(t), as for discrete outputs; for
// a density part it becomes the event of the confirmation: the interval
// around it where the screening loss stays within EventSlack of its peak,
// and at least [t̂ − h, t̂ + h], atoms excluded; an atom becomes itself.
// The estimates live in the design's units u = T(t); the region, the floor
// and the event are given and returned in output units.
func screenReal(c *stat.Continuous, par Params) (xy, yx Estimate, err error) {
	d := c.Design
	lo, hi := par.Region[0], par.Region[1]
	if lo == 0 && hi == 0 {
		lo, hi = d.PilotRange(par.RegionTail)
	}
	n := float64(min(c.P.N(), c.Q.N()))
	tau, atomTau := par.Tau, par.Tau
	if tau > 0 {
		// A floor given in output units, converted where the transform is
		// not the identity by its slope at the region's centre.
		mid := (lo + hi) / 2
		tau /= (d.ToU(mid+1e-6*(hi-lo)) - d.ToU(mid)) / (1e-6 * (hi - lo))
	} else {
		atomTau = par.FloorCount / n
	}
	xy.Loss, yx.Loss = math.Inf(-1), math.Inf(-1)
	var curve Curve
	if h := lossBandwidth(c); h > 0 {
		if tau == 0 {
			tau = par.FloorCount / (n * h)
		}
		curve, xy, yx = densityPeaks(c, d.ToU(lo), d.ToU(hi), h, tau)
	}
	np, nq := float64(c.P.N()), float64(c.Q.N())
	for _, a := range d.Atoms {
		cp, cq := c.P.Atoms.Counts[a], c.Q.Atoms.Counts[a]
		fp, fq := float64(cp)/np, float64(cq)/nq
		l := math.Log(math.Max(fp, atomTau)) - math.Log(math.Max(fq, atomTau))
		_, _, se := logRatioSE(float64(cp), np, float64(cq), nq)
		ev := stat.Event{Kind: stat.Atom, Atom: a, Location: a}
		if l > xy.Loss {
			xy = Estimate{Loss: l, StdErr: se, Event: ev}
		}
		if -l > yx.Loss {
			yx = Estimate{Loss: -l, StdErr: se, Event: ev}
		}
	}
	if math.IsInf(xy.Loss, -1) {
		return xy, yx, fmt.Errorf("local: no output in the region C [%v, %v]", lo, hi)
	}
	xy.Curve = curve
	neg := Curve{T: curve.T, Loss: make([]float64, len(curve.Loss))}
	for i, l := range curve.Loss {
		neg.Loss[i] = -l
	}
	yx.Curve = neg
	return xy, yx, nil
}

// lossBandwidth is the screening bandwidth of a real sample, in estimation
// units: LossBandwidthFactor times the smaller plug-in bandwidth, or 0 if
// the binned outputs have none.
func lossBandwidth(c *stat.Continuous) float64 {
	if c.P.Bins.N < 2 && c.Q.Bins.N < 2 {
		return 0
	}
	h, ok, _ := stat.SmallerBandwidth(c.P.Bins, c.Q.Bins)
	if !ok {
		return 0
	}
	return LossBandwidthFactor * h
}

// densityPeaks returns the loss curve of the density part over the region
// [ulo, uhi] (estimation units) with bandwidth h and floor tau, and the
// peak of each direction with the interval event around it.
func densityPeaks(c *stat.Continuous, ulo, uhi, h, tau float64) (curve Curve, xy, yx Estimate) {
	d := c.Design
	np, nq := c.P.N(), c.Q.N()
	sm := stat.NewSmoother(d.Grid, h)
	fp, vp := sm.Density(c.P.Bins, nil, np)
	fq, vq := sm.Density(c.Q.Bins, nil, nq)
	var us, ses []float64
	for i := range fp {
		u := d.Grid.At(i)
		if u < ulo || u > uhi {
			continue
		}
		l := math.Log(math.Max(fp[i], tau)) - math.Log(math.Max(fq[i], tau))
		us = append(us, u)
		curve.T = append(curve.T, d.ToOutput(u))
		curve.Loss = append(curve.Loss, l)
		ses = append(ses, math.Sqrt(vp[i]/math.Max(fp[i]*fp[i], tau*tau)+vq[i]/math.Max(fq[i]*fq[i], tau*tau)))
	}
	// The peak of each direction and the interval around it where the loss
	// stays within EventSlack of the peak, at least ±h.
	interval := func(sign float64) Estimate {
		best := -1
		for i, l := range curve.Loss {
			if best < 0 || sign*l-PeakPenalty*ses[i] > sign*curve.Loss[best]-PeakPenalty*ses[best] {
				best = i
			}
		}
		if best < 0 {
			return Estimate{Loss: math.Inf(-1)}
		}
		peak := sign * curve.Loss[best]
		floor := peak - EventSlack*math.Abs(peak)
		lo, hi := best, best
		for lo > 0 && sign*curve.Loss[lo-1]+2*ses[lo-1] >= floor {
			lo--
		}
		for hi < len(us)-1 && sign*curve.Loss[hi+1]+2*ses[hi+1] >= floor {
			hi++
		}
		ulo, uhi := math.Min(us[lo], us[best]-h), math.Max(us[hi], us[best]+h)
		ev := stat.Event{Kind: stat.Interval, Lo: d.ToOutput(ulo), Hi: d.ToOutput(uhi), Exclude: d.Atoms, Location: d.ToOutput(us[best])}
		return Estimate{Loss: peak, StdErr: ses[best], Event: ev}
	}
	return curve, interval(1), interval(-1)
}
