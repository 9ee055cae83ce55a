package mechanisms

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// svtRef describes an SVT variant by its noise scales, written in the tests
// from Lyu, Su and Li's Algorithms 1-6 (Δ = 1), independently of svt.go.
type svtRef struct {
	name    string
	bRho    float64 // scale of the first noisy threshold ρ
	bRedraw float64 // scale of the ρ redrawn after each ⊤ (0: never)
	bNu     float64 // scale of the query noise ν_i (0: none)
	cut     int     // cut-off (0: none)
	t       float64 // threshold T
	sample  func(r *rand.Rand, x []float64) string
	eps     float64 // Epsilon() as documented
}

func svtRefs(eps, t float64, c int) []svtRef {
	cf := float64(c)
	e1, e2 := eps/2, eps/2
	s1 := SVT1{Eps: eps, T: t, C: c}
	s2 := SVT2{Eps: eps, T: t, C: c}
	s3 := SVT3{Eps: eps, T: t, C: c}
	s4 := SVT4{Eps: eps, T: t, C: c}
	s5 := SVT5{Eps: eps, T: t}
	s6 := SVT6{Eps: eps, T: t}
	return []svtRef{
		{"SVT1", 1 / e1, 0, 2 * cf / e2, c, t, s1.Sample, eps},
		{"SVT2", cf / e1, cf / e2, 2 * cf / e1, c, t, s2.Sample, eps},
		{"SVT3 pattern", 1 / e1, 0, cf / e2, c, t, s3.SamplePattern, 1.5 * eps},
		{"SVT4", 4 / eps, 0, 4 / (3 * eps), c, t, s4.Sample, (1 + 6*cf) * eps / 4},
		{"SVT5", 1 / e1, 0, 0, 0, t, s5.Sample, math.Inf(1)},
		{"SVT6", 1 / e1, 0, 1 / e2, 0, t, s6.Sample, math.Inf(1)},
	}
}

// svtPatterns lists every output the SVT can produce on n queries.
func svtPatterns(n, cut int) []string {
	var out []string
	var rec func(prefix string, tops int)
	rec = func(prefix string, tops int) {
		if cut > 0 && tops == cut {
			out = append(out, prefix)
			return
		}
		if len(prefix) == n {
			out = append(out, prefix)
			return
		}
		rec(prefix+"F", tops)
		rec(prefix+"T", tops+1)
	}
	rec("", 0)
	return out
}

// prob returns the probability of the output pattern on the answers q (see
// svtEval).
func (s svtRef) prob(q []float64, pat string) float64 { return s.on(q).prob(pat) }

// on returns an evaluator of pattern probabilities on the answers q.
func (s svtRef) on(q []float64) *svtEval {
	return &svtEval{s: s, q: q, nodes: map[float64]*svtNodes{}}
}

// svtEval computes pattern probabilities on fixed answers q. The pattern
// splits into segments that share one ρ (a new one after each ⊤ when
// bRedraw > 0), and given ρ = v the answers are independent, query i giving ⊥
// with probability F_ν(T + v − q_i). Without query noise that is an
// indicator and a segment's probability is a Laplace interval probability;
// otherwise it is integrated over v by composite Gauss-Legendre quadrature,
// whose nodes (cut at 0 and every q_i − T) are shared by all patterns.
type svtEval struct {
	s     svtRef
	q     []float64
	nodes map[float64]*svtNodes // by the scale of ρ
}

// svtNodes holds, for one scale b of ρ, the quadrature weights times the
// density of ρ at every node v_k, and F_ν(T + v_k − q_i), 1 − F_ν(…).
type svtNodes struct {
	w     []float64
	f, sf [][]float64
}

func (e *svtEval) nodesFor(b float64) *svtNodes {
	if n, ok := e.nodes[b]; ok {
		return n
	}
	s := e.s
	breaks := []float64{0}
	spread := 0.0
	for _, qi := range e.q {
		breaks = append(breaks, qi-s.t)
		spread = math.Max(spread, math.Abs(qi-s.t))
	}
	l := 60*math.Max(b, s.bNu) + spread
	vs, ws := glNodes(-l, l, breaks, 3*math.Min(b, s.bNu))
	n := &svtNodes{w: ws, f: make([][]float64, len(e.q)), sf: make([][]float64, len(e.q))}
	for k, v := range vs {
		n.w[k] *= laplacePDF(v, 0, b)
	}
	for i, qi := range e.q {
		n.f[i], n.sf[i] = make([]float64, len(vs)), make([]float64, len(vs))
		for k, v := range vs {
			z := s.t + v - qi
			n.f[i][k], n.sf[i][k] = laplaceCDF(z, 0, s.bNu), laplaceCDF(-z, 0, s.bNu)
		}
	}
	e.nodes[b] = n
	return n
}

