package renyi

import (
	"math"

	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/stat"
)

// TwoPoint returns the Rényi divergence of order λ between two Bernoulli
// distributions of success probabilities a and b,
//
//	D_λ(a ‖ b) = 1/(λ−1) · ln(a^λ b^{1−λ} + (1−a)^λ (1−b)^{1−λ}),
//
// computed in log space; +Inf when b = 0 < a or b = 1 > a.
func TwoPoint(a, b, lambda float64) float64 {
	term := func(a, b float64) float64 {
		if a == 0 {
			return math.Inf(-1)
		}
		if b == 0 {
			return math.Inf(1)
		}
		return lambda*math.Log(a) + (1-lambda)*math.Log(b)
	}
	d := numeric.LogAddExp(term(a, b), term(1-a, 1-b)) / (lambda - 1)
	return max(d, 0)
}

// EventBound bounds D_λ(P ‖ Q) from below at level alpha from one event E
// counted cp times in np draws of P and cq times in nq draws of Q, for an
// event chosen because P(E) > Q(E). By the data-processing inequality
// D_λ(P ‖ Q) ≥ D_λ(P(E) ‖ Q(E)) (TwoPoint). For a = P(E) ≥ b = Q(E) the
// two-point divergence increases in a and decreases in b (each one-sided
// section of a convex function with its minimum 0 at a = b), so with the
// exact one-sided Clopper–Pearson bounds a ≥ a₋ and b ≤ b₊, each at level
// alpha/2, it is at least TwoPoint(a₋, b₊) when a₋ > b₊, and the bound is
// 0 otherwise: it exceeds the truth with probability at most alpha. It
// needs no normal approximation and no count per cell: an output of order
// λ's tail seen a hundred times, or an output one side never produced, is
// bounded as exactly as a common one.
//
// The estimate is the two-point divergence of the frequencies, a count of
// zero taken as ½. StdErr is half the width, in units of z_{1−alpha}, of
// the interval from the bound to the largest two-point divergence of the
// rectangle [a₋, a₊] × [b₋, b₊] (its corners (a₊, b₋) and (a₋, b₊)): the
// standard error a normal interval of that width would have, which sets
// the audit's resolution (+Inf for an event never seen, whose divergence
// the counts cannot limit).
func EventBound(cp, np, cq, nq int64, lambda, alpha float64) Result {
	aLo, aHi := numeric.BinomialLower(cp, np, alpha/2), numeric.BinomialUpper(cp, np, alpha/2)
	bLo, bHi := numeric.BinomialLower(cq, nq, alpha/2), numeric.BinomialUpper(cq, nq, alpha/2)
	lb := 0.0
	if aLo > bHi {
		lb = TwoPoint(aLo, bHi, lambda)
	}
	up := max(TwoPoint(aHi, bLo, lambda), TwoPoint(aLo, bHi, lambda))
	half := func(c, n int64) float64 { return min(max(float64(c), 0.5), float64(n)-0.5) / float64(n) }
	est := max(TwoPoint(half(cp, np), half(cq, nq), lambda), lb)
	return Result{
		Estimate: est, LowerBound: lb, StdErr: (up - lb) / (2 * numeric.UpperNormalQuantile(alpha)),
		Lambda: lambda, Alpha: alpha, NP: np, NQ: nq, Support: 2,
	}
}

// BestEvent chooses the event E whose EventBound at level alpha on n fresh
// draws per side is predicted largest for D_λ(P ‖ Q) (or D_λ(Q ‖ P) if
// reverse): BestPrefix with the two-point divergence TwoPoint.
func BestEvent(order, held *stat.Table, lambda float64, n int, reverse bool, alpha float64) (stat.Grouping, float64) {
	return BestPrefix(order, held, n, reverse, alpha, func(a, b float64) float64 { return TwoPoint(a, b, lambda) })
}

