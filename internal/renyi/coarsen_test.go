package renyi

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Coarsen merges consecutive groups until each expects GroupCount·λ²
// outputs a side (8 at λ = 2), a short last run joining the group before
// it, and keeps a group the other side never produced apart once P
// expects enough there.
func TestCoarsenMergesThinGroups(t *testing.T) {
	for _, c := range []struct {
		name   string
		ep, eq []float64
		merged []int
		groups int
	}{
		{"each group thick enough: unchanged", []float64{8, 9, 20}, []float64{10, 8, 30}, []int{0, 1, 2}, 3},
		{"pairs of thin groups", []float64{4, 4, 5, 3, 2, 6}, []float64{4, 4, 4, 4, 4, 4}, []int{0, 0, 1, 1, 2, 2}, 3},
		{"a short last run joins the group before", []float64{8, 8, 1}, []float64{8, 8, 1}, []int{0, 1, 1}, 2},
		{"all thin: one group", []float64{1, 1, 1}, []float64{1, 1, 1}, []int{0, 0, 0}, 1},
		{"Q never produced the first groups", []float64{5, 5, 4, 4}, []float64{0, 0, 4, 4}, []int{0, 0, 1, 1}, 2},
		{"P enough before Q's first output, not after", []float64{9, 1, 8}, []float64{0, 8, 8}, []int{0, 1, 1}, 2},
	} {
		merged, groups := Coarsen(c.ep, c.eq, 2)
		require.Equal(t, c.merged, merged, c.name)
		require.Equal(t, c.groups, groups, c.name)
	}
}
