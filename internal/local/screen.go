package local

import (
	"fmt"
	"math"

	"github.com/dptest/dptest/internal/density"
)

// DiscreteFloorCount is the default floor of the truncated discrete density
// estimator (TDDE, Algorithm 2), in samples: τ = DiscreteFloorCount/n, so a
// value is never judged on fewer than ten draws. [AKD22] uses τ = 10⁻³ at
// n = 2·10⁴ and 10⁻⁴ at n = 10⁵ (Section V), 20 and 10 draws.
const DiscreteFloorCount = 10

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
// ones). The ratio of the
// event's probabilities is an average of the ratios inside it, so the event
// loses at most about that share of the loss, while its probability, and so
// the precision of the confirmation, can grow by orders of magnitude (the
// Laplace mechanism's loss is flat on a half-line; randomized response has
// half its outputs at the peak).
const EventSlack = 0.1

// DiscreteScreen estimates both directions' maximal loss from frequency
// tables (DPL, Algorithm 3, with TDDE): for every value seen,
//
//	ℓ̂(t) = ln(f̂_x(t) ∨ τ) − ln(f̂_{x′}(t) ∨ τ),
//
// maximised for D(x→x′) and minimised (sign flipped) for D(x′→x). τ = 0
// selects DiscreteFloorCount/min(n_x, n_{x′}). The peak t̂ maximises
// ℓ̂(t) − PeakPenalty·se(t), so that a value seen a handful of times does
// not win by noise; the event of each direction is
// the set of values within EventSlack of the peak loss, and Event.Cell holds
// t̂ itself (ties go to the smallest fmt.Sprint, so the choice does not
// depend on map order).
func DiscreteScreen[O comparable](p, q *density.Freq[O], tau float64) (xy, yx Estimate) {
	np, nq := float64(p.N), float64(q.N)
	if tau == 0 {
		tau = DiscreteFloorCount / math.Min(np, nq)
	}
	type cell struct {
		v  O
		l  float64
		se float64
	}
	var cells []cell
	consider := func(v O, cp, cq int64) {
		fp, fq := float64(cp)/np, float64(cq)/nq
		l := math.Log(math.Max(fp, tau)) - math.Log(math.Max(fq, tau))
		cells = append(cells, cell{v, l, pointSE(fp, fq, np, nq)})
	}
	for v, c := range p.Counts {
		consider(v, c, q.Counts[v])
	}
	for v, c := range q.Counts {
		if _, seen := p.Counts[v]; !seen {
			consider(v, 0, c)
		}
	}
	pick := func(sign float64) Estimate {
		best := -1
		for i, c := range cells {
			if best < 0 || better(sign*c.l-PeakPenalty*c.se, sign*cells[best].l-PeakPenalty*cells[best].se, c.v, cells[best].v) {
				best = i
			}
		}
		peak := sign * cells[best].l
		set := make(map[O]struct{})
		for _, c := range cells {
			if sign*c.l+2*c.se >= peak-EventSlack*math.Abs(peak) {
				set[c.v] = struct{}{}
			}
		}
		return Estimate{Loss: peak, StdErr: cells[best].se, Event: Event{Kind: Cell, Cell: cells[best].v, Cells: set}}
	}
	if len(cells) == 0 {
		return xy, yx
	}
	return pick(1), pick(-1)
}

func better[O comparable](l, best float64, v, bestV O) bool {
	if l != best {
		return l > best
	}
	return fmt.Sprint(v) < fmt.Sprint(bestV)
}

// pointSE is the delta-method standard error of ln f̂_x − ln f̂_{x′} for
// relative frequencies, with the Haldane ½ for an empty side.
func pointSE(fp, fq, np, nq float64) float64 {
	if fp == 0 || fq == 0 {
		fp, fq = fp+0.5/np, fq+0.5/nq
	}
	return math.Sqrt(math.Max(1-fp, 0)/(np*fp) + math.Max(1-fq, 0)/(nq*fq))
}

// LossBandwidthFactor multiplies the plug-in bandwidth of the densities
// (density.PluginBandwidth) to give the screening bandwidth of the loss
// curve. The loss is a difference of log densities, whose smoothing biases
// (h²/2)·f″/f largely cancel where the two densities have the same shape,
// so its mean squared error is smallest at a larger bandwidth than either
// density's; among the factors 1, 2 and 3, 2 gave the smallest error in the
// Figure 6 experiment of internal/experiments/figure4 for both continuous
// mechanisms (the rate n^{−1/5} of (C3) is unchanged).
const LossBandwidthFactor = 2

// RealInput is what RealScreen needs of two real-output samples: their
// statistics on one grid (in estimation units u = T(t), T the heavy-tail
// bijection or the identity), the map back to output units, the atoms, and
// the region C in estimation units.
type RealInput struct {
	P, Q       *density.Real
	ToOutput   func(u float64) float64 // T⁻¹
	Atoms      []float64               // sorted, in output units (for exclusion)
	AtomsU     []float64               // the same atoms in estimation units, as counted in P, Q
	RegionLo   float64                 // C in estimation units
	RegionHi   float64
	Bandwidth  float64 // screening bandwidth h (C3) in estimation units; 0 = plug-in
	Tau        float64 // density floor τ in estimation units; 0 = DiscreteFloorCount/(n·h)
	AtomTau    float64 // floor of atom probabilities; 0 = DiscreteFloorCount/n
	EventWidth float64 // half-width of the confirmation interval; 0 = the bandwidth
}

