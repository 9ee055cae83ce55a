// Command dptest audits differential-privacy claims on outputs recorded
// elsewhere, with the statistics and verdicts of dptest's live audits:
//
//	dptest audit (rdp|dp|approx|gdp) [flags] X Y
//
// File X holds outputs drawn on one dataset, file Y on its neighbour,
// each draw independent. The claims and their flags:
//
//	rdp     --lambda λ --eps ε    (λ, ε)-Rényi DP ([KAD24])
//	dp      --eps ε               pure ε-DP ([AKD22], with cross-checks)
//	approx  --eps ε --delta δ     (ε, δ)-DP ([KMRS24], Section 3)
//	gdp     --mu μ                μ-Gaussian DP
//
// Other flags: --confidence (default dptest.DefaultConfidence), --seed
// (the split's; by default DPTEST_SEED or one derived from the claim, so
// a run replays), --strict, --json (the Report's JSON on stdout), --quiet
// (no progress bar on stderr), --discrete and --real (how numbers are
// read).
//
// # Files
//
// One output per line; blank lines and lines starting with # are skipped.
// A line is a number; a vector, as a CSV row or a JSON array of numbers,
// all of one length; or a JSON string, a discrete label. Every line of a
// file, and both files, must hold one kind. Numbers are discrete (counted
// value by value) when every number in both files is an integer, real
// otherwise; --discrete or --real decides instead. Under --discrete any
// other text is a label too, and each vector is one value.
//
// A malformed line, NaN or ±Inf, vectors of mixed length, an empty file,
// and a file more than dptest.RecordedLengthRatio times as long as the
// other are refused, naming the file and line where there is one.
//
// # Statistics
//
// Each side's outputs are shuffled by the seed; as many per side as the
// shorter file holds are used. A quarter of them
// (dptest.RecordedSelectionFraction) choose the statistic: cells, event,
// direction, score. Each half of the rest confirms it in one of two
// rounds. No output serves both, and the text says how many each got.
// See dptest.AuditRecordedRDP and its siblings.
//
// # Exit codes
//
//	0  the claim holds, or is unresolved (without --strict)
//	1  the claim is violated
//	2  a usage or data error
//	3  suspect: evidence against the claim that could not be confirmed
//	4  unresolved, with --strict
package main
