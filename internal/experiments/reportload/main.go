// Command reportload measures how fast a report directory of a run of
// audits opens in headless Chromium: it writes the demo's audits into a
// fresh directory as many times as -runs asks (26 audits a run, at the
// sample sizes of go test -short), then loads index.html and every page,
// and prints each load's time.
//
//	go run ./internal/experiments/reportload -runs 2
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dptest/dptest/internal/demo"
	"github.com/dptest/dptest/internal/pages"
)

func main() {
	runs := flag.Int("runs", 2, "demo runs written into the report (26 audits each)")
	flag.Parse()
	browser, err := exec.LookPath("chromium")
	if err != nil {
		log.Fatal("reportload needs Debian's chromium: apt-get install chromium")
	}
	dir, err := os.MkdirTemp("", "reportload")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for range *runs {
		demo.Run(io.Discard, true, dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, pages.JSONFile))
	if err != nil {
		log.Fatal(err)
	}
	var entries []pages.Entry
	if err := json.Unmarshal(b, &entries); err != nil {
		log.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox)
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	load := func(page string) time.Duration {
		start := time.Now()
		if _, err := chromedp.Run(ctx, chromedp.Navigate("file://"+filepath.Join(dir, page))); err != nil {
			log.Fatal(err)
		}
		return time.Since(start)
	}
	load(pages.IndexFile) // starts the browser
	fmt.Printf("# reportload: %d audits, %s\n", len(entries), time.Now().UTC().Format(time.RFC3339))
	fmt.Printf("index.html: %v\n", load(pages.IndexFile).Round(time.Millisecond))
	var times []time.Duration
	for _, e := range entries {
		times = append(times, load(e.Page))
	}
	slices.Sort(times)
	fmt.Printf("pages: median %v, slowest %v\n", times[len(times)/2].Round(time.Millisecond), times[len(times)-1].Round(time.Millisecond))
}