func (e *svtEval) prob(pat string) float64 {
	s, q := e.s, e.q
	if len(pat) > len(q) {
		return 0
	}
	tops := strings.Count(pat, "T")
	if len(pat) < len(q) && !(s.cut > 0 && tops == s.cut && strings.HasSuffix(pat, "T")) {
		return 0
	}
	if s.cut > 0 && tops > s.cut {
		return 0
	}
	var segs []string
	if s.bRedraw > 0 {
		start := 0
		for i := range pat {
			if pat[i] == 'T' {
				segs = append(segs, pat[start:i+1])
				start = i + 1
			}
		}
		if start < len(pat) {
			segs = append(segs, pat[start:])
		}
	} else {
		segs = []string{pat}
	}
	p, off := 1.0, 0
	for k, seg := range segs {
		b := s.bRho
		if k > 0 {
			b = s.bRedraw
		}
		p *= e.segProb(off, seg, b)
		off += len(seg)
	}
	return p
}

// segProb returns the probability of the answers seg to the queries off,
// off+1, … under one ρ ~ Lap(b).
func (e *svtEval) segProb(off int, seg string, b float64) float64 {
	s := e.s
	if s.bNu == 0 {
		// ⊥ iff q_i < T + v, ⊤ iff v ≤ q_i − T: v in (lo, hi].
		lo, hi := math.Inf(-1), math.Inf(1)
		for i := range seg {
			if seg[i] == 'F' {
				lo = math.Max(lo, e.q[off+i]-s.t)
			} else {
				hi = math.Min(hi, e.q[off+i]-s.t)
			}
		}
		if hi <= lo {
			return 0
		}
		return laplaceCDF(hi, 0, b) - laplaceCDF(lo, 0, b)
	}
	n := e.nodesFor(b)
	total := 0.0
	for k, w := range n.w {
		p := w
		for i := range seg {
			if seg[i] == 'F' {
				p *= n.f[off+i][k]
			} else {
				p *= n.sf[off+i][k]
			}
		}
		total += p
	}
	return total
}

// Every SVT's sampler matches the exact pattern probabilities.
func TestSVTSamplers(t *testing.T) {
	// The second vector, all answers at the threshold, makes the answers
	// after a ⊤ depend on whether ρ is redrawn (SVT2).
	for qi, q := range [][]float64{{1, 0, 2, 1, 1.5}, {1, 1, 1, 1, 1}} {
		for _, c := range []int{1, 2} {
			for k, s := range svtRefs(1, 1, c) {
				if s.cut == 0 && c == 2 {
					continue // SVT5 and SVT6 have no cut-off
				}
				pats := svtPatterns(len(q), s.cut)
				p := make([]float64, len(pats))
				index := map[string]int{}
				ev := s.on(q)
				for i, pat := range pats {
					p[i] = ev.prob(pat)
					index[pat] = i
				}
				counts := make([]int, len(pats))
				r := newTestRand(21, uint64(100*qi+10*c+k))
				for range 20000 {
					out := s.sample(r, q)
					i, ok := index[out]
					if !ok || p[i] == 0 {
						t.Fatalf("%s produced output %q of probability 0", s.name, out)
					}
					counts[i]++
				}
				t.Run(s.name, func(t *testing.T) { checkFitsPMF(t, counts, p) })
			}
		}
	}
}

