package local

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/stat"
)

// PeakPenalty is the number of standard errors the screening subtracts from
// the loss at each output before taking the maximiser t̂: the maximum of a
// noisy curve over hundreds of bandwidths, or of many rarely seen values, is
// otherwise found where the estimate is noisiest rather than where the loss
// is largest ([AKD22]'s DPL takes the plain argmax; its Proposition 1 holds
// for both).
const PeakPenalty = 3

// EventSlack is the share of the peak loss an event of discrete outputs
// may give up: the confirmation's event gathers every value (or block of
// real outputs, where the screening cannot tell where their loss peaks:
// intervalEvent) whose screening loss is, within two standard errors,
// within EventSlack·ε̂ of the peak ε̂. The ratio of the event's
// probabilities is an average of the ratios inside it, so the event loses
// at most about that share of the loss, while its probability, and so the
// precision of the confirmation, can grow by orders of magnitude
// (randomized response has half its outputs at the peak).
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
	// Confirm and Alpha are the confirmation's draws per side and level,
	// for which the event of real outputs is chosen (intervalEvent); zero:
	// a confirmation the size of the screening's half, and z = 2.
	Confirm int
	Alpha   float64
	// Claim is the loss ε the audit tests, for the second event
	// (narrowEvent); 0 or +Inf: none (an estimate, as [AKD22]'s
	// procedure and a data-centric audit make).
	Claim float64
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
// maximised for D(x→x′) and minimised (sign flipped) for D(x′→x), over
// the values of discrete outputs or the blocks of adjacent cells of real
// ones (adjacentBlocks; an atom is a block of its own, but for numbers
// screened in ranges; so is a stretch of cells one side alone reached).
// The peak t̂ maximises ℓ̂(t) − PeakPenalty·se(t) (for blocks of real
// outputs, se is the floored estimate's: flooredSE; the interval event
// below grows from its own peak on half the draws), so that a value seen a handful of
// times does not win by noise (ties go to the smallest fmt.Sprint, so the
// choice does not depend on map order). The event of each direction is,
// for real outputs, an interval of cells around where the loss peaks,
// chosen on each half of the screening's draws for the bound the other
// half predicts, and narrowed to the cells both choose where that
// predicts more (intervalEvent); for discrete outputs (numbers screened in
// ranges too: their order may mean nothing, as for bit patterns read as
// integers), and for real ones whose held-out half shows no loss at the
// peak, the set of values or blocks within EventSlack of the peak loss.
// Beside it, a second event of one value or block (Estimate.Alt) where
// the confirmation's size predicts a bound there above the claim and
// above the event's (narrowEvent; for one that one side alone reached,
// predicted at the upper bound of the other side's zero count).
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
	var halves *split
	realBlocks := t.Partition != nil && !t.InRanges() // real outputs, not numbers screened in ranges
	if t.Partition != nil {
		if realBlocks {
			halves = splitScreening(t)
		}
		t, blocks = adjacentBlocks(t)
	}
	cells := screened(t, blocks, par.Region, np, nq, tau, realBlocks)
	if len(cells) == 0 {
		return xy, yx, fmt.Errorf("local: no output in the region C [%v, %v]", par.Region[0], par.Region[1])
	}
	xy, yx = peak(halves, t, blocks, cells, 1, par), peak(halves, t, blocks, cells, -1, par)
	if t.Partition != nil {
		xy.Curve, yx.Curve = curves(t.Partition, blocks, cells)
	}
	return xy, yx, nil
}

// BlockCount is how many outputs of both sides a block of adjacent cells
// of real outputs holds at least, for the local screening (but for the
// blocks beside an atom: see adjacentBlocks): the loss of a block rests
// on about BlockCount/2 outputs per side, so that its noise (about
// √(4/BlockCount)) stays well under the losses that matter, the role a
// kernel's bandwidth plays in [AKD22]'s TKDE.
const BlockCount = 800

