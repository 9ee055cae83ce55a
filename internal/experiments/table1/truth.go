package main

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/integrate/quad"
)

// minCount is the floor 10⁻¹² of the mean mechanisms' noisy count.
const minCount = 1e-12

// meanLaw is the output law of one of the mean mechanisms of [KMRS24],
// Section 6.1, on a dataset of n records whose clipped sum is sum (records
// in [0, 1], so Δ = 1):
//
//	ñ = n, or ñ = max(10⁻¹², n + τ) with τ ~ Lap(2/ε) (random),
//	M = centre(ñ) + scale(ñ)·Z,
//	centre = sum/ñ (divideNoisy) or sum/n,  scale = 2κ/(ñ'ε), ñ' = ñ (scaleNoisy) or n,
//
// with Z standard Laplace (density e^{−|z|}/2) or, for gaussian, standard
// normal with κ = √(2 ln(1.25/δ)) (κ = 1 for Laplace).
type meanLaw struct {
	n                    int
	sum, eps, kappa      float64
	random, divideNoisy  bool
	scaleNoisy, gaussian bool
}

// countNodes are the nodes t_i and weights of the count ñ's law: a point
// mass at 10⁻¹² (P(n + τ ≤ 10⁻¹²)) and composite Simpson in s = ln t on
// [ln 10⁻¹², ln n] and [ln n, ln(n + 60b)] (the Laplace density's kink at
// t = n is a node; its mass beyond is below e⁻⁶⁰), each weight holding the
// density and the Jacobian t.
func (l meanLaw) countNodes(intervals int) (t, w []float64) {
	n := float64(l.n)
	if !l.random {
		return []float64{n}, []float64{1}
	}
	b := 2 / l.eps
	t = append(t, minCount)
	w = append(w, 0.5*math.Exp(-(n-minCount)/b))
	piece := func(lo, hi float64) {
		h := (hi - lo) / float64(intervals)
		for i := 0; i <= intervals; i++ {
			c := 2.0
			switch {
			case i == 0 || i == intervals:
				c = 1
			case i%2 == 1:
				c = 4
			}
			ti := math.Exp(lo + float64(i)*h)
			t = append(t, ti)
			w = append(w, c*h/3*ti*math.Exp(-math.Abs(ti-n)/b)/(2*b))
		}
	}
	piece(math.Log(minCount), math.Log(n))
	piece(math.Log(n), math.Log(n+60*b))
	return t, w
}

// logDensity returns ln f(y) on every point of ys, by log-sum-exp over the
// count's nodes.
func (l meanLaw) logDensity(ys []float64, intervals int) []float64 {
	ts, ws := l.countNodes(intervals)
	n := float64(l.n)
	type comp struct{ logw, centre, scale float64 }
	cs := make([]comp, 0, len(ts))
	for i, t := range ts {
		if ws[i] <= 0 {
			continue
		}
		centre, scaleCount := l.sum/n, n
		if l.divideNoisy {
			centre = l.sum / t
		}
		if l.scaleNoisy {
			scaleCount = t
		}
		cs = append(cs, comp{math.Log(ws[i]), centre, 2 * l.kappa / (scaleCount * l.eps)})
	}
	out := make([]float64, len(ys))
	terms := make([]float64, len(cs))
	for j, y := range ys {
		top := math.Inf(-1)
		for i, c := range cs {
			z := (y - c.centre) / c.scale
			if l.gaussian {
				terms[i] = c.logw - 0.5*z*z - math.Log(c.scale*math.Sqrt(2*math.Pi))
			} else {
				terms[i] = c.logw - math.Abs(z) - math.Log(2*c.scale)
			}
			top = math.Max(top, terms[i])
		}
		s := 0.0
		for _, v := range terms {
			s += math.Exp(v - top)
		}
		out[j] = top + math.Log(s)
	}
	return out
}

// meanTruth holds the exact privacy measures of a pair of mean-mechanism
// laws, computed on the grid y = sinh u, u ∈ [−45, 45].
type meanTruth struct {
	Loss       float64 // sup_y |ln f_X(y) − ln f_Y(y)| on the grid
	Hockey     float64 // max of the two directions of ∫ (f_P − e^ε f_Q)⁺ dy
	Renyi      float64 // max of the two directions of D_λ at RenyiOrder
	MassErr    float64 // largest |∫ f − 1|
	LossAtEdge bool    // the loss is largest at the grid's ends: it grows without bound
}

