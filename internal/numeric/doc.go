// Package numeric holds the log-space numerics every estimator relies on:
// log-sum-exp, the stable softplus floor of [KAD24] eq. (13), log-erfc,
// log-binomials and quadrature.
package numeric
