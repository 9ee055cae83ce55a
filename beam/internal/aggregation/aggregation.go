// Package aggregation is the test subject of dptestbeam's pipeline audits:
// a per-partition COUNT and SUM with contribution bounding, Laplace noise
// and thresholded partition selection, written twice. [Aggregation.Transform]
// is a Beam transform over trial-keyed records; [Aggregation.Release] is its
// in-process twin. Given the same seed and records they release the same
// rows, bit for bit.
//
// Besides the correct mechanism, [Variant] selects three broken ones, each
// with a bug that privacy libraries guard against.
//
// The mechanism, for privacy units (users) that each contribute to at most
// Kp = MaxPartitions partitions and Kr = MaxRowsPerPartition rows per
// partition, values clamped to [0, V], V = MaxValue, at (ε, δ):
//
//	count noise  Lap(b_c),  b_c = Kp·Kr / (ε/2)
//	sum noise    Lap(b_s),  b_s = Kp·Kr·V / (ε/2)
//	threshold    τ = Kr + b_c·ln(Kp / (2δ))
//
// A partition is released, as its noisy count and noisy sum, iff its noisy
// count is at least τ. The Laplace noises are ε-DP for the user's bounded
// contribution [DR14] §3.3; a partition that only the added user touches
// holds at most Kr rows, so it passes τ with probability at most
// ½·exp(−(τ − Kr)/b_c) = δ/Kp, and at most Kp such partitions make δ
// ([WZLDDG20]).
//
//	[DR14]     Dwork, Roth. The Algorithmic Foundations of Differential Privacy.
//	[WZLDDG20] Wilson et al. Differentially Private SQL with Bounded User Contribution. PoPETs 2020.
package aggregation

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// Variant is the correct mechanism or one of its broken variants.
type Variant int

// The variants.
const (
	// Correct is the mechanism of the package documentation.
	Correct Variant = iota
	// NoBounding skips contribution bounding: a user's rows all count,
	// in every partition they touch (values are still clamped). The
	// noise and threshold are those of Correct.
	NoBounding
	// RowNoise calibrates noise and threshold to one row, as if each row
	// were its own privacy unit: Kp·Kr is taken as 1.
	RowNoise
	// LeakyThreshold releases a partition whose noisy count exceeds one
	// user's largest count, τ = Kr + 1: too low for any small δ.
	LeakyThreshold
)

