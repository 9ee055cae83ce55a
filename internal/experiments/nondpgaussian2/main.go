// Command nondpgaussian2 computes, by quadrature, the Rényi divergences of
// mechanisms.NonDPGaussian2 between add/remove neighbours with records in
// {0, 1}, and compares their maximum with the mechanism's ClaimedRDP. It
// tells the power experiment which parameters make the claim false: the
// mechanism has no closed form ([KMRS24] gives none).
//
// On a dataset of n records with mean μ the output is μ + (c/ñ)·Z with
// ñ = max(10⁻¹², n + τ), τ ~ Lap(b), b = 2/ε, c = 2κ/ε, κ = √(2 ln(1.25/δ))
// and Z standard normal, so its density is
//
//	f(y) = P₀·φ(y; μ, c·10¹²) + ∫₀^∞ Lap(t − n; b) φ(y; μ, c/t) dt,
//	P₀ = P(n + τ ≤ 10⁻¹²) = ½ e^{−(n − 10⁻¹²)/b},
//
// with φ(·; μ, s) the normal density of mean μ and standard deviation s.
// The t-integral is taken by composite Simpson in s = ln t over
// [ln 10⁻¹², ln(n_max + 60b)] (Laplace mass beyond is below e⁻⁶⁰), and
//
//	D_λ(f_X ‖ f_Y) = 1/(λ−1) · ln ∫ f_X^λ f_Y^{1−λ} dy
//
// on the asinh scale y = sinh u, u ∈ [−45, 45] (the P₀ part reaches
// |y| ≈ 10¹⁶), by the rectangle rule. Every density's mass is printed as a
// check. Datasets: every (n, sum) with 1 ≤ n ≤ nmax+1 (the output depends
// on nothing else), neighbours: one record removed, both directions.
//
//	go run ./internal/experiments/nondpgaussian2 -eps 1
//	go run ./internal/experiments/nondpgaussian2 -eps 0.01
package main

import (
	"flag"
	"fmt"
	"math"
	"time"

	"github.com/dptest/dptest/mechanisms"
)

// law is the output law of a dataset: its size and mean.
type law struct {
	n  int
	mu float64
}

// model holds the parameters and the quadrature rule in s = ln t.
type model struct {
	b, c     float64
	s, w     []float64 // Simpson nodes and weights in s = ln t
	minCount float64
}

func newModel(eps, delta float64, nmax, nodes int) model {
	kappa := math.Sqrt(2 * math.Log(1.25/delta))
	m := model{b: 2 / eps, c: 2 * kappa / eps, minCount: 1e-12}
	lo, hi := math.Log(m.minCount), math.Log(float64(nmax)+60*m.b)
	nodes += nodes % 2 // Simpson needs an even number of intervals
	h := (hi - lo) / float64(nodes)
	for i := 0; i <= nodes; i++ {
		w := 2.0
		switch {
		case i == 0 || i == nodes:
			w = 1
		case i%2 == 1:
			w = 4
		}
		m.s = append(m.s, lo+float64(i)*h)
		m.w = append(m.w, w*h/3)
	}
	return m
}

func normal(y, mean, sd float64) float64 {
	z := (y - mean) / sd
	return math.Exp(-0.5*z*z) / (sd * math.Sqrt(2*math.Pi))
}

// density returns f(y) for the law l.
func (m model) density(l law, y float64) float64 {
	n := float64(l.n)
	f := 0.5 * math.Exp(-(n-m.minCount)/m.b) * normal(y, l.mu, m.c/m.minCount)
	for i, s := range m.s {
		t := math.Exp(s) // dt = t ds
		f += m.w[i] * t * math.Exp(-math.Abs(t-n)/m.b) / (2 * m.b) * normal(y, l.mu, m.c/t)
	}
	return f
}

func main() {
	eps := flag.Float64("eps", 1, "ε of NonDPGaussian2")
	delta := flag.Float64("delta", 1e-5, "δ of NonDPGaussian2")
	nmax := flag.Int("nmax", 3, "largest size of the smaller dataset of a pair")
	points := flag.Int("u", 3000, "grid points in u = asinh y")
	nodes := flag.Int("s", 40000, "Simpson intervals in s = ln t")
	flag.Parse()
	start := time.Now()
	mech := mechanisms.NonDPGaussian2{Eps: *eps, Delta: *delta}
	m := newModel(*eps, *delta, *nmax+1, *nodes)

	const ulo, uhi = -45.0, 45.0
	du := (uhi - ulo) / float64(*points)
	var laws []law
	for n := 1; n <= *nmax+1; n++ {
		for s := 0; s <= n; s++ {
			laws = append(laws, law{n, float64(s) / float64(n)})
		}
	}
	fmt.Printf("# nondpgaussian2: ε=%v δ=%v sizes 1..%d, u grid %d, s intervals %d, %s\n",
		*eps, *delta, *nmax+1, *points, *nodes, time.Now().UTC().Format(time.RFC3339))
	dens := map[law][]float64{}
	worstMass := 0.0
	for _, l := range laws {
		v := make([]float64, *points+1)
		mass := 0.0
		for i := range v {
			u := ulo + float64(i)*du
			v[i] = m.density(l, math.Sinh(u)) * math.Cosh(u)
			mass += v[i] * du
		}
		dens[l] = v
		worstMass = max(worstMass, math.Abs(mass-1))
	}
	fmt.Printf("largest |mass − 1| of the %d densities: %.2g\n", len(laws), worstMass)
	fmt.Printf("%5s %12s %12s %8s  %s\n", "λ", "max D_λ", "ClaimedRDP", "ratio", "attained at D(P‖Q)")
	for _, lam := range []float64{1.5, 2, 5} {
		best, bp, bq := math.Inf(-1), law{}, law{}
		for _, x := range laws {
			for _, y := range laws {
				removed := x.mu*float64(x.n) - y.mu*float64(y.n)
				if y.n != x.n-1 || math.Abs(removed) > 1e-9 && math.Abs(removed-1) > 1e-9 {
					continue
				}
				for _, pq := range [][2]law{{x, y}, {y, x}} {
					p, q := dens[pq[0]], dens[pq[1]]
					integral := 0.0
					for i := range p {
						if p[i] > 0 {
							integral += math.Exp(lam*math.Log(p[i])+(1-lam)*math.Log(q[i])) * du
						}
					}
					if d := math.Log(integral) / (lam - 1); d > best {
						best, bp, bq = d, pq[0], pq[1]
					}
				}
			}
		}
		claim := mech.ClaimedRDP(lam)
		fmt.Printf("%5g %12.6g %12.6g %8.4g  P: n=%d, mean %.3g; Q: n=%d, mean %.3g\n",
			lam, best, claim, best/claim, bp.n, bp.mu, bq.n, bq.mu)
	}
	fmt.Printf("# done in %.0f s\n", time.Since(start).Seconds())
}
