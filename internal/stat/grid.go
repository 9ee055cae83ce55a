package stat

import (
	"errors"
	"fmt"
	"math"
)

// binUnit is the fixed-point weight of one sample: linear binning splits it
// into two integer parts that sum to binUnit, so merging binned statistics is
// exact integer addition whatever the order (2³⁰ keeps N·binUnit below 2⁶³
// for N up to 8·10⁹ samples).
const binUnit = 1 << 30

// Grid is the equispaced grid Lo, Lo+Step, …, Lo+(Points−1)·Step.
type Grid struct {
	Lo, Step float64
	Points   int
}

// At returns the i-th grid point.
func (g Grid) At(i int) float64 { return g.Lo + float64(i)*g.Step }

// Hi returns the last grid point.
func (g Grid) Hi() float64 { return g.At(g.Points - 1) }

// Grid sizing. The density estimate is smooth on the scale of the bandwidth
// h, and the Riemann sums of the estimator are then accurate to far below the
// sampling error once the step is a small fraction of h; linear binning adds
// an O(Step²) error. GridForSorted therefore sizes the grid so that the step is at
// most h/StepsPerBandwidth for the bandwidth predicted from the pilot, within
// [MinPoints, MaxPoints].
const (
	MinPoints         = 1 << 10
	MaxPoints         = 1 << 20
	StepsPerBandwidth = 6
	// padFraction of the pilot range is added on each side, so that the
	// kernel mass of extreme samples stays on the grid and a sample beyond
	// the pilot's range is rare (its count is still kept, see Binned).
	padFraction = 0.5
)

// ErrPointMass reports a continuous sample concentrated on one value.
var ErrPointMass = errors.New("all samples are equal: a point mass is a discrete output, use the discrete estimator")

// GridForSorted fixes the grid for binning n samples per side from the
// sorted pooled pilot values of both sides: the pooled range widened by half
// of itself on each side, with a step of at most 1/StepsPerBandwidth of the
// normal-reference bandwidth predicted for n samples,
// Undersmooth(0.9·scale·n^{−1/5}, n), where scale = min(sd, IQR/1.349) of
// the pooled pilot, or the core scale (q₀.₆ − q₀.₄)/0.5067 where that is
// CoreRatio times smaller (the bandwidth the plug-in selector returns for
// strongly kinked densities such as the Laplace is up to about twice
// smaller, leaving three or more steps per bandwidth, where the Riemann sums
// of the Gaussian-smoothed estimate are exact to far below the sampling
// error).
func GridForSorted(pooled []float64, n int) (Grid, error) {
	if len(pooled) < 2 {
		return Grid{}, fmt.Errorf("stat: pilot sample too small (%d values)", len(pooled))
	}
	lo, hi := pooled[0], pooled[len(pooled)-1]
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) {
		return Grid{}, errors.New("stat: pilot sample holds NaN or ±Inf")
	}
	if lo == hi {
		return Grid{}, ErrPointMass
	}
	scale := sortedScale(pooled)
	if c := coreScale(pooled); c > 0 && c < scale/CoreRatio {
		scale = c
	}
	if scale == 0 {
		scale = (hi - lo) / 4
	}
	h := Undersmooth(0.9*scale*math.Pow(float64(max(n, 2)), -0.2), n)
	span := hi - lo
	lo -= padFraction * span
	hi += padFraction * span
	points := int(math.Ceil((hi-lo)/(h/StepsPerBandwidth))) + 1
	points = min(max(points, MinPoints), MaxPoints)
	return Grid{Lo: lo, Step: (hi - lo) / float64(points-1), Points: points}, nil
}

// CoreRatio is how many times narrower than the robust scale (min(sd,
// IQR/1.349)) the core scale of a sample (see [coreScale]) must be before
// the grid and the heavy-tail transform are sized for the core instead. A
// normal sample has ratio 1 up to noise, a Laplace one 0.85; a sample whose
// central fifth is far narrower than its quartiles (a noise scale that
// varies by orders of magnitude, as with a noisy count as divisor) has
// structure the quartiles do not see.
const CoreRatio = 2

// coreScale returns (q₀.₆ − q₀.₄)/0.5067 of sorted values: the spread of
// the central fifth, in units of a normal standard deviation (for a normal
// sample it estimates σ, as IQR/1.349 does).
func coreScale(v []float64) float64 {
	return (quantileSorted(v, 0.6) - quantileSorted(v, 0.4)) / 0.5066942062716275
}

