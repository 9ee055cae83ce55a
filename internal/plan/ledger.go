package plan

import (
	"fmt"
	"strings"
)

// Ledger is an audit's false-failure budget α, spent as a tree built once
// from the plan: α over the runs (Run.Alpha), each run's share over its
// looks (the quick look, the looks before the planned confirmation, the
// planned one: Look), and each look's share over the Confirmed candidates
// it confirms. A candidate is falsely confirmed only when both its
// confirmations are, each at level Look.PerConfirmation, so its leaf is
// that level squared; a confirmation that bounds several events splits its
// level among them, which does not change the leaf. The leaves sum to at
// most α (TestLedgerSpendsAtMostAlpha), and the engine reads each look's
// level from here.
type Ledger struct {
	Alpha float64
	Runs  []RunBudget
}

// RunBudget is one run's share of α and its looks, in the order they
// happen.
type RunBudget struct {
	Run   Run
	Looks []Look
}

// Look is one look of a run: its name, draws per side, share of α and the
// level of each of its confirmations.
type Look struct {
	Name            string // "quick", "look 1", …, "planned"
	Samples         int
	Alpha           float64
	PerConfirmation float64
}

// Ledger returns the plan's budget tree.
func (p Plan) Ledger() Ledger {
	l := Ledger{Alpha: p.Alpha()}
	for _, r := range p.Runs {
		l.Runs = append(l.Runs, RunBudget{Run: r, Looks: p.runLooks(r)})
	}
	return l
}

// runLooks is RunLooks of the plan's stages; a data-centric audit, which
// measures a level rather than testing a claim, has no looks before the
// planned one.
func (p Plan) runLooks(r Run) []Look {
	looks := p.Looks
	if p.Claim.Kind == KindDataCentric {
		looks = nil
	}
	return RunLooks(r, p.QuickConfirmation, looks, p.Confirmation)
}

// RunLooks splits a run's α over its looks: QuickLookShare at the quick
// look, if it has samples; LookShare of the rest at each look before the
// planned one; the planned confirmation the remainder. It is the one
// place the split is made.
func RunLooks(r Run, quick Stage, looks []Stage, planned Stage) []Look {
	var out []Look
	rest := r.Alpha
	add := func(name string, n int, alpha float64) {
		q := r
		q.Alpha = alpha
		out = append(out, Look{Name: name, Samples: n, Alpha: alpha, PerConfirmation: q.PerConfirmation()})
	}
	if quick.Samples > 0 {
		add(QuickLookName, quick.Samples, r.Alpha*QuickLookShare)
		rest -= r.Alpha * QuickLookShare
	}
	base := rest
	for k, st := range looks {
		add(fmt.Sprintf("look %d", k+1), st.Samples, base*LookShare)
		rest -= base * LookShare
	}
	add(PlannedLookName, planned.Samples, rest)
	return out
}

// The names of the quick look and the planned one in a Ledger.
const (
	QuickLookName   = "quick"
	PlannedLookName = "planned"
)

// Leaves are the budget's leaves: for every run, look and candidate
// confirmed, the probability that the candidate is falsely confirmed.
func (l Ledger) Leaves() []float64 {
	var leaves []float64
	for _, r := range l.Runs {
		for _, look := range r.Looks {
			for range Confirmed {
				leaves = append(leaves, look.PerConfirmation*look.PerConfirmation)
			}
		}
	}
	return leaves
}

// String prints the tree, one look a line, for -dptest.v.
func (l Ledger) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "false-failure budget α = %.3g", l.Alpha)
	for _, r := range l.Runs {
		fmt.Fprintf(&b, "\n  %s run: %.3g", r.Run.Criterion, r.Run.Alpha)
		for _, look := range r.Looks {
			fmt.Fprintf(&b, "\n    %s (%d draws per side): %.3g, %d candidates at %.3g each, twice", look.Name, look.Samples, look.Alpha, Confirmed, look.PerConfirmation)
		}
	}
	return b.String()
}
