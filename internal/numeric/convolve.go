package numeric

import "gonum.org/v1/gonum/dsp/fourier"

// ConvolveSymmetric returns, for each kernel k, c_i = Σ_j m_j k_{|i−j|} for
// i = 0..len(m)−1, with k given for lags 0..len(k)−1 (zero beyond), by real
// FFT of a power-of-two length ≥ len(m) + len(k), which avoids wrap-around.
// The transform of m is computed once for all kernels.
func ConvolveSymmetric(m []float64, kernels ...[]float64) [][]float64 {
	longest := 0
	for _, k := range kernels {
		longest = max(longest, len(k))
	}
	size := 1
	for size < len(m)+longest {
		size <<= 1
	}
	fft := fourier.NewFFT(size)
	a := make([]float64, size)
	copy(a, m)
	ca := fft.Coefficients(nil, a)
	out := make([][]float64, len(kernels))
	kk := make([]float64, size)
	prod := make([]complex128, len(ca))
	inv := 1 / float64(size)
	for j, k := range kernels {
		clear(kk)
		kk[0] = k[0]
		for d := 1; d < len(k); d++ {
			kk[d] = k[d]
			kk[size-d] = k[d]
		}
		ck := fft.Coefficients(nil, kk)
		for i := range ca {
			prod[i] = ca[i] * ck[i]
		}
		res := fft.Sequence(nil, prod)
		o := make([]float64, len(m))
		for i := range o {
			o[i] = res[i] * inv
		}
		out[j] = o
	}
	return out
}