// adjacentBlocks merges adjacent cells of a partition table into blocks of
// at least BlockCount outputs (a last short block joins the one before):
// it returns the table of blocks (each Cell's Value its block index; a
// block neither side reached is left out of it) and the cells of each
// block. For real outputs and vectors (not numbers screened in ranges), a
// cell of one value that the screening saw (atomSeen) is a block of its
// own, and the run of cells before it closes a block however few outputs
// it holds (so does a short run after the last atom): an
// atom's loss is its own, not its neighbours' (a sparse vector technique's
// last position of ⊤, a loss of 1.45 at ε = 1, merged with the two before
// it into a block of 0.44). A vector's learned score that is a step
// function (a sum of per-cell log-ratios) has atoms at the steps a cell's
// worth of the pilot repeats (stat.ScorePartitionOf): each is the outputs
// the score gives one log-ratio, whose loss is theirs too. So is a
// stretch of cells that one side alone reached (oneSidedStretches): the
// outputs one dataset produces and the other never, whose loss is
// unbounded, are not averaged with the noise beside them.
func adjacentBlocks(t *stat.Table) (*stat.Table, [][]int) {
	blocks, sums, alone := cutRuns(t.Partition, cellCounts(t), ownAtoms(t), BlockCount)
	if k := len(blocks) - 1; k > 0 && !alone[k] && !alone[k-1] && sums[k][0]+sums[k][1] < BlockCount {
		blocks[k-1] = append(blocks[k-1], blocks[k]...)
		sums[k-1][0] += sums[k][0]
		sums[k-1][1] += sums[k][1]
		blocks, sums = blocks[:k], sums[:k]
	}
	out := &stat.Table{NP: t.NP, NQ: t.NQ, Partition: t.Partition}
	for b, s := range sums {
		if s != [2]int64{} {
			out.Cells = append(out.Cells, stat.Cell{Value: b, P: s[0], Q: s[1]})
		}
	}
	return out, blocks
}

// cutRuns cuts a partition's cells, in order, into runs of at least least
// outputs of both sides (counts: each cell's), the last holding what is
// left; when atoms is set, a seen atom (atomSeen) is a run of its own and
// closes the run before it however short, and so is a one-sided stretch
// (oneSidedStretches). It returns the runs, their counts and which stand
// alone (an atom or a stretch). The screening's blocks (adjacentBlocks)
// and the interval event's fine blocks (fineStarts) are both cut so, so
// that they agree on where an atom or a stretch stands.
func cutRuns(part *stat.Partition, counts [][2]int64, atoms bool, least int64) (runs [][]int, sums [][2]int64, alone []bool) {
	var cur []int
	var sum [2]int64
	closeRun := func(isAlone bool) {
		runs, sums, alone = append(runs, cur), append(sums, sum), append(alone, isAlone)
		cur, sum = nil, [2]int64{}
	}
	var stretchEnd []int
	if atoms {
		stretchEnd = oneSidedStretches(part, counts)
	}
	for c := 0; c < len(counts); c++ {
		n := counts[c]
		if atoms && (atomSeen(part, c, n) || stretchEnd[c] > c) {
			if len(cur) > 0 {
				closeRun(false)
			}
			end := max(c+1, stretchEnd[c])
			for ; c < end; c++ {
				cur = append(cur, c)
				sum[0] += counts[c][0]
				sum[1] += counts[c][1]
			}
			c--
			closeRun(true)
			continue
		}
		cur = append(cur, c)
		sum[0] += n[0]
		sum[1] += n[1]
		if sum[0]+sum[1] >= least {
			closeRun(false)
		}
	}
	if len(cur) > 0 {
		closeRun(false)
	}
	return runs, sums, alone
}

// oneSidedStretches finds the stretches of adjacent cells of a
// partition (counts: each cell's) that one side alone reached, holding
// at least stat.OneSidedRun outputs (the run of one side's values that
// stat.RefineTails sets apart, for the same reason: that long is not the
// fair coin of one law for both), and no seen atom (which stands
// alone): at each stretch's first cell it gives the cell after its last
// (cells reached by neither side inside a stretch are part of it), and
// 0 elsewhere. Outputs that one dataset produces rarely and the other
// never, beside a bulk both share (a rare value of ±10 beside noise of
// scale 1, once in 1,000 draws), fill such a stretch; merged into a block
// of BlockCount outputs with the bulk's tail, their loss (unbounded)
// shows as that of the block, 0.14 to 0.27 in one such case.
func oneSidedStretches(part *stat.Partition, counts [][2]int64) []int {
	end := make([]int, len(counts))
	start, side := -1, 0
	var total int64
	finish := func(last int) {
		if start >= 0 && total >= stat.OneSidedRun {
			end[start] = last + 1
		}
		start, side, total = -1, 0, 0
	}
	lastSeen := -1
	for c, n := range counts {
		s := 0
		switch {
		case n[0]+n[1] == 0:
			continue // reached by neither: inside a stretch, part of it
		case n[1] == 0:
			s = 1
		case n[0] == 0:
			s = 2
		}
		atom := atomSeen(part, c, n)
		if s == 0 || s != side || atom {
			finish(lastSeen)
		}
		if s != 0 && !atom {
			if start < 0 {
				start, side = c, s
			}
			total += n[0] + n[1]
		}
		lastSeen = c
	}
	finish(lastSeen)
	return end
}

