package stat

import (
	"fmt"
	"hash/fnv"
	"math"
	"reflect"
)

// UnlistedBuckets is the number of buckets in which [Grouping.WithBuckets]
// tallies the values a grouping does not list: a few dozen distinct
// values (the far tails of an integer mechanism at a million draws) share
// a bucket with another rarely (1 in 30 or less), and a shared bucket
// only counts its values as unmatched ([UnmatchedUnlisted]).
const UnlistedBuckets = 1024

// WithBuckets returns g tallying its unlisted values in buckets
// (Grouping.UnlistedBuckets = buckets, groups added after Unlisted), or g
// itself when it groups partition cells, already has buckets, or its
// Unlisted group is not its last or holds a listed value (checkBuckets).
func (g Grouping) WithBuckets(buckets int) Grouping {
	if g.OfValue == nil || g.UnlistedBuckets > 0 || buckets <= 0 {
		return g
	}
	b := g
	b.UnlistedBuckets = buckets
	b.Groups += 2 * buckets
	if b.checkBuckets() != nil {
		return g
	}
	return b
}

// Tallied is the number of groups that count outputs by where they lie:
// all but an unlisted value's buckets and fingerprints.
func (g Grouping) Tallied() int { return g.Groups - 2*g.UnlistedBuckets }

// checkBuckets reports a grouping whose buckets cannot be tallied: one of
// partition cells, an Unlisted group that is not the last before the
// buckets, or one that also holds a listed value.
func (g Grouping) checkBuckets() error {
	if g.Partition != nil || g.Unlisted != g.Tallied()-1 {
		return fmt.Errorf("stat: a grouping of %d groups cannot tally %d buckets after its unlisted group %d", g.Groups, g.UnlistedBuckets, g.Unlisted)
	}
	for v, k := range g.OfValue {
		if k == g.Unlisted {
			return fmt.Errorf("stat: listed value %v is in the unlisted group %d, whose buckets are for the others", v, k)
		}
	}
	return nil
}

// UnmatchedUnlisted is, of the outputs counted cp on the bounded side and
// cq on the other in a grouping with buckets, how many of the bounded
// side's fell on unlisted values beyond the other side's draws of the
// same values: Σ_v (a_v − b_v)⁺ over the unlisted values v, a_v and b_v
// their counts, as far as the buckets can tell them. A bucket whose draws
// on the two sides are of the same values in the same proportions (each
// side's fingerprint, the sum of its draws' second hash, is its count
// times one mean: a·F_q = b·F_p modulo 2⁶⁴) counts (a − b)⁺, which is
// then Σ (a_v − b_v)⁺ over its values; any other bucket counts all of its
// a, as though the other side had none of those values, and so do the
// draws of values no hash holds (valueHasher). The count is therefore at
// least Σ_v (a_v − b_v)⁺, but for a fingerprint collision (counts not
// in proportion whose fingerprints agree by chance, a·b·(F − F′) ≡ 0
// modulo 2⁶⁴: at most 2⁻²⁰ a bucket for counts below four million). A
// grouping without buckets counts every unlisted output as unmatched.
func UnmatchedUnlisted(g Grouping, cp, cq []int64) int64 {
	if g.UnlistedBuckets == 0 {
		return cp[g.Unlisted]
	}
	count, sum := g.Unlisted+1, g.Unlisted+1+g.UnlistedBuckets
	unmatched := cp[g.Unlisted] // less the draws buckets hold, below
	for b := range g.UnlistedBuckets {
		a, q := cp[count+b], cq[count+b]
		unmatched -= a
		switch {
		case a == 0:
		case q > 0 && uint64(cp[sum+b])*uint64(q) == uint64(cq[sum+b])*uint64(a):
			unmatched += max(0, a-q)
		default:
			unmatched += a
		}
	}
	return unmatched
}

// Seeds of the two hashes of an unlisted value: its bucket and its
// fingerprint.
const (
	bucketMix      = 0x9e3779b97f4a7c15
	fingerprintMix = 0xd1b54a32d192ed03
)

// mix is SplitMix64's finaliser of h + seed: a 64-bit hash whose bits
// each depend on all of h's.
func mix(h, seed uint64) uint64 {
	z := h + seed
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// valueHasher returns a hash of outputs of type O that follows Go's ==
// (equal values hash alike; a seed replays an audit, so the hash is the
// same on every run and machine) and whether it could hash the value:
// numbers by their value (floats' −0 as 0, which == equates; never NaN,
// which no discrete output may be), strings by their bytes, bools,
// arrays and structs by their elements and non-blank fields in order,
// interface values with their dynamic type. Pointers, channels and
// values holding them are not hashed (their addresses differ from run to
// run): a tally leaves them out of every bucket, and they count
// unmatched. Distinct values share a hash only by chance; then they share
// a bucket and a fingerprint too, and match where their counts do.
func valueHasher[O comparable]() func(O) (uint64, bool) {
	typed := reflect.TypeFor[O]().Kind() == reflect.Interface
	return func(v O) (uint64, bool) { return hashOf(reflect.ValueOf(v), typed) }
}

// hashOf hashes one value (see valueHasher); typed adds its type (the
// dynamic type of an interface value, where 1 and int64(1) differ).
func hashOf(v reflect.Value, typed bool) (uint64, bool) {
	if !v.IsValid() {
		return 0, true // a nil interface
	}
	h, ok := kindHash(v)
	if typed && ok {
		t := v.Type()
		h = mix(h, fnvOf(t.PkgPath()+" "+t.String()))
	}
	return h, ok
}

// kindHash hashes a value of any kind == compares (see valueHasher).
func kindHash(v reflect.Value) (uint64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return uint64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint(), true
	case reflect.Float32, reflect.Float64:
		return floatBits(v.Float())
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		re, okRe := floatBits(real(c))
		im, okIm := floatBits(imag(c))
		return mix(mix(re, 1), im), okRe && okIm
	case reflect.Bool:
		if v.Bool() {
			return 1, true
		}
		return 0, true
	case reflect.String:
		return fnvOf(v.String()), true
	case reflect.Array:
		h := uint64(v.Len())
		for i := range v.Len() {
			e, ok := kindHash(v.Index(i))
			if !ok {
				return 0, false
			}
			h = mix(h, e)
		}
		return h, true
	case reflect.Struct:
		h := uint64(v.NumField())
		for i := range v.NumField() {
			if v.Type().Field(i).Name == "_" {
				continue // == ignores blank fields
			}
			e, ok := kindHash(v.Field(i))
			if !ok {
				return 0, false
			}
			h = mix(h, e)
		}
		return h, true
	case reflect.Interface:
		if v.IsNil() {
			return 0, true
		}
		return hashOf(v.Elem(), true)
	}
	return 0, false // pointers, channels, unsafe pointers
}

// floatBits is a float's bits, 0 for −0 (equal to 0), and false for NaN.
func floatBits(f float64) (uint64, bool) {
	switch {
	case f != f:
		return 0, false
	case f == 0:
		return 0, true
	}
	return math.Float64bits(f), true
}

func fnvOf(s string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(s))
	return h.Sum64()
}