// BestPrefix chooses the event E whose bound measure(a₋, b₊) at level
// alpha on n fresh draws per side is predicted largest, for a measure of
// the two-point distributions (a, b) = (P(E), Q(E)) (or (Q(E), P(E)) if
// reverse) that increases in a and decreases in b: the two-point Rényi
// divergence, the hockey-stick divergence a − e^ε·b, the Gaussian-DP
// level Φ⁻¹(a) − Φ⁻¹(b). E is a prefix of the cells of the table order in
// the order of orderCells (by estimated ratio, so the prefixes are the
// likelihood-ratio tests {p/q > c}, which attain each of these measures
// among all events), cut only between different keys; each prefix's bound
// is predicted from the counts of its cells in the table held, drawn
// independently of order (stat.Recounted), moved HeldPenalty of their own
// standard errors against it and scaled to n, with the variance-stabilised
// approximations (√c ∓ z/2)²/n of the exact bounds. Predicting on other
// draws than those that ordered the cells keeps the largest of thousands
// of noisy ratios from looking like an event; moving the held counts keeps
// the prefix whose held draws erred most in its favour from winning. It
// returns the event as a grouping of two groups, E first, and the predicted
// bound; with no prefix predicting a positive bound, E is empty and the
// prediction 0, and the caller should not choose the event.
func BestPrefix(order, held *stat.Table, n int, reverse bool, alpha float64, measure func(a, b float64) float64) (stat.Grouping, float64) {
	ks, cut, best := bestCut(order, held, n, reverse, rectangle(measure, alpha, true), 0, HeldPenalty, PenalisedKeys)
	group := make([]int, len(ks))
	for i := range group {
		if i > cut {
			group[i] = 1
		}
	}
	return grouping(order, ks, group, 2), best
}

// PrefixGroups chooses the event as BestPrefix does (with the held counts
// moved EventHeldPenalty standard errors against each prefix), but among every
// prefix (those whose predicted P(E) does not exceed Q(E) included), the
// best predicted bound however small, so that an event is chosen even
// where no prefix predicts a positive bound, and groups the ordered cells
// into about parts consecutive groups of equal pooled count, the event's
// end one of their boundaries: the event is groups 0…inEvent−1, and
// counting the groups shows every prefix at their boundaries (the
// likelihood-ratio tests at about parts thresholds). For a table of
// values, the values it does not list have a last group of their own
// (Grouping.Unlisted). It returns the grouping, inEvent and the predicted
// bound (−Inf, and inEvent 0, only when no prefix has a predicted P(E)
// below 1). keys orders the cells (see [Keys]).
func PrefixGroups(order, held *stat.Table, n int, reverse bool, predict Prediction, parts int, keys Keys) (g stat.Grouping, inEvent int, predicted float64) {
	ks, cut, best := bestCut(order, held, n, reverse, predict, math.Inf(-1), EventHeldPenalty, keys|eventOrder)
	group, groups, inEvent := cutGroups(ks, cut, parts)
	if order.Partition == nil {
		// Values the screening never saw get a group of their own, the
		// last, so that a confirmation sees how much of its draws they hold.
		g := grouping(order, ks, group, groups+1)
		g.Unlisted = groups
		return g, inEvent, best
	}
	return grouping(order, ks, group, groups), inEvent, best
}

// HeldPenalty is how many of the held-out draws' own standard errors
// BestPrefix (the Rényi criterion's one event) moves each prefix's held
// counts against it (P(E) down, Q(E) up) before predicting its bound at
// the confirmation's size: the held-out half is a twentieth of a
// confirmation, and among many prefixes the one whose held counts erred
// most in its favour would otherwise win (a Rényi event of NonDPGaussian2
// at ε = 0.01, chosen over the grouped cells, that confirmed a
// twenty-fifth of the truth, a third of its audits at 5·10⁴ draws ending
// inconclusive so; a Gaussian's far tail at λ = 2, predicted at 3.7 and
// confirmed at 1.1 of a true 3.7). PrefixGroups moves them
// EventHeldPenalty.
const HeldPenalty = 1

// EventHeldPenalty is HeldPenalty for PrefixGroups, the event criteria's
// choice (a far-tail event whose Gaussian-DP level the held draws
// overstate needed one), whose caller compares the best prefixes of
// several orderings (raw, one-sided, smoothed and, for a hockey-stick
// divergence at δ > 0 on numbers, by position) of several tables (the
// outputs' cells, their values one by one, a vector's scores) and keeps
// the highest: among them an event many times wider than another with
// the same measure has held counts many times noisier, and one held
// standard error let it win on its noise (an atom of P(E) = 0.01 that
// the other dataset never produces, beside Laplace cells whose ratio is
// exactly e^ε: the atom bounds δ at about 0.0097 of 0.01 on a million
// draws, the half-line holding it and half the outputs at 0.006).
const EventHeldPenalty = 2

