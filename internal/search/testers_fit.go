package search

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"

	"github.com/dptest/dptest/internal/stat"
)

// ClassifierRidge is the weight of the squared coefficients added to the
// classifier's logistic loss, which keeps the fit finite where the two
// datasets' outputs do not overlap.
const ClassifierRidge = 1e-6

// classifierEvent is the event {g = 1} of the classifier tester fitted on
// a screening table, P the bounded side (Y when reverse): the weighted
// Bayes rule per value of a discrete table, weighted logistic regression
// on the cells of a partition (see [Classifier]).
func classifierEvent(t *stat.Table, eps float64, reverse bool) stat.Grouping {
	wp, wq := 1/(1+math.Exp(eps)), math.Exp(eps)/(1+math.Exp(eps))
	np, nq := float64(t.NP), float64(t.NQ)
	side := func(c stat.Cell) (a, b float64) {
		if reverse {
			return float64(c.Q) / nq, float64(c.P) / np
		}
		return float64(c.P) / np, float64(c.Q) / nq
	}
	if t.Partition == nil {
		g := stat.Grouping{Groups: 2, OfValue: make(map[any]int, len(t.Cells)), Unlisted: 1}
		for _, c := range t.Cells {
			a, b := side(c)
			g.OfValue[c.Value] = 1
			if wp*a > wq*b {
				g.OfValue[c.Value] = 0
			}
		}
		return g
	}
	g := stat.Grouping{Groups: 2, Partition: t.Partition, OfCell: make([]int, t.Partition.Cells())}
	for i := range g.OfCell {
		g.OfCell[i] = 1
	}
	var xs, as, bs []float64
	for _, c := range t.Cells {
		a, b := side(c)
		xs = append(xs, t.Partition.Point(c.Value.(int)))
		as, bs = append(as, wp*a), append(bs, wq*b)
	}
	phi := chebyshevFeatures(xs, as, bs)
	beta := fitLogistic(phi, as, bs)
	for i, c := range t.Cells {
		if dot(beta, phi[i]) > 0 {
			g.OfCell[c.Value.(int)] = 0
		}
	}
	return g
}

// chebyshevFeatures are 1, T₁(u), …, T₄(u) of u = tanh z at every point,
// z the point centred on the weighted median and scaled by the weighted
// interquartile range of the points (weights a + b).
func chebyshevFeatures(xs, as, bs []float64) [][]float64 {
	ws := make([]float64, len(xs))
	for i := range xs {
		ws[i] = as[i] + bs[i]
	}
	q := weightedQuantiles(xs, ws, 0.25, 0.5, 0.75)
	centre, scale := q[1], q[2]-q[0]
	if !(scale > 0) {
		scale = 1
	}
	phi := make([][]float64, len(xs))
	for i, x := range xs {
		u := math.Tanh((x - centre) / scale)
		phi[i] = []float64{1, u, 2*u*u - 1, 4*u*u*u - 3*u, 8*u*u*u*u - 8*u*u + 1}
	}
	return phi
}

// weightedQuantiles returns the qs-quantiles of the points xs weighted
// by ws: the least x whose cumulative weight reaches q of the total.
func weightedQuantiles(xs, ws []float64, qs ...float64) []float64 {
	idx := make([]int, len(xs))
	total := 0.0
	for i := range idx {
		idx[i], total = i, total+ws[i]
	}
	slices.SortFunc(idx, func(i, j int) int { return cmp.Compare(xs[i], xs[j]) })
	out := make([]float64, len(qs))
	for k, q := range qs {
		out[k] = xs[idx[len(idx)-1]]
		acc := 0.0
		for _, i := range idx {
			if acc += ws[i]; acc >= q*total {
				out[k] = xs[i]
				break
			}
		}
	}
	return out
}

// fitLogistic minimises Σ_i a_i·softplus(−s_i) + b_i·softplus(s_i) +
// ClassifierRidge·|β|², s_i = β·φ_i (label 1 with weight a_i, label 0
// with weight b_i), by L-BFGS from β = 0; the zero vector if it fails.
func fitLogistic(phi [][]float64, as, bs []float64) []float64 {
	k := len(phi[0])
	problem := optimize.Problem{
		Func: func(beta []float64) float64 {
			loss := 0.0
			for i, f := range phi {
				s := dot(beta, f)
				loss += as[i]*softplus(-s) + bs[i]*softplus(s)
			}
			return loss + ClassifierRidge*dot(beta, beta)
		},
		Grad: func(grad, beta []float64) {
			for j := range grad {
				grad[j] = 2 * ClassifierRidge * beta[j]
			}
			for i, f := range phi {
				s := dot(beta, f)
				w := -as[i]*logistic(-s) + bs[i]*logistic(s)
				for j := range grad {
					grad[j] += w * f[j]
				}
			}
		},
	}
	res, err := optimize.Minimize(problem, make([]float64, k), nil, &optimize.LBFGS{})
	if res == nil || (err != nil && res.X == nil) {
		return make([]float64, k)
	}
	return res.X
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// softplus is ln(1 + eˣ), without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// logistic is 1/(1 + e⁻ˣ).
func logistic(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}
