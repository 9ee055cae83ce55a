package dptest

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/dptest/dptest/internal/plan"
)

// MaxHoldsLine is the most characters a holds line takes; the domain
// searched is shortened to fit.
const MaxHoldsLine = 160

// String renders the report as a test shows it: one line for a claim
// that holds; the witness and the reproduce line for a violation; the
// reason and its remedy for a suspect or unresolved audit; the error of
// an audit that could not run.
func (r Report) String() string {
	switch {
	case r.Verdict == Violated:
		return r.violationText()
	case r.Verdict == Suspect:
		return r.suspectText()
	case r.Verdict == Unresolved:
		return r.unresolvedText()
	case r.Verdict == Holds:
		return r.holdsLine()
	case r.err != nil:
		return r.errorText(r.err)
	}
	return "[dptest] " + r.claimText() + ": no verdict"
}

// holdsLine is a holds verdict's one line: the claim, the pairs searched,
// the bound, the resolution as a multiple of the claim, the reach, the
// calls and the time; at most MaxHoldsLine characters.
func (r Report) holdsLine() string {
	if r.recorded {
		return fmt.Sprintf("[dptest] %s holds on the samples: bound %s (estimate %s)", r.claimText(), num(r.LowerBound), num(r.Estimate))
	}
	tail := ": bound " + num(r.LowerBound)
	if res := r.resolutionText(); res != "" {
		tail += ", resolution " + res
	}
	switch {
	case r.Reach >= 1:
		// No output of one dataset alone, however frequent, would show.
		tail += ", reach none"
	case r.Reach > 0:
		tail += ", reach 1/" + roughly(1/r.Reach)
	}
	tail += ", " + r.costText()
	switch {
	case r.Details.Unvarying != "":
		tail += "; outputs never varied"
	case r.Details.Alone != nil:
		tail += "; one dataset alone made an output (-dptest.v)"
	case r.Details.NotReplayable:
		tail += "; not replayable"
	case r.Details.Short:
		tail += "; -short"
	}
	head := "[dptest] " + r.claimText() + " holds"
	where := r.Details.Searched
	if where != "" {
		room := MaxHoldsLine - len([]rune(head+" on "+tail))
		where = " on " + shorten(where, room)
	}
	return head + where + tail
}

// resolutionText is the resolution as a multiple of the claim ("1.06×"),
// or the resolution itself where the claim is 0 or infinite.
func (r Report) resolutionText() string {
	switch {
	case math.IsInf(r.Resolution, 1) && math.IsInf(r.Claim.Value, 1):
		return ""
	case math.IsInf(r.Resolution, 1):
		return "∞"
	case r.Claim.Value > 0 && !math.IsInf(r.Claim.Value, 1):
		return fmt.Sprintf("%.3g×", r.Resolution/r.Claim.Value)
	}
	return num(r.Resolution)
}

// costText is the calls and time: "9.6M calls, 1.1s".
func (r Report) costText() string {
	calls := thousands(int(r.Calls))
	switch {
	case r.Calls >= 1e6:
		calls = fmt.Sprintf("%.3gM", float64(r.Calls)/1e6)
	case r.Calls >= 1e4:
		calls = fmt.Sprintf("%.3gk", float64(r.Calls)/1e3)
	}
	elapsed := r.Elapsed.Round(100 * time.Millisecond)
	if r.Elapsed < time.Second {
		elapsed = r.Elapsed.Round(time.Millisecond)
	}
	return calls + " calls, " + elapsed.String()
}

// shorten cuts s to at most n characters, marking the cut with "…".
func shorten(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	if n < 1 {
		return "…"
	}
	return string(rs[:n-1]) + "…"
}

// unresolvedText is an unresolved verdict's line: what was verified,
// then what would resolve the claim.
func (r Report) unresolvedText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[dptest] %s unresolved%s (%s): %s\n", r.claimText(), r.searchedClause(), r.costText(), r.Reason.Text())
	fmt.Fprintf(&b, "    to resolve:   %s", r.Reason.Remedy())
	if note := r.noteText(); note != "" {
		fmt.Fprintf(&b, "\n    note:         %s", note)
	}
	if r.Details.Settings.Strict {
		fmt.Fprintf(&b, "\n    To reproduce: %s", r.Reproduce())
	}
	return b.String()
}

// suspectText is a suspect verdict's failure text: what was seen, the
// remedy, the bound, the witness and the reproduce line.
func (r Report) suspectText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[dptest] %s suspect%s: %s\n", r.claimText(), r.searchedClause(), r.Reason.Text())
	fmt.Fprintf(&b, "    remedy:       %s\n", r.Reason.Remedy())
	if r.Witness != nil {
		fmt.Fprintf(&b, "    lower bound:  %s   (estimate %s, %s samples per side; not above the claim)\n", num(r.LowerBound), num(r.Estimate), thousands(r.Details.Samples))
		fmt.Fprintf(&b, "    witness:      %s  %s\n", r.witnessText(), r.Direction)
	}
	if r.Details.Unvarying != "" {
		fmt.Fprintf(&b, "    note:         %s\n", r.unvaryingNote())
	}
	if note := r.noteText(); note != "" {
		fmt.Fprintf(&b, "    note:         %s\n", note)
	}
	fmt.Fprintf(&b, "    To reproduce: %s", r.Reproduce())
	return b.String()
}

// searchedClause is " on <the pairs searched>", or empty.
func (r Report) searchedClause() string {
	if r.Details.Searched == "" {
		return ""
	}
	return " on " + r.Details.Searched
}

// unvaryingNote says that the mechanism's outputs did not vary.
func (r Report) unvaryingNote() string {
	return fmt.Sprintf("in %s further draws per side of the witness the mechanism returned only %s: outputs that never vary meet every claim; give pairs on which they vary (Pairs, WithNeighbors)",
		thousands(plan.SameDraws), r.Details.Unvarying)
}

// detailsText is what -dptest.v logs after the verdict: the settings, the
// search, the confirmations and what the verdict's line leaves out.
func (r Report) detailsText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[dptest] details of %s: seed %d, %s confirming draws per side, %s screening draws per side",
		r.claimText(), r.Seed, thousands(r.Details.Samples), thousands(r.Details.ScreeningSamples))
	if r.Verdict == Holds || r.Verdict == Unresolved || r.Verdict == Suspect {
		fmt.Fprintf(&b, "\n    %s", r.holdsDetail())
	}
	if w := r.wideText(); w != "" {
		fmt.Fprintf(&b, "\n    wide search: %s", w)
	}
	for _, c := range r.Details.Confirmations {
		fmt.Fprintf(&b, "\n    confirmed %v %s: bounds %s and %s (estimates %s, %s)", c.Witness, c.Direction,
			num(c.Bounds[0]), num(c.Bounds[1]), num(c.Estimates[0]), num(c.Estimates[1]))
	}
	return b.String()
}
