// Package local implements the local approach to pure differential privacy
// of [AKD22] (Askin, Kutta, Dette): by Theorem 1 the privacy loss of two
// neighbouring datasets is the supremum of the pointwise loss
//
//	ε_{x,x′} = sup_t ℓ_{x,x′}(t),   ℓ_{x,x′}(t) = |ln f_x(t) − ln f_{x′}(t)|,   (16), (18)
//
// so no event has to be selected. Screening estimates ℓ with truncated
// density estimates (TDDE for discrete outputs, TKDE for real ones,
// Algorithms 1–2) over a region C and returns the maximiser t̂ (DPL,
// Algorithm 3); confirmation counts fresh samples in a small event around t̂
// and bounds the loss there from below with the normal approximation of
// Section IV-B, eqs. (24)–(26) (MPL, Algorithm 4).
//
// Each direction is kept apart: ln f_x − ln f_{x′} ≤ ε and
// ln f_{x′} − ln f_x ≤ ε are the two halves of ε-DP.
package local

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// EventKind says what an Event is.
type EventKind int

const (
	// Cell is one value of a discrete output.
	Cell EventKind = iota
	// Atom is one value of a real output that the output repeats.
	Atom
	// Interval is a range of a real output, atoms excluded.
	Interval
)

// Event is a set of outputs chosen at screening, whose probabilities under
// the two datasets the confirmation estimates from fresh samples. By the
// "≤" half of Theorem 1, |ln P(A(x) ∈ E) − ln P(A(x′) ∈ E)| ≤ ε_{x,x′} for
// every event E, so a lower bound on the event's loss is a lower bound on ε
// whatever the event.
type Event struct {
	Kind     EventKind
	Cell     any       // the peak value, for Cell
	Cells    any       // for Cell: the map[O]struct{} of all the event's values (nil: Cell alone)
	Atom     float64   // the value, for Atom
	Lo, Hi   float64   // the range, for Interval (output units)
	Exclude  []float64 // sorted atoms left out of an Interval
	Location float64   // t̂ in output units (Atom and Interval)
}

// Contains reports whether a real output lies in the event.
func (e Event) Contains(v float64) bool {
	switch e.Kind {
	case Atom:
		return v == e.Atom
	case Interval:
		if v < e.Lo || v > e.Hi {
			return false
		}
		_, isAtom := slices.BinarySearch(e.Exclude, v)
		return !isAtom
	}
	return false
}

// Curve is the empirical loss ln f̂_x(t) − ln f̂_{x′}(t) of one direction on
// the grid points of the region C, in output units ([AKD22], Figure 3).
type Curve struct {
	T, Loss []float64
}

// Estimate is the screening result of one direction: ε̂ = max over C of the
// signed empirical loss, where it peaks, and the event to confirm.
type Estimate struct {
	Loss   float64 // ε̂_{x,x′} of eq. (23), for this direction
	StdErr float64 // the pointwise standard error of the loss at t̂
	Event  Event
	Curve  Curve // nil for discrete outputs
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
	fx, fy := float64(cx), float64(cy)
	if cx == 0 || cy == 0 {
		fx += 0.5
		fy += 0.5
	}
	p := fx / float64(nx)
	q := fy / float64(ny)
	loss := math.Log(p) - math.Log(q)
	se := math.Sqrt(max(1-p, 0)/(float64(nx)*p) + max(1-q, 0)/(float64(ny)*q))
	z := distuv.UnitNormal.Quantile(1 - alpha)
	return Bound{Loss: loss, StdErr: se, LowerBound: loss - z*se, CountX: cx, CountY: cy}
}
