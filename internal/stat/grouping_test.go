package stat

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGroupCounts(t *testing.T) {
	v := normalSample(4, 1000, 0, 1)
	slices.Sort(v)
	p := NewPartition(v, 4)
	cells := Grouping{Groups: 2, Partition: p, OfCell: []int{0, 1, 1, 0}}
	newCounts, err := NewGroupCounts[float64]([]Grouping{cells, {Groups: 3, OfValue: map[any]int{1.5: 0, 2.5: 1}, Unlisted: 2}})
	require.NoError(t, err)
	a, b := newCounts(), newCounts()
	for _, x := range []float64{-10, 0, 10, 1.5} {
		a.Add(x)
	}
	b.Add(2.5)
	a.Merge(b)
	require.Equal(t, int64(5), a.N)
	require.Equal(t, int64(5), a.In[0][0]+a.In[0][1])
	require.Equal(t, []int64{1, 1, 3}, a.In[1])
	_, err = NewGroupCounts[string]([]Grouping{cells})
	require.Error(t, err, "a partition cannot group strings")
	_, err = NewGroupCounts[int]([]Grouping{{Groups: 1, OfValue: map[any]int{"a": 0}}})
	require.Error(t, err)
	_, err = NewGroupCounts[float64]([]Grouping{{Groups: 1, Partition: p, OfCell: []int{0}}})
	require.Error(t, err, "one group per cell")
}

// Groupings of one partition find an output's cell once and count as
// groupings looked up one by one do.
func TestSharedCells(t *testing.T) {
	v := normalSample(5, 2000, 0, 1)
	slices.Sort(v)
	p := NewPartition(v, 8)
	a := Grouping{Groups: 2, Partition: p, OfCell: []int{0, 0, 1, 1, 0, 1, 0, 1}[:p.Cells()]}
	b := Grouping{Groups: 3, Partition: p, OfCell: []int{2, 1, 0, 0, 1, 2, 0, 1}[:p.Cells()]}
	both, err := NewGroupCounts[float64]([]Grouping{a, b})
	require.NoError(t, err)
	one, err := NewGroupCounts[float64]([]Grouping{a})
	require.NoError(t, err)
	other, err := NewGroupCounts[float64]([]Grouping{b})
	require.NoError(t, err)
	s, sa, sb := both(), one(), other()
	require.NotNil(t, s.cell)
	for _, x := range normalSample(6, 500, 0, 1.5) {
		s.Add(x)
		sa.Add(x)
		sb.Add(x)
	}
	require.Equal(t, sa.In[0], s.In[0])
	require.Equal(t, sb.In[0], s.In[1])
	ints, err := NewGroupCounts[int]([]Grouping{a, b})
	require.NoError(t, err)
	require.NotNil(t, ints().cell)
}

// A product of two groupings of one partition's cells puts cell c in group
// a·b.Groups + b; groupings of other cells are refused.
func TestProduct(t *testing.T) {
	v := normalSample(4, 1000, 0, 1)
	slices.Sort(v)
	p := NewPartition(v, 4)
	a := Grouping{Groups: 2, Partition: p, OfCell: []int{0, 1, 1, 0}}
	b := Grouping{Groups: 3, Partition: p, OfCell: []int{0, 1, 1, 2}}
	g := Product(a, b)
	require.Equal(t, 6, g.Groups)
	require.Equal(t, []int{0, 4, 4, 2}, g.OfCell)
	other := NewPartition(v, 4)
	require.Panics(t, func() { Product(a, Grouping{Groups: 3, Partition: other, OfCell: []int{0, 1, 1, 2}}) })
	require.Panics(t, func() { Product(Grouping{Groups: 2, OfValue: map[any]int{}}, b) })
	require.Panics(t, func() { Product(a, Grouping{Groups: 2, OfValue: map[any]int{}}) })

	// Groupings of values: a value either lists is in the product of its
	// groups, one listed by neither in that of the Unlisted groups.
	va := Grouping{Groups: 2, OfValue: map[any]int{"x": 1, "y": 0}, Unlisted: 1}
	vb := Grouping{Groups: 3, OfValue: map[any]int{"y": 2, "z": 0}, Unlisted: 1}
	vg := Product(va, vb)
	require.Equal(t, 6, vg.Groups)
	require.Equal(t, map[any]int{"x": 1*3 + 1, "y": 0*3 + 2, "z": 1*3 + 0}, vg.OfValue)
	require.Equal(t, 1*3+1, vg.Unlisted)
}

