package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/dptest/dptest/internal/demo"
	"github.com/dptest/dptest/internal/pages"
)

// runDemo is `dptest demo [-short] [-report DIR]`: it audits the reference
// mechanisms, prints each verdict, and writes the HTML report to DIR. It
// exits 1 if any verdict is not the expected one, 2 on a usage error.
func runDemo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("dptest demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	short := fs.Bool("short", false, "use the sample sizes and candidates of go test -short")
	report := fs.String("report", "", "write each audit's page, index.html and report.json into `DIR`")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dptest demo: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	_, unexpected := demo.Run(stdout, *short, *report)
	if *report != "" {
		fmt.Fprintf(stdout, "report: %s\n", filepath.Join(*report, pages.IndexFile))
	}
	if unexpected > 0 {
		return exitViolated
	}
	return exitHolds
}
