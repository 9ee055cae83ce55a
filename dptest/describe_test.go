package dptest

import (
	"math"
	"regexp"
	"slices"
	"testing"

	req "github.com/stretchr/testify/require"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/search"
	"github.com/dptest/dptest/internal/stat"
)

func TestDescribePairs(t *testing.T) {
	in := func(ps ...fixtures.Pair[[]float64]) []search.Input[[]float64] {
		var out []search.Input[[]float64]
		for _, p := range ps {
			out = append(out, search.Input[[]float64]{Pair: p})
		}
		return out
	}
	req.Equal(t, "substitution pairs in [0, 1]^10", describePairs(in(fixtures.Canonical(10))))
	req.Equal(t, "substitution pairs in [-1, 0.5]^2", describePairs(in(fixtures.Pair[[]float64]{X: []float64{-1, 0.5}, Y: []float64{0.25, 0.5}})))
	req.Equal(t, "add/remove pairs of 1 to 2 records in [3, 4]", describePairs(in(fixtures.Pair[[]float64]{X: []float64{3, 4}, Y: []float64{3}})))
	req.Equal(t, "neighbouring pairs of 1 to 3 records in [0, 2]", describePairs(in(fixtures.Pair[[]float64]{X: []float64{0, 1, 2}, Y: []float64{0}})))
	ints := []search.Input[[]int]{{Pair: fixtures.Pair[[]int]{X: []int{5, 7}, Y: []int{5, 9}}}}
	req.Equal(t, "substitution pairs in [5, 9]^2", describePairs(ints))
	strs := []search.Input[string]{{Pair: fixtures.Pair[string]{X: "a", Y: "b"}}}
	req.Equal(t, "pairs of string", describePairs(strs))
}

// isolatedLeast is the Poisson rate per draw that repeats an output three
// times or more with the given probability: at 0.9, mean 5.3223
// (P(Poisson(5.3223) ≤ 2) = 0.1000, computed independently), so one in
// 9,394 of 50,000 draws; at 0.9^{1/3}, mean 6.7972 (one in 7,355).
func TestIsolatedLeast(t *testing.T) {
	m := isolatedLeast(50_000, 0.9) * 50_000
	req.InDelta(t, 5.3223, m, 1e-3)
	req.InDelta(t, 0.1, math.Exp(-m)*(1+m+m*m/2), 1e-9)
	req.Equal(t, 9394, int(1/isolatedLeast(50_000, 0.9)))
	m = isolatedLeast(50_000, math.Cbrt(0.9)) * 50_000
	req.InDelta(t, 1-math.Cbrt(0.9), math.Exp(-m)*(1+m+m*m/2), 1e-9)
	req.True(t, math.IsInf(isolatedLeast(0, 0.9), 1))
}

// Outputs print with four significant digits, and to two decimals at large
// offsets, where four digits would not say where the output is.
func TestValuePrintsWhereAnOutputIs(t *testing.T) {
	req.Equal(t, "0.6145", value(0.61449))
	req.Equal(t, "1234", value(1234.4))
	req.Equal(t, "1099511627775.95", value(1099511627775.9521))
	req.Equal(t, "-1000000.5", value(-1000000.5))
	req.Equal(t, "12345", value(12345.0))
	req.Equal(t, "1e+20", value(1e20))
	req.Equal(t, "17", value(int64(17)))
	req.Equal(t, "yes", value("yes"))
}

