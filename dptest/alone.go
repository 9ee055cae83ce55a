package dptest

import (
	"fmt"
	"math"
	"reflect"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/renyi"
	"github.com/dptest/dptest/internal/search"
)

// maxAloneDraws is the most draws per side aloneReach considers.
const maxAloneDraws = 1e15

// aloneMeasure is what weighing an output of one dataset alone needs of a
// criterion whose measure stays finite only while the other dataset
// produces it too: the measure m(a, b) of one event that the datasets
// produce with probabilities a and b, decreasing in b, and its lower bound
// from counts at a level.
type aloneMeasure struct {
	of    func(a, b float64) float64
	bound func(cp, np, cq, nq int64, alpha float64) float64
	// infinite says, for the report, what the output would make infinite.
	infinite string
}

// What an output of one dataset alone would make infinite, in the words
// of each measure (aloneMeasure.infinite).
const (
	renyiInfinite    = "whose divergence may be infinite"
	gaussianInfinite = "which no finite μ allows if the other dataset never produces it"
)

// renyiAlone is the order-λ Rényi divergence of one event,
// D_λ((a, 1 − a) ‖ (b, 1 − b)), bounded by renyi.EventBound.
func renyiAlone(lambda float64) aloneMeasure {
	return aloneMeasure{
		of: func(a, b float64) float64 { return renyi.TwoPoint(a, b, lambda) },
		bound: func(cp, np, cq, nq int64, alpha float64) float64 {
			return renyi.EventBound(cp, np, cq, nq, lambda, alpha).LowerBound
		},
		infinite: renyiInfinite,
	}
}

// gaussianAlone is the Gaussian-DP level of one test, Φ⁻¹(a) − Φ⁻¹(b)
// (hockey.Gaussian): a test of level b = 0 and power a > 0 lies below
// every Gaussian trade-off curve G_μ.
func gaussianAlone() aloneMeasure {
	m := hockey.Gaussian()
	return aloneMeasure{
		of: m.Of,
		bound: func(cp, np, cq, nq int64, alpha float64) float64 {
			return m.Bound(cp, np, cq, nq, alpha).LowerBound
		},
		infinite: gaussianInfinite,
	}
}

