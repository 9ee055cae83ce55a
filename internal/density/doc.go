// Package density holds the sufficient statistics of a mechanism's outputs
// and the density estimates built from them ([KAD24] Section III-A):
//
//   - [Freq], a frequency table of discrete outputs of any comparable type,
//     whose relative frequencies are the estimator of [KAD24] eq. (9);
//   - [Grid] and [Binned], linear binning of real outputs onto an equispaced
//     grid fixed before the sample (from a pilot sample, [GridFor]);
//   - [Binned.Density], the Gaussian kernel density estimate of eq. (10) at
//     the grid points, by FFT convolution of the binned masses;
//   - [PluginBandwidth], the two-stage direct plug-in bandwidth of Wand and
//     Jones (KernSmooth's dpik), and [Undersmooth], the scale-free
//     undersmoothing applied to it.
//
// Both statistics are mergeable with integer arithmetic: counts, and binning
// weights kept in fixed point, so a sample split across goroutines in any
// way gives bit-identical statistics, and memory is O(grid + support),
// independent of the number of samples.
package density
