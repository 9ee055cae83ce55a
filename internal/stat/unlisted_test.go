package stat

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// tallied counts the outputs xs and ys of one side each in g, each side
// in two halves merged, as the sampler's workers do.
func tallied[O comparable](t *testing.T, g Grouping, xs, ys []O) (cp, cq []int64) {
	t.Helper()
	newCounts, err := NewGroupCounts[O]([]Grouping{g})
	require.NoError(t, err)
	side := func(vs []O) []int64 {
		a, b := newCounts(), newCounts()
		for i, v := range vs {
			if i%2 == 0 {
				a.Add(v)
			} else {
				b.Add(v)
			}
		}
		a.Merge(b)
		return a.In[0]
	}
	return side(xs), side(ys)
}

// exactUnmatched is Σ_v (a_v − b_v)⁺ over the values xs and ys that g does
// not list, counted one by one.
func exactUnmatched[O comparable](g Grouping, xs, ys []O) int64 {
	a, b := map[O]int64{}, map[O]int64{}
	for _, v := range xs {
		if _, ok := g.OfValue[v]; !ok {
			a[v]++
		}
	}
	for _, v := range ys {
		if _, ok := g.OfValue[v]; !ok {
			b[v]++
		}
	}
	var sum int64
	for v, n := range a {
		sum += max(0, n-b[v])
	}
	return sum
}

// The unmatched count of unlisted values is Σ_v (a_v − b_v)⁺ where no two
// values share a bucket, and never less where they do.
func TestUnmatchedUnlistedCountsEachValuesExcess(t *testing.T) {
	g := Grouping{Groups: 3, OfValue: map[any]int{0: 0, 1: 1}, Unlisted: 2}.WithBuckets(UnlistedBuckets)
	require.Equal(t, 3+2*UnlistedBuckets, g.Groups)
	require.Equal(t, 3, g.Tallied())
	r := rand.New(rand.NewPCG(1, 2))
	draw := func(n, far int, shift int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = r.IntN(2)
			if r.IntN(10) == 0 {
				out[i] = 100 + r.IntN(far) + shift
			}
		}
		return out
	}
	sharing := 0
	for _, c := range []struct{ far, shift int }{{10, 0}, {10, 3}, {20, 0}, {5000, 0}, {5000, 1}} {
		xs, ys := draw(3000, c.far, 0), draw(2000, c.far, c.shift)
		cp, cq := tallied(t, g, xs, ys)
		exact := exactUnmatched(g, xs, ys)
		got := UnmatchedUnlisted(g, cp, cq)
		require.GreaterOrEqual(t, got, exact, "far %d shift %d", c.far, c.shift)
		require.LessOrEqual(t, got, cp[g.Unlisted])
		if apart(append(xs, ys...)) {
			require.Equal(t, exact, got, "far %d shift %d", c.far, c.shift)
		} else {
			sharing++
		}
	}
	require.Equal(t, 3, sharing, "values 113 and 115 share a bucket; 100–112 do not")
	// Without buckets every unlisted output is unmatched.
	plain := Grouping{Groups: 3, OfValue: map[any]int{0: 0, 1: 1}, Unlisted: 2}
	cp, cq := tallied(t, plain, []int{0, 5, 5, 7}, []int{5, 5, 7})
	require.Equal(t, int64(3), UnmatchedUnlisted(plain, cp, cq))
}

// apart reports whether no two of the values vs (beyond 1) share a bucket.
func apart(vs []int) bool {
	hash, of := valueHasher[int](), map[uint64]int{}
	for _, v := range vs {
		h, _ := hash(v)
		b := mix(h, bucketMix) % UnlistedBuckets
		if w, ok := of[b]; ok && w != v && v > 1 {
			return false
		}
		of[b] = v
	}
	return true
}

// Two values in one bucket, one drawn by each side only: the bucket's
// counts are alike, its fingerprints are not, and all of the bounded
// side's draws count unmatched.
func TestUnmatchedUnlistedKeepsValuesOfOneBucketApart(t *testing.T) {
	g := Grouping{Groups: 1, OfValue: map[any]int{}, Unlisted: 0}.WithBuckets(UnlistedBuckets)
	hash := valueHasher[int64]()
	bucket := func(v int64) uint64 { h, _ := hash(v); return mix(h, bucketMix) % UnlistedBuckets }
	other := int64(1)
	for bucket(other) != bucket(0) {
		other++
	}
	xs, ys := []int64{0, 0, 0}, []int64{other, other, other}
	cp, cq := tallied(t, g, xs, ys)
	require.Equal(t, cp[1+bucket(0)], cq[1+bucket(0)], "one bucket")
	require.Equal(t, int64(3), UnmatchedUnlisted(g, cp, cq))
	// The same values in the same proportions on both sides match.
	xs, ys = []int64{0, other, 0, other}, []int64{other, 0}
	cp, cq = tallied(t, g, xs, ys)
	require.Equal(t, int64(2), UnmatchedUnlisted(g, cp, cq))
	// In other proportions they do not.
	xs, ys = []int64{0, 0, 0, other}, []int64{other, 0}
	cp, cq = tallied(t, g, xs, ys)
	require.Equal(t, int64(4), UnmatchedUnlisted(g, cp, cq))
}