// String names the variant.
func (v Variant) String() string {
	switch v {
	case Correct:
		return "correct"
	case NoBounding:
		return "no bounding"
	case RowNoise:
		return "row noise"
	case LeakyThreshold:
		return "leaky threshold"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// Record is one row of a dataset: the privacy unit it belongs to, its
// partition and its value.
type Record struct {
	User      string
	Partition string
	Value     float64
}

// Row is one released partition: its noisy count and noisy sum.
type Row struct {
	Partition string
	Count     float64
	Sum       float64
}

// Params are the mechanism's parameters.
type Params struct {
	// Epsilon and Delta are the (ε, δ) the mechanism is calibrated to;
	// ε is split evenly between the count and the sum.
	Epsilon, Delta float64
	// MaxPartitions and MaxRowsPerPartition bound each user's
	// contribution; MaxValue clamps each value to [0, MaxValue].
	MaxPartitions, MaxRowsPerPartition int
	MaxValue                           float64
	// Variant is Correct or a broken variant.
	Variant Variant
}

// Aggregation is a validated mechanism. Build it with [New].
type Aggregation struct {
	p Params
}

// New validates p: ε > 0, 0 < δ < 1, bounds ≥ 1, MaxValue > 0, and a
// known Variant.
func New(p Params) (Aggregation, error) {
	switch {
	case !(p.Epsilon > 0) || math.IsInf(p.Epsilon, 1):
		return Aggregation{}, fmt.Errorf("aggregation: ε must be positive and finite, got %v", p.Epsilon)
	case !(p.Delta > 0 && p.Delta < 1):
		return Aggregation{}, fmt.Errorf("aggregation: δ must lie in (0, 1), got %v", p.Delta)
	case p.MaxPartitions < 1 || p.MaxRowsPerPartition < 1:
		return Aggregation{}, fmt.Errorf("aggregation: MaxPartitions and MaxRowsPerPartition must be ≥ 1, got %d and %d", p.MaxPartitions, p.MaxRowsPerPartition)
	case !(p.MaxValue > 0) || math.IsInf(p.MaxValue, 1):
		return Aggregation{}, fmt.Errorf("aggregation: MaxValue must be positive and finite, got %v", p.MaxValue)
	case p.Variant < Correct || p.Variant > LeakyThreshold:
		return Aggregation{}, fmt.Errorf("aggregation: unknown variant %d", int(p.Variant))
	}
	return Aggregation{p: p}, nil
}

// Params returns the parameters a was built with.
func (a Aggregation) Params() Params { return a.p }

// calibration is the noise scales and threshold of a variant.
type calibration struct {
	CountScale, SumScale, Threshold float64
}

// calibrate returns the scales and threshold of the package
// documentation, with the variant's bug.
func (p Params) calibrate() calibration {
	units := float64(p.MaxPartitions * p.MaxRowsPerPartition)
	if p.Variant == RowNoise {
		units = 1
	}
	half := p.Epsilon / 2
	c := calibration{CountScale: units / half, SumScale: units * p.MaxValue / half}
	switch p.Variant {
	case RowNoise:
		c.Threshold = 1 + c.CountScale*math.Log(max(1/(2*p.Delta), 1))
	case LeakyThreshold:
		c.Threshold = float64(p.MaxRowsPerPartition) + 1
	default:
		kp := float64(p.MaxPartitions)
		c.Threshold = float64(p.MaxRowsPerPartition) + c.CountScale*math.Log(max(kp/(2*p.Delta), 1))
	}
	return c
}

// Contribution is one user's bounded contribution to one partition.
type Contribution struct {
	Partition string
	Count     int
	Sum       float64
}

// Release runs the mechanism once on records with the noise of seed: the
// rows of the released partitions, sorted by partition. A seed replays
// it; [TrialSeed] gives the seed of a pipeline trial.
func (a Aggregation) Release(seed uint64, records []Record) []Row {
	byUser := make(map[string][]Record)
	for _, r := range records {
		byUser[r.User] = append(byUser[r.User], r)
	}
	byPartition := make(map[string][]Contribution)
	for user, rows := range byUser {
		for _, c := range a.p.bound(seed, user, rows) {
			byPartition[c.Partition] = append(byPartition[c.Partition], c)
		}
	}
	var out []Row
	for partition, cs := range byPartition {
		if row, ok := a.p.noisy(seed, partition, cs); ok {
			out = append(out, row)
		}
	}
	slices.SortFunc(out, func(x, y Row) int { return cmp.Compare(x.Partition, y.Partition) })
	return out
}

// TrialSeed is the noise seed of a trial of a pipeline seeded with seed.
func TrialSeed(seed uint64, trial int) uint64 {
	return rand.New(rand.NewPCG(seed, uint64(trial))).Uint64()
}

// stream names the random stream of a user's bounding or a partition's
// noise within a trial's seed.
func stream(kind, name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(name))
	return h.Sum64()
}

// bound returns one user's contributions: at most MaxPartitions
// partitions, chosen at random, and in each at most MaxRowsPerPartition
// rows, chosen at random, values clamped (NoBounding keeps every row).
// The choice depends only on seed, the user and the set of their rows.
func (p Params) bound(seed uint64, user string, rows []Record) []Contribution {
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(x, y Record) int {
		return cmp.Or(cmp.Compare(x.Partition, y.Partition), cmp.Compare(x.Value, y.Value))
	})
	var groups [][]Record
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].Partition == rows[i].Partition {
			j++
		}
		groups = append(groups, rows[i:j])
		i = j
	}
	r := rand.New(rand.NewPCG(seed, stream("user", user)))
	if p.Variant != NoBounding {
		groups = sample(r, groups, p.MaxPartitions)
	}
	out := make([]Contribution, 0, len(groups))
	for _, g := range groups {
		if p.Variant != NoBounding {
			g = sample(r, g, p.MaxRowsPerPartition)
		}
		c := Contribution{Partition: g[0].Partition, Count: len(g)}
		for _, row := range g {
			c.Sum += min(max(row.Value, 0), p.MaxValue)
		}
		out = append(out, c)
	}
	return out
}

// sample returns k of xs chosen uniformly at random (all of them if there
// are at most k), by a partial Fisher–Yates shuffle of a copy.
func sample[T any](r *rand.Rand, xs []T, k int) []T {
	if len(xs) <= k {
		return xs
	}
	xs = slices.Clone(xs)
	for i := range k {
		j := i + r.IntN(len(xs)-i)
		xs[i], xs[j] = xs[j], xs[i]
	}
	return xs[:k]
}

// noisy adds noise to a partition's total of the users' contributions cs
// and reports whether its noisy count passes the threshold. The total
// adds cs in a fixed order, so it does not depend on theirs.
func (p Params) noisy(seed uint64, partition string, cs []Contribution) (Row, bool) {
	cs = slices.Clone(cs)
	slices.SortFunc(cs, func(x, y Contribution) int {
		return cmp.Or(cmp.Compare(x.Count, y.Count), cmp.Compare(x.Sum, y.Sum))
	})
	count, sum := 0, 0.0
	for _, c := range cs {
		count += c.Count
		sum += c.Sum
	}
	cal := p.calibrate()
	r := rand.New(rand.NewPCG(seed, stream("partition", partition)))
	row := Row{Partition: partition, Count: float64(count) + laplace(r, cal.CountScale), Sum: sum + laplace(r, cal.SumScale)}
	return row, row.Count >= cal.Threshold
}

// laplace draws from the Laplace distribution of scale b about 0.
func laplace(r *rand.Rand, b float64) float64 {
	if r.Uint64()&1 == 0 {
		return b * r.ExpFloat64()
	}
	return -b * r.ExpFloat64()
}

// Vector encodes released rows over a fixed list of partitions: the
// count and then the sum of each, 0 and 0 for a partition not released.
// Rows of partitions not listed are an error.
func Vector(rows []Row, partitions []string) ([]float64, error) {
	v := make([]float64, 2*len(partitions))
	for _, row := range rows {
		i := slices.Index(partitions, row.Partition)
		if i < 0 {
			return nil, fmt.Errorf("aggregation: released partition %q is not among %q", row.Partition, partitions)
		}
		v[2*i], v[2*i+1] = row.Count, row.Sum
	}
	return v, nil
}
