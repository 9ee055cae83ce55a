package stat

import (
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
