package local

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/dptest/dptest/internal/stat"
)

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
// ones). The ratio of the event's probabilities is an average of the ratios
// inside it, so the event loses at most about that share of the loss, while
// its probability, and so the precision of the confirmation, can grow by
// orders of magnitude (the Laplace mechanism's loss is flat on a half-line;
// randomized response has half its outputs at the peak).
const EventSlack = 0.1

// Params configure the screening. dptest's plan gives every field.
type Params struct {
	// Region is C for real outputs, in output units: only cells whose
	// representative point (stat.Partition.Point) lies in it are screened.
	// Both ends zero: every cell.
	Region [2]float64
	// Tau is the floor of the truncated estimates (Algorithm 2), a
	// probability of a value or of a cell. If zero, the floor is FloorCount
	// samples' worth, FloorCount/n.
	Tau        float64
	FloorCount float64
}

// ErrNoFloor reports Params with neither Tau nor FloorCount.
var ErrNoFloor = errors.New("local: the screening needs a floor τ or a floor count")

// Screen estimates both directions' maximal loss (DPL, Algorithm 3) from
// one table of a pair (TDDE, Algorithm 2): the counts per value of discrete
// outputs, or per cell of the partition of real outputs (a discretisation
// fixed before the sample, a post-processing, so Theorem 1's "≤" half still
// holds for every event of cells). For every value or cell seen,
//
//	ℓ̂(t) = ln(f̂_x(t) ∨ τ) − ln(f̂_{x′}(t) ∨ τ),
//
// maximised for D(x→x′) and minimised (sign flipped) for D(x′→x). The peak
// t̂ maximises ℓ̂(t) − PeakPenalty·se(t), so that a value seen a handful of
// times does not win by noise; the event of each direction is the set of
// values or cells within EventSlack of the peak loss, located at t̂ (ties go
// to the smallest fmt.Sprint, so the choice does not depend on map order).
func Screen(s stat.Sample, par Params) (xy, yx Estimate, err error) {
	if !(par.Tau > 0 || par.FloorCount > 0) {
		return xy, yx, ErrNoFloor
	}
	t, ok := s.(*stat.Table)
	if !ok {
		return xy, yx, fmt.Errorf("local: no screening for a sample of type %T", s)
	}
	np, nq := float64(t.NP), float64(t.NQ)
	tau := par.Tau
	if tau == 0 {
		tau = par.FloorCount / math.Min(np, nq)
	}
	var blocks [][]int
	if t.Partition != nil {
		t, blocks = adjacentBlocks(t)
	}
	cells := screened(t, blocks, par.Region, np, nq, tau)
	if len(cells) == 0 {
		return xy, yx, fmt.Errorf("local: no output in the region C [%v, %v]", par.Region[0], par.Region[1])
	}
	xy, yx = peak(t, blocks, cells, 1), peak(t, blocks, cells, -1)
	if t.Partition != nil {
		xy.Curve, yx.Curve = curves(t.Partition, blocks, cells)
	}
	return xy, yx, nil
}

// BlockCount is how many outputs of both sides a block of adjacent cells
// of real outputs holds at least, for the local screening: the loss of a
// block rests on about BlockCount/2 outputs per side, so that its noise
// (about √(4/BlockCount)) stays well under the losses that matter, the
// role a kernel's bandwidth plays in [AKD22]'s TKDE.
const BlockCount = 800

// adjacentBlocks merges adjacent cells of a partition table into blocks of
// at least BlockCount outputs (the last short block joins the one before):
// it returns the table of blocks (each Cell's Value its block index) and
// the cells of each block.
func adjacentBlocks(t *stat.Table) (*stat.Table, [][]int) {
	counts := make([][2]int64, t.Partition.Cells())
	for _, c := range t.Cells {
		counts[c.Value.(int)] = [2]int64{c.P, c.Q}
	}
	var blocks [][]int
	var sums [][2]int64
	var cur []int
	var sum [2]int64
	for c, n := range counts {
		cur = append(cur, c)
		sum[0] += n[0]
		sum[1] += n[1]
		if sum[0]+sum[1] >= BlockCount {
			blocks, sums = append(blocks, cur), append(sums, sum)
			cur, sum = nil, [2]int64{}
		}
	}
	if len(cur) > 0 {
		if len(blocks) == 0 {
			blocks, sums = append(blocks, cur), append(sums, sum)
		} else {
			last := len(blocks) - 1
			blocks[last] = append(blocks[last], cur...)
			sums[last][0] += sum[0]
			sums[last][1] += sum[1]
		}
	}
	out := &stat.Table{NP: t.NP, NQ: t.NQ, Partition: t.Partition}
	for b, s := range sums {
		out.Cells = append(out.Cells, stat.Cell{Value: b, P: s[0], Q: s[1]})
	}
	return out, blocks
}