// meanTruthOf computes the measures between x and y at ε (the hockey-stick
// order e^ε).
func meanTruthOf(x, y meanLaw, eps float64) meanTruth {
	const ulo, uhi, points, intervals = -45.0, 45.0, 20000, 2000
	du := (uhi - ulo) / points
	us := make([]float64, points+1)
	ys := make([]float64, points+1)
	for i := range us {
		us[i] = ulo + float64(i)*du
		ys[i] = math.Sinh(us[i])
	}
	lx, ly := x.logDensity(ys, intervals), y.logDensity(ys, intervals)
	var tr meanTruth
	var mx, my, hxy, hyx float64
	for i := range us {
		jac := math.Cosh(us[i]) * du
		if i == 0 || i == points {
			jac /= 2
		}
		fx, fy := math.Exp(lx[i]), math.Exp(ly[i])
		mx += fx * jac
		my += fy * jac
		hxy += math.Max(0, fx-math.Exp(eps)*fy) * jac
		hyx += math.Max(0, fy-math.Exp(eps)*fx) * jac
		if !math.IsInf(lx[i], -1) || !math.IsInf(ly[i], -1) {
			tr.Loss = math.Max(tr.Loss, math.Abs(lx[i]-ly[i]))
		}
	}
	tr.Hockey = math.Max(hxy, hyx)
	tr.Renyi = math.Max(renyiOn(lx, ly, us, du), renyiOn(ly, lx, us, du))
	tr.MassErr = math.Max(math.Abs(mx-1), math.Abs(my-1))
	inner := int(5 / du) // u = ±40
	for _, e := range [][2]int{{0, inner}, {points, points - inner}} {
		edge, in := math.Abs(lx[e[0]]-ly[e[0]]), math.Abs(lx[e[1]]-ly[e[1]])
		if edge > 2*in && edge > 1 {
			tr.LossAtEdge = true
		}
	}
	return tr
}

// RenyiOrder is the order of the Rényi rows, [KMRS24]'s α = 1.5.
const RenyiOrder = 1.5

// renyiOn is D_λ(f_P ‖ f_Q) = 1/(λ−1) ln ∫ f_P^λ f_Q^{1−λ} dy at
// λ = RenyiOrder from log densities on the grid y = sinh u; +Inf where
// f_Q vanishes under f_P.
func renyiOn(lp, lq, us []float64, du float64) float64 {
	const lambda = RenyiOrder
	total := 0.0
	for i := range us {
		if math.IsInf(lp[i], -1) {
			continue
		}
		if math.IsInf(lq[i], -1) {
			return math.Inf(1)
		}
		total += math.Exp(lambda*lp[i]+(1-lambda)*lq[i]) * math.Cosh(us[i]) * du
	}
	return math.Log(total) / (lambda - 1)
}

// svtSpec is one Sparse Vector Technique of Lyu, Su and Li with threshold
// T, threshold noise ρ ~ Lap(bRho), query noise ν_i ~ Lap(bNu) (bNu = 0:
// none) and cut-off c (0: none).
type svtSpec struct {
	T, bRho, bNu float64
	c            int
}

// laplaceCDF is P(Lap(b) ≤ z).
func laplaceCDF(z, b float64) float64 {
	if z < 0 {
		return 0.5 * math.Exp(z/b)
	}
	return 1 - 0.5*math.Exp(-z/b)
}

// below is P(q + ν < T + r), the probability of ⊥ for answer q at
// threshold noise r.
func (s svtSpec) below(q, r float64) float64 {
	if s.bNu == 0 {
		if q < s.T+r {
			return 1
		}
		return 0
	}
	return laplaceCDF(s.T+r-q, s.bNu)
}

