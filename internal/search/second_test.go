package search

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/local"
	"github.com/dptest/dptest/internal/stat"
)

// bestSecond gives the highest-ranked screening the second event of the
// highest predicted bound among all the tables screened, where that lies
// above its own second event's and its event's prediction; an event seen
// on one side only (EventBound +Inf) keeps its own.
func TestBestSecondAmongTheTables(t *testing.T) {
	second := func(location float64, bound float64) local.Estimate {
		return local.Estimate{Alt: stat.Grouping{Groups: 2}, AltLocation: location, AltBound: bound}
	}
	others := []local.Estimate{{EventBound: 0.9}, second(40, 2.3), second(12, 1.7)}

	w := local.Estimate{EventBound: 0.9}
	bestSecond(&w, others)
	require.Equal(t, 40.0, w.AltLocation, "the run's, predicted at 2.3")
	require.Equal(t, 2.3, w.AltBound)

	w = local.Estimate{EventBound: 0.9, Alt: stat.Grouping{Groups: 2}, AltLocation: 3.0, AltBound: 2.5}
	bestSecond(&w, others)
	require.Equal(t, 3.0, w.AltLocation, "its own second event predicts more")

	w = local.Estimate{EventBound: 2.4}
	bestSecond(&w, others)
	require.Zero(t, w.Alt.Groups, "its event predicts more than any second")

	w = local.Estimate{EventBound: math.Inf(1)}
	bestSecond(&w, others)
	require.Zero(t, w.Alt.Groups, "an event seen on one side only")
}
