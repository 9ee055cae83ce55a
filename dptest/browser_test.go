package dptest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/dptest/dptest/internal/pages"
)

// browserNames are the headless browsers the page test looks for, Debian's
// chromium first.
var browserNames = []string{"chromium", "chromium-browser", "google-chrome", "chrome"}

// minPlotElements is the least number of drawn elements (paths, lines,
// text) an SVG picture must hold: axes, ticks and labels alone have more.
const minPlotElements = 20

// requireRendersInBrowser requires the report directory dir, of audits
// audits, to render in a real browser: the index lists every audit, and
// every page shows its verdict and pictures, each drawn, with no console
// error. Screenshots are saved as PNG under the test's temp directory. It
// skips, and says so, where no browser is installed.
func requireRendersInBrowser(t *testing.T, dir string, audits int) {
	t.Helper()
	browser := ""
	for _, name := range browserNames {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skipf("no headless browser installed (looked for %s); apt-get install chromium runs this test", strings.Join(browserNames, ", "))
	}
	b, err := os.ReadFile(filepath.Join(dir, pages.JSONFile))
	require.NoError(t, err)
	var entries []pages.Entry
	require.NoError(t, json.Unmarshal(b, &entries))
	require.Len(t, entries, audits)

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(browser), chromedp.NoSandbox, chromedp.WindowSize(1200, 900))
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	var mu sync.Mutex
	var consoleErrors []string
	listen := func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				consoleErrors = append(consoleErrors, fmt.Sprint(ev.Args))
			}
		case *runtime.EventExceptionThrown:
			consoleErrors = append(consoleErrors, ev.ExceptionDetails.Text)
		}
	}
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithListener(listen))
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, time.Minute)
	defer cancel()

	shots := os.Getenv("DPTEST_SHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	visit := func(page string) {
		t.Helper()
		_, err := chromedp.Run(ctx, chromedp.Navigate("file://"+filepath.Join(dir, page)))
		require.NoError(t, err, page)
	}
	screenshot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(shots, name), png, 0o644))
	}
	visit(pages.IndexFile)
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("tr.audit").length`))
	require.NoError(t, err)
	require.Equal(t, len(entries), rows, "the index lists every audit")
	screenshot("index.png")

	for i, e := range entries {
		visit(e.Page)
		text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("verdict").innerText`))
		require.NoError(t, err, e.Page)
		require.NotEmpty(t, strings.TrimSpace(text), e.Page)
		drawn, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`Array.from(document.querySelectorAll("figure.picture svg")).map(s => s.querySelectorAll("path, line, text, polygon, rect").length)`))
		require.NoError(t, err, e.Page)
		require.NotEmpty(t, drawn, "%s: no picture", e.Page)
		for k, n := range drawn {
			require.GreaterOrEqual(t, n, minPlotElements, "%s: picture %d is blank", e.Page, k)
		}
		screenshot(fmt.Sprintf("page-%d.png", i))
	}
	mu.Lock()
	defer mu.Unlock()
	require.Empty(t, consoleErrors)
	t.Logf("screenshots in %s", shots)
}
