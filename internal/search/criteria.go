package search

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/local"
	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
	"github.com/dptest/dptest/internal/verdict"
)

// RDP is the criterion of a Rényi-DP audit: D_λ(M(X) ‖ M(Y)) bounded from
// below on counts. The screening counts each pair's outputs per value
// (discrete) or per cell of a partition fixed by its pilot (real) and, for
// each direction, chooses between two statistics the one whose bound on a
// confirmation of confirm draws per side at level alpha it predicts larger:
// the cells grouped by their estimated ratio (renyi.Group, or, where the
// held-out draws estimate it higher, renyi.GroupPoolingRare's grouping
// with a table of values' rare values that lean to the bounded side as
// one cell: see heldGrouped), bounded by the
// softmax-floored plug-in of [KAD24] (package renyi), or one event of the
// most telling cells (renyi.BestEvent), bounded exactly through the
// two-point divergence of its probabilities (renyi.EventBound). Candidates
// rank by that predicted bound; the confirmation counts fresh outputs in
// the groups, or the event, the screening fixed (on fewer draws than
// planned, the groups merged: GroupSizes.merged).
func RDP[D any](src sampler.Source[D], lambda float64, rules plan.RenyiRules, confirm int, alpha float64) Criterion[D, RenyiFinding] {
	return rdpCriterion[D]{src, renyi.Params{
		Lambda: lambda, DiscreteTau: rules.DiscreteTau, RelativeTau: rules.RelativeTau,
	}, confirm, alpha}
}

// RenyiFinding is what the screening of one direction found: its estimate
// on the held-out half (for groups: on the groups fixed for the held-out
// size; the grouping confirmed is fixed on both halves pooled, for the
// confirmation's size, so the prediction is of a slightly coarser
// grouping than the one confirmed), the grouping a confirmation counts,
// and whether that grouping is one event (its first group) bounded by
// renyi.EventBound rather than groups bounded by the plug-in.
type RenyiFinding struct {
	Screening renyi.Result
	Grouping  stat.Grouping
	Event     bool
	// Zones are the end zones of real outputs or numbers (renyi.EndZones),
	// counted with the statistic (their stat.Product) to measure how much
	// of the evidence lies at or beyond the screening's extremes
	// (renyi.ZoneShare) and how much the statistic's rests on them
	// (renyi.ZoneDependence); no groups for values that are not numbers,
	// or numbers whose ends are the support's own (renyi.HardEndCount).
	Zones stat.Grouping
	// Ranged is set for ranges of numbers (stat.Table.Values), and
	// RangedTails when the values themselves, zoned as a table of numbers
	// (renyi.EndZones), have a tail at an end or beside a gap. Only then is
	// the statistic's dependence on the ranges' zones measured, a group
	// wholly in them taken as a tail's (renyi.ZoneDependenceOf: a range is
	// many values, none seen often) unless it holds a cell of one value (a
	// clamp's bound at the support's own end). An event of the highest
	// range alone is the end zone itself, whose share of the evidence is
	// then a half at most whatever lies beyond it: a discrete Gaussian of
	// σ = 300 at λ = 20 passed at half its RDP so. Randomized response
	// over 0…k−1, whose ends are the support's own, reports its telling
	// value at an end, wholly in an end zone of the ranges though nothing
	// lies beyond it: only the zones' share is measured for it.
	Ranged, RangedTails bool
	// Sizes are what the screening counted in each group of Grouping, for
	// a confirmation of fewer draws than the groups were made for (an
	// early or quick look, a finder's check, the deep screening's
	// audition), which merges them (renyi.Coarsen); none for an event.
	Sizes GroupSizes
	// Unreachable: the partition's ends, or the sides of the gaps in its
	// outputs, cannot hold apart from the rest the 2λ² outputs per side a
	// zone needs at the confirmation's size (renyi.EndZones), so the tail
	// the order λ weights cannot be examined.
	Unreachable bool
	// SparseValues, for numbers seen too rarely to be told apart one by
	// one (stat.Table.Values), is the mean pooled count per value of the
	// screening's first half; 0 otherwise. (An event of values chosen on
	// such a table proves nothing about the other values: a set of noise
	// values can be chosen as well as a telling one.)
	SparseValues float64
	// Rare, for a table of values that have no order to range them by
	// (rareValuesOf), holds the share of the screening's draws on values
	// it saw fewer than renyi.RareCount times, and its draws per side;
	// zero otherwise.
	Rare RareValues
	// Alone is the most frequent atom of a real output (a cell of one
	// value inside the partition, not beyond a gap) that the screening
	// saw from the bounded side only, at least FarAloneCount times; zero
	// if none. Its order-λ divergence may be infinite, and the statistic
	// may hold it among other outputs, where no count shows it: the
	// report says so (see innerAloneAtom).
	Alone AloneAtom
	// Inside is, for a grouping of numbers (a table of numeric values),
	// which groups the other side never produced in the screening hold a
	// value with FarAloneCount or more of the other side's outputs below
	// it and as many above (insideGroups); nil for other groupings.
	Inside []bool
	// OneSided is the screening's evidence of values the bounded side
	// alone produces; where it is material (OneSidedValues.material), the
	// groups only the bounded side produced are one (renyi.MergeOneSided)
	// and the screening is weighed by it (weighOneSided).
	OneSided OneSidedValues
	// AloneGroup is then the index, plus one, of the group of Grouping
	// that the pooled screening saw from the bounded side only; 0 if
	// none. A confirmation bounds its divergence as one event as well as
	// the grouped statistic, each at half the confirmation's level
	// (aloneGroupBound).
	AloneGroup int
}

// AloneAtom is a value of a real output, or of a vector's coordinate,
// that one dataset produced Count times in Draws screening draws and the
// other never did.
type AloneAtom struct {
	Value float64
	// Coordinate is the vector's coordinate that took Value (Score.Coords[0]
	// of a coordinate score), -1 for a real output.
	Coordinate   int
	Count, Draws int64
	// Reverse is set when the dataset that produced it is the pair's
	// second (Y): the bounded side of D(M(Y) ‖ M(X)).
	Reverse bool
}

// aloneAtomsOf returns, for each direction (X → Y, then Y → X), the atom
// of one dataset alone (innerAloneAtom) that any of a screening's tables
// (a real output's, a vector's scores'; each pooled with its held-out
// half, once for both directions) counts most often for the bounded side:
// the table whose statistic leads need not be the one that isolates it.
// Tables whose cells are not values of the output (values of a discrete
// output, a learned score) hold no such atom and are not pooled.
func aloneAtomsOf(orders, helds []*stat.Table) (atoms [2]AloneAtom) {
	for k, order := range orders {
		if order.Partition == nil || !order.Partition.OutputValues() {
			continue
		}
		pooled := stat.Pooled(order, helds[k])
		for d, reverse := range []bool{false, true} {
			if a := innerAloneAtom(pooled, reverse); a.Count > atoms[d].Count {
				atoms[d] = a
			}
		}
	}
	return atoms
}

