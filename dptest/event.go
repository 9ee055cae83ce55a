package dptest

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/dptest/dptest/internal/stat"
)

// maxListed is how many intervals or values an event's description lists
// before it summarises the rest.
const maxListed = 4

// eventText describes the event of groups 0 … k−1 of g, which a
// confirmation counted: the intervals its cells of a partition make (in
// the score's units for a vector), or its discrete values.
func eventText(g stat.Grouping, k int) string {
	if g.Partition != nil {
		return intervalsText(g, k)
	}
	return valuesText(g, k)
}

// eventGroups is a confirmed event: the outputs of groups below k of a
// grouping. It is data, not a function, so that reports compare equal.
type eventGroups struct {
	g stat.Grouping
	k int
}

// contains says whether an output is in the event: a real output by its
// cell, a discrete one by its value (a value the screening never saw by
// the unlisted group). Outputs grouped by a learned score are never in
// it: shade their scores with scoreIn.
func (e *eventGroups) contains(v any) bool {
	if p := e.g.Partition; p != nil {
		f, ok := v.(float64)
		return ok && p.Score == nil && e.g.OfCell[p.Cell(f)] < e.k
	}
	group, ok := e.g.OfValue[v]
	if !ok {
		group = e.g.Unlisted
	}
	return group < e.k
}

// scoreIn says whether a learned score's value is in the event.
func (e *eventGroups) scoreIn(score float64) bool {
	p := e.g.Partition
	return p != nil && p.Score != nil && e.g.OfCell[p.Cell(score)] < e.k
}

// learnedScore is the score a vector's grouping learned, or nil.
func learnedScore(g stat.Grouping) *stat.Score {
	if g.Partition == nil {
		return nil
	}
	return g.Partition.Score
}

// shadable says whether a picture of the outputs themselves can shade
// the event.
func (e *eventGroups) shadable() bool {
	return e != nil && (e.g.Partition == nil || e.g.Partition.Score == nil)
}

// interval is a run of adjacent cells of one group, [lo, hi): one atom's
// cell alone (atom; its value is lo). An atom's cell is [v, nextafter(v)),
// so an end beside one is exact: afterAtom when the cell below the
// interval is an atom's (lo is one float above that value, which the
// interval leaves out), startsAtom when its first cell is one (lo is
// that value), endsAtom when its last cell is one (hi is one float above
// that value, which it holds), beforeAtom when the cell above it is one
// (hi is that value, which it leaves out).
type interval struct {
	lo, hi                float64
	atom                  bool
	afterAtom, startsAtom bool
	endsAtom, beforeAtom  bool
}

// String prints the interval: an atom as "{v}", exactly; an end one float
// above a value (an atom's, or a cut made beside outputs) as that value,
// exactly, with the bracket that leaves it out or holds it: "(5" for
// [nextafter(5), …, "5]" for …, nextafter(5)); an end at an atom's value
// exactly; any other end to six significant digits (two decimals from
// 10⁴ to 10¹⁵), or more where the two ends would otherwise print alike.
func (iv interval) String() string {
	if iv.atom {
		return "{" + exactText(iv.lo) + "}"
	}
	below := math.Nextafter(iv.lo, math.Inf(-1))
	loAbove := iv.afterAtom || !iv.startsAtom && justAbove(iv.lo)
	hiAbove := iv.endsAtom || !iv.beforeAtom && justAbove(iv.hi)
	for extra := 0; ; extra++ {
		lo, hi := "(−∞", "+∞)"
		switch {
		case math.IsInf(iv.lo, -1):
		case loAbove:
			lo = "(" + exactText(below)
		case iv.startsAtom:
			lo = "[" + exactText(iv.lo)
		default:
			lo = "[" + approxText(iv.lo, extra)
		}
		switch {
		case math.IsInf(iv.hi, 1):
		case hiAbove:
			hi = exactText(math.Nextafter(iv.hi, math.Inf(-1))) + "]"
		case iv.beforeAtom:
			hi = exactText(iv.hi) + ")"
		default:
			hi = approxText(iv.hi, extra) + ")"
		}
		if lo[1:] != hi[:len(hi)-1] || extra >= 12 {
			return lo + ", " + hi
		}
	}
}

// justAbove reports whether b is one float above a value of fewer digits
// (or above 0): a cut made beside an output.
func justAbove(b float64) bool {
	v := math.Nextafter(b, math.Inf(-1))
	return v == 0 || digits(v) <= digits(b)-2
}

