package mechanisms

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// svtRun runs the common SVT loop on the answers x with threshold t. bRho is
// the scale of ρ, bNu that of ν_i (0: no query noise), bRedraw > 0 redraws ρ
// with that scale after every ⊤, and cut ≥ 1 stops after cut ⊤s (0: never).
// When values is non-nil the noisy answer q_i + ν_i of every ⊤ is appended to
// it. The order of draws is ρ, then ν_1, ν_2, … (and any redrawn ρ right after
// the ⊤ that caused it).
func svtRun(r *rand.Rand, x []float64, t, bRho, bNu, bRedraw float64, cut int, values *[]float64) string {
	var out strings.Builder
	out.Grow(len(x))
	rho := laplaceNoise(r, bRho)
	count := 0
	for _, q := range x {
		v := q
		if bNu > 0 {
			v += laplaceNoise(r, bNu)
		}
		if v < t+rho {
			out.WriteByte('F')
			continue
		}
		out.WriteByte('T')
		if values != nil {
			*values = append(*values, v)
		}
		count++
		if cut > 0 && count >= cut {
			break
		}
		if bRedraw > 0 {
			rho = laplaceNoise(r, bRedraw)
		}
	}
	return out.String()
}

// mustThreshold panics unless the threshold T is finite (zero is valid).
func mustThreshold(mech string, t float64) {
	if math.IsNaN(t) || math.IsInf(t, 0) {
		panic(fmt.Sprintf("mechanisms: %s.T must be finite, got %v", mech, t))
	}
}

// mustCutoff panics unless the cut-off c is at least 1.
func mustCutoff(mech string, c int) {
	if c < 1 {
		panic(fmt.Sprintf("mechanisms: %s.C must be at least 1, got %d", mech, c))
	}
}

// SVT1 is Algorithm 1 of Lyu, Su and Li (their proposed SVT). This comment
// also holds what the six SVT types share.
//
// SVT1…SVT6 are the Sparse Vector Techniques of Lyu, Su and Li,
// "Understanding the Sparse Vector Technique for Differential Privacy"
// (PVLDB 10(6), 2017), Algorithms 1-6 and their Table 1, cited as [AKD22]
// [33] and [KMRS24] [31]; [AKD22], Section V audits SVT2 and SVT4-SVT6 with
// T = 1 and c = 1. The dataset x is the sequence of query answers
// q_1, q_2, … (in order), each of sensitivity Δ = 1: neighbouring inputs are
// answer sequences of the same length with |q_i − q′_i| ≤ 1 for every i.
// Every variant draws a noisy threshold ρ ~ Lap(b_ρ) once, answers ⊤ for
// query i when
//
//	q_i + ν_i ≥ T + ρ
//
// (ν_i ~ Lap(b_ν) fresh for each query, or ν_i = 0) and ⊥ otherwise, and
// variants with a cut-off c stop right after the c-th ⊤. The output is the
// answer sequence as a string over {'T', 'F'} ('T' = ⊤, 'F' = ⊥): it has
// len(x) letters, or fewer when the run stopped at the cut-off, so it is a
// comparable, discrete value. SVT3 also releases the noisy answer of each ⊤;
// see [SVT3Output]. With ε₁ = ε/2 and ε₂ = ε − ε₁ unless stated otherwise:
//
//	alg.  b_ρ        b_ν         cut-off  privacy (Epsilon)
//	SVT1  Δ/ε₁       2cΔ/ε₂      c        ε
//	SVT2  cΔ/ε₁ (*)  2cΔ/ε₁      c        ε
//	SVT3  Δ/ε₁       cΔ/ε₂       c        ∞    (⊤ answers carry q_i + ν_i)
//	SVT4  Δ/ε₁ (**)  Δ/ε₂        c        (1+6c)/4 · ε
//	SVT5  Δ/ε₁       (none)      none     ∞
//	SVT6  Δ/ε₁       Δ/ε₂        none     ∞
//
//	(*)  SVT2 redraws ρ ~ Lap(cΔ/ε₂) after every ⊤.
//	(**) SVT4 uses ε₁ = ε/4, ε₂ = ε − ε₁ = 3ε/4.
//
// The finite levels are exact suprema of the privacy loss, not attained:
// with T = 0, c = 1, q = (0, …, 0, 1) and q′ = (1, …, 1, 0) of length m+1,
// the pattern ⊥^m ⊤ has ln P_q/P_q′ → 1/b_ρ + 2c/b_ν as m → ∞, because the
// m answers ⊥ push ρ into its right tail, where every Laplace ratio is at
// its bound; for c > 1 the pattern (⊥^m ⊤)^c does the same (for SVT2, the
// sum over its c thresholds). The draws come from r in the order ρ, ν_1,
// ν_2, …, with SVT2's new ρ right after the ⊤ that caused it.
//
// SVT1 itself:
//
//	ε₁ = ε/2, ρ = Lap(Δ/ε₁), ε₂ = ε − ε₁, ν_i = Lap(2cΔ/ε₂);
//	⊤ if q_i + ν_i ≥ T + ρ, stop after c ⊤s.
//
// It is ε-DP (their Theorem 2), and ε is the exact supremum. Eps must be
// positive and finite ("mechanisms: SVT1.Eps must be positive and finite,
// got …"), C at least 1 ("mechanisms: SVT1.C must be at least 1, got …"),
// T finite ("mechanisms: SVT1.T must be finite, got …"); the zero value is
// therefore invalid, but T = 0 is a valid threshold. Sample and Epsilon
// check them.
type SVT1 struct {
	Eps float64 // ε > 0
	T   float64 // threshold T
	C   int     // cut-off c ≥ 1
}

