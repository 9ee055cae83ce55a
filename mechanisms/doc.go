// Package mechanisms holds reference mechanisms from the seed papers, correct
// and deliberately broken, each with its exact privacy curve, so that every
// estimator in dptest can be checked against the truth.
//
// Every mechanism is a plain struct of parameters with a method
//
//	Sample(r *rand.Rand, x []float64) T
//
// that draws one output on the dataset x using only r (math/rand/v2), so a
// method value such as mechanisms.Gaussian{Sigma: 5}.Sample can be handed to
// dptest.Continuous or dptest.Discrete directly. Parameters that are out of
// range make Sample and the privacy methods panic with a message prefixed
// "mechanisms: "; each type's doc comment says which zero values are invalid.
//
// Rényi-DP references (seed 002, Section IV-B; the canonical pair
// x = (1,0,…,0), x′ = (0,…,0) of eq. (21) attains the worst case), each with
// RDP(λ) = D_λ(M(x) ‖ M(x′)):
//
//   - [Laplace], [Gaussian], [SubsampledLaplace], [SubsampledGaussian],
//     [RandomizedResponse], [ShuffledRR], [NoisyGD];
//   - [SampledGaussianRDP] and [SampledGaussianRDPBound], the exact RDP of the
//     sampled Gaussian mechanism and its closed-form bound (seed 001).
package mechanisms
