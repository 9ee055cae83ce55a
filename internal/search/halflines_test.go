package search

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/hockey"
	"github.com/dptest/dptest/internal/stat"
)

// The hockey-stick criterion orders numbers by position too only where
// half-lines were measured to help: a hockey-stick divergence claimed at
// δ > 0. Not a DP claim's cross-check at δ = 0 (at any ε, 0 included,
// whose weight is 1), not Gaussian DP (its bounds fell with them), and
// not a table of values (no positions).
func TestHalfLinesOnlyForAHockeyStickClaimAtPositiveDelta(t *testing.T) {
	numbers := &stat.Table{Partition: stat.PartitionOf([]float64{0, 1, 2, 3})}
	values := &stat.Table{}
	criterion := func(m hockey.Measure, threshold float64) eventCriterion[int] {
		return Event[int](nil, m, 1000, 0.01, threshold).(eventCriterion[int])
	}
	require.True(t, criterion(hockey.HockeyStick(1), 0.01).halfLines(numbers))
	require.False(t, criterion(hockey.HockeyStick(1), 0.01).halfLines(values))
	require.False(t, criterion(hockey.HockeyStick(1), 0).halfLines(numbers), "a DP claim's cross-check")
	require.False(t, criterion(hockey.HockeyStick(0), 0).halfLines(numbers), "the cross-check of ε = 0")
	require.False(t, criterion(hockey.Gaussian(), 1).halfLines(numbers), "Gaussian DP")
}
