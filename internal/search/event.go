package search

import (
	"math"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
	"github.com/dptest/dptest/internal/verdict"
)

// EventParts is the number of groups of about equal pooled count into which
// an event criterion's screening cuts the outputs, in the order it chose
// (by estimated ratio, or by position): the confirmation counts them all,
// so that beside the event it bounds it also sees the tests at their
// boundaries, likelihood-ratio tests or half-lines (see [EventFinding]).
const EventParts = 32

// EventSmoothCount is the pooled count of the window of adjacent cells
// over which a screening of real or ranged outputs also estimates each
// cell's ratio (stat.Smoothed), to order the cells by: a cell of a few
// dozen draws has a log-ratio error of about ¼, which scatters the cells
// near the best test's threshold across it (the Gaussian mechanism's
// hockey-stick event then holds about 9% less than the best). Every
// order is tried (raw, one-sided, smoothed and, for a hockey-stick
// divergence at δ > 0, by position) and the one predicted to bound
// highest is kept.
const EventSmoothCount = 400

// Event is the criterion of the approximate-DP (measure
// hockey.HockeyStick(ε)) and Gaussian-DP (hockey.Gaussian()) audits: a
// measure that one event E bounds from below through its probabilities
// under both datasets. The screening, in two halves as the Rényi
// criterion's (the first orders the values or cells by estimated ratio,
// and for a hockey-stick divergence claimed at δ > 0 the cells of numbers
// by position too, the second predicts), chooses the likelihood-ratio
// test {p/q > c}, or the half-line of outputs, whose exact bound on
// confirm fresh draws per side at level alpha it predicts largest
// (renyi.PrefixGroups); the confirmation counts fresh outputs in
// it and bounds the measure with exact Clopper–Pearson bounds
// (hockey.Measure.Bound): no normal approximation.
//
// The audit's threshold (δ, or μ) lets a confirmation say when outputs the
// screening never saw (values of a table it did not list), drawn by the
// bounded side beyond the other side's draws of the same values, hold
// enough of its draws to hide a violation (see unseen): their ratio
// cannot be told, so the pass is unresolved.
func Event[D any](src sampler.Source[D], m hockey.Measure, confirm int, alpha, threshold float64) Criterion[D, EventFinding] {
	return eventCriterion[D]{src, m, confirm, alpha, threshold}
}

// EventFinding is what the screening of one direction found: the ordered
// groups of outputs, the event E (the first InEvent groups) and, for
// numbers seen too rarely to tell apart, their mean pooled count per value
// (as [RenyiFinding.SparseValues]).
type EventFinding struct {
	Groups       stat.Grouping
	InEvent      int
	SparseValues float64
	// Gridded is set when the event was chosen on the values one by one
	// of real outputs on a grid (stat.Table.Gridded), whose cells, which
	// hold every value, were screened beside them: values the screening
	// never saw are no reason of their own to leave the audit unresolved
	// (see unseen).
	Gridded bool
	// Alone is, for Gaussian DP, the screening's most frequent atom of one
	// dataset alone (see RenyiFinding.Alone): a test of level 0 and
	// positive power, which no finite μ allows, but which a finite number
	// of draws shows only once the other dataset's rate a claim allows is
	// within their reach.
	Alone AloneAtom
}

type eventCriterion[D any] struct {
	src       sampler.Source[D]
	measure   hockey.Measure
	confirm   int
	alpha     float64
	threshold float64
}

// ResolutionFloor is the least true value of the measure that any event
// could show above threshold at n draws per side (hockey.Measure.Least):
// see [Run].
func (c eventCriterion[D]) ResolutionFloor(threshold float64, n int, alpha float64) float64 {
	return c.measure.Least(threshold, n, alpha, numeric.UpperNormalQuantile(1-math.Sqrt(DetectProbability)))
}

func (c eventCriterion[D]) Directions() [2]string {
	return [2]string{c.measure.Name + "(M(X)‖M(Y))", c.measure.Name + "(M(Y)‖M(X))"}
}