// point is the representative output of a block: that of its middle cell.
func point(p *stat.Partition, block []int) float64 { return p.Point(block[len(block)/2]) }

// cellLoss is one value or cell: its floored loss and standard error.
type cellLoss struct {
	v     any
	l, se float64
}

// screened lists the floored loss of every value or cell seen (in the
// region, for a partition).
func screened(t *stat.Table, blocks [][]int, region [2]float64, np, nq, tau float64) []cellLoss {
	var cells []cellLoss
	for _, c := range t.Cells {
		if t.Partition != nil && region != [2]float64{} {
			if x := point(t.Partition, blocks[c.Value.(int)]); x < region[0] || x > region[1] {
				continue
			}
		}
		fp, fq := float64(c.P)/np, float64(c.Q)/nq
		_, _, se := logRatioSE(float64(c.P), np, float64(c.Q), nq)
		l := math.Log(math.Max(fp, tau)) - math.Log(math.Max(fq, tau))
		cells = append(cells, cellLoss{c.Value, l, se})
	}
	return cells
}

// peak is the estimate of one direction (sign 1: ln f_x − ln f_x′).
func peak(t *stat.Table, blocks [][]int, cells []cellLoss, sign float64) Estimate {
	best := -1
	for i, c := range cells {
		if best < 0 || better(sign*c.l-PeakPenalty*c.se, sign*cells[best].l-PeakPenalty*cells[best].se, c.v, cells[best].v) {
			best = i
		}
	}
	top := sign * cells[best].l
	members := eventMembers(cells, sign, top, 2)
	if len(members) == len(cells) {
		// Every output seen: an event of probability about one on both
		// sides, whose loss is 0 with no variance, shows nothing (and
		// would claim a resolution it does not have). Without the
		// allowance of two standard errors, else the peak alone (which
		// is still every output when the screening saw one value only:
		// a mechanism constant there).
		if members = eventMembers(cells, sign, top, 0); len(members) == len(cells) {
			members = []any{cells[best].v}
		}
	}
	e := Estimate{Loss: top, StdErr: cells[best].se, Event: event(t, blocks, members), Location: cells[best].v}
	if t.Partition != nil {
		e.Location = point(t.Partition, blocks[cells[best].v.(int)])
	}
	return e
}

// eventMembers are the values or cells whose loss, plus z standard
// errors, is within EventSlack of the peak loss top.
func eventMembers(cells []cellLoss, sign, top, z float64) []any {
	var members []any
	for _, c := range cells {
		if sign*c.l+z*c.se >= top-EventSlack*math.Abs(top) {
			members = append(members, c.v)
		}
	}
	return members
}

// event is the grouping of the outputs into the event (group 0) and the
// rest (group 1).
func event(t *stat.Table, blocks [][]int, members []any) stat.Grouping {
	g := stat.Grouping{Groups: 2, Unlisted: 1}
	if t.Partition != nil {
		g.Partition = t.Partition
		g.OfCell = make([]int, t.Partition.Cells())
		for i := range g.OfCell {
			g.OfCell[i] = 1
		}
		for _, m := range members {
			for _, c := range blocks[m.(int)] {
				g.OfCell[c] = 0
			}
		}
		return g
	}
	g.OfValue = make(map[any]int, len(members))
	for _, m := range members {
		g.OfValue[m] = 0
	}
	return g
}

// curves are the loss curves of both directions over the cells seen, in
// the order of the outputs, at each cell's representative point.
func curves(p *stat.Partition, blocks [][]int, cells []cellLoss) (xy, yx Curve) {
	sorted := slices.Clone(cells)
	slices.SortFunc(sorted, func(a, b cellLoss) int { return cmp.Compare(a.v.(int), b.v.(int)) })
	for _, c := range sorted {
		xy.T = append(xy.T, point(p, blocks[c.v.(int)]))
		xy.Loss = append(xy.Loss, c.l)
		yx.Loss = append(yx.Loss, -c.l)
	}
	yx.T = xy.T
	return xy, yx
}

func better(l, best float64, v, bestV any) bool {
	if l != best {
		return l > best
	}
	return fmt.Sprint(v) < fmt.Sprint(bestV)
}