// The finite levels bound the privacy loss of every output on
// Table-I-like neighbouring pairs (Ding et al., as in [AKD22], Section V)
// and are approached by ⊥^m ⊤ sequences, so they are the exact suprema.
func TestSVTEpsilonExact(t *testing.T) {
	ones := []float64{1, 1, 1, 1, 1}
	pairs := [][2][]float64{
		{ones, {2, 1, 1, 1, 1}},            // one above
		{ones, {0, 1, 1, 1, 1}},            // one below
		{ones, {2, 0, 0, 0, 0}},            // one above rest below
		{ones, {0, 2, 2, 2, 2}},            // one below rest above
		{ones, {0, 0, 2, 2, 2}},            // half half
		{ones, {2, 2, 2, 2, 2}},            // all above
		{ones, {0, 0, 0, 0, 0}},            // all below
		{{1, 1, 0, 0, 0}, {0, 0, 1, 1, 1}}, // X shape
	}
	r := newTestRand(31, 32)
	for range 12 {
		var a, b [5]float64
		for i := range a {
			a[i] = float64(r.IntN(3))
			b[i] = a[i] + float64(r.IntN(3)-1)
		}
		pairs = append(pairs, [2][]float64{a[:], b[:]})
	}
	for _, eps := range []float64{0.5, 1.5} {
		for _, c := range []int{1, 2} {
			for _, s := range svtRefs(eps, 1, c)[:4] { // the finite ones
				// The documented level.
				switch s.name {
				case "SVT1":
					require.Equal(t, s.eps, SVT1{Eps: eps, T: 1, C: c}.Epsilon())
				case "SVT2":
					require.Equal(t, s.eps, SVT2{Eps: eps, T: 1, C: c}.Epsilon())
				case "SVT3 pattern":
					require.Equal(t, s.eps, SVT3{Eps: eps, T: 1, C: c}.PatternEpsilon())
				case "SVT4":
					require.InDelta(t, s.eps, SVT4{Eps: eps, T: 1, C: c}.Epsilon(), 1e-15)
				}
				// The limit of the ⊥^m ⊤ sequences equals the level.
				limit := 1/s.bRho + 2*float64(c)/s.bNu
				if s.bRedraw > 0 {
					limit = 1/s.bRho + float64(c-1)/s.bRedraw + 2*float64(c)/s.bNu
				}
				require.InDelta(t, s.eps, limit, 1e-12, "%s c=%d", s.name, c)

				// No output of a Table-I-like pair exceeds the level.
				worst := 0.0
				for _, pr := range pairs {
					ea, eb := s.on(pr[0]), s.on(pr[1])
					for _, pat := range svtPatterns(5, s.cut) {
						pa, pb := ea.prob(pat), eb.prob(pat)
						worst = math.Max(worst, math.Abs(math.Log(pa/pb)))
					}
				}
				assert.LessOrEqual(t, worst, s.eps+1e-9, "%s eps=%v c=%d", s.name, eps, c)

				// (⊥^m ⊤)^c with q = (0^m 1)^c, q′ = (1^m 0)^c, T = 0.
				s.t = 0
				m := 60 / c
				var q, q2 []float64
				pat := ""
				for range c {
					for range m {
						q, q2 = append(q, 0), append(q2, 1)
					}
					q, q2 = append(q, 1), append(q2, 0)
					pat += strings.Repeat("F", m) + "T"
				}
				got := math.Log(s.prob(q, pat) / s.prob(q2, pat))
				assert.LessOrEqual(t, got, s.eps+1e-9, "%s eps=%v c=%d", s.name, eps, c)
				assert.Greater(t, got, s.eps-1e-4, "%s eps=%v c=%d", s.name, eps, c)
			}
		}
	}
}

// SVT3: for c answers, m answers ⊥ followed by ⊤ with value a ≤ 0 have the
// density ratio e^{mε/(2c)} between q = (0^m, 0) and q′ = (1^m, 0): linear in
// m, so no finite ε bounds it.
func TestSVT3NotPrivate(t *testing.T) {
	for _, tc := range []struct {
		eps float64
		c   int
	}{{1, 1}, {0.5, 3}} {
		m3 := SVT3{Eps: tc.eps, T: 0, C: tc.c}
		require.True(t, math.IsInf(m3.Epsilon(), 1))
		bRho, bNu := 2/tc.eps, 2*float64(tc.c)/tc.eps
		a := -0.5
		// ∫_{v ≤ a − T} f_ρ(v) Π_i F_ν(T + v − q_i) dv; the ⊤ query's density
		// f_ν(a − q_{m+1}) is the same on both sides and cancels.
		dens := func(m int, qi float64) float64 {
			f := func(v float64) float64 {
				return laplacePDF(v, 0, bRho) * math.Pow(laplaceCDF(v, qi, bNu), float64(m))
			}
			return integrate(f, a-60*bRho, a, nil, 400)
		}
		for _, m := range []int{1, 4, 16, 64} {
			got := math.Log(dens(m, 0) / dens(m, 1))
			assert.InDelta(t, float64(m)*tc.eps/(2*float64(tc.c)), got, 1e-8, "m=%d", m)
		}
	}
}