// Prediction predicts the bound a confirmation of n draws per side will
// give an event whose counts there are expected to be ep and eq (already
// moved against it); −Inf leaves the event out.
type Prediction func(ep, eq, n float64) float64

// RectanglePrediction predicts the bound measure(a₋, b₊) of the exact
// one-sided bounds at level alpha/2 each by their variance-stabilised
// approximations a₋ ≈ (√ep − z/2)²/n and b₊ ≈ (√(eq+1) + z/2)²/n,
// z = z_{1−alpha/2}; events whose a₋ reaches 1 are left out.
func RectanglePrediction(measure func(a, b float64) float64, alpha float64) Prediction {
	return rectangle(measure, alpha, false)
}

// rectangle is RectanglePrediction, leaving out too the events whose a₋
// does not exceed b₊ when onlyAbove is set (the two-point Rényi divergence
// grows again below a = b).
func rectangle(measure func(a, b float64) float64, alpha float64, onlyAbove bool) Prediction {
	z := numeric.UpperNormalQuantile(alpha / 2)
	return func(ep, eq, n float64) float64 {
		a := math.Pow(max(math.Sqrt(ep)-z/2, 0), 2) / n
		b := math.Pow(math.Sqrt(eq+1)+z/2, 2) / n
		if (onlyAbove && a <= b) || a >= 1 {
			return math.Inf(-1)
		}
		return measure(a, min(b, 1))
	}
}

// bestCut orders the cells (orderCells, by keys) and returns the index of the last
// cell of the prefix whose bound is predicted largest, above
// floor (−1 for none), and that prediction (floor for none); the held
// counts are first moved by heldPenalty of their own standard errors
// against the prefix (0: not moved).
func bestCut(order, held *stat.Table, n int, reverse bool, predict Prediction, floor, heldPenalty float64, keys Keys) (ks []keyed, bestAt int, best float64) {
	ks = orderCells(order, n, reverse, keys)
	counts := make(map[any][2]float64, len(held.Cells))
	for _, c := range held.Cells {
		p, q := float64(c.P), float64(c.Q)
		if reverse {
			p, q = q, p
		}
		counts[c.Value] = [2]float64{p, q}
	}
	np, nq := float64(held.NP), float64(held.NQ)
	if reverse {
		np, nq = nq, np
	}
	fn := float64(n)
	best, bestAt = floor, -1
	var hp, hq float64 // held counts of the prefix
	for i, k := range ks {
		c := counts[k.cell.Value]
		hp += c[0]
		hq += c[1]
		if i+1 < len(ks) && ks[i+1].key == k.key {
			continue
		}
		ep, eq := hp/np*fn, hq/nq*fn // at the confirmation's size
		if heldPenalty > 0 {
			ep = math.Pow(max(math.Sqrt(hp)-heldPenalty/2, 0), 2) / np * fn
			eq = math.Pow(math.Sqrt(hq+1)+heldPenalty/2, 2) / nq * fn
		}
		if d := predict(ep, eq, fn); d > best {
			best, bestAt = d, i
		}
	}
	return ks, bestAt, best
}

// cutGroups assigns the ordered cells ks to consecutive groups: a group
// ends after the cell cut, after each run of cells that come first
// (orderCells' firstKey: outputs of one dataset alone beyond a gap, then
// those on one value), so that every likelihood-ratio test counts them
// apart, and wherever the pooled screening count passes another 1/parts
// of the total, never between cells of equal key. It
// returns each cell's group, the number of groups and the number of
// groups up to and including cut's.
func cutGroups(ks []keyed, cut, parts int) (group []int, groups, upToCut int) {
	total := 0.0
	for _, k := range ks {
		total += k.ep + k.eq
	}
	step := total / float64(parts)
	next := step
	if parts <= 1 {
		next = math.Inf(1)
	}
	group = make([]int, len(ks))
	g, acc := 0, 0.0
	for i, k := range ks {
		group[i] = g
		acc += k.ep + k.eq
		if i+1 == len(ks) || ks[i+1].key == k.key {
			continue
		}
		if i == cut {
			upToCut = g + 1
		}
		if i == cut || acc >= next || k.key >= math.MaxFloat64 {
			g++
			for acc >= next {
				next += step
			}
		}
	}
	if cut == len(ks)-1 && cut >= 0 {
		upToCut = g + 1
	}
	return group, g + 1, upToCut
}
