package search

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
	"pgregory.net/rapid"

	"github.com/dptest/dptest/fixtures"
)

// Config describes one audit of a privacy claim: the claimed bound Claim on
// what the Criterion measures.
type Config[D any] struct {
	Claim     float64
	Alpha     float64 // false-failure probability of the verdict, 1 − confidence
	Samples   int     // confirming sample size per side
	Screen    int     // screening sample size per side
	Seed      uint64
	Pairs     []fixtures.Pair[D]                 // explicit candidates, screened first
	Generator *rapid.Generator[fixtures.Pair[D]] // property-based candidates, may be nil
	Generated int                                // number of candidates drawn from Generator
	Confirm   int                                // number of (pair, direction) candidates confirmed
	Workers   int                                // sampling goroutines, 0 = GOMAXPROCS
	// Simplify, if not nil, proposes simpler versions of a pair (fewer
	// distinct values, extreme values); when the best pair's screening
	// already shows a violation, the engine moves to a proposal that
	// screens as divergent (see Run).
	Simplify func(fixtures.Pair[D]) []fixtures.Pair[D]
	Logf     func(format string, args ...any) // progress, nil for none
}

// Candidate is one (pair, direction) with its screening and confirmation
// results. Reverse selects D(M(Y) ‖ M(X)) instead of D(M(X) ‖ M(Y)).
type Candidate[D any] struct {
	Pair      fixtures.Pair[D]
	Reverse   bool
	Source    string // "pair 3", "generated 7", "simplified"
	Screening Score
	// Confirmations holds the two independent confirmations, A and B.
	Confirmations [2]Score
}

// Score is an estimate with its standard error and, for confirmations, a
// lower bound; Detail holds the criterion's own result (a renyi.Result or a
// local.Estimate / local.Bound).
type Score struct {
	Estimate, StdErr, LowerBound float64
	// Rank orders screened candidates, most divergent first: the estimate
	// itself for the Rényi criterion, the estimate less local.PeakPenalty
	// standard errors for the local one, whose maximum over many outputs
	// favours noise.
	Rank   float64
	Detail any
}

// Criterion is what an audit measures on a pair, in both directions.
type Criterion[D any] interface {
	// Screen draws n outputs per side from streams of seed and estimates
	// both directions.
	Screen(seed uint64, p fixtures.Pair[D], n int) (xy, yx Score, err error)
	// Confirm draws n fresh outputs per side and bounds the directions
	// whose screening is not nil from below at level alpha each.
	Confirm(seed uint64, p fixtures.Pair[D], n int, alpha float64, xy, yx *Score) (bxy, byx Score, err error)
}

// Bound is the candidate's confirmed lower bound: the smaller of its two
// independent confirmations' bounds.
func (c Candidate[D]) Bound() float64 {
	return min(c.Confirmations[0].LowerBound, c.Confirmations[1].LowerBound)
}

// Estimate is the mean of the two confirmations' estimates.
func (c Candidate[D]) Estimate() float64 {
	return (c.Confirmations[0].Estimate + c.Confirmations[1].Estimate) / 2
}

// Outcome is the result of [Run].
type Outcome[D any] struct {
	Best          Candidate[D]   // the confirmed candidate with the largest Bound
	Confirmed     []Candidate[D] // all confirmed candidates
	PairsSearched int            // distinct pairs screened (explicit, generated, simplified)
	PerConfirm    float64        // α′, the level of each of the two confirmations
	Directions    [2]string      // names of the measure X→Y and Y→X (see Outcome.Direction)
	Violated      bool           // Best.Bound() > Claim
	Elapsed       time.Duration
}

// maxSimplify caps the screenings spent on simplifying the best pair.
const maxSimplify = 24

// SimplifySlack is the relative loss of screening estimate a simpler pair
// may show and still replace the best one (besides two standard errors of
// the difference). The standard error of a local DP screening is that of the
// loss at one output and does not see the noise of its maximum over outputs,
// so without the slack a pair as divergent as the best (any pair whose sums
// differ by one, for the Laplace mechanism) can be rejected and the witness
// keep values such as 2.9·10⁻²².
const SimplifySlack = 0.05

// Stream seeds: each sampling call of an audit gets its own seed, derived
// from the audit's seed and a label, so that no two calls share draws and
// the same audit seed replays every one of them.
func subSeed(seed uint64, label string, i int) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%d", seed, label, i)
	return h.Sum64()
}

