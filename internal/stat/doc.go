// Package stat holds the sufficient statistics of a mechanism's outputs, the
// interface between sampling (package sampler) and every criterion (the
// Rényi and local-DP estimators): a statistic is chosen before the draws it
// counts, filled from them by Add, and merged by integer addition, so that a
// sample split across goroutines in any way gives bit-identical statistics
// and memory is O(grid + support), independent of the number of draws.
//
//   - [Freq], a frequency table of discrete outputs of any comparable type,
//     whose relative frequencies are the estimator of [KAD24] eq. (9), and
//     [Tabulate], the two sides of a pair joined into a [Table] that hides
//     the output type;
//   - [RealDesign], fixed from a pilot sample ([DesignReal]: atoms, a
//     heavy-tail bijection, a grid), and [Real], the statistic of real
//     outputs on it: atoms counted exactly, the rest linearly binned
//     ([Binned]);
//   - [Binned.Density], the Gaussian kernel density estimate of eq. (10) at
//     the grid points, by FFT convolution of the binned masses, with
//     [PluginBandwidth] (KernSmooth's dpik), [SmallerBandwidth] and
//     [Undersmooth];
//   - [Partition] and [PartitionCounts], the cells of real outputs an audit
//     counts, and [Grouping] and [GroupCounts], cells or values grouped on
//     a screening sample and counted in fresh draws;
//   - [CheckFinite] and [CheckCountable], the only checks an output passes
//     before it is counted.
//
// [KAD24] is T. Kutta, Ö. Askin, M. Dunsche, "Lower Bounds for Rényi
// Differential Privacy in a Black-Box Setting", IEEE S&P 2024 (the
// bibliography is in package dptest).
package stat
