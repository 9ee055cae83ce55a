package numeric

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/integrate/quad"
)

// legendre64 holds the nodes and weights of the 64-point Gauss–Legendre rule
// on [−1, 1], computed once (gonum computes them afresh on every call of
// quad.Fixed); the table never changes after.
var legendre64 = sync.OnceValues(func() (x, w []float64) {
	x, w = make([]float64, 64), make([]float64, 64)
	quad.Legendre{}.FixedLocations(x, w, -1, 1)
	return x, w
})

// Integrate returns ∫ₐᵇ f(t) dt by composite Gauss–Legendre quadrature: the
// interval is cut into pieces equal sub-intervals and each is integrated with
// a 64-point Legendre rule (nodes from gonum integrate/quad). For a smooth integrand the
// error falls geometrically in the number of pieces; kinks (the Laplace
// density at its mode) should be placed at piece boundaries by the caller,
// for example with [IntegrateBreaks].
func Integrate(f func(float64) float64, a, b float64, pieces int) float64 {
	if pieces < 1 {
		pieces = 1
	}
	nodes, weights := legendre64()
	w := (b - a) / float64(pieces)
	s := 0.0
	for i := 0; i < pieces; i++ {
		lo := a + float64(i)*w
		hi := lo + w
		if i == pieces-1 {
			hi = b
		}
		half, mid := (hi-lo)/2, (hi+lo)/2
		for j, x := range nodes {
			s += half * weights[j] * f(mid+half*x)
		}
	}
	return s
}

// IntegrateBreaks integrates f over [breaks[0], breaks[len−1]], splitting at
// every break point (where f may have a kink) and using pieces composite
// Legendre panels between consecutive breaks.
func IntegrateBreaks(f func(float64) float64, breaks []float64, pieces int) float64 {
	s := 0.0
	for i := 0; i+1 < len(breaks); i++ {
		if breaks[i+1] > breaks[i] {
			s += Integrate(f, breaks[i], breaks[i+1], pieces)
		}
	}
	return s
}

// LogIntegrateBreaks returns log ∫ exp(g(t)) dt over the break points, for an
// integrand given by its logarithm g. The integrand is rescaled by
// exp(−shift) before integration, with shift the largest value of g seen on a
// coarse scan, so that integrals of size e^±700 stay representable.
func LogIntegrateBreaks(g func(float64) float64, breaks []float64, pieces int) float64 {
	shift := math.Inf(-1)
	lo, hi := breaks[0], breaks[len(breaks)-1]
	const scan = 4096
	for i := 0; i <= scan; i++ {
		if v := g(lo + (hi-lo)*float64(i)/scan); v > shift {
			shift = v
		}
	}
	for _, b := range breaks {
		if v := g(b); v > shift {
			shift = v
		}
	}
	if math.IsInf(shift, -1) {
		return shift
	}
	v := IntegrateBreaks(func(t float64) float64 { return math.Exp(g(t) - shift) }, breaks, pieces)
	return shift + math.Log(v)
}