// An event's description merges adjacent cells into intervals, names an
// atom's cell by its value, summarises more than maxListed intervals or
// values, orders numbers by value and says when values the screening
// never saw are in the event.
func TestEventText(t *testing.T) {
	p := stat.EqualWidth(0, 10, 10) // (−∞, 1), [1, 2), …, [9, +∞)
	in := func(cells ...int) stat.Grouping {
		g := stat.Grouping{Groups: 2, Partition: p, OfCell: make([]int, p.Cells())}
		for c := range g.OfCell {
			g.OfCell[c] = 1
		}
		for _, c := range cells {
			g.OfCell[c] = 0
		}
		return g
	}
	req.Equal(t, "outputs in [2, 4) ∪ [9, +∞)", eventText(in(2, 3, 9), 1))
	req.Equal(t, "outputs in (−∞, 1)", eventText(in(0), 1))
	req.Equal(t, "outputs in (−∞, +∞)", eventText(in(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), 1))
	req.Equal(t, "outputs in 5 intervals within (−∞, +∞)", eventText(in(0, 2, 4, 6, 9), 1))
	ordered := stat.Grouping{Groups: 4, Partition: p, OfCell: []int{3, 3, 1, 0, 2, 2, 2, 3, 1, 3}}
	req.Equal(t, "outputs in [2, 4) ∪ [8, 9)", eventText(ordered, 2), "an event of the first two groups")
	req.Equal(t, "outputs in [3, 4)", eventText(ordered, 1))
	req.Equal(t, "outputs in [1, 2) ∪ [3, 4) ∪ [5, 7) ∪ [8, 9)", eventText(in(1, 3, 5, 6, 8), 1))
	req.Equal(t, "outputs in 5 intervals within [1, +∞)", eventText(in(1, 3, 5, 7, 9), 1))
	// Atoms: a cell of its own, [v, nextafter(v)), printed "{v}" exactly;
	// an interval ending in one holds v ("v]"), one starting above one
	// leaves it out ("(v").
	atomsAt := func(v float64) (*stat.Partition, int) {
		pilot := slices.Repeat([]float64{v}, 40)
		for k := 1; k <= 40; k++ {
			pilot = append(pilot, v-float64(k), v+float64(k))
		}
		part := stat.PartitionOf(pilot)
		c := part.Cell(v)
		req.True(t, part.Atom(c), "%v is repeated: an atom", v)
		req.True(t, c > 0 && c+1 < part.Cells()-1, "cells below and above it")
		return part, c
	}
	cells := func(part *stat.Partition, in ...int) stat.Grouping {
		g := stat.Grouping{Groups: 2, Partition: part, OfCell: slices.Repeat([]int{1}, part.Cells())}
		for _, c := range in {
			g.OfCell[c] = 0
		}
		return g
	}
	sum := 0.1
	sum += 0.2 // 0.30000000000000004, at run time
	for _, v := range []float64{5, 0, sum, 1e12 + 0.5, -3} {
		part, c := atomsAt(v)
		x := exactText(v)
		req.Equal(t, "outputs in {"+x+"}", eventText(cells(part, c), 1))
		req.Regexp(t, `^outputs in \[[-0-9.e+]+, `+regexp.QuoteMeta(x)+`\]$`, eventText(cells(part, c-1, c), 1), "the cell below and the atom")
		req.Regexp(t, `^outputs in \(`+regexp.QuoteMeta(x)+`, [-0-9.e+]+\)$`, eventText(cells(part, c+1), 1), "the cell above the atom")
		req.Regexp(t, `^outputs in \[`+regexp.QuoteMeta(x)+`, [-0-9.e+]+\)$`, eventText(cells(part, c, c+1), 1), "the atom and the cell above")
		req.Regexp(t, `^outputs in \[[-0-9.e+]+, `+regexp.QuoteMeta(x)+`\)$`, eventText(cells(part, c-1), 1), "the cell below the atom")
	}
	req.Equal(t, "{0.30000000000000004}", interval{lo: sum, atom: true}.String(), "an atom exactly, 17 digits and all")
	req.Equal(t, "{0}", interval{lo: math.Copysign(0, -1), atom: true}.String(), "−0 is 0")
	req.Equal(t, "[5, +∞)", interval{lo: 5, hi: math.Inf(1)}.String())
	// Cuts beside outputs also end one float above a value: such an end
	// is that value, bracketed as it is in or out; other ends are printed
	// to six digits, or more where the two ends would print alike.
	after5 := math.Nextafter(5, 6)
	req.Equal(t, "(−∞, 5]", interval{lo: math.Inf(-1), hi: after5}.String())
	req.Equal(t, "(5, 7)", interval{lo: after5, hi: 7}.String())
	req.Equal(t, "(0, 1)", interval{lo: math.Nextafter(0, 1), hi: 1}.String())
	req.Equal(t, "(−∞, 0]", interval{lo: math.Inf(-1), hi: math.Nextafter(0, 1)}.String())
	req.Equal(t, "[11.8666, 39.9713)", interval{lo: 11.866612483957712, hi: 39.97131}.String())
	req.Equal(t, "[11.86661, 11.86663)", interval{lo: 11.866612483957712, hi: 11.866631}.String(), "narrow: more digits")
	req.Equal(t, "[12345.6781, 12345.6784)", interval{lo: 12345.6781, hi: 12345.6784}.String())
	req.Equal(t, "[-2.5e-07, 3.5e-07)", interval{lo: -2.5e-7, hi: 3.5e-7}.String())
	req.Equal(t, "(1000000000000.5, 1000000000001.25)", interval{lo: math.Nextafter(1e12+0.5, 2e12), hi: 1e12 + 1.25}.String())

	values := func(unlisted int, vs ...any) stat.Grouping {
		g := stat.Grouping{Groups: 2, OfValue: map[any]int{"other": 1, -50: 1}, Unlisted: unlisted}
		for _, v := range vs {
			g.OfValue[v] = 0
		}
		return g
	}
	req.Equal(t, "the value 1000", eventText(values(1, 1000), 1))
	req.Equal(t, "the values -2, 3, 10", eventText(values(1, 10, -2, 3), 1))
	req.Equal(t, "6 values: 1, 2, 3, …, 9", eventText(values(1, 9, 3, 1, 2, 5, 4), 1))
	req.Equal(t, "the values 2.5, a, b, and every value the screening never saw", eventText(values(0, "b", 2.5, "a"), 1))
	req.Equal(t, "no value the screening saw, and every value the screening never saw", eventText(values(0), 1))
	req.Equal(t, "the values -50, 7, other", eventText(values(2, 7), 2), "an event of the first two groups")
	req.Equal(t, "the values -50, 7, other, and every value the screening never saw", eventText(values(1, 7), 2))
}
