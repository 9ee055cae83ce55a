package stat

import "math"

// mmdScale is the fixed-point scale of MMDSums: h is summed as an integer
// number of 2⁻³² units, so that sums merge by integer addition, exactly
// and in any order (h ∈ [−2, 2]; 10⁸ quadruples fit in an int64).
const mmdScale = 1 << 32

// MMDSums is the statistic of the MMD tester of [KMRS24] (Algorithm 7):
// over M quadruples (X, X′, Y, Y′) of independent draws, X, X′ on one
// dataset and Y, Y′ on the other, the sums of
//
//	h = k(X, X′) − 2k(X, Y) + k(Y, Y′)
//
// and of h², for a kernel with k(a, a) = 1 (so h ∈ [−2, 2]), whose mean is
// MMD² (Gretton et al., Lemma 6; [KMRS24], Theorem 4.14).
type MMDSums struct {
	M       int64
	sum, sq int64 // Σh and Σh² in units of 2⁻³²
}

// Add adds one quadruple's h.
func (s *MMDSums) Add(h float64) {
	s.M++
	s.sum += int64(math.Round(h * mmdScale))
	s.sq += int64(math.Round(h * h * mmdScale))
}

// Merge adds o's quadruples.
func (s *MMDSums) Merge(o MMDSums) {
	s.M, s.sum, s.sq = s.M+o.M, s.sum+o.sum, s.sq+o.sq
}

// Mean is the mean of h, an unbiased estimate of MMD².
func (s MMDSums) Mean() float64 {
	if s.M == 0 {
		return 0
	}
	return float64(s.sum) / mmdScale / float64(s.M)
}

// Variance is the unbiased sample variance of h.
func (s MMDSums) Variance() float64 {
	if s.M < 2 {
		return 0
	}
	m := float64(s.M)
	mean := s.Mean()
	return math.Max(0, (float64(s.sq)/mmdScale-m*mean*mean)/(m-1))
}

// MMDAcc accumulates draws made in pairs, one on each dataset: each two
// consecutive pairs are a quadruple. Draws come in blocks of an even size
// but the last, each block on one worker, so a pair left over is only the
// last draw of the last block, which is dropped.
type MMDAcc[O any] struct {
	Sums    MMDSums
	kernel  func(a, b O) float64
	pending bool
	x, y    O
}

// NewMMDAcc returns a constructor of accumulators with kernel k.
func NewMMDAcc[O any](k func(a, b O) float64) func() *MMDAcc[O] {
	return func() *MMDAcc[O] { return &MMDAcc[O]{kernel: k} }
}

// Both is one draw on each dataset.
type Both[O any] struct{ X, Y O }

// Add takes one pair of draws.
func (a *MMDAcc[O]) Add(b Both[O]) {
	if !a.pending {
		a.x, a.y, a.pending = b.X, b.Y, true
		return
	}
	a.Sums.Add(a.kernel(a.x, b.X) - 2*a.kernel(a.x, a.y) + a.kernel(a.y, b.Y))
	a.pending = false
}

// Merge adds o's quadruples.
func (a *MMDAcc[O]) Merge(o *MMDAcc[O]) { a.Sums.Merge(o.Sums) }

// GaussianKernel is exp(−(a − b)²/(2w²)).
func GaussianKernel(w float64) func(a, b float64) float64 {
	return func(a, b float64) float64 {
		z := (a - b) / w
		return math.Exp(-0.5 * z * z)
	}
}

// IndicatorKernel is 1{a = b}, the kernel of discrete outputs: its MMD² is
// Σ_v (p_v − q_v)².
func IndicatorKernel[O comparable](a, b O) float64 {
	if a == b {
		return 1
	}
	return 0
}