// integrate returns ∫ f_ρ(r) g(r) dr for an integrand g smooth between the
// breakpoints r = 0 and r = q_i − T: 16-point Gauss–Legendre on pieces no
// longer than a quarter of the smaller noise scale, over ±(60 scales) and
// the breakpoints.
func (s svtSpec) integrate(q []float64, g func(r float64) float64) float64 {
	scale := s.bRho
	if s.bNu > 0 {
		scale = math.Min(scale, s.bNu)
	}
	reach := 60 * math.Max(s.bRho, s.bNu)
	cuts := []float64{0}
	for _, v := range q {
		reach = math.Max(reach, math.Abs(v-s.T)+60*s.bRho)
		cuts = append(cuts, v-s.T)
	}
	cuts = append(cuts, -reach, reach)
	sort.Float64s(cuts)
	f := func(r float64) float64 { return math.Exp(-math.Abs(r)/s.bRho) / (2 * s.bRho) * g(r) }
	total := 0.0
	for k := 0; k+1 < len(cuts); k++ {
		lo, hi := cuts[k], cuts[k+1]
		if hi <= lo {
			continue
		}
		pieces := int(math.Min(4000, math.Ceil((hi-lo)/(scale/4))))
		h := (hi - lo) / float64(pieces)
		for p := 0; p < pieces; p++ {
			total += quad.Fixed(f, lo+float64(p)*h, lo+float64(p+1)*h, 16, quad.Legendre{}, 0)
		}
	}
	return total
}

// patterns returns the probability of every answer pattern of s on the
// answers q ('T' for ⊤, 'F' for ⊥; a run stops right after its c-th ⊤).
func (s svtSpec) patterns(q []float64) map[string]float64 {
	out := map[string]float64{}
	var walk func(prefix []byte, tops int)
	walk = func(prefix []byte, tops int) {
		if len(prefix) == len(q) || (s.c > 0 && tops == s.c) {
			pat := append([]byte(nil), prefix...)
			out[string(pat)] = s.integrate(q, func(r float64) float64 {
				p := 1.0
				for i, a := range pat {
					b := s.below(q[i], r)
					if a == 'T' {
						b = 1 - b
					}
					p *= b
				}
				return p
			})
			return
		}
		walk(append(prefix, 'F'), tops)
		walk(append(prefix, 'T'), tops+1)
	}
	walk(nil, 0)
	return out
}

// patternLoss is the exact pure-DP loss between the pattern laws of s on
// q and q′: max over patterns of |ln P_q − ln P_q′| (+Inf for a pattern
// one side alone produces), and the total probability of each side (a
// check: 1).
func (s svtSpec) patternLoss(q, qq []float64) (loss, massQ, massQQ float64) {
	p, pp := s.patterns(q), s.patterns(qq)
	for k, v := range p {
		massQ += v
		w := pp[k]
		switch {
		case v > 0 && w > 0:
			loss = math.Max(loss, math.Abs(math.Log(v)-math.Log(w)))
		case v > 0 || w > 0:
			loss = math.Inf(1)
		}
	}
	for _, w := range pp {
		massQQ += w
	}
	return loss, massQ, massQQ
}

// svt3Loss is the exact pure-DP loss of SVT3 with cut-off 1 on q and q′
// (equal lengths), whose outputs are ⊥ everywhere, or ⊥ up to position j
// and ⊤ there with the noisy answer a = q_j + ν_j, of density
//
//	g_j(a) = f_ν(a − q_j) · ∫_{r ≤ a − T} f_ρ(r) Π_{i<j} P(q_i + ν_i < T + r) dr,
//
// taken over a grid of a; and the pattern alone's loss.
func (s svtSpec) svt3Loss(q, qq []float64) (loss, pattern float64) {
	pattern, _, _ = s.patternLoss(q, qq)
	none := func(q []float64) float64 {
		return s.integrate(q, func(r float64) float64 {
			p := 1.0
			for _, v := range q {
				p *= s.below(v, r)
			}
			return p
		})
	}
	loss = math.Abs(math.Log(none(q)) - math.Log(none(qq)))
	reach := 40 * math.Max(s.bRho, s.bNu)
	const points = 400
	for j := range q {
		for k := 0; k <= points; k++ {
			a := -reach + 2*reach*float64(k)/points
			g := func(q []float64) float64 {
				upTo := func(r float64) float64 {
					if r > a-s.T {
						return 0
					}
					p := 1.0
					for _, v := range q[:j] {
						p *= s.below(v, r)
					}
					return p
				}
				return math.Exp(-math.Abs(a-q[j])/s.bNu) / (2 * s.bNu) * s.integrate(append(append([]float64(nil), q...), a), upTo)
			}
			gq, gqq := g(q), g(qq)
			if gq > 0 && gqq > 0 {
				loss = math.Max(loss, math.Abs(math.Log(gq)-math.Log(gqq)))
			}
		}
	}
	return loss, pattern
}
