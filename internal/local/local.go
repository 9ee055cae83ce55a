// Package local implements the local approach to pure differential privacy
// of [AKD22] (Askin, Kutta, Dette): by Theorem 1 the privacy loss of two
// neighbouring datasets is the supremum of the pointwise loss
//
//	ε_{x,x′} = sup_t ℓ_{x,x′}(t),   ℓ_{x,x′}(t) = |ln f_x(t) − ln f_{x′}(t)|,   (16), (18)
//
// so no event has to be selected. Screening estimates ℓ with truncated
// frequency estimates (TDDE, Algorithm 2) of the values of discrete outputs
// or of blocks of cells of real ones (a discretisation fixed before the
// sample, a post-processing) and returns the maximiser t̂ (DPL, Algorithm
// 3); confirmation counts fresh samples in an event around t̂ (the values
// near t̂'s loss, or an interval of cells around it chosen on each half of
// the screening and judged on the other) and bounds the loss there from below
// with the normal approximation of Section IV-B, eqs. (24)–(26) (MPL,
// Algorithm 4).
//
// Each direction is kept apart: ln f_x − ln f_{x′} ≤ ε and
// ln f_{x′} − ln f_x ≤ ε are the two halves of ε-DP.
package local

import (
	"math"

	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/stat"
)

// Curve is the empirical loss ln f̂_x(t) − ln f̂_{x′}(t) of one direction at
// the cells of real outputs, in output units ([AKD22], Figure 3).
type Curve struct {
	T, Loss []float64
}

// Estimate is the screening result of one direction: ε̂ = max over C of the
// signed empirical loss, where it peaks, and the event to confirm.
type Estimate struct {
	Loss   float64 // ε̂_{x,x′} of eq. (23), for this direction
	StdErr float64 // the pointwise standard error of the loss at t̂
	// Event groups the outputs into the event to confirm (group 0) and the
	// rest (group 1); Location is t̂, where the event is: the value of a
	// discrete output (the peak), a representative output of the block of
	// a real one that the event was grown from (for an interval event, the
	// peak block, on the half of the screening that grew it, of the run
	// confirmed, or one the event holds: see intervalEvent; Loss and
	// StdErr, of the whole screening, may place the peak elsewhere).
	Event    stat.Grouping
	Location any
	// Alt, when it has groups, is a second event the confirmation bounds
	// beside Event, each at half the level: one value or block of cells
	// whose bound at the confirmation's size the screening predicts above
	// the claim and above Event's (see Screen). AltLocation is its
	// representative output. The caller may take Alt from the screening
	// of another table of the same draws (another partition, or for a
	// vector another score: stat.Partition.Score); AltLocation is in its
	// units and AltCurve, when set, is that table's curve.
	Alt         stat.Grouping
	AltLocation any
	AltCurve    Curve
	// AltBound and EventBound are the bounds the screening predicts for
	// Alt (when it has groups) and Event at the confirmation's size and
	// half its level; EventBound is +Inf for an event seen on one side
	// only. Both are zero when the audit tests no claim.
	AltBound, EventBound float64
	Curve                Curve // nil for discrete outputs
	// SparseValues is, when the numbers screened (in ranges or one by one)
	// were seen too rarely to be told apart one by one, their mean pooled
	// count per value (set by the caller; see stat.Table.Values).
	SparseValues float64
}

// Bound is a confirmed lower bound on the loss of one event, eq. (26).
type Bound struct {
	Loss       float64 // ln p̂_x − ln p̂_{x′} of the event on the fresh samples
	StdErr     float64 // σ̂_N / c_N
	LowerBound float64 // Loss − z_{1−α} StdErr
	CountX     int64
	CountY     int64
}

// CountBound bounds the loss ln P(A(x) ∈ E) − ln P(A(x′) ∈ E) of a fixed
// event E from the counts cx of nx and cy of ny fresh samples that fell in
// it, by the delta method of [AKD22] Section IV-B:
//
//	ℓ̂ = ln p̂ − ln q̂,   σ̂²/c_N² = (1 − p̂)/(n_x p̂) + (1 − q̂)/(n_y q̂),
//	LB = ℓ̂ − z_{1−α} σ̂/c_N,
//
// which for n_x = n_y = N is σ̂² = 1/p̂ + 1/q̂ − 2, c_N = √N of the paper. A
// count of zero, where the logarithm is undefined, is replaced by ½ on both
// sides (the Haldane–Anscombe correction of log-ratio estimates), so an
// output never seen on one side gives a large but finite loss and variance.
func CountBound(cx, nx, cy, ny int64, alpha float64) Bound {
	fx, fy, se := logRatioSE(float64(cx), float64(nx), float64(cy), float64(ny))
	loss := math.Log(fx) - math.Log(fy)
	z := numeric.UpperNormalQuantile(alpha)
	return Bound{Loss: loss, StdErr: se, LowerBound: loss - z*se, CountX: cx, CountY: cy}
}

// logRatioSE returns the relative frequencies p̂ = c_x/n_x, q̂ = c_y/n_y and
// the delta-method standard error of ln p̂ − ln q̂,
//
//	√((1 − p̂)/(n_x p̂) + (1 − q̂)/(n_y q̂)),
//
// with the Haldane–Anscombe ½ added to both counts when either is zero.
func logRatioSE(cx, nx, cy, ny float64) (p, q, se float64) {
	if cx == 0 || cy == 0 {
		cx, cy = cx+0.5, cy+0.5
	}
	p, q = cx/nx, cy/ny
	return p, q, math.Sqrt(max(1-p, 0)/(nx*p) + max(1-q, 0)/(ny*q))
}
