// Package numeric holds the numerics every estimator relies on: log-space
// arithmetic (log-sum-exp, the stable softplus floor of [KAD24] eq. (13),
// log-erfc, log-binomials), normal quantiles, FFT convolution and
// quadrature. It is the only package of dptest that calls gonum.
package numeric