func (m SVT1) check() {
	mustPositive("SVT1", "Eps", m.Eps)
	mustThreshold("SVT1", m.T)
	mustCutoff("SVT1", m.C)
}

// Sample returns the answer pattern of SVT1 on the query answers x.
func (m SVT1) Sample(r *rand.Rand, x []float64) string {
	m.check()
	e1 := m.Eps / 2
	e2 := m.Eps - e1
	c := float64(m.C)
	return svtRun(r, x, m.T, 1/e1, 2*c/e2, 0, m.C, nil)
}

// Epsilon returns ε.
func (m SVT1) Epsilon() float64 { m.check(); return m.Eps }

// SVT2 is Algorithm 2 of Lyu, Su and Li (the SVT of Dwork and Roth's book):
//
//	ε₁ = ε/2, ρ = Lap(cΔ/ε₁), ε₂ = ε − ε₁, ν_i = Lap(2cΔ/ε₁);
//	⊤ if q_i + ν_i ≥ T + ρ, then ρ = Lap(cΔ/ε₂); stop after c ⊤s.
//
// It is ε-DP, and ε is the exact supremum (see [SVT1]). [AKD22],
// Section V audits it with T = 1, c = 1. Parameter checks and panics are
// those of [SVT1], with "SVT2" in the messages.
type SVT2 struct {
	Eps float64 // ε > 0
	T   float64 // threshold T
	C   int     // cut-off c ≥ 1
}

func (m SVT2) check() {
	mustPositive("SVT2", "Eps", m.Eps)
	mustThreshold("SVT2", m.T)
	mustCutoff("SVT2", m.C)
}

// Sample returns the answer pattern of SVT2 on the query answers x.
func (m SVT2) Sample(r *rand.Rand, x []float64) string {
	m.check()
	e1 := m.Eps / 2
	e2 := m.Eps - e1
	c := float64(m.C)
	return svtRun(r, x, m.T, c/e1, 2*c/e1, c/e2, m.C, nil)
}

// Epsilon returns ε.
func (m SVT2) Epsilon() float64 { m.check(); return m.Eps }