// SVT3's values: with one query q, the output is ⊥ or ⊤ with value a, whose
// sub-density is f_ν(a − q) P(ρ ≤ a − T).
func TestSVT3Sampler(t *testing.T) {
	m := SVT3{Eps: 1, T: 0.5, C: 1}
	bRho, bNu := 2.0, 2.0
	q := 0.3
	edges := grid(-3, 8, 0.25)
	cells := make([]float64, len(edges)+2) // ⊥, then ⊤ in (−∞, e_0], …, (e_last, ∞)
	sub := func(a float64) float64 { return laplacePDF(a, q, bNu) * laplaceCDF(a, m.T, bRho) }
	lo := -80.0
	prev := lo
	for i, e := range edges {
		cells[i+1] = integrate(sub, prev, e, []float64{q, m.T}, 4)
		prev = e
	}
	cells[len(edges)+1] = integrate(sub, prev, 80, []float64{q, m.T}, 40)
	top := 0.0
	for _, p := range cells[1:] {
		top += p
	}
	cells[0] = 1 - top
	counts := make([]int, len(cells))
	r := newTestRand(41, 42)
	for range 40000 {
		o := m.Sample(r, []float64{q})
		if o.Pattern == "F" && o.Values == "" {
			counts[0]++
			continue
		}
		vs := o.Noisy()
		if o.Pattern != "T" || len(vs) != 1 || vs[0] < -80 {
			t.Fatalf("impossible output %+v", o)
		}
		counts[1+binIndex(edges, vs[0])]++
	}
	checkFitsPMF(t, counts, cells)

	// Sample and SamplePattern consume the same randomness, and Values
	// round-trips.
	r1, r2 := newTestRand(43, 44), newTestRand(43, 44)
	q5 := []float64{1, 0, 2, 1, 1.5}
	m2 := SVT3{Eps: 1, T: 1, C: 2}
	for range 500 {
		o := m2.Sample(r1, q5)
		require.Equal(t, o.Pattern, m2.SamplePattern(r2, q5))
		vs := o.Noisy()
		require.Len(t, vs, strings.Count(o.Pattern, "T"))
		again := SVT3Output{Pattern: o.Pattern, Values: o.Values}
		require.Equal(t, vs, again.Noisy())
	}
}

// SVT5: "TF" is possible on q = (1, 0) and impossible on q′ = (0, 1).
func TestSVT5NotPrivate(t *testing.T) {
	s := svtRefs(1, 0.3, 1)[4]
	require.Equal(t, "SVT5", s.name)
	assert.Greater(t, s.prob([]float64{1, 0}, "TF"), 0.1)
	assert.Zero(t, s.prob([]float64{0, 1}, "TF"))
	require.True(t, math.IsInf(SVT5{Eps: 1, T: 0.3}.Epsilon(), 1))
	r := newTestRand(51, 52)
	for range 2000 {
		require.NotEqual(t, "TF", SVT5{Eps: 1, T: 0.3}.Sample(r, []float64{0, 1}))
	}
}

// SVT6: the loss of ⊥^m ⊤^m between q = (0^m, 1^m) and q′ = (1^m, 0^m) grows
// without bound.
func TestSVT6NotPrivate(t *testing.T) {
	for _, eps := range []float64{0.5, 1} {
		s := svtRefs(eps, 0.5, 1)[5]
		require.Equal(t, "SVT6", s.name)
		require.True(t, math.IsInf(SVT6{Eps: eps, T: 0.5}.Epsilon(), 1))
		prev := 0.0
		for _, m := range []int{1, 2, 4, 8, 16, 32} {
			q := append(make([]float64, m), svtOnes(m)...)
			q2 := append(svtOnes(m), make([]float64, m)...)
			pat := strings.Repeat("F", m) + strings.Repeat("T", m)
			got := math.Log(s.prob(q, pat) / s.prob(q2, pat))
			assert.Greater(t, got, prev, "eps=%v m=%d", eps, m)
			prev = got
		}
		assert.Greater(t, prev, 10*eps, "eps=%v", eps)
	}
}

