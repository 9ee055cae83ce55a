package dptest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Report is everything one audit found. Failure text and success log are
// both rendered from it ([Report.String]).
type Report struct {
	// Kind is "RDP" for a Rényi-DP claim (Lambda, Claimed) or "DP" for a
	// pure-DP claim (Claimed; Lambda is 0).
	Kind                 string
	Lambda, Claimed      float64
	Estimate, LowerBound float64 // of the confirmed worst pair and direction
	Confidence           float64
	Violated             bool
	Witness              any // the fixtures.Pair[D] confirmed
	Samples              int // confirming sample size per side
	PairsSearched        int
	Seed                 uint64
	Elapsed              time.Duration

	// Direction is the divergence measured on the witness: "D(M(X)‖M(Y))"
	// or "D(M(Y)‖M(X))" for RDP, "ln f_X − ln f_Y" or "ln f_Y − ln f_X"
	// for DP.
	Direction string
	// Location is, for a DP claim, the output t̂ where the witness's loss
	// peaks: a float64 for real outputs, the value itself for discrete ones.
	Location any
	// LossCurve is, for a DP claim on real outputs, the witness's empirical
	// loss ℓ̂(t) in the direction above over the region searched ([AKD22],
	// Figures 2–3), from the screening sample.
	LossCurve *LossCurve
	// CrossCheck is, for a DP claim, the Rényi audit that ran beside the
	// local one (see RequireDP); nil if it did not run (the local audit
	// already found a violation). Violated is set when either found one;
	// the other fields are the local audit's.
	CrossCheck *Report
	// ScreeningSamples is the sample size per side of the screening.
	ScreeningSamples int
	// Confirmed is the number of (pair, direction) candidates confirmed;
	// each got two independent confirmations at level PerConfirmation
	// (1 − Confidence = Confirmed·PerConfirmation²).
	Confirmed       int
	PerConfirmation float64
	// Short is set when go test -short cut the sample sizes.
	Short bool
	// TestName is the test the audit ran in, if known; it makes the
	// reproduce line.
	TestName string
	// Confirmations lists every confirmed candidate with the estimates,
	// standard errors and bounds of its two confirmations.
	Confirmations []Confirmation
}

// LossCurve is an empirical privacy-loss curve: Loss[i] = ℓ̂(T[i]).
type LossCurve struct {
	T, Loss []float64
}

// Confirmation is one confirmed (pair, direction) candidate. A and B are its
// two independent confirmations on fresh samples; each bound is
// Estimate − z·StdErr at level PerConfirmation, and the candidate's bound is
// the smaller of the two.
type Confirmation struct {
	Witness   any
	Direction string
	Screening float64    // the screening estimate that selected it
	Estimates [2]float64 // of confirmations A and B
	StdErrs   [2]float64
	Bounds    [2]float64
}

// String renders the report: the failure text for a violation, a one-line
// summary otherwise.
func (r Report) String() string {
	claim := r.claimText()
	if !r.Violated {
		s := fmt.Sprintf("[dptest] %s holds: lower bound %s (estimate %s) at %s confidence; %d pairs searched, %s samples per side, %s",
			claim, num(r.LowerBound), num(r.Estimate), percent(r.Confidence), r.PairsSearched, thousands(r.Samples), r.Elapsed.Round(time.Millisecond))
		if r.Short {
			s += " (-short: reduced sample sizes)"
		}
		return s
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[dptest] %s violated at %s confidence\n", claim, percent(r.Confidence))
	if r.CrossCheck != nil && r.CrossCheck.Violated {
		// Found by the Rényi cross-check of a DP audit: show its evidence.
		c := r.CrossCheck
		fmt.Fprintf(&b, "    found by:     the Rényi cross-check: ε-DP implies D_%s ≤ min(ε, 2λε²) = %s\n", num(c.Lambda), num(c.Claimed))
		r = *c
	}
	fmt.Fprintf(&b, "    lower bound:  %s   (estimate %s, %s samples per side)\n", num(r.LowerBound), num(r.Estimate), thousands(r.Samples))
	fmt.Fprintf(&b, "    witness:      %s  %s\n", witnessText(r.Witness), r.Direction)
	if r.Location != nil {
		fmt.Fprintf(&b, "    at output:    %v\n", r.Location)
	}
	fmt.Fprintf(&b, "    searched:     %d pairs, the %d most divergent (pair, direction) confirmed twice on fresh samples\n", r.PairsSearched, r.Confirmed)
	if r.Short {
		fmt.Fprintf(&b, "    note:         -short reduced the sample sizes\n")
	}
	fmt.Fprintf(&b, "    To reproduce: %s", r.Reproduce())
	return b.String()
}

func (r Report) claimText() string {
	if r.Kind == kindDP {
		return fmt.Sprintf("ε=%s pure DP", num(r.Claimed))
	}
	return fmt.Sprintf("(λ=%s, ε=%s)-RDP", num(r.Lambda), num(r.Claimed))
}

// Reproduce returns the command line (or option) that replays the audit.
func (r Report) Reproduce() string {
	if r.TestName == "" {
		return fmt.Sprintf("dptest.Seed(%d)", r.Seed)
	}
	parts := strings.Split(r.TestName, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return fmt.Sprintf("go test -run=%q -dptest.seed=%d", strings.Join(parts, "/"), r.Seed)
}

func witnessText(w any) string {
	if w == nil {
		return "(none)"
	}
	// fixtures.Pair prints as {X Y}; show the two datasets by name.
	s := fmt.Sprintf("%+v", w)
	if strings.HasPrefix(s, "{X:") && strings.Contains(s, " Y:") {
		i := strings.LastIndex(s, " Y:")
		return "X=" + s[3:i] + "  Y=" + s[i+3:len(s)-1]
	}
	return s
}

// num prints a number with four significant digits.
func num(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

func percent(c float64) string {
	return strconv.FormatFloat(100*c, 'g', 6, 64) + "%"
}

// thousands prints n with comma separators: 1,000,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
