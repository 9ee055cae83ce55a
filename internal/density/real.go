package density

import "math"

// MaxAtoms is the largest number of atoms a [Real] statistic tracks; a
// pilot sample with more repeated values is treated as discrete.
const MaxAtoms = 256

// Real is the statistic of real outputs that may mix a density with atoms,
// as any clamped or rounded release does: values equal to one of the atoms
// fixed from the pilot sample are counted exactly in Atoms, all others are
// binned in Bins. Both parts merge exactly.
type Real struct {
	Bins  *Binned
	Atoms *Freq[float64]
	set   map[float64]struct{}
}

// NewReal returns an empty statistic on grid g with the given atoms.
func NewReal(g Grid, atoms []float64) *Real {
	set := make(map[float64]struct{}, len(atoms))
	for _, a := range atoms {
		set[a] = struct{}{}
	}
	return &Real{Bins: NewBinned(g), Atoms: NewFreq[float64](), set: set}
}

// Add counts one finite output.
func (r *Real) Add(v float64) {
	if len(r.set) > 0 {
		if _, ok := r.set[v]; ok {
			r.Atoms.Add(v)
			return
		}
	}
	r.Bins.Add(v)
}

// Merge adds o, built with the same grid and atoms, into r.
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
// that is CoreRatio times smaller, as for [GridFor].
// m and s come from the pilot,
// so T is fixed before the sample proper, and rescaling or shifting the
// outputs leaves T(outputs) unchanged.
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