// SVT3 is Algorithm 3 of Lyu, Su and Li (from Roth's lecture notes), which
// releases the noisy answer of every ⊤:
//
//	ε₁ = ε/2, ρ = Lap(Δ/ε₁), ε₂ = ε − ε₁, ν_i = Lap(cΔ/ε₂);
//	if q_i + ν_i ≥ T + ρ output q_i + ν_i, else ⊥; stop after c ⊤s.
//
// It is not ε′-DP for any finite ε′ (their Theorem 3), so Epsilon returns
// +Inf: with c = 1, q = (0^m, q_{m+1}), q′ = (1^m, q_{m+1}), the output "m
// answers ⊥, then ⊤ with value a" has, for every a ≤ 0, the density ratio
//
//	ln f_q/f_q′ = m ε₂/c = mε/(2c)
//
// (knowing a caps ρ at a − T, so the m answers ⊥ each cost ε₂/c), which is
// unbounded in m. Its output mixes a discrete pattern and real values, so it
// is neither a discrete nor a continuous mechanism ([AKD22], Section III);
// Sample returns both in a comparable [SVT3Output]. The pattern alone,
// [SVT3.SamplePattern], is SVT1 with half of SVT1's query noise and is
// exactly (3/2)ε-DP ([SVT3.PatternEpsilon]: ε₁ + 2ε₂).
//
// Parameter checks and panics are those of [SVT1], with "SVT3" in the
// messages.
type SVT3 struct {
	Eps float64 // ε > 0
	T   float64 // threshold T
	C   int     // cut-off c ≥ 1
}

// SVT3Output is one output of [SVT3]: the answer pattern and the noisy
// answers released with its ⊤s. It is comparable (two strings), so it can be
// counted or used as a map key, though its values make almost every output
// distinct.
type SVT3Output struct {
	// Pattern is the answer sequence over {'T', 'F'}, exactly what the other
	// SVTs return.
	Pattern string
	// Values holds the noisy answers q_i + ν_i of the ⊤s in Pattern, in
	// order, each formatted by strconv.FormatFloat(v, 'g', -1, 64) (which
	// round-trips exactly) and separated by single spaces; "" when there is
	// no ⊤. [SVT3Output.Noisy] parses it.
	Values string
}

// Noisy returns the noisy answers of o's ⊤s as float64s, one per 'T' in
// o.Pattern. It panics with "mechanisms: malformed SVT3Output.Values …" on a
// Values string that Sample cannot have produced.
func (o SVT3Output) Noisy() []float64 {
	if o.Values == "" {
		return nil
	}
	fields := strings.Split(o.Values, " ")
	vs := make([]float64, len(fields))
	for i, f := range fields {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			panic(fmt.Sprintf("mechanisms: malformed SVT3Output.Values %q: %v", o.Values, err))
		}
		vs[i] = v
	}
	return vs
}

func (m SVT3) check() {
	mustPositive("SVT3", "Eps", m.Eps)
	mustThreshold("SVT3", m.T)
	mustCutoff("SVT3", m.C)
}

func (m SVT3) run(r *rand.Rand, x []float64, values *[]float64) string {
	m.check()
	e1 := m.Eps / 2
	e2 := m.Eps - e1
	c := float64(m.C)
	return svtRun(r, x, m.T, 1/e1, c/e2, 0, m.C, values)
}

// Sample returns the pattern and the noisy ⊤ answers of SVT3 on x.
func (m SVT3) Sample(r *rand.Rand, x []float64) SVT3Output {
	var vs []float64
	p := m.run(r, x, &vs)
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.FormatFloat(v, 'g', -1, 64)
	}
	return SVT3Output{Pattern: p, Values: strings.Join(parts, " ")}
}

// SamplePattern returns only the answer pattern of SVT3 on x, the discrete
// post-processing of Sample: for the same state of r it returns
// Sample(r, x).Pattern and consumes the same random numbers.
func (m SVT3) SamplePattern(r *rand.Rand, x []float64) string {
	return m.run(r, x, nil)
}

// Epsilon returns +Inf: SVT3 is not differentially private.
func (m SVT3) Epsilon() float64 { m.check(); return math.Inf(1) }

// PatternEpsilon returns (3/2)ε, the exact pure-DP level of SamplePattern:
// ε₁ + 2c·ε₂/c with ρ = Lap(Δ/ε₁), ν_i = Lap(cΔ/ε₂), by the argument of Lyu,
// Su and Li's Theorem 2 for SVT1 (whose query noise is twice as large), and
// approached by the same ⊥^m ⊤ sequences.
func (m SVT3) PatternEpsilon() float64 { m.check(); return 1.5 * m.Eps }