// A table is dense from DenseCount outputs a value on average, sparse
// below SparseCount.
func TestDenseAndSparse(t *testing.T) {
	table := func(perValue int64) *Table {
		return &Table{Cells: []Cell{{1, 0, 0}, {2, 0, 0}}, NP: perValue, NQ: perValue}
	}
	require.True(t, table(DenseCount).Dense())
	require.False(t, table(DenseCount-1).Dense())
	require.True(t, table(SparseCount-1).Sparse())
	require.False(t, table(SparseCount).Sparse())
}

// Smoothed sums each cell's smallest window of neighbours holding the
// count asked, in the partition's order; unseen cells get their window too.
func TestSmoothed(t *testing.T) {
	v := normalSample(4, 1000, 0, 1)
	slices.Sort(v)
	p := NewPartition(v, 5)
	tab := &Table{NP: 100, NQ: 100, Partition: p, Cells: []Cell{{0, 10, 0}, {2, 0, 3}, {4, 50, 1}}}
	s := Smoothed(tab, 12)
	byCell := map[int]Cell{}
	for _, c := range s.Cells {
		byCell[c.Value.(int)] = c
	}
	require.Len(t, byCell, 5)
	require.Equal(t, Cell{0, 10, 3}, byCell[0], "window 0…2 (the window is clipped at the end)")
	require.Equal(t, Cell{1, 10, 3}, byCell[1], "window 0…2")
	require.Equal(t, Cell{2, 60, 4}, byCell[2], "window 0…4: 1…3 holds 3")
	require.Equal(t, Cell{4, 50, 1}, byCell[4], "its own count suffices")
	require.Equal(t, int64(100), s.NP)
	require.Nil(t, Smoothed(&Table{NP: 1, NQ: 1}, 12), "values have no order to smooth along")
}

// Number keys order discrete outputs of number kinds exactly, named types
// and integers beyond 2⁵³ included, and nothing else.
func TestNumberKeys(t *testing.T) {
	type level int64
	for _, v := range []any{int(-3), int8(-3), int16(-3), int32(-3), int64(-3), float32(-3), float64(-3), level(-3)} {
		k, ok := NumberKeyOf(v)
		require.True(t, ok, "%T", v)
		require.Equal(t, -3.0, k.f, "%T", v)
	}
	for _, v := range []any{uint(3), uint8(3), uint16(3), uint32(3), uint64(3), uintptr(3)} {
		_, ok := NumberKeyOf(v)
		require.True(t, ok, "%T", v)
	}
	for _, v := range []any{"3", true, Unlisted{}, struct{ A int }{3}, nil} {
		_, ok := NumberKeyOf(v)
		require.False(t, ok, "%T", v)
	}
	key := func(v any) NumberKey { k, _ := NumberKeyOf(v); return k }
	require.Equal(t, -1, CompareNumberKeys(key(int64(1<<62)), key(int64(1<<62+1))), "beyond 2⁵³ as integers")
	require.Equal(t, 1, CompareNumberKeys(key(uint64(1<<63+1)), key(uint64(1<<63))))
	require.Equal(t, 0, CompareNumberKeys(key(level(5)), key(level(5))))
	require.Equal(t, -1, CompareNumberKeys(key(0.5), key(0.75)))

	// Distances between integers are exact before they are rounded.
	require.Equal(t, 1.0, NumberDistance(key(int64(1<<62)), key(int64(1<<62+1))))
	require.Equal(t, math.Exp2(64)-1, NumberDistance(key(int64(math.MinInt64)), key(int64(math.MaxInt64))))
	require.Equal(t, 1.0, NumberDistance(key(uint64(1<<63)), key(uint64(1<<63+1))))
	require.Equal(t, 255.0, NumberDistance(key(uint8(0)), key(uint8(255))))
	require.Equal(t, 0.25, NumberDistance(key(0.5), key(0.75)))
	require.Equal(t, 2.0, NumberDistance(key(level(-1)), key(level(1))))
}

// AsFloat converts outputs of number types, named ones too, and no others.
func TestAsFloat(t *testing.T) {
	type level int64
	type weight float32
	type flag uint8
	require.Equal(t, -3.0, AsFloat[level]()(-3))
	require.Equal(t, 0.5, AsFloat[weight]()(0.5))
	require.Equal(t, 7.0, AsFloat[flag]()(7))
	require.Equal(t, 7.0, AsFloat[int32]()(7))
	require.Nil(t, AsFloat[string]())
	require.Nil(t, AsFloat[bool]())
	require.Nil(t, AsFloat[struct{ A int }]())
}
