package renyi

import (
	"math"

	"github.com/dptest/dptest/internal/stat"
)

// EdgeBandCount is the number of bands EdgeBands cuts at each open end.
const EdgeBandCount = 5

// EdgeBandFactor and MinEdgeBand size the outermost band of each end: it
// runs from the end until both sides expect max(EdgeBandFactor·λ²,
// MinEdgeBand) outputs, so that its log-ratio's noise is about 1/(2λ).
const (
	EdgeBandFactor = 8
	MinEdgeBand    = 64
)

// EdgeBandShare bounds the bands: each end's bands may hold at most this
// share of the outputs (scaled to the confirmation), or EdgeBands reports
// the ends unreachable for the bands.
const EdgeBandShare = 1.0 / 4

// EdgeBands groups the cells of a partition table (real outputs, or one
// coordinate of a vector) for a sample of n outputs per side into
// EdgeBandCount bands at each of its two open ends: group k is the k-th
// band from the lower end (0 the outermost), EdgeBandCount + k the k-th
// from the upper end, 2·EdgeBandCount the cells between. The outermost
// band runs from the end until both sides expect max(EdgeBandFactor·λ²,
// MinEdgeBand) of the n outputs (the table's counts, scaled); band k ≥ 1
// holds 2^k times its outputs of both sides together, so the bands step
// in the outputs' tail share by factors of about 2. A table of values
// (no partition), or one whose bands would hold more than EdgeBandShare
// of the outputs at an end or overlap, gives no groups and false.
func EdgeBands(t *stat.Table, lambda float64, n int) (stat.Grouping, bool) {
	if t.Partition == nil {
		return stat.Grouping{}, false
	}
	cells := allCells(t)
	sp, sq := float64(n)/float64(t.NP), float64(n)/float64(t.NQ)
	first := max(EdgeBandFactor*lambda*lambda, MinEdgeBand)
	limit := EdgeBandShare * 2 * float64(n)
	of := make([]int, len(cells))
	for i := range of {
		of[i] = 2 * EdgeBandCount
	}
	lowEnd := bandsFrom(cells, 0, 1, sp, sq, first, limit)
	highEnd := bandsFrom(cells, len(cells)-1, -1, sp, sq, first, limit)
	if lowEnd == nil || highEnd == nil || lowEnd[len(lowEnd)-1] >= highEnd[len(highEnd)-1] {
		return stat.Grouping{}, false
	}
	for k := range EdgeBandCount {
		for i := bandStart(lowEnd, k, 0, 1); i <= lowEnd[k]; i++ {
			of[i] = k
		}
		for i := bandStart(highEnd, k, len(cells)-1, -1); i >= highEnd[k]; i-- {
			of[i] = EdgeBandCount + k
		}
	}
	return stat.Grouping{Groups: 2*EdgeBandCount + 1, Partition: t.Partition, OfCell: of}, true
}

// bandsFrom returns the index of the last cell of each of EdgeBandCount
// bands walked from cell from in steps of step (EdgeBands), or nil when
// the cells run out or the bands' outputs exceed limit.
func bandsFrom(cells []stat.Cell, from, step int, sp, sq, first, limit float64) []int {
	last := make([]int, 0, EdgeBandCount)
	var ep, eq, band, want, total float64
	for i := from; i >= 0 && i < len(cells) && len(last) < EdgeBandCount; i += step {
		p, q := float64(cells[i].P)*sp, float64(cells[i].Q)*sq
		ep, eq, band, total = ep+p, eq+q, band+p+q, total+p+q
		if total > limit {
			return nil
		}
		if len(last) == 0 && ep >= first && eq >= first || len(last) > 0 && band >= want {
			if len(last) == 0 {
				want = band
			}
			want *= 2
			last = append(last, i)
			band = 0
		}
	}
	if len(last) < EdgeBandCount {
		return nil
	}
	return last
}

// bandStart is the first cell of band k of an end walked from cell from
// in steps of step, whose bands end at last.
func bandStart(last []int, k, from, step int) int {
	if k == 0 {
		return from
	}
	return last[k-1] + step
}

// EdgeGrowth returns, for counts p, q of n draws per side in EdgeBands'
// groups, how fast the ratio p/q grows towards each end: the slope κ̂ of
// the weighted least-squares line of ln(p_k/q_k) against ln(1/w_k) over
// the end's bands, w_k the share of both sides' outputs from the end to
// band k's middle (its inner edge's half for the outermost band, the
// geometric mean of its edges for the others), each point weighted by
// 1/(1/p_k + 1/q_k), the inverse of its log-ratio's variance (a count of
// 0 taken as ½).
//
// If the ratio went on growing as (1/w)^κ beyond the draws, the order-λ
// evidence there, the integral of r^{λ−1} over the bounded side's tail
// share near 0, would be infinite for (λ − 1)κ ≥ 1: the tilted law
// P^λQ^{1−λ} gains mass towards the end. A Gaussian noise scale s on the
// bounded side against 1 on the other grows at κ = s² − 1 (D_λ = ∞ for
// λ ≥ s²/(s² − 1), the same threshold); a Gaussian shift Δ at a tail
// x standard deviations out grows at κ ≈ Δ/x, whose (λ − 1)κ ≥ 1 puts the
// order's tilt beyond x; a Laplace's ratio stops growing (κ → 0).
func EdgeGrowth(p, q []int64, n int64) (lower, upper float64) {
	return endGrowth(p[:EdgeBandCount], q[:EdgeBandCount], n), endGrowth(p[EdgeBandCount:2*EdgeBandCount], q[EdgeBandCount:2*EdgeBandCount], n)
}

// endGrowth is EdgeGrowth's slope over one end's bands, outermost first.
func endGrowth(p, q []int64, n int64) float64 {
	var sw, sx, sy, sxx, sxy, out float64
	for k := range p {
		pk, qk := max(float64(p[k]), 0.5), max(float64(q[k]), 0.5)
		in := out + float64(p[k]+q[k])/float64(2*n)
		mid := in / 2
		if k > 0 {
			mid = math.Sqrt(out * in)
		}
		out = in
		if mid <= 0 {
			return 0
		}
		x, y, w := -math.Log(mid), math.Log(pk/qk), 1/(1/pk+1/qk)
		sw, sx, sy, sxx, sxy = sw+w, sx+w*x, sy+w*y, sxx+w*x*x, sxy+w*x*y
	}
	den := sw*sxx - sx*sx
	if !(den > 0) {
		return 0
	}
	return (sw*sxy - sx*sy) / den
}
