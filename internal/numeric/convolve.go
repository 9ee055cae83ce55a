package numeric

import "gonum.org/v1/gonum/dsp/fourier"

// Convolver computes, for a mass vector m and symmetric kernels k (given
// for lags 0..len(k)−1, zero beyond), c_i = Σ_j m_j k_{|i−j|} for
// i = 0..len(m)−1, by real FFT of a power-of-two length ≥ len(m) + len(k),
// which avoids wrap-around. It keeps the transforms of its inputs: a kernel
// used for both sides of a pair, or a mass vector used with the two kernels
// of a plug-in bandwidth's two stages, is transformed once per FFT length.
// FFT plans are kept too. A Convolver and its inputs are for one goroutine.
type Convolver struct {
	ffts map[int]*fourier.FFT
}

// NewConvolver returns a Convolver with no plans yet.
func NewConvolver() *Convolver { return &Convolver{ffts: make(map[int]*fourier.FFT)} }

// Transformed is a vector with its transforms, one per FFT length used.
type Transformed struct {
	v        []float64
	mirrored bool // a symmetric kernel given for lags 0..len−1
	spectra  map[int][]complex128
}

// Kernel returns the symmetric kernel k, given for lags 0..len(k)−1, ready
// to convolve with. k must not change while it is in use.
func (c *Convolver) Kernel(k []float64) *Transformed {
	return &Transformed{v: k, mirrored: true, spectra: make(map[int][]complex128)}
}

// Masses returns the mass vector m ready to convolve. m must not change
// while it is in use.
func (c *Convolver) Masses(m []float64) *Transformed {
	return &Transformed{v: m, spectra: make(map[int][]complex128)}
}

// Values returns the vector.
func (t *Transformed) Values() []float64 { return t.v }

// Convolve returns the convolution of the masses with each kernel.
func (c *Convolver) Convolve(m *Transformed, kernels ...*Transformed) [][]float64 {
	longest := 0
	for _, k := range kernels {
		longest = max(longest, len(k.v))
	}
	size := 1
	for size < len(m.v)+longest {
		size <<= 1
	}
	fft := c.plan(size)
	ca := m.spectrum(fft, size)
	out := make([][]float64, len(kernels))
	prod := make([]complex128, len(ca))
	inv := 1 / float64(size)
	for j, k := range kernels {
		ck := k.spectrum(fft, size)
		for i := range ca {
			prod[i] = ca[i] * ck[i]
		}
		res := fft.Sequence(nil, prod)
		o := make([]float64, len(m.v))
		for i := range o {
			o[i] = res[i] * inv
		}
		out[j] = o
	}
	return out
}

func (c *Convolver) plan(size int) *fourier.FFT {
	f, ok := c.ffts[size]
	if !ok {
		f = fourier.NewFFT(size)
		c.ffts[size] = f
	}
	return f
}

// spectrum returns the transform of the vector zero-padded to size (for a
// kernel, laid out symmetrically for a circular convolution).
func (t *Transformed) spectrum(fft *fourier.FFT, size int) []complex128 {
	if s, ok := t.spectra[size]; ok {
		return s
	}
	a := make([]float64, size)
	copy(a, t.v)
	if t.mirrored {
		for d := 1; d < len(t.v); d++ {
			a[size-d] = t.v[d]
		}
	}
	s := fft.Coefficients(nil, a)
	t.spectra[size] = s
	return s
}
