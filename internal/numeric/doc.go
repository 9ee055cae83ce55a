// Package numeric holds the numerics every estimator relies on: log-space
// arithmetic (log-sum-exp, the stable softplus floor of [KAD24] eq. (13),
// log-erfc, log-binomials), normal quantiles, FFT convolution, radix
// sorting and quadrature. It is the only package of the library (the
// experiments aside) that calls gonum.
package numeric
