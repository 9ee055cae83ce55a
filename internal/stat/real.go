package stat

import (
	"errors"
	"math"

	"github.com/dptest/dptest/internal/numeric"
)

// MaxAtoms is the largest number of atoms a [Real] statistic tracks; a
// pilot sample with more repeated values is treated as discrete.
const MaxAtoms = 256

// ErrDiscrete reports real outputs that are discrete in practice: a pilot
// made of repeated values only, or of more than MaxAtoms of them. Such
// outputs are counted in a frequency table instead ([Tabulate]).
var ErrDiscrete = errors.New("stat: the real outputs are discrete in practice")

// RealDesign is the statistic of real outputs, fixed from a pilot sample of
// both sides before the sample proper is drawn:
//
//   - the atoms, values the pilot repeats, counted exactly (a clamped or
//     rounded release puts mass on single values);
//   - a strictly increasing bijection T for heavy tails
//     ([HeavyTailTransform]), or the identity;
//   - the grid on which the other outputs u = T(t) are linearly binned.
//
// Every choice depends on the pilot only, so statistics filled from fresh
// draws on one design are post-processings of those draws and merge exactly.
type RealDesign struct {
	Grid  Grid      // in estimation units u = T(t)
	Atoms []float64 // sorted, output units

	transform func(float64) float64 // T; nil for the identity
	atoms     map[float64]struct{}
}

// DesignReal fixes the design for n outputs per side from the pooled pilot
// values of both sides, which it sorts in place: the atoms ([FindAtoms]),
// the heavy-tail bijection from the whole pilot, then the grid for the
// transformed values that are not atoms ([GridForSorted]). It returns ErrDiscrete when the pilot holds more than
// MaxAtoms atoms or fewer than two distinct other values.
func DesignReal(pooled []float64, n int) (*RealDesign, error) {
	numeric.SortFloats(pooled)
	atoms, rest, tooMany := FindAtoms(pooled)
	if tooMany || len(rest) < 2 || rest[0] == rest[len(rest)-1] {
		return nil, ErrDiscrete
	}
	d := &RealDesign{Atoms: atoms}
	if tr, _, ok := HeavyTailTransform(pooled); ok {
		// Heavy tails: estimate on the compressed scale. T is a strictly
		// increasing bijection, which leaves every divergence and every
		// privacy loss unchanged and keeps the values in order.
		d.transform = tr
		for i, v := range rest {
			rest[i] = tr(v)
		}
	}
	g, err := GridForSorted(rest, n)
	if err != nil {
		return nil, err
	}
	d.Grid = g
	d.atoms = make(map[float64]struct{}, len(atoms))
	for _, a := range atoms {
		d.atoms[a] = struct{}{}
	}
	return d, nil
}

// New returns an empty statistic on the design.
func (d *RealDesign) New() *Real {
	r := &Real{Bins: NewBinned(d.Grid), Atoms: NewFreq[float64](), design: d, transform: d.transform}
	if len(d.atoms) > 0 {
		r.atoms = d.atoms
	}
	return r
}

// Real is the statistic of real outputs that may mix a density with atoms:
// outputs equal to one of the design's atoms are counted exactly in Atoms
// (keyed by the output), all others are mapped to u = T(t) and binned in
// Bins. Both parts merge exactly.
type Real struct {
	Bins   *Binned
	Atoms  *Freq[float64]
	design *RealDesign
	// The design's atoms (nil if none) and transform, at hand for Add.
	atoms     map[float64]struct{}
	transform func(float64) float64
}

// Add counts one finite output.
func (r *Real) Add(v float64) {
	if r.atoms != nil {
		if _, ok := r.atoms[v]; ok {
			r.Atoms.Add(v)
			return
		}
	}
	if r.transform != nil {
		v = r.transform(v)
	}
	r.Bins.Add(v)
}

// Merge adds o, built on the same design, into r.
func (r *Real) Merge(o *Real) {
	r.Bins.Merge(o.Bins)
	r.Atoms.Merge(o.Atoms)
}

// N returns the number of outputs counted.
func (r *Real) N() int64 { return r.Bins.N + r.Atoms.N }

// FindAtoms splits sorted pilot values into atoms, the values that occur at
// least twice, and the rest, still sorted; tooMany reports more than
// MaxAtoms atoms (then the output is effectively discrete). A continuous
// distribution repeats a value with probability zero, so a repeat marks an
// atom; an atom too light to repeat in the pilot holds little mass and is
// binned with the rest.
func FindAtoms(sorted []float64) (atoms, rest []float64, tooMany bool) {
	rest = make([]float64, 0, len(sorted))
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		if j-i >= 2 {
			atoms = append(atoms, sorted[i])
			if len(atoms) > MaxAtoms {
				return nil, nil, true
			}
		} else {
			rest = append(rest, sorted[i])
		}
		i = j
	}
	return atoms, rest, false
}

// HeavyTailRatio is the pilot's spread, in robust scales, beyond which real
// outputs are estimated on the asinh scale (see [HeavyTailTransform]).
const HeavyTailRatio = 200

// HeavyTailTransform decides from sorted pilot values whether the outputs
// have tails too heavy for one kernel bandwidth and one grid (a spread of
// more than HeavyTailRatio robust scales s on either side of the median m,
// as from a ratio with a noisy denominator), and if so returns
//
//	T(t) = asinh((t − m)/s),
//
// linear near the bulk and logarithmic in the tails, so that 10¹² becomes
// about 28. T is strictly increasing, a bijection of the real line, so
// D_λ(P ‖ Q) is the same before and after it; inverse is T⁻¹(u) = m + s·sinh u.
// The scale s is IQR/1.349, or the core scale (q₀.₆ − q₀.₄)/0.5067 where
// that is CoreRatio times smaller, as for [GridForSorted]. m and s come from the
// pilot, so T is fixed before the sample proper, and rescaling or shifting
// the outputs leaves T(outputs) unchanged.
func HeavyTailTransform(sorted []float64) (t, inverse func(float64) float64, ok bool) {
	n := len(sorted)
	if n < 8 {
		return nil, nil, false
	}
	q := func(p float64) float64 { return sorted[int(p*float64(n-1))] }
	m := q(0.5)
	s := (q(0.75) - q(0.25)) / 1.3489795003921634
	if c := (q(0.6) - q(0.4)) / 0.5066942062716275; c > 0 && c < s/CoreRatio {
		// The quartiles lie in a far wider component than the centre (or
		// on the border between the two, where they jump from one pilot to
		// the next): scale by the centre.
		s = c
	}
	if !(s > 0) {
		return nil, nil, false
	}
	if (sorted[n-1]-m)/s <= HeavyTailRatio && (m-sorted[0])/s <= HeavyTailRatio {
		return nil, nil, false
	}
	return func(t float64) float64 { return math.Asinh((t - m) / s) },
		func(u float64) float64 { return m + s*math.Sinh(u) }, true
}
