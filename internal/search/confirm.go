package search

import (
	"fmt"

	"github.com/dptest/dptest/internal/plan"
)

// confirm gives the plan.Confirmed best candidates two independent
// confirmations each, A and B, on fresh samples of the confirmation stage,
// each a lower bound at level α′ = √(α/K), K the number confirmed. It
// confirms pair by pair: one sampling of X and Y serves both directions of
// a pair when both are among those confirmed (each direction's bound is
// valid on its own, and the union bound over candidates needs no
// independence between them).
func confirm[D, F any](crit Criterion[D, F], cfg Config[D], cands []Candidate[D, F]) ([]Candidate[D, F], float64, error) {
	k := min(plan.Confirmed, len(cands))
	chosen := cands[:k]
	perConfirm := cfg.Run.PerConfirmation()
	for round := 0; round < 2; round++ {
		for _, group := range pairGroups(chosen) {
			var want [2]*F // findings of the directions to confirm
			for _, j := range group {
				want[reverseIndex(chosen[j].Reverse)] = &chosen[j].Finding
			}
			p := chosen[group[0]].Pair
			seed := plan.SubSeed(cfg.Run.Seed, fmt.Sprintf("confirm%d", round), group[0])
			xy, yx, err := crit.Confirm(seed, p, cfg.Confirmation, perConfirm, want[0], want[1])
			if err != nil {
				return nil, 0, &PairError[D]{Pair: p, Stage: "confirmation", Err: err}
			}
			for _, j := range group {
				chosen[j].Confirmations[round] = [2]Score{xy, yx}[reverseIndex(chosen[j].Reverse)]
			}
		}
	}
	return chosen, perConfirm, nil
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
