package numeric

import "math"

// SortFloats sorts finite or infinite (not NaN) values in increasing order,
// −0 before +0, by an LSD radix sort on their IEEE 754 bits, mapped to
// unsigned keys that order as the numbers do: several times faster than a
// comparison sort on the pilot samples every audit sorts.
func SortFloats(v []float64) {
	if len(v) < 256 {
		insertionSort(v)
		return
	}
	keys := make([]uint64, len(v))
	for i, x := range v {
		keys[i] = floatKey(x)
	}
	tmp := make([]uint64, len(v))
	const bits = 11
	const buckets = 1 << bits
	var count [buckets]int
	for shift := uint(0); shift < 64; shift += bits {
		clear(count[:])
		for _, k := range keys {
			count[(k>>shift)&(buckets-1)]++
		}
		if count[(keys[0]>>shift)&(buckets-1)] == len(keys) {
			continue // every key has this digit: nothing to move
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, k := range keys {
			d := (k >> shift) & (buckets - 1)
			tmp[count[d]] = k
			count[d]++
		}
		keys, tmp = tmp, keys
	}
	for i, k := range keys {
		v[i] = keyFloat(k)
	}
}

// floatKey maps a float64 to a uint64 that orders as the float does:
// negative numbers have all bits flipped, others the sign bit set.
func floatKey(x float64) uint64 {
	b := math.Float64bits(x)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

func keyFloat(k uint64) float64 {
	if k>>63 == 1 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

func insertionSort(v []float64) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && floatKey(v[j]) < floatKey(v[j-1]); j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}