// sortedScale returns min(sd, IQR/1.349) of sorted values, the robust scale
// of Silverman's rule and KernSmooth's dpik (scalest = "minim").
func sortedScale(v []float64) float64 {
	n := float64(len(v))
	mean := 0.0
	for _, x := range v {
		mean += x
	}
	mean /= n
	ss := 0.0
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	iqr := (quantileSorted(v, 0.75) - quantileSorted(v, 0.25)) / 1.3489795003921634
	if iqr > 0 && iqr < sd {
		return iqr
	}
	return sd
}

func quantileSorted(v []float64, p float64) float64 {
	pos := p * float64(len(v)-1)
	i := int(pos)
	if i+1 >= len(v) {
		return v[len(v)-1]
	}
	f := pos - float64(i)
	return v[i]*(1-f) + v[i+1]*f
}

// Binned holds n real samples linearly binned onto a Grid: a sample at
// position Lo + (i+f)·Step adds (1−f) of a unit to point i and f to point
// i+1, in fixed point (see binUnit). Samples below Lo or above the last point
// are clamped onto the end points, a deterministic post-processing of the
// output that keeps every divergence lower bound valid, and counted in Below
// and Above so the caller can report the mass that lay outside the grid.
type Binned struct {
	Grid         Grid
	Weights      []uint64 // fixed-point masses, Σ = N·binUnit
	N            int64    // samples binned
	Below, Above int64    // samples clamped onto the end points

	invStep float64
	last    float64 // Points − 1
}

// NewBinned returns an empty statistic on g.
func NewBinned(g Grid) *Binned {
	return &Binned{Grid: g, Weights: make([]uint64, g.Points), invStep: 1 / g.Step, last: float64(g.Points - 1)}
}

// Add bins one finite sample v.
func (b *Binned) Add(v float64) {
	pos := (v - b.Grid.Lo) * b.invStep
	if pos > 0 && pos < b.last {
		b.N++
		i := int(pos)
		// The weight is in [0, binUnit], so the conversion through int64
		// (one instruction, where uint64 of a float needs a branch) is exact.
		w := uint64(int64((pos-float64(i))*binUnit + 0.5))
		ws := b.Weights[i : i+2 : i+2]
		ws[0] += binUnit - w
		ws[1] += w
		return
	}
	b.addAtEnd(pos)
}

// addAtEnd bins a sample at or beyond the grid's ends: clamped onto the end
// point, and counted as outside if beyond it.
func (b *Binned) addAtEnd(pos float64) {
	b.N++
	last := len(b.Weights) - 1
	switch {
	case pos <= 0:
		if pos < 0 {
			b.Below++
		}
		b.Weights[0] += binUnit
	case pos >= float64(last):
		if pos > float64(last) {
			b.Above++
		}
		b.Weights[last] += binUnit
	default: // NaN: callers reject it before binning
		panic("stat: binning NaN")
	}
}

// Merge adds the statistic o, binned on the same grid, into b.
func (b *Binned) Merge(o *Binned) {
	if o.Grid != b.Grid {
		panic("stat: merging statistics on different grids")
	}
	for i, w := range o.Weights {
		b.Weights[i] += w
	}
	b.N += o.N
	b.Below += o.Below
	b.Above += o.Above
}

// Masses returns the probability mass at each grid point, Weights/(N·binUnit).
func (b *Binned) Masses() []float64 {
	out := make([]float64, len(b.Weights))
	if b.N == 0 {
		return out
	}
	d := float64(b.N) * binUnit
	for i, w := range b.Weights {
		out[i] = float64(w) / d
	}
	return out
}

// OutsideShare returns the share of samples that lay outside the grid.
func (b *Binned) OutsideShare() float64 {
	if b.N == 0 {
		return 0
	}
	return float64(b.Below+b.Above) / float64(b.N)
}

// SinglePoint reports whether all mass sits on one grid point or on two
// adjacent points (every sample within one step of each other, which a
// kernel estimate cannot resolve: treat the output as discrete).
func (b *Binned) SinglePoint() bool {
	first, last := -1, -1
	for i, w := range b.Weights {
		if w != 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	return first >= 0 && last-first <= 1
}
