package local

import (
	"fmt"
	"math"

	"github.com/dptest/dptest/internal/density"
)

// DiscreteFloorCount is the default floor of the truncated discrete density
// estimator (TDDE, Algorithm 2), in samples: τ = DiscreteFloorCount/n, so a
// value is never judged on fewer than ten draws. Seed 003 uses τ = 10⁻³ at
// n = 2·10⁴ and 10⁻⁴ at n = 10⁵ (Section V), 20 and 10 draws.
const DiscreteFloorCount = 10

// DiscreteScreen estimates both directions' maximal loss from frequency
// tables (DPL, Algorithm 3, with TDDE): for every value seen,
//
//	ℓ̂(t) = ln(f̂_x(t) ∨ τ) − ln(f̂_{x′}(t) ∨ τ),
//
// maximised for D(x→x′) and minimised (sign flipped) for D(x′→x). τ = 0
// selects DiscreteFloorCount/min(n_x, n_{x′}). Ties go to the value whose
// fmt.Sprint is smallest, so the choice does not depend on map order.
func DiscreteScreen[O comparable](p, q *density.Freq[O], tau float64) (xy, yx Estimate) {
	np, nq := float64(p.N), float64(q.N)
	if tau == 0 {
		tau = DiscreteFloorCount / math.Min(np, nq)
	}
	xy.Loss, yx.Loss = math.Inf(-1), math.Inf(-1)
	var bestXY, bestYX O
	consider := func(v O, cp, cq int64) {
		fp, fq := float64(cp)/np, float64(cq)/nq
		l := math.Log(math.Max(fp, tau)) - math.Log(math.Max(fq, tau))
		se := pointSE(fp, fq, np, nq)
		if better(l, xy.Loss, v, bestXY) {
			xy.Loss, xy.StdErr, bestXY = l, se, v
		}
		if better(-l, yx.Loss, v, bestYX) {
			yx.Loss, yx.StdErr, bestYX = -l, se, v
		}
	}
	for v, c := range p.Counts {
		consider(v, c, q.Counts[v])
	}
	for v, c := range q.Counts {
		if _, seen := p.Counts[v]; !seen {
			consider(v, 0, c)
		}
	}
	xy.Event = Event{Kind: Cell, Cell: bestXY}
	yx.Event = Event{Kind: Cell, Cell: bestYX}
	return xy, yx
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
// common plug-in bandwidth (the density-optimal rate of (C3), no
// undersmoothing), floored at τ, on the grid points in C, and the atoms'
// floored probabilities. The maximiser of a density part becomes the event
// [t̂ − w, t̂ + w] (atoms excluded) for the confirmation; an atom becomes
// itself.
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
				h = math.Min(h, hb)
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
		for i := range fp {
			u := g.At(i)
			if u < in.RegionLo || u > in.RegionHi {
				continue
			}
			l := math.Log(math.Max(fp[i], tau)) - math.Log(math.Max(fq[i], tau))
			curve.T = append(curve.T, in.ToOutput(u))
			curve.Loss = append(curve.Loss, l)
			se := math.Sqrt(vp[i]/math.Max(fp[i]*fp[i], tau*tau) + vq[i]/math.Max(fq[i]*fq[i], tau*tau))
			ev := Event{Kind: Interval, Lo: in.ToOutput(u - w), Hi: in.ToOutput(u + w), Exclude: in.Atoms, Location: in.ToOutput(u)}
			if l > xy.Loss {
				xy = Estimate{Loss: l, StdErr: se, Event: ev}
			}
			if -l > yx.Loss {
				yx = Estimate{Loss: -l, StdErr: se, Event: ev}
			}
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