// innerAloneAtom returns the atom of a screening table's partition (of a
// real output or a vector's coordinate; also a single integer of numbers
// screened in ranges; not beyond a gap: farAloneCells sees those) that the
// bounded side (P; Q if reverse) produced most often, at least
// FarAloneCount times, while the other never did, though it produced at
// least FarAloneCount outputs below it and as many above; zero if none.
// Noise with a density repeats no value, so such an atom is an output the
// other dataset never produces, whose divergence is infinite at every
// order, or one it produces far more rarely, in a valley of its
// distribution; the draws cannot tell the two apart until the other
// side's rate the claim allows is within their reach. (The rare values of
// a rounded output's tail, which both datasets produce at very different
// rates, lie beyond the other's outputs on one side, and are not taken.)
func innerAloneAtom(t *stat.Table, reverse bool) AloneAtom {
	part := t.Partition
	if part == nil || !part.OutputValues() {
		return AloneAtom{}
	}
	other := make([]int64, part.Cells()+1) // the other side's outputs before each cell
	for _, c := range t.Cells {
		q := c.Q
		if reverse {
			q = c.P
		}
		other[c.Value.(int)+1] += q
	}
	for i := 1; i < len(other); i++ {
		other[i] += other[i-1]
	}
	coordinate := -1
	if part.Score != nil {
		coordinate = part.Score.Coords[0]
	}
	var best AloneAtom
	for _, c := range t.Cells {
		p, q, n := c.P, c.Q, t.NP
		if reverse {
			p, q, n = q, p, t.NQ
		}
		cell := c.Value.(int)
		inside := other[cell] >= FarAloneCount && other[len(other)-1]-other[cell+1] >= FarAloneCount
		if q == 0 && p >= FarAloneCount && p > best.Count && inside && part.Atom(cell) && !part.Far(cell) {
			best = AloneAtom{Value: part.Point(cell), Coordinate: coordinate, Count: p, Draws: n, Reverse: reverse}
		}
	}
	return best
}

type rdpCriterion[D any] struct {
	src     sampler.Source[D]
	par     renyi.Params
	confirm int
	alpha   float64
}

func (rdpCriterion[D]) Directions() [2]string { return [2]string{"D(M(X)‖M(Y))", "D(M(Y)‖M(X))"} }

// MaxEarlyHoldOrder is the largest Rényi order at which an early look may
// pass a claim: beyond it the order weights tails that a tenth of the
// draws reach still less than the planned confirmation does, and the
// plug-in estimate falls short of the truth (by half at λ = 64 on a
// Gaussian), so only the planned confirmation decides a pass.
const MaxEarlyHoldOrder = 8

// holdsEarly: an early pass at orders up to MaxEarlyHoldOrder only.
func (c rdpCriterion[D]) holdsEarly() bool { return c.par.Lambda <= MaxEarlyHoldOrder }

func (c rdpCriterion[D]) Screen(seed uint64, p fixtures.Pair[D], st plan.Stage) (xy, yx Screened[RenyiFinding], err error) {
	orders, helds, err := heldOutTables(c.src, seed, p, st)
	if err != nil {
		return xy, yx, err
	}
	pooleds := make([]*stat.Table, len(orders)) // each half pooled with the other, once for both directions
	for k := range orders {
		pooleds[k] = stat.Pooled(orders[k], helds[k])
	}
	sparse, rare := sparseCount(orders[0]), rareValuesOf(orders[0], helds[0], pooleds[0])
	alone := aloneAtomsOf(orders, helds)
	tails := make([]bool, len(orders)) // ranges whose values have tails
	for k, t := range orders {
		if t.InRanges() {
			vz, reachable := renyi.EndZones(t.Values, c.par.Lambda, c.confirm)
			tails[k] = vz.Groups > 0 || !reachable
		}
	}
	var out [2]Screened[RenyiFinding]
	for d, reverse := range []bool{false, true} {
		for k := range orders {
			s, err := c.screenDirection(orders[k], helds[k], pooleds[k], reverse)
			if err != nil {
				return xy, yx, err
			}
			s.Finding.SparseValues, s.Finding.Rare = sparse, rare
			s.Finding.Ranged, s.Finding.RangedTails = orders[k].InRanges(), tails[k]
			s.Reason = firstReason(sparseReason(sparse), rare.reason(), s.Reason)
			if k == 0 || s.Rank > out[d].Rank {
				out[d] = s
			}
		}
		out[d].Finding.Alone = alone[d]
	}
	return out[0], out[1], nil
}

// heldOutTables draws a screening in two halves: the first is
// tabulated (orders: its table, and for numbers seen fewer than
// stat.DenseCount times a value also the table of the values,
// stat.Table.Values, for vectors the tables of the other scores,
// stat.Table.Alternatives), the second counted in the first's
// cells (stat.CellGrouping; helds), so that what the first half chose is
// judged on draws that did not choose it.
func heldOutTables[D any](src sampler.Source[D], seed uint64, p fixtures.Pair[D], st plan.Stage) (orders, helds []*stat.Table, err error) {
	half := st.Samples / 2
	s, err := src.Sample(seed, p.X, p.Y, half, st.Pilot)
	if err != nil {
		return nil, nil, err
	}
	order, ok := s.(*stat.Table)
	if !ok {
		return nil, nil, fmt.Errorf("search: no screening of a sample of type %T", s)
	}
	if err := resolvable(order); err != nil {
		return nil, nil, err
	}
	orders = []*stat.Table{order}
	if order.Values != nil {
		orders = append(orders, order.Values)
	}
	orders = append(orders, order.Alternatives...)
	gs := make([]stat.Grouping, len(orders))
	for k, t := range orders {
		gs[k] = stat.CellGrouping(t)
	}
	rest := st.Samples - half
	cx, cy, err := src.Count(plan.SubSeed(seed, "held", 0), p.X, p.Y, 0, rest, gs)
	if err != nil {
		return nil, nil, err
	}
	for k, t := range orders {
		helds = append(helds, stat.Recounted(t, cx[k], cy[k], int64(rest), int64(rest)))
	}
	return orders, helds, nil
}