func (c eventCriterion[D]) Screen(seed uint64, p fixtures.Pair[D], st plan.Stage) (xy, yx Screened[EventFinding], err error) {
	orders, helds, err := heldOutTables(c.src, seed, p, st)
	if err != nil {
		return xy, yx, err
	}
	sparse := sparseCount(orders[0])
	// Each table is ordered raw, raw with the cells of one side alone
	// first by their exact bounds (renyi.OneSidedKeys) and, for real or
	// ranged outputs, smoothed (the same for both directions) and by
	// position (half-lines), and predicted on its held draws.
	type ordering struct {
		order, held *stat.Table
		keys        renyi.Keys
	}
	var orderings []ordering
	for k, order := range orders {
		orderings = append(orderings, ordering{order, helds[k], renyi.PenalisedKeys}, ordering{order, helds[k], renyi.OneSidedKeys})
		if smooth := stat.Smoothed(order, EventSmoothCount); smooth != nil {
			orderings = append(orderings, ordering{smooth, helds[k], renyi.PenalisedKeys})
		}
		if c.halfLines(order) {
			orderings = append(orderings, ordering{order, helds[k], renyi.LowerFirstKeys}, ordering{order, helds[k], renyi.UpperFirstKeys})
		}
	}
	// The event is the ordering whose bound is predicted highest; the
	// margin must hold on every ordering screened (MarginHeld), since each
	// is a statistic the audit could have confirmed: a vector's score that
	// did not lead (a coordinate one dataset alone sets to 10 once in 1,000
	// draws, beside the coordinate that leads by its shift), or outputs of
	// one dataset alone that only the one-sided order counts apart.
	var alone [2]AloneAtom
	if c.measure.Weight == 0 { // Gaussian DP
		alone = aloneAtomsOf(orders, helds)
	}
	var out [2]Screened[EventFinding]
	for d, reverse := range []bool{false, true} {
		held := true
		for i, o := range orderings {
			s := c.screenOrder(o.order, o.held, reverse, o.keys)
			s.Finding.SparseValues, s.Reason = sparse, sparseReason(sparse)
			s.Finding.Gridded = o.order.Gridded
			held = held && s.MarginHeld
			if i == 0 {
				out[d] = s
			} else {
				out[d] = higher(out[d], s)
			}
		}
		out[d].MarginHeld = held
		out[d].Finding.Alone = alone[d]
	}
	return out[0], out[1], nil
}

// halfLines reports whether the screening also orders the cells of a table
// by position (renyi.LowerFirstKeys, UpperFirstKeys), every prefix a
// half-line: for numbers (a partition), a hockey-stick divergence, and a
// claimed δ > 0. Not for a DP claim's cross-check at δ = 0, whose early
// pass asks every prefix of every ordering to keep its ratio inside ε,
// nor for Gaussian DP, whose audits were bounded lower with them (0.95
// against 0.98 of μ at μ/1.5).
func (c eventCriterion[D]) halfLines(t *stat.Table) bool {
	return t.Partition != nil && c.measure.Weight > 0 && c.threshold > 0
}

// screenOrder chooses the event among the prefixes of order's cells by
// ratio (keyed by keys), its bound predicted from held
// (renyi.PrefixGroups; for the hockey-stick divergence the prediction of
// the confirmation's joint bound, hockey.JointPrediction), and scores it
// on held with the cheaper rectangle bound (hockey.RectangleBound: a
// screening's bound only decides where to look, and there are many).
func (c eventCriterion[D]) screenOrder(order, held *stat.Table, reverse bool, keys renyi.Keys) Screened[EventFinding] {
	predict := renyi.RectanglePrediction(c.measure.Of, c.alpha)
	if c.measure.Joint() {
		predict = hockey.JointPrediction(c.measure.Weight, c.alpha)
	}
	g, in, predicted := renyi.PrefixGroups(order, held, c.confirm, reverse, predict, EventParts, keys)
	cp, cq := renyi.GroupTotals(held, g)
	np, nq := held.NP, held.NQ
	if reverse {
		cp, cq, np, nq = cq, cp, nq, np
	}
	ep, eq := sum(cp[:in]), sum(cq[:in])
	r := c.measure.RectangleBound(ep, np, eq, nq, plan.TriggerLevel)
	return Screened[EventFinding]{
		Score: Score{Estimate: r.Estimate, StdErr: r.StdErr, LowerBound: r.LowerBound, Rank: predicted,
			MarginHeld: c.marginHeld(cp, cq, np, nq, 0)},
		Finding: EventFinding{Groups: g, InEvent: in},
	}
}

// holdsAtZero: a hockey-stick divergence of ε > 0 claimed at δ = 0 (the
// cross-check of an ε-DP claim) is held with margin by Score.MarginHeld.
func (c eventCriterion[D]) holdsAtZero() bool { return c.threshold == 0 && c.measure.Weight > 1 }