// Run audits the claim "the criterion is at most Claim" for every
// neighbouring pair it can find.
//
//  1. Screen: the explicit pairs, then Generated pairs drawn from Generator
//     (deterministically from Seed), are sampled Screen times per side;
//     both directions of each are estimated from the same samples.
//  2. Simplify (if Config.Simplify is set and the best screening's 95%
//     bound exceeds the claim): simpler versions of the best pair are
//     screened and kept while they stay as divergent as a fresh screening
//     of the best pair.
//  3. Confirm: the Confirm most divergent (pair, direction) candidates get two
//     independent confirmations each, A and B, on fresh samples of size
//     Samples per side; each gives a lower bound at level α′ = √(α/K),
//     K = number of candidates confirmed. The claim is violated iff for some
//     candidate both bounds exceed it.
//
// False-failure probability. If the mechanism satisfies the claim, every
// candidate's true divergence is at most Claim, each confirmation's bound
// exceeds it with probability at most α′, and A and B use independent
// samples, so a candidate is falsely confirmed with probability at most α′²
// and some candidate with probability at most K·α′² = α (Bonferroni). The
// confirmation samples are never used for selection, so the selection in
// steps 1–2 does not affect this. Only the bounds' own level α′ rests on the
// normal approximation of [KAD24], and at α = 10⁻⁴ that is α′ ≈ 0.7% (z ≈
// 2.45) rather than a tail of 10⁻⁴ (z ≈ 3.7), where a normal approximation
// is far less trustworthy.
func Run[D any](crit Criterion[D], cfg Config[D]) (Outcome[D], error) {
	start := time.Now()
	logf := cfg.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}

	// The logs and the outcome name the two directions as the criterion
	// measures them: divergences unless it says otherwise.
	names := [2]string{"D(M(X)‖M(Y))", "D(M(Y)‖M(X))"}
	if d, ok := crit.(interface{ Directions() [2]string }); ok {
		names = d.Directions()
	}
	var cands []Candidate[D]
	screened, rescreened := 0, 0
	screen := func(p fixtures.Pair[D], source string) error {
		xy, yx, err := crit.Screen(subSeed(cfg.Seed, "screen", screened), p, cfg.Screen)
		screened++
		if err != nil {
			return &PairError[D]{Pair: p, Stage: "screening " + source, Err: err}
		}
		logf("screened %s: %s ≈ %.4g, %s ≈ %.4g  X=%v Y=%v", source, names[0], xy.Estimate, names[1], yx.Estimate, p.X, p.Y)
		cands = append(cands,
			Candidate[D]{Pair: p, Source: source, Screening: xy},
			Candidate[D]{Pair: p, Reverse: true, Source: source, Screening: yx})
		return nil
	}
	for i, p := range cfg.Pairs {
		if err := screen(p, fmt.Sprintf("pair %d", i+1)); err != nil {
			return Outcome[D]{}, err
		}
	}
	if cfg.Generator != nil {
		for i := 0; i < cfg.Generated; i++ {
			p := cfg.Generator.Example(int(subSeed(cfg.Seed, "generate", i) >> 1))
			if err := screen(p, fmt.Sprintf("generated %d", i+1)); err != nil {
				return Outcome[D]{}, err
			}
		}
	}
	if len(cands) == 0 {
		return Outcome[D]{}, fmt.Errorf("no candidate pairs to screen")
	}
	slices.SortStableFunc(cands, func(a, b Candidate[D]) int {
		return cmp.Compare(b.Screening.Rank, a.Screening.Rank)
	})
	// The best of many screening estimates is biased upwards, so the
	// trigger asks for a violation at level 5% after Bonferroni over the
	// candidates screened.
	zTrigger := distuv.UnitNormal.Quantile(1 - 0.05/float64(len(cands)))
	violates := func(c Candidate[D], z float64) bool { return c.Screening.Estimate-z*c.Screening.StdErr > cfg.Claim }
	if cfg.Simplify != nil && violates(cands[0], zTrigger) && len(cfg.Simplify(cands[0].Pair)) > 0 {
		// Greedy: try the proposals for the current best pair in order,
		// move to the first that is as divergent as the best as far as the
		// screening can tell (within two standard errors of the difference,
		// or SimplifySlack of the estimate) and still above the claim, and
		// start again from it, within a budget of screenings. The best
		// pair's own screening, the largest of many, is biased upwards (by a
		// third for a Laplace mechanism among 21 pairs), so the proposals are
		// compared with a fresh screening of it, which is not a candidate;
		// comparing every step with that one reference keeps the slack from
		// adding up over the steps.
		best := cands[0]
		n := len(cands)
		if err := screen(best.Pair, "again"); err != nil {
			return Outcome[D]{}, err
		}
		rescreened = 1
		top := cands[n].Screening
		if best.Reverse {
			top = cands[n+1].Screening
		}
		cands = cands[:n]
		tries := 0
		for improved := true; improved && tries < maxSimplify; {
			improved = false
			for _, p := range cfg.Simplify(best.Pair) {
				if tries >= maxSimplify {
					break
				}
				tries++
				n := len(cands)
				if err := screen(p, "simplified"); err != nil {
					return Outcome[D]{}, err
				}
				c := cands[n]
				if best.Reverse {
					c = cands[n+1]
				}
				tol := max(2*math.Hypot(c.Screening.StdErr, top.StdErr), SimplifySlack*math.Abs(top.Estimate))
				if c.Screening.Estimate >= top.Estimate-tol && violates(c, 1.6448536269514722) {
					best, improved = c, true
					break
				}
			}
		}
		// The simplest pair found leads; the others follow by estimate.
		i := slices.IndexFunc(cands, func(c Candidate[D]) bool {
			return c.Reverse == best.Reverse && sameDatasets(c.Pair, best.Pair)
		})
		cands = append([]Candidate[D]{best}, slices.Delete(cands, i, i+1)...)
		slices.SortStableFunc(cands[1:], func(a, b Candidate[D]) int {
			return cmp.Compare(b.Screening.Rank, a.Screening.Rank)
		})
	}

	k := min(cfg.Confirm, len(cands))
	chosen := cands[:k]
	perConfirm := math.Sqrt(cfg.Alpha / float64(k))
	// Confirm pair by pair: one sampling of X and Y serves both directions.
	for round := 0; round < 2; round++ {
		done := make(map[int]bool)
		for i := range chosen {
			if done[i] {
				continue
			}
			var want [2]*Score // screening of the directions to confirm
			var idx [2]int
			for j := i; j < k; j++ {
				if j == i || (!done[j] && sameDatasets(chosen[j].Pair, chosen[i].Pair)) {
					d := 0
					if chosen[j].Reverse {
						d = 1
					}
					want[d], idx[d] = &chosen[j].Screening, j
					done[j] = true
				}
			}
			xy, yx, err := crit.Confirm(subSeed(cfg.Seed, fmt.Sprintf("confirm%d", round), i), chosen[i].Pair, cfg.Samples, perConfirm, want[0], want[1])
			if err != nil {
				return Outcome[D]{}, &PairError[D]{Pair: chosen[i].Pair, Stage: "confirmation", Err: err}
			}
			if want[0] != nil {
				chosen[idx[0]].Confirmations[round] = xy
			}
			if want[1] != nil {
				chosen[idx[1]].Confirmations[round] = yx
			}
		}
	}
	out := Outcome[D]{Confirmed: chosen, PairsSearched: screened - rescreened, PerConfirm: perConfirm, Directions: names}
	// The witness is the first confirmed candidate (the simplest among the
	// most divergent) that violates the claim; without a violation, the
	// candidate with the largest bound.
	out.Best = chosen[0]
	violator := -1
	for i, c := range chosen {
		if violator < 0 && c.Bound() > cfg.Claim {
			violator = i
		}
		logf("confirmed %s %s: bounds %.4g and %.4g (estimates %.4g, %.4g) at level %.3g each",
			c.Source, names[reverseIndex(c.Reverse)], c.Confirmations[0].LowerBound, c.Confirmations[1].LowerBound,
			c.Confirmations[0].Estimate, c.Confirmations[1].Estimate, perConfirm)
		if c.Bound() > out.Best.Bound() {
			out.Best = c
		}
	}
	if violator >= 0 {
		out.Best = chosen[violator]
	}
	out.Violated = out.Best.Bound() > cfg.Claim
	out.Elapsed = time.Since(start)
	return out, nil
}

func reverseIndex(reverse bool) int {
	if reverse {
		return 1
	}
	return 0
}

// Direction names the measure a candidate estimates, as the criterion calls
// it: "D(M(X)‖M(Y))" or "D(M(Y)‖M(X))" for a Rényi criterion,
// "ln f_X − ln f_Y" or "ln f_Y − ln f_X" for a local DP one.
func (o Outcome[D]) Direction(c Candidate[D]) string { return o.Directions[reverseIndex(c.Reverse)] }

func sameDatasets[D any](a, b fixtures.Pair[D]) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

// PairError is a failure while sampling a pair.
type PairError[D any] struct {
	Pair  fixtures.Pair[D]
	Stage string
	Err   error
}

func (e *PairError[D]) Error() string {
	return fmt.Sprintf("%s of X=%v Y=%v: %v", e.Stage, e.Pair.X, e.Pair.Y, e.Err)
}
func (e *PairError[D]) Unwrap() error { return e.Err }