// ownAtoms reports whether the atoms of partition table t get blocks of
// their own: those of real outputs and vectors, not those of numbers
// screened in ranges (stat.Table.Values), whose order may mean nothing.
func ownAtoms(t *stat.Table) bool { return !t.InRanges() }

// cellCounts returns the counts of both sides in every cell of a partition
// table, in the partition's order.
func cellCounts(t *stat.Table) [][2]int64 {
	counts := make([][2]int64, t.Partition.Cells())
	for _, c := range t.Cells {
		counts[c.Value.(int)] = [2]int64{c.P, c.Q}
	}
	return counts
}

// atomSeen reports whether cell c of a partition, counted n, is one value
// that the screening saw.
func atomSeen(p *stat.Partition, c int, n [2]int64) bool {
	return p.Atom(c) && n[0]+n[1] > 0
}

// point is the representative output of a block: that of its middle cell
// (an atom's block is its one cell).
func point(p *stat.Partition, block []int) float64 { return p.Point(block[len(block)/2]) }

// cellLoss is one value or cell: its floored loss and standard error,
// and its counts on both sides.
type cellLoss struct {
	v     any
	l, se float64
	p, q  float64
}

// screened lists the floored loss of every value or cell seen (in the
// region, for a partition), with the error flooredSE gives when floored
// (blocks of real outputs), logRatioSE's otherwise.
func screened(t *stat.Table, blocks [][]int, region [2]float64, np, nq, tau float64, floored bool) []cellLoss {
	var cells []cellLoss
	for _, c := range t.Cells {
		if t.Partition != nil && region != [2]float64{} {
			if x := point(t.Partition, blocks[c.Value.(int)]); x < region[0] || x > region[1] {
				continue
			}
		}
		fp, fq := float64(c.P)/np, float64(c.Q)/nq
		l := math.Log(math.Max(fp, tau)) - math.Log(math.Max(fq, tau))
		var se float64
		if floored {
			se = flooredSE(float64(c.P), np, float64(c.Q), nq, tau)
		} else {
			_, _, se = logRatioSE(float64(c.P), np, float64(c.Q), nq)
		}
		cells = append(cells, cellLoss{c.Value, l, se, float64(c.P), float64(c.Q)})
	}
	return cells
}

// flooredSE is the standard error of the floored loss
// ln(p̂ ∨ τ) − ln(q̂ ∨ τ) of counts cp of np and cq of nq: that of
// ln p̂ − ln q̂ (logRatioSE), but where one side lies under the floor and
// the other above it, the floored side's term, the constant ln τ, adds
// none. A block that one dataset alone reached 500 times in 500,000
// draws has loss ln(500/FloorCount) = 3.9 with a standard error of
// 1/√500 = 0.045, not the 1.4 of a count of ½ for the side it never
// reached, which buried it under PeakPenalty standard errors beside a
// bulk of loss 0.2. Where both sides lie under the floor (loss 0), the
// error stays logRatioSE's, so that such a block never ranks above a
// block seen often. (Blocks of real outputs and vectors only, so far:
// discrete values seen on one side alone are the hockey-stick
// cross-check's, and SVT5's pattern ⊤⊥ at ε = 0.01, which the local
// screening then ranks first, is confirmed by it.)
func flooredSE(cp, np, cq, nq, tau float64) float64 {
	p, q := cp/np, cq/nq
	switch pUnder, qUnder := p < tau, q < tau; {
	case pUnder && !qUnder:
		return math.Sqrt(max(1-q, 0) / (nq * q))
	case qUnder && !pUnder:
		return math.Sqrt(max(1-p, 0) / (np * p))
	}
	_, _, se := logRatioSE(cp, np, cq, nq)
	return se
}