func svtOnes(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

func TestSVTOutputs(t *testing.T) {
	r := newTestRand(61, 62)
	q := []float64{100, 100, 100, -100}
	assert.Equal(t, "T", SVT1{Eps: 50, T: 0, C: 1}.Sample(r, q))
	assert.Equal(t, "TT", SVT2{Eps: 50, T: 0, C: 2}.Sample(r, q))
	assert.Equal(t, "TTT", SVT4{Eps: 50, T: 0, C: 3}.Sample(r, q))
	assert.Equal(t, "TTTF", SVT5{Eps: 50, T: 0}.Sample(r, q))
	assert.Equal(t, "TTTF", SVT6{Eps: 50, T: 0}.Sample(r, q))
	assert.Equal(t, "TTTF", SVT1{Eps: 50, T: 0, C: 4}.Sample(r, q))
	assert.Equal(t, "", SVT1{Eps: 1, T: 0, C: 1}.Sample(r, nil))
	o := SVT3{Eps: 50, T: 0, C: 2}.Sample(r, q)
	assert.Equal(t, "TT", o.Pattern)
	vs := o.Noisy()
	require.Len(t, vs, 2)
	assert.InDelta(t, 100, vs[0], 5)
	assert.Nil(t, SVT3Output{Pattern: "FF"}.Noisy())
}

func TestSVTPanics(t *testing.T) {
	r := newTestRand(1, 1)
	x := []float64{1}
	cases := []struct {
		msg string
		f   func()
	}{
		{"mechanisms: SVT1.Eps must be positive and finite, got 0", func() { SVT1{C: 1}.Sample(r, x) }},
		{"mechanisms: SVT1.C must be at least 1, got 0", func() { SVT1{Eps: 1}.Epsilon() }},
		{"mechanisms: SVT1.T must be finite, got NaN", func() { SVT1{Eps: 1, T: math.NaN(), C: 1}.Sample(r, x) }},
		{"mechanisms: SVT2.Eps must be positive and finite, got -1", func() { SVT2{Eps: -1, C: 1}.Epsilon() }},
		{"mechanisms: SVT2.C must be at least 1, got -3", func() { SVT2{Eps: 1, C: -3}.Sample(r, x) }},
		{"mechanisms: SVT2.T must be finite, got +Inf", func() { SVT2{Eps: 1, T: math.Inf(1), C: 1}.Sample(r, x) }},
		{"mechanisms: SVT3.Eps must be positive and finite, got 0", func() { SVT3{C: 1}.Sample(r, x) }},
		{"mechanisms: SVT3.C must be at least 1, got 0", func() { SVT3{Eps: 1}.SamplePattern(r, x) }},
		{"mechanisms: SVT3.T must be finite, got -Inf", func() { SVT3{Eps: 1, T: math.Inf(-1), C: 1}.PatternEpsilon() }},
		{"mechanisms: SVT3.C must be at least 1, got 0", func() { SVT3{Eps: 1}.Epsilon() }},
		{"mechanisms: SVT4.Eps must be positive and finite, got 0", func() { SVT4{C: 1}.Epsilon() }},
		{"mechanisms: SVT4.C must be at least 1, got 0", func() { SVT4{Eps: 1}.Sample(r, x) }},
		{"mechanisms: SVT5.Eps must be positive and finite, got 0", func() { SVT5{}.Sample(r, x) }},
		{"mechanisms: SVT5.T must be finite, got NaN", func() { SVT5{Eps: 1, T: math.NaN()}.Epsilon() }},
		{"mechanisms: SVT6.Eps must be positive and finite, got 0", func() { SVT6{}.Epsilon() }},
		{"mechanisms: SVT6.T must be finite, got +Inf", func() { SVT6{Eps: 1, T: math.Inf(1)}.Sample(r, x) }},
		{`mechanisms: malformed SVT3Output.Values "1 x": strconv.ParseFloat: parsing "x": invalid syntax`, func() { SVT3Output{Pattern: "TT", Values: "1 x"}.Noisy() }},
	}
	for _, c := range cases {
		require.PanicsWithValue(t, c.msg, c.f)
	}
}