// screenDirection chooses one direction's statistic (see [RDP]): the
// groups and the event are fixed on order; their predicted confirmation
// bounds, the rank and the screening estimate come from held; the
// grouping confirmed is made on pooled, the two halves' stat.Pooled.
func (c rdpCriterion[D]) screenDirection(order, held, pooled *stat.Table, reverse bool) (Screened[RenyiFinding], error) {
	par := c.par
	par.Alpha = plan.TriggerLevel
	r, plain, grouped, rareAsOne, err := c.heldGrouped(order, held, reverse, par)
	if err != nil {
		return Screened[RenyiFinding]{}, err
	}
	one := oneSidedValuesOf(order, held, reverse)
	event, predicted := renyi.BestEvent(order, held, par.Lambda, c.confirm, reverse, c.alpha)
	zones, reachable := renyi.EndZones(order, par.Lambda, c.confirm)
	// Far outputs of the bounded side alone: no estimate bounds them, so
	// the pair is confirmed first and no look holds the claim.
	farAlone := farAloneCells(pooled, reverse) >= FarAloneCount
	flag := func(s Score) Score {
		if farAlone {
			s.Rank, s.Unbounded = math.Inf(1), true
		}
		return s
	}
	if predicted > 0 && predicted > grouped {
		tp, tq := renyi.GroupTotals(held, event)
		p, q, np, nq := tp[0], tq[0], held.NP, held.NQ
		if reverse {
			p, q, np, nq = q, p, nq, np
		}
		e := renyi.EventBound(p, np, q, nq, par.Lambda, plan.TriggerLevel)
		score := Score{Estimate: e.Estimate, StdErr: e.StdErr, LowerBound: e.LowerBound, Rank: predicted, HeldOut: plain.Estimate, HeldOutStdErr: plain.StdErr}
		c.weighOneSided(&score, one)
		return Screened[RenyiFinding]{flag(score), RenyiFinding{Screening: e, Grouping: event, Event: true, Zones: zones, Unreachable: !reachable, OneSided: one}}, nil
	}
	score := Score{Estimate: r.Estimate, StdErr: r.StdErr, LowerBound: r.LowerBound, Rank: grouped, HeldOut: plain.Estimate, HeldOutStdErr: plain.StdErr}
	// The pooled screening's rare values are not the first half's, and
	// may not lean together: they are then keyed one by one.
	// The values the pooled screening never saw are keyed as one cell by
	// the held-out half's draws of them, not lumped with the lowest ratio.
	keyed := stat.WithUnlisted(pooled, held)
	var grouping stat.Grouping
	if rareAsOne {
		grouping, rareAsOne = renyi.GroupPoolingRare(keyed, par.Lambda, c.confirm, reverse)
	}
	if !rareAsOne {
		grouping = renyi.Group(keyed, par.Lambda, c.confirm, reverse)
	}
	aloneGroup := 0
	if c.weighOneSided(&score, one) {
		var merged int
		grouping, merged = renyi.MergeOneSided(grouping, keyed, reverse)
		aloneGroup = merged + 1
	}
	sizes := groupSizes(keyed, grouping, reverse, c.confirm)
	return Screened[RenyiFinding]{flag(score), RenyiFinding{Screening: r, Grouping: grouping, Sizes: sizes, Zones: zones, Unreachable: !reachable,
		Inside: insideGroups(pooled, grouping, sizes, reverse), OneSided: one, AloneGroup: aloneGroup}}, nil
}

// weighOneSided applies a screening's evidence of values the bounded side
// alone produces (one) to its score s, if it is material there: the
// screening is unresolved, so that refine screens its pair again at the
// confirmation's size, and where the evidence leads, the pair is ranked
// by what the values could show once counted together, ahead of pairs
// whose values both datasets produce. It reports whether it was material
// (the caller then counts the values in one group).
func (c rdpCriterion[D]) weighOneSided(s *Score, one OneSidedValues) bool {
	est := max(s.Estimate, s.HeldOut)
	if !one.material(c.par, est) {
		return false
	}
	if one.leads() {
		s.Rank = max(s.Rank, one.potential(c.par, est))
	}
	s.Reason = one.reason(c.par, est)
	return true
}

// insideGroups returns, for a grouping g of a pooled screening t of
// numbers, oriented for D_λ(P ‖ Q) (D_λ(Q ‖ P) if reverse), which of the
// groups the other side never produced there (sizes.Q[g] = 0) hold a
// value with FarAloneCount or more of the other side's outputs below it
// and as many above: values one dataset alone
// produces amid the other's outputs, not the far tail of a steep output
// (see innerAloneAtom); nil if t is not a table of numbers or no group is
// the bounded side's alone.
func insideGroups(t *stat.Table, g stat.Grouping, sizes GroupSizes, reverse bool) []bool {
	if t.Partition != nil || !slices.Contains(sizes.Q, 0) {
		return nil
	}
	type value struct {
		key   stat.NumberKey
		other int64
		group int
		alone bool
	}
	values := make([]value, 0, len(t.Cells))
	var total int64
	for _, c := range t.Cells {
		key, number := stat.NumberKeyOf(c.Value)
		if !number {
			return nil
		}
		other := c.Q
		if reverse {
			other = c.P
		}
		k, listed := g.OfValue[c.Value]
		values = append(values, value{key, other, k, listed && sizes.Q[k] == 0})
		total += other
	}
	slices.SortFunc(values, func(a, b value) int { return stat.CompareNumberKeys(a.key, b.key) })
	inside := make([]bool, g.Groups)
	var below int64
	for _, v := range values {
		if v.alone && below >= FarAloneCount && total-below-v.other >= FarAloneCount {
			inside[v.group] = true
		}
		below += v.other
	}
	return inside
}

// heldGrouped bounds, on the held-out draws held, the statistic of the
// groups the first half order makes (renyi.Group) for D_λ(P ‖ Q), or
// D_λ(Q ‖ P) if reverse, and ranks it by the bound a confirmation of
// c.confirm draws per side would predictably reach,
//
//	rank = Estimate − z_{1−α}·StdErr·√(n_held/confirm).
//
// Where order's rare values lean to the bounded side together
// (renyi.GroupPoolingRare), it bounds their pooled grouping as well and
// returns that one, with its rank, if its estimate is higher (rareAsOne):
// pooled, a leak spread over many values each too rare to rank is
// counted together, but the pool can dilute a leak on values that their
// own counts rank. The estimates decide, not the ranks: the groups are
// made for the held-out half's size, where a statistic that keeps telling
// values apart has the larger standard error, which the confirmation's
// size then shrinks. (With rare meaning fewer than 16 outputs, a block of
// an exponential mechanism's tail words at e times their rate ranked
// −0.036 in its own groups against 0.016 pooled, estimated 0.031 against
// 0.020, and was confirmed at 0.154 against 0.095.) plain is the bound of
// renyi.Group's grouping whatever the choice: the better of two estimates
// is no longer one on draws that did not choose it (Score.HeldOut).
// Either choice is a function of the screening, so the confirmation's
// bound stays a bound.
func (c rdpCriterion[D]) heldGrouped(order, held *stat.Table, reverse bool, par renyi.Params) (r, plain renyi.Result, rank float64, rareAsOne bool, err error) {
	n := int(held.NP)
	z := numeric.UpperNormalQuantile(c.alpha)
	d := reverseIndex(reverse)
	bound := func(g stat.Grouping) (renyi.Result, float64, error) {
		xy, yx, err := renyi.Both(renyi.Grouped(held, g), par)
		r := [2]renyi.Result{xy, yx}[d]
		return r, r.Estimate - z*r.StdErr*math.Sqrt(float64(n)/float64(c.confirm)), err
	}
	if plain, rank, err = bound(renyi.Group(order, par.Lambda, n, reverse)); err != nil {
		return plain, plain, rank, false, err
	}
	if g, ok := renyi.GroupPoolingRare(order, par.Lambda, n, reverse); ok {
		pr, prank, err := bound(g)
		if err != nil {
			return plain, plain, rank, false, err
		}
		if pr.Estimate > plain.Estimate {
			return pr, plain, prank, true, nil
		}
	}
	return plain, plain, rank, false, nil
}

// GroupSizes are a screening's outputs in each group of a grouping made
// for confirmations of For draws per side (renyi.Group): P[g] of the
// bounded side's NP, Q[g] of the other's NQ.
type GroupSizes struct {
	P, Q   []int64
	NP, NQ int64
	For    int
}

