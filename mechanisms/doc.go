// Package mechanisms holds reference mechanisms from the papers dptest builds on, correct
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
// Rényi-DP references ([KAD24], Section IV-B; the canonical pair
// x = (1,0,…,0), x′ = (0,…,0) of eq. (21) attains the worst case), each with
// RDP(λ) = D_λ(M(x) ‖ M(x′)):
//
//   - [Laplace], [Gaussian], [SubsampledLaplace], [SubsampledGaussian],
//     [RandomizedResponse], [ShuffledRR], [NoisyGD];
//   - [SampledGaussianRDP] and [SampledGaussianRDPBound], the exact RDP of the
//     sampled Gaussian mechanism and its closed-form bound ([MTZ19]).
//
// Pure-DP references ([AKD22], Section V), each with Epsilon(), +Inf when
// the mechanism is not private:
//
//   - [ReportNoisyMax], [ExponentialMechanism], [ContinuousNoisyMax];
//   - the sparse vector technique of Lyu, Su and Li, Algorithms 1–6:
//     [SVT1], [SVT2] (ε-DP), [SVT4] ((1+6c)ε/4-DP), and the broken [SVT3],
//     [SVT5], [SVT6].
//
// Mean mechanisms with a private count under add/remove neighbours ([KMRS24],
// Section 6.1), correct and deliberately broken: [DPMean], [NonDPLaplace1],
// [NonDPLaplace2], [NonDPGaussian1], [NonDPGaussian2]; and [ScaledGD]
// (Section 6.5), a DP-GD step whose noise is S times what its accounting
// assumes.
//
// Mechanisms on other inputs, each saying what its Sample takes:
//
//   - vector outputs: [LaplaceHistogram] and the broken
//     [SparseLaplaceHistogram] (records as bin indices), [GaussianVector],
//     the broken [L2LaplaceVector], [DPSGDStep] (examples as feature
//     vectors), with the sampled-Gaussian RDP of its correct clipping, and
//     [SubsampledGaussianSteps], T Poisson-subsampled Gaussian steps with
//     their exact RDP and the central limit theorem's μ they exceed;
//   - an integer query, whose Sample takes the query's answer:
//     [DiscreteLaplace], with its exact RDP and ε for answers Sensitivity
//     apart, and [DiscreteGaussian], with its exact RDP, δ(ε) and μ (the
//     last above the continuous Gaussian's Δ/σ);
//   - approximate DP: [PartitionSelection], exactly (1, 0.05)-DP.
package mechanisms