// aloneRate is the least rate b at which the other dataset must produce an
// output that one dataset produces at rate a for the measure of that one
// event to stay within the claim,
//
//	m(a, b) ≤ ε   (Rényi: D_λ((a, 1 − a) ‖ (b, 1 − b)); Gaussian DP: Φ⁻¹(a) − Φ⁻¹(b)),
//
// found by bisection on ln b (b can be far smaller than a), m falling as b
// grows towards a; 0 if even the smallest positive b keeps it there.
// A mechanism meeting the claim produces the output at least that often on
// the other dataset.
func aloneRate(a float64, m aloneMeasure, eps float64) float64 {
	if m.of(a, math.SmallestNonzeroFloat64) <= eps {
		return 0
	}
	lo, hi := math.Log(math.SmallestNonzeroFloat64), math.Log(a)
	for hi-lo > 1e-12 {
		mid := lo + (hi-lo)/2
		if m.of(a, math.Exp(mid)) > eps {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Exp(hi)
}

// aloneReach is the least number of draws per side n (to 1%, or to one
// draw) at which an output one dataset produces at rate a and the other
// never would show the claim exceeded by one event's bound at level alpha,
//
//	bound(round(a·n), n, 0, n) > ε,
//
// +Inf if maxAloneDraws do not.
func aloneReach(a float64, m aloneMeasure, eps, alpha float64) float64 {
	shows := func(n float64) bool {
		return m.bound(int64(math.Round(a*n)), int64(n), 0, int64(n), alpha) > eps
	}
	lo, n := 0.0, math.Ceil(1/a)
	for !shows(n) {
		lo = n
		if n *= 2; n > maxAloneDraws {
			return math.Inf(1)
		}
	}
	for n-lo > max(1, n/100) {
		mid := math.Floor(lo + (n-lo)/2)
		if mid <= lo || mid >= n {
			break
		}
		if shows(mid) {
			n = mid
		} else {
			lo = mid
		}
	}
	return n
}

// aloneAmong returns the atom of one dataset alone (search.AloneAtom)
// that the screenings of the candidates (search.Outcome.Screened) saw at
// the highest rate, and its pair: a direction or a pair other than the
// witness's may hold it, and screenings of different sizes (a deep one)
// may sit side by side.
func aloneAmong[D, F any](screened []search.Candidate[D, F], of func(F) search.AloneAtom) (alone search.AloneAtom, pair fixtures.Pair[D]) {
	rate := func(a search.AloneAtom) float64 { return float64(a.Count) / float64(a.Draws) }
	for _, c := range screened {
		if a := of(c.Finding); a.Count > 0 && (alone.Count == 0 || rate(a) > rate(alone)) {
			alone, pair = a, c.Pair
		}
	}
	return alone, pair
}

// AloneOutput is an output that one dataset of a pair alone produced in
// the screening of an RDP or Gaussian-DP audit that found no violation,
// amid the other dataset's outputs (several of them on either side of
// it): the claim's measure is infinite there unless the other dataset
// produces it too, at a rate the claim may allow to lie far below what
// the draws can show ([Details.Alone]).
type AloneOutput struct {
	// Pair is the fixtures.Pair[D] whose screening saw it; Reverse is set
	// when its Y, not its X, produced it.
	Pair    any
	Reverse bool
	// Value is the output, or for a [Vector] mechanism the value of its
	// coordinate Coordinate (-1 for a real output).
	Value      float64
	Coordinate int
	// Count of the Draws screening draws of the dataset that produced it
	// were this output; the other dataset's as many draws produced none.
	Count, Draws int64
	// NeededRate is the least rate at which the claim needs the other
	// dataset to produce the output, 0 if any will do: the b with
	// D_λ((a, 1 − a) ‖ (b, 1 − b)) (RDP) or Φ⁻¹(a) − Φ⁻¹(b) (Gaussian DP)
	// equal to the claim, a = Count/Draws.
	NeededRate float64
	// RefutingDraws is about the draws per side whose counts (a share a on
	// one side, none on the other) would bound the measure above the claim
	// at the confirmations' level, +Inf if no number up to a fixed cap
	// would.
	RefutingDraws float64
	// Values is, for a Discrete mechanism's outputs that an RDP audit's
	// confirmation counted together in one group of its statistic (Count
	// of its Draws draws then; Value and Coordinate unset), how many
	// distinct values the screening listed in that group, Example one of
	// them, printed, and Unlisted whether the group also holds values the
	// screening never saw; 0 for one output.
	Values   int
	Example  string
	Unlisted bool
}

// aloneVerdict weighs, for an audit that found no violation, an atom one
// dataset of pair alone produced in its screening (aloneAmong); nil if
// there is none. If the screening's own counts, none on the other side,
// bound the measure of that one event above the claim at the
// confirmations' level alpha (α′), the statistic confirmed cannot have
// counted it apart, and the audit cannot tell: the returned error says
// so. Else the audit passes and its success line says what the draws
// cannot show and what would (aloneClause).
func aloneVerdict[D any](atom search.AloneAtom, pair fixtures.Pair[D], m aloneMeasure, eps, alpha float64) (*AloneOutput, error) {
	if atom.Count == 0 {
		return nil, nil
	}
	return weighAlone(&AloneOutput{
		Pair: pair, Reverse: atom.Reverse, Value: atom.Value, Coordinate: atom.Coordinate, Count: atom.Count, Draws: atom.Draws,
	}, m, eps, alpha)
}

// weighAlone sets an output of one dataset alone's NeededRate and
// RefutingDraws for a claim eps, and returns it with the error of
// aloneVerdict's rule: inconclusive if its own counts, none on the other
// side, bound the measure of that one event above the claim at level
// alpha, which the statistic confirmed did not show.
func weighAlone(alone *AloneOutput, m aloneMeasure, eps, alpha float64) (*AloneOutput, error) {
	a := float64(alone.Count) / float64(alone.Draws)
	alone.NeededRate, alone.RefutingDraws = aloneRate(a, m, eps), aloneReach(a, m, eps, alpha)
	if m.bound(alone.Count, alone.Draws, 0, alone.Draws, alpha) > eps {
		draws := "screening"
		if alone.Values > 0 || alone.Unlisted {
			draws = "confirmation"
		}
		return alone, inconclusive(&OutputOfOneDataset{Seen: alone.seen(m.infinite) + " (" + draws + " draws)"})
	}
	return alone, nil
}

// aloneValuesVerdict is aloneVerdict for the group of values one dataset
// alone produced in a confirmation of an RDP audit's candidates
// (search.AloneValues), the one of highest rate; nil if none counted one,
// or if a screening's atom (atom) was seen at a higher rate.
func aloneValuesVerdict[D any](confirmed []search.Candidate[D, search.RenyiFinding], atom search.AloneAtom, m aloneMeasure, eps, alpha float64) (*AloneOutput, error) {
	var best *AloneOutput
	rate := func(count, draws int64) float64 { return float64(count) / float64(draws) }
	for _, c := range confirmed {
		for _, s := range c.Confirmations {
			v := s.AloneValues
			if v == nil || best != nil && rate(v.Draws, v.Of) <= rate(best.Count, best.Draws) {
				continue
			}
			best = &AloneOutput{Pair: c.Pair, Reverse: c.Reverse, Coordinate: -1, Count: v.Draws, Draws: v.Of,
				Values: v.Values, Example: v.Example, Unlisted: v.Unlisted}
		}
	}
	if best == nil || atom.Count > 0 && rate(atom.Count, atom.Draws) >= rate(best.Count, best.Draws) {
		return nil, nil
	}
	return weighAlone(best, m, eps, alpha)
}

// datasets names the dataset that produced the output and the other.
func (a *AloneOutput) datasets() (by, other string) {
	by, other = "X", "Y"
	if pair := reflect.ValueOf(a.Pair); pair.Kind() == reflect.Struct {
		if x, y := pair.FieldByName("X"), pair.FieldByName("Y"); x.IsValid() && y.IsValid() {
			by, other = fmt.Sprintf("X=%v", x), fmt.Sprintf("Y=%v", y)
		}
	}
	if a.Reverse {
		return other, by
	}
	return by, other
}

// seen says which dataset alone produced the output and how often, and
// what that would make infinite.
func (a *AloneOutput) seen(infinite string) string {
	by, other := a.datasets()
	output := "the output " + num(a.Value)
	if a.Coordinate >= 0 {
		output = fmt.Sprintf("the value %s of coordinate v[%d]", num(a.Value), a.Coordinate)
	}
	if a.Values > 0 || a.Unlisted {
		return fmt.Sprintf("%s alone produced %s of %s confirmation draws on %s (%s none), %s", by, thousands(int(a.Count)), thousands(int(a.Draws)), a.valuesText(), other, infinite)
	}
	return fmt.Sprintf("%s alone produced %s (%s of %s screening draws; %s none), %s", by, output, thousands(int(a.Count)), thousands(int(a.Draws)), other, infinite)
}

// valuesText names the values of a group counted together.
func (a *AloneOutput) valuesText() string {
	var listed string
	switch a.Values {
	case 0:
	case 1:
		listed = fmt.Sprintf("the value %q", a.Example)
	default:
		listed = fmt.Sprintf("%s values such as %q", thousands(a.Values), a.Example)
	}
	switch {
	case a.Unlisted && listed != "":
		return listed + " and values the screening never saw"
	case a.Unlisted:
		return "values the screening never saw"
	}
	return listed
}

// aloneClause is what the success line of a passed RDP or GDP audit (kind)
// says of its AloneOutput: what the draws cannot refute, and how many
// would; empty for none.
func aloneClause(a *AloneOutput, kind string) string {
	if a == nil {
		return ""
	}
	infinite := renyiInfinite
	if kind == plan.KindGDP {
		infinite = gaussianInfinite
	}
	clause := "; but " + a.seen(infinite)
	it, its := "it", "its"
	if a.Values > 1 || a.Unlisted {
		it, its = "them", "their"
	}
	if a.NeededRate > 0 {
		_, other := a.datasets()
		clause += fmt.Sprintf(": the claim holds there only if %s produces %s at least once in %s draws, which these draws cannot refute", other, it, roughly(1/a.NeededRate))
	}
	pointer := "RequireDP and RequireApproxDP test such outputs"
	if !math.IsInf(a.RefutingDraws, 1) {
		pointer = fmt.Sprintf("%s expected counts at about %s draws per side would; %s", its, roughly(a.RefutingDraws), pointer)
	}
	return clause + " (" + pointer + ")"
}

// roughly writes a positive count to two significant digits, with
// thousands separators (3,100,000).
func roughly(v float64) string {
	if v >= math.MaxInt64/2 {
		return num(v)
	}
	e := math.Pow(10, math.Max(math.Floor(math.Log10(v))-1, 0))
	return thousands(int(math.Round(v/e) * e))
}

// unboundedReach is, for a Gaussian-DP audit whose confirmations both
// counted a confirmed event under one dataset only, the draws per side
// (aloneReach at the share they counted) whose expected counts would
// bound the measure above the claim eps, should the other dataset never
// produce it; +Inf if no number would.
func unboundedReach[D any](out search.Outcome[D, search.EventFinding], m aloneMeasure, eps float64) float64 {
	for _, c := range out.Confirmed {
		a, b, in := c.Confirmations[0], c.Confirmations[1], c.Finding.InEvent
		if !a.Unbounded || !b.Unbounded || in < 1 || len(a.Tests) < in || len(b.Tests) < in {
			continue
		}
		share := float64(a.Tests[in-1][0]+b.Tests[in-1][0]) / float64(2*out.Samples)
		return aloneReach(share, m, eps, out.PerConfirm)
	}
	return math.Inf(1)
}