// RealScreen estimates both directions' maximal loss of real outputs (DPL,
// Algorithm 3, with TKDE, Algorithm 1): Gaussian kernel estimates with a
// common bandwidth, LossBandwidthFactor times the smaller plug-in bandwidth
// of the two samples (the density-optimal rate of (C3), no undersmoothing),
// floored at τ, on the grid points in C, and the atoms'
// floored probabilities. The peak t̂ maximises ℓ̂(t) − PeakPenalty·se(t), as
// in DiscreteScreen; for a density part it becomes the event of the
// confirmation: the interval around it where the screening
// loss stays within EventSlack of its peak, and at least [t̂ − w, t̂ + w],
// atoms excluded; an atom becomes itself.
func RealScreen(in RealInput) (xy, yx Estimate, err error) {
	p, q := in.P, in.Q
	np, nq := p.N(), q.N()
	n := float64(min(np, nq))
	xy.Loss, yx.Loss = math.Inf(-1), math.Inf(-1)
	var curve Curve
	g := p.Bins.Grid
	h := in.Bandwidth
	if h == 0 && (p.Bins.N >= 2 || q.Bins.N >= 2) {
		h = math.Inf(1)
		for _, b := range []*density.Binned{p.Bins, q.Bins} {
			if b.N < 100 {
				continue
			}
			if hb, err := density.PluginBandwidth(b); err == nil {
				h = math.Min(h, LossBandwidthFactor*hb)
			}
		}
		if math.IsInf(h, 1) {
			h = 0
		}
	}
	if h > 0 {
		tau := in.Tau
		if tau == 0 {
			tau = DiscreteFloorCount / (n * h)
		}
		w := in.EventWidth
		if w == 0 {
			w = h
		}
		fp, vp := p.Bins.Density(h, nil, np)
		fq, vq := q.Bins.Density(h, nil, nq)
		var us, ses []float64
		for i := range fp {
			u := g.At(i)
			if u < in.RegionLo || u > in.RegionHi {
				continue
			}
			l := math.Log(math.Max(fp[i], tau)) - math.Log(math.Max(fq[i], tau))
			us = append(us, u)
			curve.T = append(curve.T, in.ToOutput(u))
			curve.Loss = append(curve.Loss, l)
			ses = append(ses, math.Sqrt(vp[i]/math.Max(fp[i]*fp[i], tau*tau)+vq[i]/math.Max(fq[i]*fq[i], tau*tau)))
		}
		// The peak of each direction and the interval around it where the
		// loss stays within EventSlack of the peak, at least ±w.
		interval := func(sign float64) (Estimate, bool) {
			best := -1
			for i, l := range curve.Loss {
				if best < 0 || sign*l-PeakPenalty*ses[i] > sign*curve.Loss[best]-PeakPenalty*ses[best] {
					best = i
				}
			}
			if best < 0 {
				return Estimate{}, false
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
			ulo, uhi := math.Min(us[lo], us[best]-w), math.Max(us[hi], us[best]+w)
			ev := Event{Kind: Interval, Lo: in.ToOutput(ulo), Hi: in.ToOutput(uhi), Exclude: in.Atoms, Location: in.ToOutput(us[best])}
			return Estimate{Loss: peak, StdErr: ses[best], Event: ev}, true
		}
		if e, ok := interval(1); ok {
			xy = e
		}
		if e, ok := interval(-1); ok {
			yx = e
		}
	}
	atomTau := in.AtomTau
	if atomTau == 0 {
		atomTau = DiscreteFloorCount / n
	}
	for i, a := range in.AtomsU {
		cp, cq := p.Atoms.Counts[a], q.Atoms.Counts[a]
		fp, fq := float64(cp)/float64(np), float64(cq)/float64(nq)
		l := math.Log(math.Max(fp, atomTau)) - math.Log(math.Max(fq, atomTau))
		se := pointSE(fp, fq, float64(np), float64(nq))
		ev := Event{Kind: Atom, Atom: in.Atoms[i], Location: in.Atoms[i]}
		if l > xy.Loss {
			xy = Estimate{Loss: l, StdErr: se, Event: ev}
		}
		if -l > yx.Loss {
			yx = Estimate{Loss: -l, StdErr: se, Event: ev}
		}
	}
	if math.IsInf(xy.Loss, -1) {
		return xy, yx, fmt.Errorf("local: no output in the region C [%v, %v]", in.ToOutput(in.RegionLo), in.ToOutput(in.RegionHi))
	}
	xy.Curve = curve
	neg := Curve{T: curve.T, Loss: make([]float64, len(curve.Loss))}
	for i, l := range curve.Loss {
		neg.Loss[i] = -l
	}
	yx.Curve = neg
	return xy, yx, nil
}