// groupSizes counts the pooled screening t in the groups of g, made for n
// draws, oriented for D_λ(P ‖ Q), or D_λ(Q ‖ P) if reverse.
func groupSizes(t *stat.Table, g stat.Grouping, reverse bool, n int) GroupSizes {
	p, q := renyi.GroupTotals(t, g)
	s := GroupSizes{P: p, Q: q, NP: t.NP, NQ: t.NQ, For: n}
	if reverse {
		s.P, s.Q, s.NP, s.NQ = q, p, t.NQ, t.NP
	}
	return s
}

// merged returns, for a confirmation of n draws per side, each group's
// group once merged as renyi.Coarsen merges them for n draws, and their
// number; nil if the groups were made for n draws or fewer, or s is empty
// (an event).
func (s GroupSizes) merged(n int64, lambda float64) ([]int, int) {
	if s.For == 0 || n >= int64(s.For) {
		return nil, 0
	}
	ep, eq := make([]float64, len(s.P)), make([]float64, len(s.P))
	for g := range s.P {
		ep[g] = float64(s.P[g]) / float64(s.NP) * float64(n)
		eq[g] = float64(s.Q[g]) / float64(s.NQ) * float64(n)
	}
	return renyi.Coarsen(ep, eq, lambda)
}

// mergeCounts returns counts c of groups, each group's zones outputs
// apart (stat.Product with the end zones: group zones·g + z), in the
// groups merged[g] of a coarser grouping of groups groups (GroupSizes.merged).
func mergeCounts(c []int64, merged []int, groups, zones int) []int64 {
	if len(c) != len(merged)*zones {
		panic(fmt.Sprintf("search: %d counts of %d groups of %d zones", len(c), len(merged), zones))
	}
	out := make([]int64, groups*zones)
	for i, v := range c {
		out[merged[i/zones]*zones+i%zones] += v
	}
	return out
}

// atomGroups reports, for ranges of numbers, which groups of f.Grouping
// hold a cell of one value (stat.Partition.Atom); nil for other findings.
func (f *RenyiFinding) atomGroups() []bool {
	if !f.Ranged || f.Grouping.Partition == nil {
		return nil
	}
	atoms := make([]bool, f.Grouping.Groups)
	for c, g := range f.Grouping.OfCell {
		atoms[g] = atoms[g] || f.Grouping.Partition.Atom(c)
	}
	return atoms
}

// FarAloneCount is how many outputs of one dataset alone in far cells a
// screening or a confirmation must count to take them as evidence that
// the divergence may be infinite: a far cell of a heavy tail (Cauchy)
// holds a few outputs of each dataset in a million draws, and one of them
// alone there by chance is not; ten in a row from one side, where the
// ratio is near 1, happen with probability about 2⁻¹⁰.
const FarAloneCount = 10

// farAloneCells returns how many outputs of the bounded side (P; Q if
// reverse) a screening table counts in far cells (stat.Partition.Far) that
// the other side never produced, counting only cells with at least
// renyi.FarFirstCount of them (those every order puts first).
func farAloneCells(t *stat.Table, reverse bool) int64 {
	if t.Partition == nil {
		return 0
	}
	var n int64
	for _, c := range t.Cells {
		p, q := c.P, c.Q
		if reverse {
			p, q = q, p
		}
		if q == 0 && p >= renyi.FarFirstCount && t.Partition.Far(c.Value.(int)) {
			n += p
		}
	}
	return n
}

func (c rdpCriterion[D]) Confirm(seed uint64, p fixtures.Pair[D], st plan.Stage, alpha float64, sxy, syx *RenyiFinding, acc *Counts) (xy, yx Score, err error) {
	gs := groupingsOf(sxy, syx, func(f RenyiFinding) stat.Grouping { return f.counted() })
	cx, cy, err := countOn(c.src, acc, seed, p, st.Samples, gs)
	if err != nil {
		return xy, yx, err
	}
	par := c.par
	par.Alpha = alpha
	n := int64(st.Samples)
	k := 0
	for d, f := range []*RenyiFinding{sxy, syx} {
		if f == nil {
			continue
		}
		cp, cq := cx[k], cy[k]
		k++
		if d == 1 {
			cp, cq = cq, cp
		}
		score, err := f.confirmation(cp, cq, n, par, alpha)
		if err != nil {
			return xy, yx, err
		}
		if a := f.aloneValues(cp, cq, n); a != nil {
			score.AloneValues, score.Unbounded = a, true
			if score.Planned != nil {
				score.Planned.Unbounded = true
			}
		}
		if d == 0 {
			xy = score
		} else {
			yx = score
		}
	}
	return xy, yx, nil
}

// counted is the grouping a confirmation counts: the statistic's, or its
// product with the end zones (stat.Product; group 3g + z) when there are
// zones.
func (f *RenyiFinding) counted() stat.Grouping {
	if f.Zones.Groups > 0 {
		return stat.Product(f.Grouping, f.Zones)
	}
	return f.Grouping
}

// confirmation bounds the statistic from counts cp, cq of f.counted() (cp
// on the side whose divergence from the other is bounded) and says what
// it cannot resolve.
//
// On fewer draws than its groups were made for (an early look), it bounds
// the groups merged (GroupSizes.merged), and the statistic as planned
// too (Score.Planned): the merged one decides a violation, and a hold
// needs both below its limit, so that merging, which lowers the
// statistic's true value, makes no claim easier to hold.
func (f *RenyiFinding) confirmation(cp, cq []int64, n int64, par renyi.Params, alpha float64) (Score, error) {
	if f.AloneGroup == 0 {
		return f.grouped(cp, cq, n, par, alpha)
	}
	par.Alpha = alpha / 2
	score, err := f.grouped(cp, cq, n, par, alpha/2)
	if err == nil {
		f.aloneGroupBound(&score, cp, cq, n, par.Lambda, alpha/2)
	}
	return score, err
}

// aloneGroupBound bounds, at level alpha, the order-λ divergence of the
// one event of f.AloneGroup (renyi.EventBound on its counts among cp, cq,
// the bounded side's first), and raises s's LowerBound to it where it is
// higher (Score.AloneEvent). The grouped statistic floors the other
// side's share of that group at τ, which at order λ weighs it less than
// its counts do: values one dataset alone produces in 0.3% of its draws,
// beside a rounded Gaussian, bounded D₂ at 0.45–0.49 grouped against a
// claim of 0.5 (robustness, own values: 12 audits of 30 inconclusive)
// while their own counts bounded it above. The event is a
// post-processing chosen on the screening, so its divergence is at most
// the mechanism's; with the grouped statistic at the other half of the
// level, the larger of the two bounds exceeds the truth with probability
// at most the confirmation's level.
func (f *RenyiFinding) aloneGroupBound(s *Score, cp, cq []int64, n int64, lambda, alpha float64) {
	zones, g := max(f.Zones.Groups, 1), f.AloneGroup-1
	p, q := sumZones(cp, zones)[g], sumZones(cq, zones)[g]
	if e := renyi.EventBound(p, n, q, n, lambda, alpha); e.LowerBound > s.LowerBound {
		s.AloneEvent = &AloneEvent{Counts: [2]int64{p, q}, Level: alpha, Estimate: e.Estimate, Grouped: s.LowerBound}
		s.LowerBound = e.LowerBound
	}
}