// marginHeld is Score.MarginHeld of groups counted cp in np draws on the
// bounded side and cq in nq on the other, ordered by ratio: for every
// prefix E of them (the event and every likelihood-ratio test beside it)
// that the bounded side produced, Q(E) seen too and the upper bound
// ln(P̂(E)/Q̂(E)) + z·√(1/a + 1/b − 1/np − 1/nq) of its log-ratio (a, b its
// counts) at most ε: no test the planned confirmation could count comes
// near showing P(E) > e^ε·Q(E). A confirmation tests at z = HoldZ; a
// screening, whose smallest prefixes hold a few dozen draws at the quick
// look, only asks its estimates to lie inside the claim (z = 0), and
// leaves the margin to the confirmations, which count more draws (four
// times as many at the quick look). The limit is ε itself, not
// plan.HoldShare of it, for the same reason; the cross-check stands beside
// the local audit, which must pass the same claim too, on its own rules.
// The chosen event alone would not do: inside the claim the measure is
// negative on every event and nearest 0 on the smallest, so the larger
// tests beside it must show the ratio too. A prefix Q never produced has
// no ratio to show; it holds only when, even with Q(E) = 0, the planned
// confirmation could not show it: P(E) at its upper estimate
// (a + z·√a)/np at most e^ε·u₀, u₀ = 1 − (α/2)^{1/n} the upper bound of a
// count of 0 in n = confirm draws (a claim of ε = 15 against a rare
// output of randomized response: it holds; an atom that one dataset
// produces once in 2,000 draws against ε = 2: it does not).
func (c eventCriterion[D]) marginHeld(cp, cq []int64, np, nq int64, z float64) bool {
	if !c.holdsAtZero() {
		return false
	}
	limit := math.Log(c.measure.Weight)
	zeroCountBound := c.measure.Weight * numeric.BinomialUpper(0, int64(c.confirm), c.alpha/2)
	var a, b int64
	for g := range cp {
		a, b = a+cp[g], b+cq[g]
		switch {
		case a == 0:
			continue
		case b == 0:
			if fa := float64(a); (fa+z*math.Sqrt(fa))/float64(np) > zeroCountBound {
				return false
			}
			continue
		}
		fa, fb := float64(a), float64(b)
		se := math.Sqrt(max(0, 1/fa+1/fb-1/float64(np)-1/float64(nq)))
		if math.Log(fa/float64(np))-math.Log(fb/float64(nq))+z*se > limit {
			return false
		}
	}
	return true
}

func sum(c []int64) int64 {
	var s int64
	for _, v := range c {
		s += v
	}
	return s
}

func (c eventCriterion[D]) Confirm(seed uint64, p fixtures.Pair[D], st plan.Stage, alpha float64, sxy, syx *EventFinding, acc *Counts) (xy, yx Score, err error) {
	// Where unseen reads them, the values the screening never saw are
	// also tallied in buckets, so that a pass can tell how many of them
	// one side drew beyond the other's draws of the same values.
	gs := groupingsOf(sxy, syx, func(f EventFinding) stat.Grouping {
		if c.threshold <= 0 || f.Gridded {
			return f.Groups
		}
		return f.Groups.WithBuckets(stat.UnlistedBuckets)
	})
	cx, cy, err := countOn(c.src, acc, seed, p, st.Samples, gs)
	if err != nil {
		return xy, yx, err
	}
	n := int64(st.Samples)
	k := 0
	if sxy != nil {
		xy = c.confirmation(sxy, gs[k], cx[k], cy[k], n, alpha)
		k++
	}
	if syx != nil {
		yx = c.confirmation(syx, gs[k], cy[k], cx[k], n, alpha)
	}
	return xy, yx, nil
}

// confirmation bounds the measure on f's event from counts cp, cq of its
// groups (cp on the side whose measure against the other is bounded). The
// score's StdErr also covers the shortfall of the event against the best
// plug-in estimate of any prefix of the groups on the same counts: where
// the event chosen (for the narrowest bound) holds less of the measure
// than a wider test shows, a violation of the claim's size would not
// raise its bound as much, and the resolution (which rests on StdErr)
// must say so.
func (c eventCriterion[D]) confirmation(f *EventFinding, g stat.Grouping, cp, cq []int64, n int64, alpha float64) Score {
	unseen, unmatched := c.unseen(f, g, cp, cq, n, alpha), c.unmatched(f, g, cp, cq)
	cp, cq = cp[:g.Tallied()], cq[:g.Tallied()]
	ep, eq := sum(cp[:f.InEvent]), sum(cq[:f.InEvent])
	r := c.measure.Bound(ep, n, eq, n, alpha)
	z := numeric.UpperNormalQuantile(alpha)
	widest := r.StdErr
	var a, b int64
	tests := make([][2]int64, len(cp))
	for g := range cp {
		a, b = a+cp[g], b+cq[g]
		tests[g] = [2]int64{a, b}
		// A prefix the other side never produced counts as ½ draw there,
		// as the estimate does: the strongest evidence stays finite.
		if shortfall := c.measure.Of(hockey.Half(a, n), hockey.Half(b, n)) - r.Estimate; shortfall > 0 {
			widest = max(widest, shortfall/z)
		}
	}
	return Score{
		Estimate: r.Estimate, StdErr: widest, LowerBound: r.LowerBound, Tests: tests,
		Counts: [2]int64{ep, eq}, Level: alpha,
		Unbounded:  ep > 0 && eq == 0,
		MarginHeld: c.marginHeld(cp, cq, n, n, HoldZ),
		Reason:     firstReason(sparseReason(f.SparseValues), unseen),
		Unmatched:  unmatched,
	}
}