// peak is the estimate of one direction (sign 1: ln f_x − ln f_x′).
func peak(halves *split, t *stat.Table, blocks [][]int, cells []cellLoss, sign float64, par Params) Estimate {
	best := -1
	for i, c := range cells {
		if best < 0 || better(sign*c.l-PeakPenalty*c.se, sign*cells[best].l-PeakPenalty*cells[best].se, c.v, cells[best].v) {
			best = i
		}
	}
	top := sign * cells[best].l
	if halves != nil {
		if event, around, ok := intervalEvent(halves, blocks, sign, par); ok {
			e := Estimate{Loss: top, StdErr: cells[best].se, Event: event, Location: point(t.Partition, around)}
			narrowEvent(halves, t, blocks, cells, sign, par, &e)
			return e
		}
	}
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
	narrowEvent(halves, t, blocks, cells, sign, par, &e)
	return e
}

// narrowEvent sets e's second event Alt, of one direction (sign), that
// the confirmation bounds beside the first, e.Event, each at half its
// level, when the audit tests a claim (par.Claim): the one value, or
// block of cells of real outputs, whose bound a confirmation of
// par.Confirm draws per side at level par.Alpha/2 the screening predicts,
//
//	sign·ℓ̂(t) − z_{1−α/2}·se_conf(t),
//
// to lie above both the claim and the same prediction for e.Event (else
// none: Groups 0). The peak t̂ and the event around it are chosen for
// their precision at the screening's size (PeakPenalty standard errors of
// the screening), which favours outputs the screening sees often; a rarer
// output of larger loss that the confirmation's size can show above the
// claim is so confirmed too (ten rounds of randomized response at
// ε₀ = 0.1, released as the count of ones: loss 1 at 10 and 0, 0.8 at 9
// and 1, where ε = 0.8 passed in 9 of 23 audits). A value or block that
// one side alone reached at least stat.OneSidedRun times is predicted as
// if the other side's count were its zero count's upper bound at
// HeldOutZ (aloneUpperCount): the screening cannot tell a loss that is
// unbounded there from one just above what a zero count allows, so it
// predicts the lesser. Outputs predicted under the claim are left out: at
// a claim with room their noisy losses would halve every event's level,
// and their wide errors would keep an early look from holding. It also
// sets the representative output AltLocation and the predictions
// AltBound and EventBound (+Inf for an event seen on one side only, which
// no prediction beats).
func narrowEvent(halves *split, t *stat.Table, blocks [][]int, cells []cellLoss, sign float64, par Params, e *Estimate) {
	if !(par.Claim > 0) || math.IsInf(par.Claim, 1) {
		return
	}
	z, confirm := 2.0, float64(t.NP)/2
	if par.Confirm > 0 {
		confirm = float64(par.Confirm)
	}
	if par.Alpha > 0 {
		z = numeric.UpperNormalQuantile(par.Alpha / 2)
	}
	predict := func(p, q float64) float64 {
		fp, fq := p/float64(t.NP), q/float64(t.NQ)
		_, _, se := logRatioSE(fp*confirm, confirm, fq*confirm, confirm)
		return sign*(math.Log(fp)-math.Log(fq)) - z*se
	}
	p, q := eventCounts(halves, t, blocks, e.Event)
	if p == 0 || q == 0 {
		e.EventBound = math.Inf(1)
		return
	}
	e.EventBound = predict(p, q)
	best, bestBound := -1, math.Max(par.Claim, e.EventBound)
	for i, c := range cells {
		cp, cq := c.p, c.q
		if cp == p && cq == q {
			continue
		}
		if sign > 0 && cq == 0 && cp >= stat.OneSidedRun {
			cq = aloneUpperCount()
		} else if sign < 0 && cp == 0 && cq >= stat.OneSidedRun {
			cp = aloneUpperCount()
		}
		if cp > 0 && cq > 0 {
			if b := predict(cp, cq); b > bestBound {
				best, bestBound = i, b
			}
		}
	}
	if best < 0 {
		return
	}
	v := cells[best].v
	e.Alt, e.AltLocation, e.AltBound = event(t, blocks, []any{v}), v, bestBound
	if t.Partition != nil {
		e.AltLocation = point(t.Partition, blocks[v.(int)])
	}
}

// aloneUpperCount is the upper confidence bound, at HeldOutZ standard
// normal quantiles (level Φ(−HeldOutZ) = 0.023), of the expected count of
// a side that a value or block was never seen on: the Poisson mean μ with
// P(N = 0) = e^{−μ} = Φ(−HeldOutZ), μ = −ln Φ(−HeldOutZ) = 3.78.
func aloneUpperCount() float64 {
	return -math.Log(numeric.NormalCDF(-HeldOutZ))
}

