package sampler

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/stat"
)

// seq is n consecutive integers from start.
func seq(start, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = start + i
	}
	return out
}

// Screening streams read disjoint stretches of the selection draws, in
// the order they ask; a stream asking again reads the same draws; the
// confirmation rounds read only their own; a run after a confirmation
// reads the selection afresh; asking beyond a share is an error.
func TestRecordsServe(t *testing.T) {
	sel := [2][]int{seq(0, 1000), seq(10_000, 1000)}
	rounds := [2][2][]int{{seq(1000, 500), seq(11_000, 500)}, {seq(2000, 500), seq(12_000, 500)}}
	r := NewRecords(sel, rounds, map[uint64]int{100: 0, 101: 1})
	got := func(seed, id uint64, from, n int) []int {
		v, err := r.serve(seed, id, from, n)
		require.NoError(t, err)
		return v
	}
	require.Equal(t, seq(0, 300), got(1, streamPilotX, 0, 300))
	require.Equal(t, seq(300, 400), got(1, streamX, 0, 400))
	require.Equal(t, seq(10_000, 300), got(1, streamPilotY, 0, 300), "each side its own")
	require.Equal(t, seq(700, 300), got(2, streamX, 0, 300), "the held half")
	require.Equal(t, seq(300, 400), got(1, streamX, 0, 400), "a stream replays its draws")
	_, err := r.serve(3, streamX, 0, 1)
	require.ErrorIs(t, err, ErrRecordsExhausted)

	require.Equal(t, seq(2000, 500), got(101, streamX, 0, 500))
	require.Equal(t, seq(11_000+256, 244), got(100, streamY, 256, 500), "a round continues from its first draws")
	_, err = r.serve(100, streamX, 0, 501)
	require.ErrorIs(t, err, ErrRecordsExhausted)

	require.Equal(t, seq(0, 1000), got(4, streamX, 0, 1000), "the next run reads the selection afresh")
	_, err = r.serve(5, streamReplay, 0, 1)
	require.Error(t, err)
}

// A recorded source counts in a confirmation exactly the round's draws.
func TestRecordedSourceCounts(t *testing.T) {
	sel := [2][]int{seq(0, 100), seq(0, 100)}
	rounds := [2][2][]int{{seq(0, 50), seq(25, 50)}, {seq(0, 50), seq(0, 50)}}
	src := RecordedDiscrete[string](NewRecords(sel, rounds, map[uint64]int{7: 0, 8: 1}))
	ofValue := map[any]int{}
	for v := range 100 {
		ofValue[v] = v / 50
	}
	g := stat.Grouping{Groups: 2, OfValue: ofValue}
	cx, cy, err := src.Count(7, "x", "y", 0, 50, []stat.Grouping{g})
	require.NoError(t, err)
	require.Equal(t, []int64{50, 0}, cx[0])
	require.Equal(t, []int64{25, 25}, cy[0])
}
