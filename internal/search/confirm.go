package search

import (
	"fmt"
	"slices"
	"sync"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
)

// Counts are one confirmation sampling's counts so far (one pair, one of
// the two rounds): N draws per side of the streams of Seed, counted per
// grouping on X and on Y as sampler.Source.Count returns them. A later
// confirmation of the same seed, pair and findings at a larger size
// continues them: the sequential confirmation's planned look reuses its
// early look's draws.
type Counts struct {
	Seed uint64
	N    int
	X, Y [][]int64
}

// countOn counts the pair's draws up to n per side in the groupings gs and
// returns the totals: all n from stream seed when acc is nil, else only
// those beyond acc.N, added to acc's counts (which it then holds). Counts
// of another seed, or of groupings of other sizes, cannot be continued: a
// programming error, which panics.
func countOn[D any](src sampler.Source[D], acc *Counts, seed uint64, p fixtures.Pair[D], n int, gs []stat.Grouping) (cx, cy [][]int64, err error) {
	if acc == nil {
		return src.Count(seed, p.X, p.Y, 0, n, gs)
	}
	if acc.N > 0 && !acc.continues(seed, n, gs) {
		panic(fmt.Sprintf("search: counts of %d draws of seed %d cannot continue to %d draws of seed %d in %d groupings", acc.N, acc.Seed, n, seed, len(gs)))
	}
	cx, cy, err = src.Count(seed, p.X, p.Y, acc.N, n, gs)
	if err != nil {
		return nil, nil, err
	}
	for k := range acc.X {
		for g := range acc.X[k] {
			cx[k][g] += acc.X[k][g]
			cy[k][g] += acc.Y[k][g]
		}
	}
	acc.Seed, acc.N = seed, n
	acc.X, acc.Y = cloneCounts(cx), cloneCounts(cy)
	return cx, cy, nil
}

// continues reports whether the counts can be continued to n draws of
// seed in groupings gs.
func (c *Counts) continues(seed uint64, n int, gs []stat.Grouping) bool {
	if c.Seed != seed || c.N > n || len(c.X) != len(gs) {
		return false
	}
	for k, g := range gs {
		if len(c.X[k]) != g.Groups {
			return false
		}
	}
	return true
}

func cloneCounts(c [][]int64) [][]int64 {
	out := make([][]int64, len(c))
	for k := range c {
		out[k] = slices.Clone(c[k])
	}
	return out
}

// confirm gives the plan.Confirmed best candidates two independent
// confirmations each, A and B, on fresh samples of the confirmation stage,
// each a lower bound at level α′ = √(α/K), K the number confirmed. It
// confirms pair by pair: one sampling of X and Y serves both directions of
// a pair when both are among those confirmed (each direction's bound is
// valid on its own, and the union bound over candidates needs no
// independence between them).
//
// accs, if not nil, holds one Counts per sampling (2 rounds × the pairs
// confirmed; allocated by the first confirmation), continued by each: a
// confirmation after an earlier one of the same seed and candidates draws
// only beyond it.
func confirm[D, F any](crit Criterion[D, F], cfg Config[D], cands []Candidate[D, F], accs *[]*Counts) ([]Candidate[D, F], float64, error) {
	leading := distinctLeading(cands, plan.Confirmed)
	chosen := make([]Candidate[D, F], len(leading))
	for i, c := range leading {
		chosen[i] = cands[c]
	}
	perConfirm := cfg.Run.PerConfirmation()
	groups := pairGroups(chosen)
	type job struct{ round, group int }
	var jobs []job
	for round := 0; round < 2; round++ {
		for g := range groups {
			jobs = append(jobs, job{round, g})
		}
	}
	type result struct {
		xy, yx Score
		err    error
	}
	results := make([]result, len(jobs))
	if accs != nil && *accs == nil {
		for range jobs {
			*accs = append(*accs, &Counts{})
		}
	}
	concurrently(len(jobs), func(i int) {
		j, group := jobs[i], groups[jobs[i].group]
		var want [2]*F // findings of the directions to confirm
		for _, c := range group {
			want[reverseIndex(chosen[c].Reverse)] = &chosen[c].Finding
		}
		seed := ConfirmSeed(cfg.Run.Seed, j.round, group[0])
		r := &results[i]
		var acc *Counts
		if accs != nil {
			acc = (*accs)[i]
		}
		r.xy, r.yx, r.err = crit.Confirm(seed, chosen[group[0]].Pair, cfg.Confirmation, perConfirm, want[0], want[1], acc)
		cfg.progress()
	})
	for i, j := range jobs {
		group, r := groups[j.group], results[i]
		if r.err != nil {
			return nil, 0, &PairError[D]{Pair: chosen[group[0]].Pair, Stage: "confirmation", Err: r.err}
		}
		for _, c := range group {
			chosen[c].Confirmations[j.round] = [2]Score{r.xy, r.yx}[reverseIndex(chosen[c].Reverse)]
		}
	}
	for i, c := range leading {
		chosen[i].Confirmations = alignEvents(chosen[i].Confirmations)
		cands[c].Confirmations = chosen[i].Confirmations
	}
	return chosen, perConfirm, nil
}

