// Command dptest runs the demo (placeholder until the audit command lands).
package main

import (
	"fmt"
	"io"
	"os"
)

const (
	exitHolds    = 0
	exitViolated = 1
	exitUsage    = 2
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "demo" {
		return runDemo(args[1:], stdout, stderr)
	}
	fmt.Fprintln(stderr, "usage: dptest demo [-short] [-report DIR]")
	return exitUsage
}