// SVT4 is Algorithm 4 of Lyu, Su and Li (from Lee and Clifton):
//
//	ε₁ = ε/4, ρ = Lap(Δ/ε₁), ε₂ = ε − ε₁, ν_i = Lap(Δ/ε₂);
//	⊤ if q_i + ν_i ≥ T + ρ, stop after c ⊤s.
//
// It is not ε-DP as claimed but ((1+6c)/4)ε-DP (their Theorem 4; [KMRS24],
// Section 6.1), and that level is the exact supremum: ε₁ + 2cε₂ =
// ε/4 + 2c·3ε/4. [AKD22], Section V audits a rescaled SVT4 that meets its
// target ε₀; this type is the original, so use Eps = 4ε₀/(1+6c) for that.
// Parameter checks and panics are those of [SVT1], with "SVT4" in the
// messages.
type SVT4 struct {
	Eps float64 // ε > 0
	T   float64 // threshold T
	C   int     // cut-off c ≥ 1
}

func (m SVT4) check() {
	mustPositive("SVT4", "Eps", m.Eps)
	mustThreshold("SVT4", m.T)
	mustCutoff("SVT4", m.C)
}

// Sample returns the answer pattern of SVT4 on the query answers x.
func (m SVT4) Sample(r *rand.Rand, x []float64) string {
	m.check()
	e1 := m.Eps / 4
	e2 := m.Eps - e1
	return svtRun(r, x, m.T, 1/e1, 1/e2, 0, m.C, nil)
}

// Epsilon returns the exact level (1 + 6c)ε/4.
func (m SVT4) Epsilon() float64 {
	m.check()
	return (1 + 6*float64(m.C)) * m.Eps / 4
}

// SVT5 is Algorithm 5 of Lyu, Su and Li (from Stoddard et al.), which adds no
// noise to the queries and has no cut-off:
//
//	ε₁ = ε/2, ρ = Lap(Δ/ε₁);  ⊤ if q_i ≥ T + ρ, for every query.
//
// It is not ε′-DP for any finite ε′ (their Theorem 5), so Epsilon returns
// +Inf: for q = (1, 0), q′ = (0, 1) the pattern "TF" has probability
// P(−T < ρ ≤ 1 − T) > 0 under q and 0 under q′. The output always has len(x)
// letters. Eps must be positive and finite ("mechanisms: SVT5.Eps must be
// positive and finite, got …") and T finite ("mechanisms: SVT5.T must be
// finite, got …").
type SVT5 struct {
	Eps float64 // ε > 0
	T   float64 // threshold T
}

func (m SVT5) check() {
	mustPositive("SVT5", "Eps", m.Eps)
	mustThreshold("SVT5", m.T)
}

// Sample returns the answer pattern of SVT5 on the query answers x.
func (m SVT5) Sample(r *rand.Rand, x []float64) string {
	m.check()
	return svtRun(r, x, m.T, 2/m.Eps, 0, 0, 0, nil)
}

// Epsilon returns +Inf: SVT5 is not differentially private.
func (m SVT5) Epsilon() float64 { m.check(); return math.Inf(1) }

// SVT6 is Algorithm 6 of Lyu, Su and Li (from Chen et al.), which has query
// noise but no cut-off:
//
//	ε₁ = ε/2, ρ = Lap(Δ/ε₁), ε₂ = ε − ε₁, ν_i = Lap(Δ/ε₂);
//	⊤ if q_i + ν_i ≥ T + ρ, for every query.
//
// It is not ε′-DP for any finite ε′ (their Theorem 6), so Epsilon returns
// +Inf: for q = (0^m, 1^m), q′ = (1^m, 0^m) the pattern ⊥^m ⊤^m has a log
// probability ratio that grows linearly in m. The output always has len(x)
// letters. Parameter checks and panics are those of [SVT5], with "SVT6" in
// the messages.
type SVT6 struct {
	Eps float64 // ε > 0
	T   float64 // threshold T
}

func (m SVT6) check() {
	mustPositive("SVT6", "Eps", m.Eps)
	mustThreshold("SVT6", m.T)
}

// Sample returns the answer pattern of SVT6 on the query answers x.
func (m SVT6) Sample(r *rand.Rand, x []float64) string {
	m.check()
	e1 := m.Eps / 2
	e2 := m.Eps - e1
	return svtRun(r, x, m.T, 1/e1, 1/e2, 0, 0, nil)
}

// Epsilon returns +Inf: SVT6 is not differentially private.
func (m SVT6) Epsilon() float64 { m.check(); return math.Inf(1) }
