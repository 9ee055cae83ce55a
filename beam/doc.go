// Package dptestbeam runs dptest audits on Apache Beam. It has two jobs.
//
// Distributed draws: the sampling stages of an audit run as a Beam
// pipeline, each worker drawing its blocks of the audit's seeded streams
// and merging their counts, so an audit outgrows one machine. Verdicts and
// bounds equal the in-process audit's for the same seed.
//
// Pipelines as mechanisms: a DP aggregation written as a Beam transform is
// audited end to end, many trials in one pipeline.
//
// Pipelines run on Prism, the runner embedded in Beam's Go SDK, by default.
package dptestbeam