// unmatched counts the bounded side's draws on values the screening
// never saw beyond the other side's draws of the same values
// (stat.UnmatchedUnlisted), where the event's groups list values.
func (c eventCriterion[D]) unmatched(f *EventFinding, g stat.Grouping, cp, cq []int64) int64 {
	if f.Groups.Partition != nil || f.Gridded || c.threshold <= 0 {
		return 0
	}
	return stat.UnmatchedUnlisted(g, cp, cq)
}

// unseen explains, or is empty, why the outputs the screening never saw
// leave a pass unresolved: values outside its table (the grouping's
// Unlisted group) that the bounded side drew beyond the other side's
// draws of the same values (stat.UnmatchedUnlisted, g's buckets telling
// them apart), a share that could hide a violation of the claim. Their
// matched draws are no such reason, being drawn alike: for the
// hockey-stick divergence, the most they hide, Σ_v (p_v − e^ε·q_v)⁺, is at
// most Σ_v (p_v − q_v)⁺, which the unmatched draws estimate (from above:
// E(a − b)⁺ ≥ n·(p − q)⁺). For Gaussian DP, joining mass drawn alike to a
// test of level below Φ(−μ/2), where the claim's edge Φ(Φ⁻¹(q) + μ)
// rises at least as fast as the level, only weakens it against the
// claim; a test of higher level is the complement of one of lower level
// in the other direction (the μ-GDP trade-off is symmetric), which holds
// none of that mass and shows the same μ, and the audit screens both
// directions. (A mechanism drawing 0 with probability 0.93 or 0.3, and
// far integers alike in 0.069 of its draws, shows 3.42 on {0, far}
// against μ = 2, and is failed through {1} in the other direction.)
// For the hockey-stick divergence, which adds up, the pass is unresolved
// when the unmatched share s less e^ε times the upper bound u₀ of a count
// of 0 exceeds (ResolutionFactor − 1)·δ: beside an event at δ, a
// violation of ResolutionFactor times it. A Gaussian-DP level does not
// add up so: where the other dataset may never produce them (μ = ∞
// there), they hide a violation of any size, and the pass is unresolved
// when n draws could have shown it, beside the claim's best test of some
// level (hockey.Measure.ShownBeside), above μ. Counted whole, the far
// tails of the two-sided geometric mechanism (b = 3, at its exact μ)
// left 142 of 200 audits unresolved at a million draws (5 of 8 seeds at
// four million as at one: the screening grows with the draws), though
// both datasets draw those integers alike.
//
// Where the unmatched share alone, as an event the other dataset never
// drew, shows the measure above ResolutionFactor times the claim, the
// reason is suspect (UnmatchedValues): evidence against the claim, or
// outputs the audit cannot see, not only a margin it cannot resolve.
// The geometric mechanism's tails at its exact μ show 0.54 against
// 1.5 × 0.417 (3 audits of 100 unresolved so); values one dataset draws
// twenty times as often, 0.77 against 1.5 × 0.5.
func (c eventCriterion[D]) unseen(f *EventFinding, g stat.Grouping, cp, cq []int64, n int64, alpha float64) verdict.Reason {
	unmatched := c.unmatched(f, g, cp, cq)
	if unmatched == 0 {
		return nil
	}
	share := float64(unmatched) / float64(n)
	all := float64(cp[g.Unlisted]) / float64(n)
	if c.measure.Of(share, numeric.BinomialUpper(0, n, alpha/2)) > ResolutionFactor*c.threshold {
		return &verdict.UnmatchedValues{Share: all, Unmatched: share}
	}
	if c.measure.Weight > 0 {
		if !(c.measure.Of(share, numeric.BinomialUpper(0, n, alpha/2)) > (ResolutionFactor-1)*c.threshold) {
			return nil
		}
	} else if !(c.measure.ShownBeside(share, n, alpha, c.threshold) > c.threshold) {
		return nil
	}
	return &verdict.UnseenValues{Share: all, Unmatched: share}
}