// AloneGroupValues describes the group of f.AloneGroup: how many values
// the grouping lists in it, one of them printed (the median in printed
// order), and whether it also holds the values the screening never saw;
// zeros if there is none.
func (f *RenyiFinding) AloneGroupValues() (values int, example string, unlisted bool) {
	if f.AloneGroup == 0 {
		return 0, "", false
	}
	g := f.AloneGroup - 1
	var list []string
	for v, k := range f.Grouping.OfValue {
		if k == g {
			list = append(list, fmt.Sprint(v))
		}
	}
	return len(list), medianPrinted(list), f.Grouping.Unlisted == g
}

// medianPrinted sorts printed values and returns the median one ("" for
// none): a group's example, which a few values of the noise's tail beside
// many of a leak's do not move.
func medianPrinted(list []string) string {
	if len(list) == 0 {
		return ""
	}
	slices.Sort(list)
	return list[len(list)/2]
}

// grouped is confirmation's bound of the grouped statistic alone, at
// level alpha (par.Alpha).
func (f *RenyiFinding) grouped(cp, cq []int64, n int64, par renyi.Params, alpha float64) (Score, error) {
	zones := max(f.Zones.Groups, 1)
	far := farAlone(f.Grouping, sumZones(cp, zones), sumZones(cq, zones))
	atoms := f.atomGroups()
	into, groups := f.Sizes.merged(n, par.Lambda)
	if into == nil || groups == len(into) {
		return f.bound(cp, cq, far, atoms, n, par, alpha)
	}
	var mergedAtoms []bool
	if atoms != nil {
		mergedAtoms = make([]bool, groups)
		for g, a := range atoms {
			mergedAtoms[into[g]] = mergedAtoms[into[g]] || a
		}
	}
	merged, err := f.bound(mergeCounts(cp, into, groups, zones), mergeCounts(cq, into, groups, zones), far, mergedAtoms, n, par, alpha)
	if err != nil {
		return merged, err
	}
	planned, err := f.bound(cp, cq, far, atoms, n, par, alpha)
	merged.Planned = &planned
	return merged, err
}

// bound bounds the statistic from counts cp, cq of f.counted() or of its
// groups merged, far of them alone beyond a gap (farAlone), atoms the
// groups holding a cell of one value (atomGroups).
func (f *RenyiFinding) bound(cp, cq []int64, far int64, atoms []bool, n int64, par renyi.Params, alpha float64) (Score, error) {
	var dependence float64
	var zp, zq []int64 // counts of the zones
	if f.Zones.Groups > 0 {
		if !f.Ranged || f.RangedTails {
			values := f.Zones.Partition == nil
			dependence = renyi.ZoneDependenceOf(cp, cq, f.Zones.Groups, par.Lambda, func(g int) bool {
				return values || f.Ranged && (atoms == nil || !atoms[g])
			})
		}
		zp, zq = zoneTotals(cp, f.Zones.Groups), zoneTotals(cq, f.Zones.Groups)
		cp, cq = sumZones(cp, f.Zones.Groups), sumZones(cq, f.Zones.Groups)
	}
	var r renyi.Result
	if f.Event {
		r = renyi.EventBound(cp[0], n, cq[0], n, par.Lambda, alpha)
	} else if b, _, err := renyi.Both(stat.Counted(cp, cq, n, n), par); err != nil {
		return Score{}, err
	} else {
		r = b
	}
	score := Score{Estimate: r.Estimate, StdErr: r.StdErr, LowerBound: r.LowerBound, TailDependence: dependence,
		Unbounded: f.Event && cp[0] > 0 && cq[0] == 0}
	if zp != nil {
		score.TailShare = renyi.ZoneShare(zp, zq, n, par.Lambda, r.Estimate)
	}
	if need := 2 * par.Lambda * par.Lambda; f.Unreachable && need > float64(n)/renyi.ZoneFraction {
		score.Reason = &verdict.EndsTooFew{Lambda: par.Lambda, Samples: int(n), ZoneFraction: renyi.ZoneFraction}
	} else if f.Unreachable {
		score.Reason = &verdict.TailsUnreached{Lambda: par.Lambda}
	}
	if r := firstReason(sparseReason(f.SparseValues), f.Rare.reason()); r != nil {
		score.Reason = r
	}
	if far >= FarAloneCount {
		score.Unbounded, score.FarAlone = true, true
		score.Reason = &verdict.FarOutputs{Far: far, Samples: n, Lambda: par.Lambda}
	}
	return score, nil
}

// AloneValues is a group of values of a Rényi confirmation (a grouping
// of a table of values) that the bounded side produced Draws times, of Of
// draws, FarAloneCount or more, and the other side never did in as many:
// outputs the other dataset may never produce, whose divergence is then
// infinite, or produces too rarely for the draws to show. Values is how
// many values the grouping lists in the group, Example one of them (the
// median in printed order: the group may hold a few values of the noise's
// tail beside many of the leak's), printed, and Unlisted is set when the
// group also holds the values the screening never saw. Only a group of
// AloneValuesCount values or more (or, of outputs that are not numbers,
// one holding the unlisted values) is taken, and of numbers only a group
// with a value amid the other side's outputs (RenyiFinding.Inside): a few
// values are more likely the far tail of a steep discrete output (a
// rounded Gaussian's, as numbers or as strings), which both datasets
// produce at very different rates, and of numbers, their order tells
// such a tail (beyond the other's outputs, and the values beyond the
// screening's range, unlisted) from outputs inside the other's.
type AloneValues struct {
	Draws, Of int64
	Values    int
	Example   string
	Unlisted  bool
}

// AloneValuesCount is the fewest listed values a group of AloneValues
// holds, unless it holds the unlisted ones (of outputs that are not
// numbers).
const AloneValuesCount = 10

// aloneValues returns the group of f's grouping of values that counts cp,
// cq (f.counted()'s, the bounded side's first) show as the bounded side's
// alone (AloneValues), the one of most draws among those it takes; nil if
// none, or if f is an
// event or groups a partition's cells. The estimator floors the other
// side's share of such a group at τ, so its estimate and standard error
// set the statistic no upper limit, and no look may hold a claim on it
// (Confirm sets Score.Unbounded).
func (f *RenyiFinding) aloneValues(cp, cq []int64, n int64) *AloneValues {
	if f.Event || f.Grouping.OfValue == nil {
		return nil
	}
	zones := max(f.Zones.Groups, 1)
	cp, cq = sumZones(cp, zones), sumZones(cq, zones)
	printed := make(map[int][]string) // the listed values of each group of the bounded side alone
	for g := range cp {
		if cq[g] == 0 && cp[g] >= FarAloneCount {
			printed[g] = nil
		}
	}
	if len(printed) == 0 {
		return nil
	}
	numbers := true
	for v, g := range f.Grouping.OfValue {
		_, number := stat.NumberKeyOf(v)
		numbers = numbers && number
		if list, alone := printed[g]; alone {
			printed[g] = append(list, fmt.Sprint(v))
		}
	}
	best := -1
	for g, list := range printed {
		unlisted := f.Grouping.Unlisted == g
		switch {
		case numbers && !(g < len(f.Inside) && f.Inside[g]):
		case len(list) < AloneValuesCount && (numbers || !unlisted):
		case best < 0 || cp[g] > cp[best] || cp[g] == cp[best] && g < best:
			best = g
		}
	}
	if best < 0 {
		return nil
	}
	return &AloneValues{Draws: cp[best], Of: n, Values: len(printed[best]), Example: medianPrinted(printed[best]), Unlisted: f.Grouping.Unlisted == best}
}