// digits is the number of significant digits of v's shortest exact
// decimal form.
func digits(v float64) int {
	mantissa, _, _ := strings.Cut(strconv.FormatFloat(math.Abs(v), 'e', -1, 64), "e")
	return len(strings.Replace(mantissa, ".", "", 1))
}

// exactText is v's shortest exact decimal form (0 for −0), without an
// exponent from 10⁻⁴ to 10¹⁵.
func exactText(v float64) string {
	v += 0 // −0 + 0 = +0
	if a := math.Abs(v); a == 0 || a >= 1e-4 && a < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// approxText is v to 6 + extra significant digits, or 2 + extra decimals
// from 10⁴ to 10¹⁵ (as value prints such outputs), without trailing
// zeros.
func approxText(v float64, extra int) string {
	v += 0
	if a := math.Abs(v); a >= 1e4 && a < 1e15 {
		return decimalsText(v, 2+extra)
	}
	return strconv.FormatFloat(v, 'g', 6+extra, 64)
}

// intervalsText lists the intervals the cells of groups below k make,
// merging adjacent cells: "outputs in [11.8666, +∞)"; beyond maxListed
// intervals, their number and the interval that spans them.
func intervalsText(g stat.Grouping, k int) string {
	p := g.Partition
	var ivs []interval
	prev := -2
	for c := range p.Cells() {
		if g.OfCell[c] >= k {
			continue
		}
		lo, hi := p.Bounds(c)
		before := c+1 < p.Cells() && p.Atom(c+1)
		if c == prev+1 {
			last := &ivs[len(ivs)-1]
			last.hi, last.atom, last.endsAtom, last.beforeAtom = hi, false, p.Atom(c), before
		} else {
			ivs = append(ivs, interval{lo: lo, hi: hi, atom: p.Atom(c),
				afterAtom: c > 0 && p.Atom(c-1), startsAtom: p.Atom(c), endsAtom: p.Atom(c), beforeAtom: before})
		}
		prev = c
	}
	what := "outputs"
	if p.Score != nil {
		what = "score values"
	}
	switch {
	case len(ivs) == 0:
		return "no " + what
	case len(ivs) > maxListed:
		first, last := ivs[0], ivs[len(ivs)-1]
		span := interval{lo: first.lo, hi: last.hi, afterAtom: first.afterAtom, startsAtom: first.startsAtom, endsAtom: last.endsAtom, beforeAtom: last.beforeAtom}
		return fmt.Sprintf("%s in %d intervals within %s", what, len(ivs), span)
	}
	parts := make([]string, len(ivs))
	for i, iv := range ivs {
		parts[i] = iv.String()
	}
	return what + " in " + strings.Join(parts, " ∪ ")
}

// valuesText lists the discrete values of groups below k, in numeric
// order for numbers: "the values 3, 4, 5"; beyond maxListed values, the
// first few, the last and their number; and, when the unlisted values
// are in the event, says so.
func valuesText(g stat.Grouping, k int) string {
	var vs []any
	for v, group := range g.OfValue {
		if group < k {
			vs = append(vs, v)
		}
	}
	slices.SortFunc(vs, compareValues)
	parts := make([]string, 0, maxListed+1)
	for i, v := range vs {
		if i == maxListed-1 && len(vs) > maxListed {
			parts = append(parts, "…", value(vs[len(vs)-1]))
			break
		}
		parts = append(parts, value(v))
	}
	var b strings.Builder
	switch len(vs) {
	case 0:
		b.WriteString("no value the screening saw")
	case 1:
		b.WriteString("the value " + parts[0])
	default:
		if len(vs) > maxListed {
			fmt.Fprintf(&b, "%d values: ", len(vs))
		} else {
			b.WriteString("the values ")
		}
		b.WriteString(strings.Join(parts, ", "))
	}
	if g.Unlisted < k {
		b.WriteString(", and every value the screening never saw")
	}
	return b.String()
}

// compareValues orders numbers by value (stat.CompareNumberKeys: integers
// exactly), before anything else, which is ordered by its printed form.
func compareValues(a, b any) int {
	x, xok := stat.NumberKeyOf(a)
	y, yok := stat.NumberKeyOf(b)
	switch {
	case xok && yok:
		return stat.CompareNumberKeys(x, y)
	case xok != yok:
		if xok {
			return -1
		}
		return 1
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}