type count int

// reading prints only three digits of its value, as a lossy GoString.
type reading struct{ v int64 }

func (r reading) GoString() string { return fmt.Sprintf("reading(%.3g)", float64(r.v)) }

// Equal values hash alike and distinct ones apart, as == compares them:
// −0 and 0, a named number type by its value, structs by every field
// (not by how they print), blank fields not at all; values of an
// interface type with their dynamic type. Pointers are not hashed.
func TestValueHasher(t *testing.T) {
	equal := func(a, b any) {
		t.Helper()
		h := valueHasher[any]()
		ha, oka := h(a)
		hb, okb := h(b)
		require.True(t, oka && okb, "%#v %#v", a, b)
		require.Equal(t, a == b, ha == hb, "%#v %#v", a, b)
	}
	f := valueHasher[float64]()
	zero, _ := f(0)
	negZero, _ := f(math.Copysign(0, -1))
	require.Equal(t, zero, negZero)
	c, _ := valueHasher[count]()(7)
	i, _ := valueHasher[int]()(7)
	require.Equal(t, c, i)
	equal(1, 1)
	equal(1, int64(1))
	equal("ab", "a"+"b")
	equal("ab", "ba")
	equal(reading{1_000_000_001}, reading{1_000_000_003})
	equal(reading{5}, reading{5})
	type pair struct{ A, B float64 }
	equal(pair{1, 2}, pair{2, 1})
	equal(pair{0, 1}, pair{math.Copysign(0, -1), 1})
	type blank struct {
		A int
		_ int
	}
	equal(blank{A: 1}, blank{A: 1})
	equal([2]string{"a", "b"}, [2]string{"a", "b"})
	equal([2]string{"a", "b"}, [2]string{"b", "a"})
	equal(complex(1, 2), complex(2, 1))
	equal(nil, nil)
	x := 1
	_, ok := valueHasher[*int]()(&x)
	require.False(t, ok, "pointers are not hashed")
	_, ok = valueHasher[struct{ P *int }]()(struct{ P *int }{&x})
	require.False(t, ok)
}

// Draws of values no hash holds count unmatched, whatever the other
// side drew.
func TestUnmatchedUnlistedCountsUnhashedDraws(t *testing.T) {
	a, b := 1, 2
	g := Grouping{Groups: 1, OfValue: map[any]int{}, Unlisted: 0}.WithBuckets(UnlistedBuckets)
	cp, cq := tallied(t, g, []*int{&a, &a, &b}, []*int{&a, &a, &b})
	require.Equal(t, int64(3), UnmatchedUnlisted(g, cp, cq))
}

// Buckets are for a grouping of values whose unlisted group is its own
// and its last.
func TestWithBucketsOnlyWhereTheyCanBeTallied(t *testing.T) {
	v := normalSample(4, 100, 0, 1)
	cells := Grouping{Groups: 1, Partition: NewPartition(v, 1), OfCell: []int{0}}
	require.Equal(t, cells, cells.WithBuckets(8))
	shared := Grouping{Groups: 2, OfValue: map[any]int{1: 0, 2: 1}, Unlisted: 0}
	require.Equal(t, shared, shared.WithBuckets(8), "unlisted is not the last group")
	listed := Grouping{Groups: 2, OfValue: map[any]int{1: 0, 2: 1}, Unlisted: 1, UnlistedBuckets: 2}
	listed.Groups += 4
	_, err := NewGroupCounts[int]([]Grouping{listed})
	require.ErrorContains(t, err, "unlisted group")
	holding := Grouping{Groups: 2, OfValue: map[any]int{1: 0, 2: 1}, Unlisted: 1}
	require.Equal(t, holding, holding.WithBuckets(8), "unlisted group holds a listed value")
	g := Grouping{Groups: 2, OfValue: map[any]int{1: 0}, Unlisted: 1}.WithBuckets(8)
	require.Equal(t, g, g.WithBuckets(8), "buckets once")
}