// farAlone returns how many outputs counted cp fell in groups of g made
// only of far cells (beyond a gap in the screening's tails,
// stat.Partition.Far) that the other side, counted cq, never produced: 0
// if none. Noise with a density leaves no such gap, and a discrete
// output's tail none but its spacing, so those outputs are what one
// dataset alone produces, and no count of the other's can bound their
// divergence. (An atom alone proves less: the extreme value of a discrete
// output, or of a learned score that is a step function, is produced by
// both datasets at very different rates, and a million draws of one may
// hold none of it.)
func farAlone(g stat.Grouping, cp, cq []int64) int64 {
	if g.Partition == nil {
		return 0
	}
	far := make([]bool, g.Groups)
	for k := range far {
		far[k] = true
	}
	seen := make([]bool, g.Groups)
	for c, k := range g.OfCell {
		seen[k] = true
		far[k] = far[k] && g.Partition.Far(c)
	}
	var n int64
	for k := range far {
		if seen[k] && far[k] && cp[k] > 0 && cq[k] == 0 {
			n += cp[k]
		}
	}
	return n
}

// zoneTotals turns counts of a product with zones end zones (group zones·g + z)
// into counts of the zones z.
func zoneTotals(c []int64, zones int) []int64 {
	out := make([]int64, zones)
	for i, v := range c {
		out[i%zones] += v
	}
	return out
}

// sumZones turns counts of a product with zones end zones (group zones·g + z)
// into counts of the groups g.
func sumZones(c []int64, zones int) []int64 {
	out := make([]int64, len(c)/zones)
	for i, v := range c {
		out[i/zones] += v
	}
	return out
}

// DP is the criterion of a pure-DP audit by the local approach of [AKD22]:
// the maximal loss ln f_X(t) − ln f_Y(t) over values or cells t (screening,
// DPL), confirmed on fresh samples in the event the screening chose (MPL).
// Numbers seen fewer than stat.DenseCount times a value are screened one
// by one and in ranges of adjacent values (stat.Table.Values); each
// direction keeps the screening of higher rank, so a loss spread over many
// values (the flat tail of a wide discrete Laplace) is found in ranges,
// where each value's own estimate is too noisy to locate it; so are a
// vector's alternative scores, and each table's RunsApart (runs of one
// side's outputs alone among its extremes, in cells of their own). The
// event of real outputs is chosen for a confirmation of confirm draws per side at
// level alpha (local.Params): the planned one, also when an early or quick
// look confirms on fewer draws (which only costs that look some power).
func DP[D any](src sampler.Source[D], rules plan.LocalRules, confirm int, alpha float64) Criterion[D, local.Estimate] {
	return DPClaim(src, rules, confirm, alpha, 0)
}

// DPClaim is DP for an audit of the claim ε = claim: beside each
// direction's event it confirms a second where the screening predicts a
// bound above the claim there (local.Params.Claim), the one predicted
// highest among all the tables it screens (bestSecond).
func DPClaim[D any](src sampler.Source[D], rules plan.LocalRules, confirm int, alpha, claim float64) Criterion[D, local.Estimate] {
	return dpCriterion[D]{src, local.Params{Region: rules.Region, Tau: rules.Floor, FloorCount: rules.FloorCount, Confirm: confirm, Alpha: alpha, Claim: claim}}
}

type dpCriterion[D any] struct {
	src sampler.Source[D]
	par local.Params
}

func (dpCriterion[D]) Directions() [2]string {
	return [2]string{"ln f_X − ln f_Y", "ln f_Y − ln f_X"}
}

