package search

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A confirmation of fewer draws than its groups were made for merges
// them, each group's zones apart (group zones·g + z), as renyi.Coarsen
// merges them at that size; at the size they were made for, or for an
// event (no sizes), the counts are untouched.
func TestCoarsenedKeepsZonesApart(t *testing.T) {
	s := GroupSizes{P: []int64{40, 40, 200}, Q: []int64{40, 40, 200}, NP: 1000, NQ: 1000, For: 1000}
	counts := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9} // three groups of three zones
	coarsened := func(s GroupSizes, c []int64, n int64) []int64 {
		into, groups := s.merged(n, 2)
		if into == nil {
			return c
		}
		return mergeCounts(c, into, groups, 3)
	}
	require.Equal(t, counts, coarsened(s, counts, 1000))
	require.Equal(t, counts, coarsened(GroupSizes{}, counts, 100))
	// At 100 draws a side the groups expect 4, 4 and 20 outputs; λ = 2
	// needs 8: the first two merge.
	require.Equal(t, []int64{5, 7, 9, 7, 8, 9}, coarsened(s, counts, 100))
	// At 50 draws, 2, 2 and 10: all three.
	require.Equal(t, []int64{12, 15, 18}, coarsened(s, counts, 50))
	require.Panics(t, func() { coarsened(s, counts[:8], 100) })
}