// distinctLeading lists the indices of the first k candidates, in order,
// that measure something none before them does: a pair screened twice (a
// generator that repeats it, a simplification that returns to it) is one
// candidate of each direction, whose one sampling per round counts one
// event for each, and a pair's direction is its swapped pair's other
// direction.
func distinctLeading[D, F any](cands []Candidate[D, F], k int) []int {
	var out []int
	for i, c := range cands {
		if len(out) == k {
			break
		}
		if !slices.ContainsFunc(out, func(j int) bool {
			o := cands[j]
			return o.Reverse == c.Reverse && sameDatasets(o.Pair, c.Pair) || o.Reverse != c.Reverse && sameDatasets(o.Pair, Swapped(c.Pair))
		}) {
			out = append(out, i)
		}
	}
	return out
}

// alignEvents makes a candidate's two confirmations score one event. A
// local-DP confirmation of two events (Score.Second) scores the one of
// higher lower bound, which can differ between the rounds; the candidate's
// bound is then the better of the two events' bounds in both rounds,
//
//	max_e min(LB_e,A, LB_e,B),
//
// a union over the two events of bounds each at half the level, so its
// estimate, bound and named event are one event's.
func alignEvents(c [2]Score) [2]Score {
	if c[0].Second == nil || c[1].Second == nil {
		return c
	}
	split := func(s Score) (first, second Score) { // by the screening's order
		other := *s.Second
		s.Second = nil
		if s.AltEvent {
			return other, s
		}
		return s, other
	}
	f0, s0 := split(c[0])
	f1, s1 := split(c[1])
	if min(s0.LowerBound, s1.LowerBound) > min(f0.LowerBound, f1.LowerBound) {
		f0, s0, f1, s1 = s0, f0, s1, f1
	}
	f0.Second, f1.Second = &s0, &s1
	return [2]Score{f0, f1}
}

// pairGroups groups the indices of candidates by pair, in order of first
// appearance: one group per sampling of a pair, whose first index also
// numbers its stream.
func pairGroups[D, F any](cands []Candidate[D, F]) [][]int {
	var groups [][]int
	done := make([]bool, len(cands))
	for i := range cands {
		if done[i] {
			continue
		}
		group := []int{i}
		for j := i + 1; j < len(cands); j++ {
			if !done[j] && sameDatasets(cands[j].Pair, cands[i].Pair) {
				group = append(group, j)
				done[j] = true
			}
		}
		groups = append(groups, group)
	}
	return groups
}

// decide names the witness and the verdict: the first confirmed candidate
// (the simplest among the most divergent) whose bound exceeds the
// threshold; without one, the candidate with the largest bound. The claim
// is violated iff the witness's bound, the smaller of its two
// confirmations', exceeds the threshold.
func decide[D, F any](confirmed []Candidate[D, F], threshold float64) (best Candidate[D, F], violated bool) {
	best = confirmed[0]
	for _, c := range confirmed {
		if c.Bound() > threshold {
			return c, true
		}
		if c.Bound() > best.Bound() {
			best = c
		}
	}
	return best, false
}

// Concurrency is how many screenings or confirmations run at once. Each
// draws on every core; running two lets one's estimation, which runs on one
// core, overlap the other's draws. The results do not depend on it: every
// screening and confirmation draws on its own streams.
const Concurrency = 2

// concurrently calls f(0), …, f(n−1), Concurrency at a time, and returns
// when all have returned.
func concurrently(n int, f func(i int)) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, Concurrency)
	for i := 0; i < n; i++ {
		slots <- struct{}{}
		wg.Add(1)
		go func(i int) {
			defer func() { <-slots; wg.Done() }()
			f(i)
		}(i)
	}
	wg.Wait()
}

func (cfg Config[D]) progress() {
	if cfg.Progress != nil {
		cfg.Progress()
	}
}

// groupingsOf lists the groupings of the directions to confirm (xy, then
// yx; nil findings are not confirmed).
func groupingsOf[F any](xy, yx *F, groups func(F) stat.Grouping) []stat.Grouping {
	var gs []stat.Grouping
	for _, f := range []*F{xy, yx} {
		if f != nil {
			gs = append(gs, groups(*f))
		}
	}
	return gs
}
