package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes: the verdict, or a usage or data error.
const (
	exitHolds      = 0 // also an unresolved audit without --strict
	exitViolated   = 1
	exitUsage      = 2 // a bad command line, an unreadable or refused file
	exitSuspect    = 3
	exitUnresolved = 4 // with --strict only
)

const usage = `Usage: dptest audit (rdp|dp|approx|gdp) [flags] X Y
       dptest demo [-short] [-report DIR]

Audits a privacy claim on outputs recorded elsewhere: file X drawn on one
dataset, file Y on its neighbour. It uses the statistics and verdicts of
dptest's live audits. A quarter of the outputs per side choose the
statistic; the rest confirm it in two rounds. No output serves both.

Claims:
  rdp     --lambda λ --eps ε    (λ, ε)-Rényi DP
  dp      --eps ε               pure ε-DP
  approx  --eps ε --delta δ     (ε, δ)-DP
  gdp     --mu μ                μ-Gaussian DP

Files hold one output per line. Blank lines and lines starting with # are
skipped. A line is a number; a vector, as a CSV row or a JSON array of
numbers, all of one length; or a JSON string, a discrete label. Numbers
are discrete (counted value by value) when every number in both files is
an integer, real otherwise; --discrete or --real decides instead. Under
--discrete any other text is a label too, and a vector is one value.

Flags:
`

const exitCodes = `
Exit codes:
  0  the claim holds, or is unresolved (without --strict)
  1  the claim is violated
  2  a usage or data error (the message names the file and line)
  3  suspect: evidence against the claim that could not be confirmed
  4  unresolved, with --strict
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line args and returns the exit code: the
// report goes to stdout, errors and progress to stderr.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage, "  (see dptest audit -h)\n", exitCodes)
		return exitUsage
	}
	switch args[0] {
	case "audit":
		return audit(args[1:], stdout, stderr)
	case "demo":
		return runDemo(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage, "  (see dptest audit -h)\n", exitCodes)
		return exitHolds
	}
	fmt.Fprintf(stderr, "dptest: unknown command %q (want audit or demo)\n", args[0])
	return exitUsage
}