// eventCounts are the screening's counts of both sides in event ev (group
// 0) of table t: of its values, or of its blocks of cells (blocks), or,
// for an interval event of real outputs, of the cells of the split
// screening halves.
func eventCounts(halves *split, t *stat.Table, blocks [][]int, ev stat.Grouping) (p, q float64) {
	switch {
	case t.Partition == nil:
		for _, c := range t.Cells {
			if g, ok := ev.OfValue[c.Value]; ok && g == 0 {
				p, q = p+float64(c.P), q+float64(c.Q)
			}
		}
	case halves != nil:
		for i, g := range ev.OfCell {
			if g == 0 {
				p += halves.a.cell[i][0] + halves.b.cell[i][0]
				q += halves.a.cell[i][1] + halves.b.cell[i][1]
			}
		}
	default:
		for _, c := range t.Cells {
			if ev.OfCell[blocks[c.Value.(int)][0]] == 0 {
				p, q = p+float64(c.P), q+float64(c.Q)
			}
		}
	}
	return p, q
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

// event is the grouping of the outputs into the event (group 0: the
// values, or the blocks of cells, listed in members) and the rest (group 1).
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

// HeldOutZ, PeakShare and MaxEventShare shape an interval event
// (chooseRun, greedyPath). The peak it grows from must show a loss on
// the held-out half, HeldOutZ standard errors above 0; every run must keep
// on the choosing half a loss of PeakShare of that held-out bound, and
// hold at most MaxEventShare of either side's outputs. An event holding
// most outputs of both sides is the complement of a small one, whose loss
// is the other direction's (a loss of ε on an event E of an ε-DP
// mechanism needs P(E) ≤ 1/(1 + e^{−ε}), a half for small ε and 0.73 at
// ε = 1), and its loss near 0 with a tiny error would state a resolution
// that says nothing of the peak.
const (
	HeldOutZ      = 2
	PeakShare     = 0.5
	MaxEventShare = 0.75
)

// IntervalBlockCount is the least number of outputs of both sides in each
// of the fine blocks at which intervalEvent's runs of cells start and end
// (but for those beside an atom: see fineStarts): a quarter of
// BlockCount, so that an event's ends fall within about a quarter of a
// screening block of where the loss changes.
const IntervalBlockCount = BlockCount / 4

// intervalEvent is the event of one direction (sign) of real outputs: an
// interval of cells around where the loss peaks, chosen for the bound its
// confirmation will give. The screening's counts are split, draw by draw
// (binomial thinning), into halves A and B, and a run of fine blocks is
// chosen twice, on A and judged on B (chooseRun) and on B and judged on A.
// The event is the better of the two runs by the bound both halves'
// counts predict (bothPredict), or the cells both runs hold where those
// predict more still. Each choice alone is a noisy estimate of the best
// interval, and its held-out penalty pushes it wide, onto outputs of lower
// loss beside a peak; the cells both choose are where each half alone saw
// the loss high (at NonDPLaplace2's cusp, a loss of 1.162 against one
// choice's 1.145 over forty screenings). Where the two runs end far apart
// on a plateau, their common cells are few and predict less, and a run
// stands. Where the choice on B finds no peak, the choice on A stands;
// where the choice on A finds none (ok false), the screening cannot tell
// where the loss peaks, and the caller keeps the blocks within EventSlack
// of its peak instead (the choice on B is not tried). It also returns the
// cells of the block the event was grown from (its t̂): the winning run's
// peak block, and for the common cells whichever peak block they hold,
// else their middle cell.
//
// A loss with a narrow peak (a cusp, where a mixture's narrowest component
// is centred) is so confirmed where it stays high; a loss flat on a
// half-line (the Laplace mechanism) over the half-line, whose probability
// makes the confirmation precise. Choosing on the same draws that measure
// would prefer narrow runs whose loss is high by chance. The ratio of any
// interval's probabilities is an average of the ratios inside it ([AKD22],
// Theorem 1's "≤" half), so the confirmed event bounds the loss from below
// whatever interval is chosen.
func intervalEvent(halves *split, blocks [][]int, sign float64, par Params) (event stat.Grouping, around []int, ok bool) {
	run, around, ok := chooseRun(halves, blocks, sign, par)
	if !ok {
		return stat.Grouping{}, nil, false
	}
	crossed := *halves
	crossed.a, crossed.b = halves.b, halves.a
	if other, otherAround, found := chooseRun(&crossed, blocks, sign, par); found {
		predict := func(r [2]int) float64 { return halves.bothPredict(r, sign, par) }
		common := [2]int{max(run[0], other[0]), min(run[1], other[1])}
		if predict(other) > predict(run) {
			run, around, otherAround = other, otherAround, around
		}
		if common[0] <= common[1] && predict(common) > predict(run) {
			run = common
			if !halves.holds(run, around) {
				around = otherAround
			}
			if !halves.holds(run, around) {
				from, to := halves.runCells(run)
				around = []int{(from + to - 1) / 2}
			}
		}
	}
	from, to := halves.runCells(run)
	part := halves.part
	g := stat.Grouping{Groups: 2, Unlisted: 1, Partition: part, OfCell: make([]int, part.Cells())}
	for c := range g.OfCell {
		if c < from || c >= to {
			g.OfCell[c] = 1
		}
	}
	return g, around, true
}

// holds reports whether run r's cells include every cell of block.
func (s *split) holds(r [2]int, block []int) bool {
	from, to := s.runCells(r)
	return block[0] >= from && block[len(block)-1] < to
}

// runCells returns the cells [from, to) of the run of fine blocks r[0] … r[1].
func (s *split) runCells(r [2]int) (from, to int) {
	from, _ = s.cellsOf(r[0])
	_, to = s.cellsOf(r[1])
	return from, to
}

// chooseRun is one choice of intervalEvent: on half A it finds the peak
// block and grows a run of fine blocks from it, one block at a time
// towards the side whose run scores better by ℓ̂_A(I) − PeakPenalty·se_A(I);
// each run on that path is then judged on B, which did not choose it, by
// the bound a confirmation of Confirm draws per side at level Alpha
// predicts,
//
//	ℓ̂_B(I) − z_{1−α}·se_conf(I) − PeakPenalty·se_B(I),
//	ℓ̂(I) = sign·(ln p̂_x(I) − ln p̂_x′(I)),
//
// and it returns the best run, its first and last fine block (the
// held-out penalty keeps the narrow runs near the start of the path, whose
// held-out losses are nearly independent, from winning by chance). The
// runs grown beyond the peak's own keep its loss and do not hold most
// outputs (HeldOutZ, PeakShare and MaxEventShare; the peak's own run is
// kept whatever it holds, as the older event keeps the peak's block).
// Where B shows no loss at A's peak, ok is false. It also returns the
// cells of the peak block.
func chooseRun(halves *split, blocks [][]int, sign float64, par Params) (best [2]int, around []int, ok bool) {
	b := halves.b
	blockOf := func(cell int) int {
		k, found := slices.BinarySearch(halves.starts, cell)
		if !found {
			k--
		}
		return k
	}
	first, last := 0, len(halves.starts)-1
	if par.Region != [2]float64{} { // as screened: by a block's middle cell
		middle := func(k int) float64 { from, to := halves.cellsOf(k); return halves.part.Point((from + to - 1) / 2) }
		for first < last && middle(first) < par.Region[0] {
			first++
		}
		for last > first && middle(last) > par.Region[1] {
			last--
		}
	}
	peakCells := halves.peakBlock(blocks, sign, first, last)
	lo, hi := blockOf(peakCells[0]), blockOf(peakCells[len(peakCells)-1])
	p, q := b.sum(lo, hi)
	l, se, _, _ := b.loss(p, q, sign)
	held := l - HeldOutZ*se
	if !(held > 0) {
		return best, nil, false
	}
	path := greedyPath(halves.a, b, sign, lo, hi, first, last, PeakShare*held)
	z, confirm := par.prediction(b.np)
	best, bestScore := path[0], math.Inf(-1)
	for _, run := range path {
		p, q := b.sum(run[0], run[1])
		if s := b.predict(p, q, sign, z, confirm); s > bestScore {
			best, bestScore = run, s
		}
	}
	return best, peakCells, true
}

// bothPredict is chooseRun's score of run r computed from both halves'
// counts pooled (A+B),
//
//	ℓ̂_{A+B}(r) − z_{1−α}·se_conf(r) − PeakPenalty·se_{A+B}(r),
//
// the bound a confirmation of par.Confirm draws per side at level
// par.Alpha predicts, less PeakPenalty standard errors of the pooled
// estimate. Every run it compares was chosen on these draws (the
// intersection of two runs most of all: where both halves saw the loss
// high), so it is biased up; the penalty is its only brake, and the
// choice only decides what the confirmation's fresh draws count.
func (s *split) bothPredict(r [2]int, sign float64, par Params) float64 {
	pa, qa := s.a.sum(r[0], r[1])
	pb, qb := s.b.sum(r[0], r[1])
	z, confirm := par.prediction(s.b.np)
	pooled := half{np: s.a.np + s.b.np, nq: s.a.nq + s.b.nq}
	return pooled.predict(pa+pb, qa+qb, sign, z, confirm)
}

// prediction returns the quantile z_{1−α} of the level Alpha (2 when
// unset) and the confirmation's draws per side Confirm (half, a screening
// half's draws, when unset) at which an interval event's bound is
// predicted.
func (par Params) prediction(half float64) (z, confirm float64) {
	z, confirm = 2.0, half
	if par.Confirm > 0 {
		confirm = float64(par.Confirm)
	}
	if par.Alpha > 0 {
		z = numeric.UpperNormalQuantile(par.Alpha)
	}
	return z, confirm
}

// half is one half of a split screening: its counts per cell, and per
// fine block cumulated (cp[i], cq[i]: the counts before fine block i).
type half struct {
	cell   [][2]float64
	cp, cq []float64
	np, nq float64
}

// sum returns the counts of fine blocks i … j.
func (h half) sum(i, j int) (p, q float64) { return h.cp[j+1] - h.cp[i], h.cq[j+1] - h.cq[i] }

// loss is the signed loss sign·(ln p̂ − ln q̂) of counts p and q of h, its
// standard error, and the frequencies p̂, q̂ (logRatioSE).
func (h half) loss(p, q, sign float64) (l, se, fp, fq float64) {
	fp, fq, se = logRatioSE(p, h.np, q, h.nq)
	return sign * (math.Log(fp) - math.Log(fq)), se, fp, fq
}

// predict is an interval's score from counts p and q of h: the bound a
// confirmation of confirm draws per side at the quantile z predicts from
// its frequencies, less PeakPenalty of h's standard errors,
//
//	ℓ̂(I) − z·se_conf(I) − PeakPenalty·se_h(I).
func (h half) predict(p, q, sign, z, confirm float64) float64 {
	l, se, fp, fq := h.loss(p, q, sign)
	_, _, seConf := logRatioSE(fp*confirm, confirm, fq*confirm, confirm)
	return l - z*seConf - PeakPenalty*se
}

// split is a screening of real outputs split into halves a and b by
// splitScreening, with the first cell of each fine block (fineStarts).
type split struct {
	part   *stat.Partition
	starts []int
	a, b   half
}

// splitScreening splits a partition table's counts into two halves by
// sending each draw to either with probability ½ (a binomial draw per
// cell and side): two samples as independent as two screenings of half
// the size, up to the split of their sizes. The coins are seeded by the
// table's sizes, so that one screening always splits the same way (they
// do not depend on the counts, so the halves stay independent).
func splitScreening(raw *stat.Table) *split {
	r := rand.New(rand.NewPCG(uint64(raw.NP), uint64(raw.NQ)^0x7468696e))
	coin := func(n int64) float64 {
		k := 0
		for ; n >= 64; n -= 64 {
			k += bits.OnesCount64(r.Uint64())
		}
		if n > 0 {
			k += bits.OnesCount64(r.Uint64() & (1<<n - 1))
		}
		return float64(k)
	}
	counts := cellCounts(raw) // the coins go in cell order, not the table's
	s := &split{part: raw.Partition, starts: fineStarts(raw.Partition, counts, ownAtoms(raw))}
	s.a.cell, s.b.cell = make([][2]float64, len(counts)), make([][2]float64, len(counts))
	for i, n := range counts {
		ap, aq := coin(n[0]), coin(n[1])
		bp, bq := float64(n[0])-ap, float64(n[1])-aq
		s.a.cell[i], s.b.cell[i] = [2]float64{ap, aq}, [2]float64{bp, bq}
		s.a.np, s.a.nq, s.b.np, s.b.nq = s.a.np+ap, s.a.nq+aq, s.b.np+bp, s.b.nq+bq
	}
	s.a.cumulate(s.starts)
	s.b.cumulate(s.starts)
	return s
}

// cumulate sets h's counts before each fine block.
func (h *half) cumulate(starts []int) {
	h.cp, h.cq = make([]float64, len(starts)+1), make([]float64, len(starts)+1)
	for k, s := range starts {
		end := len(h.cell)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		h.cp[k+1], h.cq[k+1] = h.cp[k], h.cq[k]
		for _, n := range h.cell[s:end] {
			h.cp[k+1] += n[0]
			h.cq[k+1] += n[1]
		}
	}
}

// fineStarts cuts a partition's cells, in order, into fine blocks of at
// least IntervalBlockCount outputs of both sides (counts: each cell's) and
// returns the first cell of each: when atoms is set, a seen atom is a
// fine block of its own, as in adjacentBlocks, and the block before an
// atom may hold fewer; so may the last.
func fineStarts(part *stat.Partition, counts [][2]int64, atoms bool) []int {
	runs, _, _ := cutRuns(part, counts, atoms, IntervalBlockCount)
	starts := make([]int, len(runs))
	for k, r := range runs {
		starts[k] = r[0]
	}
	return starts
}

// cellsOf returns the cells [from, to) of fine block k.
func (s *split) cellsOf(k int) (from, to int) {
	to = s.part.Cells()
	if k+1 < len(s.starts) {
		to = s.starts[k+1]
	}
	return s.starts[k], to
}

// peakBlock is, among the screening's blocks whose cells lie in fine
// blocks first … last, the one whose loss on half A less PeakPenalty
// standard errors is largest; if none lies there, the best fine block.
func (s *split) peakBlock(blocks [][]int, sign float64, first, last int) []int {
	h := s.a
	score := func(p, q float64) float64 {
		l, se, _, _ := h.loss(p, q, sign)
		return l - PeakPenalty*se
	}
	lo, _ := s.cellsOf(first)
	_, hi := s.cellsOf(last)
	var best []int
	bestScore := math.Inf(-1)
	for _, cells := range blocks {
		if cells[0] < lo || cells[len(cells)-1] >= hi {
			continue
		}
		var p, q float64
		for _, c := range cells {
			p, q = p+h.cell[c][0], q+h.cell[c][1]
		}
		if sc := score(p, q); best == nil || sc > bestScore {
			best, bestScore = cells, sc
		}
	}
	if best != nil {
		return best
	}
	k := first
	for j := first; j <= last; j++ {
		if sc := score(h.sum(j, j)); sc > bestScore {
			k, bestScore = j, sc
		}
	}
	from, to := s.cellsOf(k)
	for c := from; c < to; c++ {
		best = append(best, c)
	}
	return best
}

// greedyPath grows a run of fine blocks from lo … hi one block at a time,
// towards first or last, on the side whose run scores better on h by
// ℓ̂(I) − PeakPenalty·se(I), and returns the first run and those on the
// way whose loss on h is at least floor and which hold at most
// MaxEventShare of either side's outputs of h, never one holding every
// output of both sides (on h and other, the other half), whose loss is 0.
func greedyPath(h, other half, sign float64, lo, hi, first, last int, floor float64) [][2]int {
	every := func(i, j int) bool {
		p, q := h.sum(i, j)
		po, qo := other.sum(i, j)
		return p+po == h.np+other.np && q+qo == h.nq+other.nq
	}
	loss := func(i, j int) (l, se float64) {
		p, q := h.sum(i, j)
		l, se, _, _ = h.loss(p, q, sign)
		return l, se
	}
	score := func(i, j int) float64 {
		if every(i, j) {
			return math.Inf(-1)
		}
		l, se := loss(i, j)
		return l - PeakPenalty*se
	}
	path := [][2]int{{lo, hi}}
	keeps := func(i, j int) bool {
		p, q := h.sum(i, j)
		l, _ := loss(i, j)
		return !every(i, j) && l >= floor && max(p/h.np, q/h.nq) <= MaxEventShare
	}
	for i, j := lo, hi; i > first || j < last; {
		left, right := math.Inf(-1), math.Inf(-1)
		if i > first {
			left = score(i-1, j)
		}
		if j < last {
			right = score(i, j+1)
		}
		if i > first && (j == last || left >= right) {
			i--
		} else {
			j++
		}
		if keeps(i, j) {
			path = append(path, [2]int{i, j})
		}
	}
	return path
}
