package dptest

import (
	"cmp"
	"fmt"
	"math"
	"reflect"
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

// interval is a run of adjacent cells of one group: [lo, hi), or the single
// value lo when it is one atom's cell.
type interval struct {
	lo, hi float64
	atom   bool
}

func (iv interval) String() string {
	if iv.atom {
		return "{" + pointText(iv.lo) + "}"
	}
	lo, hi := "(−∞", "+∞)"
	if !math.IsInf(iv.lo, -1) {
		lo = boundText(iv.lo, true)
	}
	if !math.IsInf(iv.hi, 1) {
		hi = boundText(iv.hi, false)
	}
	return lo + ", " + hi
}

// boundText prints a cell boundary b as an interval's lower end (lower)
// or upper end. A boundary one float above a value of fewer digits (an
// atom's cell ends at nextafter(v), and cuts beside outputs are made so)
// is that value, exactly, with the bracket that excludes or includes it:
// "(5" for [nextafter(5), …, "5]" for …, nextafter(5)). Any other is
// printed to six significant digits (two decimals from 10⁴ on).
func boundText(b float64, lower bool) string {
	if v := math.Nextafter(b, math.Inf(-1)); digits(v) <= digits(b)-2 {
		if lower {
			return "(" + exactText(v)
		}
		return exactText(v) + "]"
	}
	text := approxText(b)
	if lower {
		return "[" + text
	}
	return text + ")"
}

// pointText prints an atom's value: exactly where it has few digits, to
// six significant digits otherwise.
func pointText(v float64) string {
	if fewDigits(v) {
		return exactText(v)
	}
	return approxText(v)
}

// fewDigits reports whether v's shortest exact decimal form has at most
// 15 significant digits (5, 0.25, 10¹² + 0.5; not 0.1 + 0.2).
func fewDigits(v float64) bool { return digits(v) <= 15 }

// digits is the number of significant digits of v's shortest exact
// decimal form.
func digits(v float64) int {
	mantissa, _, _ := strings.Cut(strconv.FormatFloat(math.Abs(v), 'e', -1, 64), "e")
	return len(strings.Replace(mantissa, ".", "", 1))
}

// exactText is v's shortest exact decimal form, without an exponent from
// 10⁻⁴ to 10¹⁵.
func exactText(v float64) string {
	if a := math.Abs(v); a == 0 || a >= 1e-4 && a < 1e15 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// approxText is v to six significant digits, or two decimals from 10⁴ to
// 10¹⁵ (as value prints such outputs).
func approxText(v float64) string {
	if a := math.Abs(v); a >= 1e4 && a < 1e15 {
		return value(v)
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// intervalsText lists the intervals the cells of groups below k make,
// merging adjacent cells: "outputs in [11.87, +∞)"; beyond maxListed
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
		if c == prev+1 {
			ivs[len(ivs)-1].hi, ivs[len(ivs)-1].atom = hi, false
		} else {
			ivs = append(ivs, interval{lo: lo, hi: hi, atom: p.Atom(c)})
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
		return fmt.Sprintf("%s in %d intervals within %s", what, len(ivs), interval{lo: ivs[0].lo, hi: ivs[len(ivs)-1].hi})
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

// compareValues orders numbers by value, before anything else, which is
// ordered by its printed form.
func compareValues(a, b any) int {
	x, xok := number(a)
	y, yok := number(b)
	switch {
	case xok && yok:
		return cmp.Compare(x, y)
	case xok != yok:
		if xok {
			return -1
		}
		return 1
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(b))
}

// number is v as a float64 when it is of a numeric kind.
func number(v any) (float64, bool) {
	r := reflect.ValueOf(v)
	switch {
	case r.CanInt():
		return float64(r.Int()), true
	case r.CanUint():
		return float64(r.Uint()), true
	case r.CanFloat():
		return r.Float(), true
	}
	return 0, false
}