func (c dpCriterion[D]) Screen(seed uint64, p fixtures.Pair[D], st plan.Stage) (xy, yx Screened[local.Estimate], err error) {
	s, err := c.src.Sample(seed, p.X, p.Y, st.Samples, st.Pilot)
	if err != nil {
		return xy, yx, err
	}
	samples, sparse := []stat.Sample{s}, 0.0
	if t, ok := s.(*stat.Table); ok {
		if err := resolvable(t); err != nil {
			return xy, yx, err
		}
		if t.Values != nil {
			samples = append(samples, t.Values)
		}
		if t.RunsApart != nil {
			samples = append(samples, t.RunsApart)
		}
		for _, a := range t.Alternatives {
			samples = append(samples, a)
			if a.RunsApart != nil {
				samples = append(samples, a.RunsApart)
			}
		}
		sparse = sparseCount(t)
	}
	rank := func(e local.Estimate) Screened[local.Estimate] {
		e.SparseValues = sparse
		return Screened[local.Estimate]{Score{Estimate: e.Loss, StdErr: e.StdErr, Rank: e.Loss - local.PeakPenalty*e.StdErr, Reason: sparseReason(sparse)}, e}
	}
	var firstErr error
	var xys, yxs []local.Estimate
	for _, s := range samples {
		a, b, err := local.Screen(s, c.par)
		if err != nil {
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		if ra, rb := rank(a), rank(b); xys == nil {
			xy, yx = ra, rb
		} else {
			xy, yx = higher(xy, ra), higher(yx, rb)
		}
		xys, yxs = append(xys, a), append(yxs, b)
	}
	if xys == nil {
		return xy, yx, firstErr
	}
	bestSecond(&xy.Finding, xys)
	bestSecond(&yx.Finding, yxs)
	return xy, yx, nil
}

// bestSecond gives w, the screening of one direction that ranks highest,
// the second event (local.Estimate.Alt) of the highest predicted bound
// among the screenings es of all the tables of its draws, where that lies
// above w's own second event's and w's event's, with its table's curve
// (AltCurve). The tables count the same draws cut differently or reduced
// by different scores: a run of outputs one dataset alone reached may be
// a block of its own in stat.Table.RunsApart, or a vector's rare value an
// extreme of one score and not of another, while the table whose peak
// ranks highest merges it with the noise beside it. (Two coordinates,
// one shifted by 0.2 and one replaced by 10 once in 1,000 draws for one
// dataset alone, claimed at ε = 1 with 200,000 draws a side: the local
// run confirmed a bound above 1 in 22 of 41 audits with this, 11
// without.) w's AltBound is 0 when it has no second event, under any
// claim.
func bestSecond(w *local.Estimate, es []local.Estimate) {
	for _, e := range es {
		if e.Alt.Groups > 0 && e.AltBound > max(w.EventBound, w.AltBound) {
			w.Alt, w.AltLocation, w.AltBound, w.AltCurve = e.Alt, e.AltLocation, e.AltBound, e.Curve
		}
	}
}

// higher returns the screening of higher rank, a on a tie.
func higher[F any](a, b Screened[F]) Screened[F] {
	if b.Rank > a.Rank {
		return b
	}
	return a
}

func (c dpCriterion[D]) Confirm(seed uint64, p fixtures.Pair[D], st plan.Stage, alpha float64, sxy, syx *local.Estimate, acc *Counts) (xy, yx Score, err error) {
	var gs []stat.Grouping
	for _, e := range []*local.Estimate{sxy, syx} {
		if e != nil {
			gs = append(gs, e.Event)
			if e.Alt.Groups > 0 {
				gs = append(gs, e.Alt)
			}
		}
	}
	cx, cy, err := countOn(c.src, acc, seed, p, st.Samples, gs)
	if err != nil {
		return xy, yx, err
	}
	n := int64(st.Samples)
	k := 0
	// bound scores the next grouping's event (and its second, if any)
	// for the direction whose bounded side's counts are on, against
	// other's.
	bound := func(e *local.Estimate, on, other [][]int64) Score {
		events := 1
		if e.Alt.Groups > 0 {
			events = 2
		}
		var s Score
		for j := range events {
			level := alpha / float64(events)
			b := local.CountBound(on[k][0], n, other[k][0], n, level)
			t := Score{Estimate: b.Loss, StdErr: b.StdErr, LowerBound: b.LowerBound, Unbounded: b.CountX > 0 && b.CountY == 0,
				EventShare: float64(b.CountX) / float64(n), Counts: [2]int64{b.CountX, b.CountY}, Level: level, Reason: sparseReason(e.SparseValues)}
			k++
			if j == 0 {
				s = t
				continue
			}
			t.AltEvent = true
			if t.LowerBound > s.LowerBound {
				s, t = t, s
			}
			s.Second = &t
		}
		return s
	}
	if sxy != nil {
		xy = bound(sxy, cx, cy)
	}
	if syx != nil {
		yx = bound(syx, cy, cx)
	}
	return xy, yx, nil
}

// SupResolution reads a resolution r of the loss ln P(E) − ln Q(E) of the
// confirmed event E on the scale of the claim, the supremum of the loss:
// an ε-DP mechanism keeps both P(E) ≤ e^ε·Q(E) and, on the complement,
// 1 − Q(E) ≤ e^ε·(1 − P(E)), so an event holding a share P = P(E) of the
// outputs shows a loss of at most
//
//	min(ε, ln(P / (1 − e^ε·(1 − P))))   (the second where e^ε·(1 − P) < 1),
//
// and a loss of r on it needs ε ≥ max(r, ln((1 − P·e^{−r}) / (1 − P))).
// An event of most outputs (its loss near 0, its error tiny) thus states
// no resolution it lacks: a loss of 0.0135 caught on an event of 80% of
// the outputs is a level ε of 0.052. A share of 1 resolves nothing.
func (dpCriterion[D]) SupResolution(r float64, s Score) float64 {
	p := s.EventShare
	if !(p < 1) {
		return math.Inf(1)
	}
	return max(r, math.Log((1-p*math.Exp(-r))/(1-p)))
}

// sparseCount is, for a table of ranges of numbers whose values are
// sparse (stat.Table.Values), the mean pooled count per value; 0 otherwise,
// and for real outputs on a grid (stat.Table.Gridded), whose cells hold
// every value.
func sparseCount(t *stat.Table) float64 {
	if v := t.Values; v != nil && v.Sparse() && !t.Gridded {
		return float64(v.NP+v.NQ) / float64(len(v.Cells))
	}
	return 0
}

// sparseReason is why a pass on numbers seen about perValue times each
// in the screening proves little, or nil for perValue = 0.
func sparseReason(perValue float64) verdict.Reason {
	if perValue == 0 {
		return nil
	}
	return &verdict.SparseNumbers{PerValue: perValue}
}

// firstReason returns the first of rs that is not nil, or nil.
func firstReason(rs ...verdict.Reason) verdict.Reason {
	for _, r := range rs {
		if r != nil {
			return r
		}
	}
	return nil
}

// RareShare is the share of a screening's draws on rare values (seen
// fewer than renyi.RareCount times each in it, both sides pooled, and
// those only its held-out half drew) from which a table of values that
// have no order leaves a Rényi screening unresolved, so that the leading
// pairs are screened again at the confirmation's size (refine), and the
// audit inconclusive if they are still that rare there. The statistic
// ranks values by their counts (renyi.Group), which cannot rank values
// that rare: where they carry a leak, it is averaged with values of low
// ratio. A block of 500 of 5,000 Zipf words that one dataset produces e
// times as often (D_5 = 0.301), whose rare values hold about 8.5% of a
// screening of 10⁵ draws per side, was bounded at 0.44–0.70 of its D_λ
// at λ = 2, 5, 10 from that screening, and a 1.5-fold violation passed;
// screened at 10⁶ draws a side, the same groups bound 0.88–0.96 of it
// (3 seeds each). A hundredth leaves the usual outputs alone (the tails
// of a rounded Gaussian of σ = 5 hold 1.3·10⁻⁴ of a screening of 10⁵
// draws per side on such values, 1.7·10⁻⁵ of one of 10⁶); a leak on a
// smaller share (twenty strings, 0.09% of one dataset's outputs) is not
// covered.
const RareShare = 0.01

// RareValues is the share of a screening's draws on values it saw fewer
// than renyi.RareCount times (both sides pooled), and its draws per side.
type RareValues struct {
	Share float64
	Draws int64
}

// rareValuesOf measures the rare values of a screening drawn in two
// halves, order (a table) and held (its draws counted in order's cells,
// stat.CellGrouping), in pooled (their stat.Pooled), from which the
// statistic confirmed is made: the values seen fewer than
// renyi.RareCount times in both, and those only held drew (its Unlisted
// cell). Only for tables of values that have no order to range them by,
// and dense numbers (each value seen 1,000 times on average in the first
// half, so that their rare values hold about 0.6% of the draws at most,
// under RareShare); zero for a partition's cells, and for numbers
// screened in ranges, whose sparseness sparseCount measures.
func rareValuesOf(order, held, pooled *stat.Table) RareValues {
	if order.Partition != nil || order.InRanges() || pooled.NP+pooled.NQ == 0 {
		return RareValues{}
	}
	var rare int64
	for _, c := range pooled.Cells {
		if c.P+c.Q < renyi.RareCount {
			rare += c.P + c.Q
		}
	}
	for _, c := range held.Cells {
		if _, unlisted := c.Value.(stat.Unlisted); unlisted {
			rare += c.P + c.Q
		}
	}
	return RareValues{float64(rare) / float64(pooled.NP+pooled.NQ), pooled.NP}
}

// OneSidedShare is the share of a Rényi screening's order-λ sum
// e^{(λ−1)·D} that values one dataset alone seems to produce must be able
// to add, counted in a confirmation on the estimator's floor (see
// OneSidedValues.material), for the screening to be left unresolved, so
// that refine screens its pair again at the confirmation's size, where
// ten times the draws list the values, and ranked by what they could
// show (OneSidedValues.potential). Measured on 100,000 draws a side: a
// rounded Gaussian (σ = 2) beside which each dataset draws, in 0.3% of its
// draws, one of 1,000 strings of its own (D = ∞) reaches 0.7–3.4%; a
// rounded Gaussian of σ = 0.7 shifted by 1, whose far tail one dataset
// draws tens of times more often than the other, 0.03–0.07% (0 seeds of
// 8 pass it, nor at σ = 1 or 2 shifted by 1). Steep tails that hold much
// of the divergence do pass it (integers rounded from a Gaussian of σ = 2
// shifted by 2 or 4, whose tail beyond the other's outputs holds a sixth
// of e^{D₂}, in 7 and 8 seeds of 8; σ = 0.5 shifted by 1, 8 of 8): those
// pairs are then screened again too, which costs a screening, not a
// verdict.
const OneSidedShare = 0.005

// OneSidedValues is the evidence, in a screening of values drawn in two
// halves, of values that the bounded side alone produces: of the held-out
// half's Draws draws per side, Held of the bounded side's fell on values
// the first half saw from that side alone (of which First of its
// FirstDraws draws), or on values the first half never saw (First 0),
// and Other, at most 1/OneSidedRatio as many, of the other side's.
type OneSidedValues struct {
	Held, Other, Draws int64
	First, FirstDraws  int64
}

// OneSidedRatio is how many times the other side's held-out draws the
// bounded side's must be on the values the first half saw from the
// bounded side alone (or on those it never saw) for OneSidedValues to
// count them: values seen on one side only by chance, rare values both
// datasets produce at a ratio near 1, are drawn again by both sides
// alike, while one dataset's own values may share the event with a few
// values of a steep output's tail that the other side draws too, rarely.
const OneSidedRatio = 20

// oneSidedValuesOf reads OneSidedValues from a screening of values, order
// and held (its draws counted in order's cells, stat.CellGrouping), for
// D_λ(P ‖ Q), or D_λ(Q ‖ P) if reverse: the values order saw from P
// alone, or else those it never saw (held's Unlisted cell: values that
// never repeat), whichever the bounded side drew more often in held by
// OneSidedRatio to one; zero for a partition's cells, or if neither.
func oneSidedValuesOf(order, held *stat.Table, reverse bool) OneSidedValues {
	if order.Partition != nil {
		return OneSidedValues{}
	}
	oriented := func(c stat.Cell) (p, q int64) {
		if reverse {
			return c.Q, c.P
		}
		return c.P, c.Q
	}
	n, _ := oriented(stat.Cell{P: held.NP, Q: held.NQ})
	first, _ := oriented(stat.Cell{P: order.NP, Q: order.NQ})
	listed := OneSidedValues{Draws: n, FirstDraws: first}
	alone := make(map[any]bool)
	for _, c := range order.Cells {
		if p, q := oriented(c); p > 0 && q == 0 {
			alone[c.Value], listed.First = true, listed.First+p
		}
	}
	unlisted := OneSidedValues{Draws: n, FirstDraws: first}
	for _, c := range held.Cells {
		p, q := oriented(c)
		if _, ok := c.Value.(stat.Unlisted); ok {
			unlisted.Held, unlisted.Other = p, q
		} else if alone[c.Value] {
			listed.Held, listed.Other = listed.Held+p, listed.Other+q
		}
	}
	var best OneSidedValues
	for _, o := range []OneSidedValues{listed, unlisted} {
		if o.Other*OneSidedRatio <= o.Held && o.Held > best.Held {
			best = o
		}
	}
	return best
}

// OneSidedLeadCount is how many held-out draws of the bounded side, and
// none of the other's, on values the first half saw from it alone rank a
// pair by what they could show (OneSidedValues.leads). At high orders
// almost any such share could show much (a^λ·τ^{1−λ}), and values both
// datasets produce at a ratio r near those of a claim lie on one side
// twenty times in a row with probability (r/(1 + r))^20, 2.6% at r = 5
// (strings one dataset draws five times as often: with ten draws and
// a ratio of 20 to one as the test, such pairs led at λ = 5 and were
// confirmed on statistics too noisy to decide, 3 correct claims of 10
// inconclusive against 1).
const OneSidedLeadCount = 2 * FarAloneCount

// leads reports whether the evidence is strong enough to rank the pair by
// potential: OneSidedLeadCount held-out draws or more of the bounded side,
// none of the other's.
func (o OneSidedValues) leads() bool { return o.Other == 0 && o.Held >= OneSidedLeadCount }

// potential is the order-λ divergence a confirmation could show if the
// values of OneSidedValues were one group that the other side never
// produced, beside a statistic estimated at estimate: the group adds
// a^λ·τ^{1−λ} to the estimator's sum e^{(λ−1)·estimate}, τ its floor on
// probabilities (par.DiscreteTau) and a the larger of the bounded side's
// shares of them in the two halves (in the first, values seen once are
// all the values it lists; the held-out half redraws only some).
func (o OneSidedValues) potential(par renyi.Params, estimate float64) float64 {
	a := float64(o.Held) / float64(max(o.Draws, 1))
	if o.FirstDraws > 0 {
		a = max(a, float64(o.First)/float64(o.FirstDraws))
	}
	l := par.Lambda
	return numeric.LogAddExp((l-1)*max(estimate, 0), aloneGroupTerm(a, par)) / (l - 1)
}

// aloneGroupTerm is ln(a^λ·τ^{1−λ}): what a group of share a that the
// other side never produced adds to the estimator's order-λ sum, τ its
// floor on probabilities (par.DiscreteTau).
func aloneGroupTerm(a float64, par renyi.Params) float64 {
	return par.Lambda*math.Log(a) + (1-par.Lambda)*math.Log(par.DiscreteTau)
}

// material reports whether one-sided values of held share a =
// Held/Draws could raise a Rényi confirmation at par's order λ by
// OneSidedShare of its order-λ sum, e^{(λ−1)·estimate}, if the other side
// never produced them: a group the other side never produced adds
// a^λ·τ^{1−λ} to the estimator's sum, τ its floor on probabilities
// (par.DiscreteTau). Fewer than FarAloneCount held draws are no evidence.
func (o OneSidedValues) material(par renyi.Params, estimate float64) bool {
	if o.Held < FarAloneCount || o.Draws <= 0 || !(par.DiscreteTau > 0) {
		return false
	}
	a := float64(o.Held) / float64(o.Draws)
	return aloneGroupTerm(a, par) >= math.Log(OneSidedShare)+(par.Lambda-1)*max(estimate, 0)
}

// reason explains why a screening showing material one-sided values
// leaves its pair to be screened again, or is empty.
func (o OneSidedValues) reason(par renyi.Params, estimate float64) verdict.Reason {
	if !o.material(par, estimate) {
		return nil
	}
	return &verdict.ScreeningOneSided{Held: int64(o.Held), Draws: int64(o.Draws), Other: int64(o.Other), NeverSeen: o.First == 0}
}

// reason explains why a pass on values whose rare ones hold RareShare of
// the screening's draws or more proves little, or is empty below it.
func (r RareValues) reason() verdict.Reason {
	if !(r.Share >= RareShare) {
		return nil
	}
	return &verdict.RareValues{Count: renyi.RareCount, Draws: int(r.Draws), Share: r.Share}
}

// resolvable returns a *stat.SparseError for a table of values that barely
// repeat and have no order to group them by.
func resolvable(t *stat.Table) error {
	if t.Partition == nil && t.Sparse() {
		return &stat.SparseError{Values: len(t.Cells), Draws: t.NP + t.NQ}
	}
	return nil
}
