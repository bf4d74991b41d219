//go:build !race

// The browser's tests drive headless Chromium through chromedp, whose
// protocol packages are large: under -race they would be compiled a
// second time for a detector that finds nothing in these one-goroutine
// tests. They run in .ci/test's plain pass (see the README's Tests).

package page

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// chromiumPath finds headless Chromium: Debian's chromium, which .ci/run
// installs, or another Chrome on PATH. Without one the browser tests skip,
// except under CI, where they fail.
func chromiumPath(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no chromium on PATH: CI runs the page's browser tests (.ci/run installs Debian's chromium)")
	}
	t.Skip("no chromium on PATH: install Debian's chromium to run the page's browser tests")
	return ""
}

// tab is a tab of headless Chromium, with what it has seen: the URLs it
// requested and the Content-Security-Policy violations of its pages.
type tab struct {
	ctx context.Context
	mu  sync.Mutex
	// requests are the URLs of the network log.
	requests []string
}

// newTab starts headless Chromium and opens a tab, with its network log on.
// Script runs unless noScript. The browser ends with the test.
func newTab(t testing.TB, noScript bool) *tab {
	t.Helper()
	path := chromiumPath(t)
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]), chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.WindowSize(1280, 900), chromedp.Flag("hide-scrollbars", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	tb := &tab{}
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(func(ev any) {
		if ev, ok := ev.(*network.EventRequestWillBeSent); ok {
			tb.mu.Lock()
			tb.requests = append(tb.requests, ev.Request.URL)
			tb.mu.Unlock()
		}
	}))
	// A bound on a browser that hangs, not a synchronisation.
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	tb.ctx = ctx
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	// Record every violation of the page's policy: none is expected, not
	// even of its own stylesheet and script, which it allows by hash.
	if _, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.__violations=[];document.addEventListener("securitypolicyviolation",function(e){window.__violations.push(e.violatedDirective+" "+e.blockedURI)});`,
	}); err != nil {
		t.Fatal(err)
	}
	if noScript {
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
	}
	return tb
}

// open writes html to a file and opens it.
func (tb *tab) open(t testing.TB, html string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(path, []byte(html), 0o600); err != nil {
		t.Fatal(err)
	}
	u := (&url.URL{Scheme: "file", Path: path}).String()
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(u)); err != nil {
		t.Fatal(err)
	}
	return u
}

// eval evaluates a JavaScript expression in the page, as DevTools does.
func eval[T any](t testing.TB, tb *tab, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// offPage returns the requests of the network log other than the page
// itself and its data: images: what the page loaded from elsewhere.
func (tb *tab) offPage(pageURL string) []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var out []string
	for _, r := range tb.requests {
		if r != pageURL && !strings.HasPrefix(r, "data:") {
			out = append(out, r)
		}
	}
	return out
}

// TestBrowserPage opens the page of a session with markdown, code,
// thinking, a tool round, two branches, an attached and a generated image
// and a hostile reply in headless Chromium, and checks what a reader gets:
// every message in order, no script of the content run, nothing loaded
// from anywhere, no violation of the page's policy (its own stylesheet and
// script apply), a copy button on each code block, every <details> opening
// to show what it holds, and the other branch readable.
func TestBrowserPage(t *testing.T) {
	f := newFixture(t)
	tb := newTab(t, false)
	pageURL := tb.open(t, render(t, f.sess, Options{Files: f.store}))

	if got := eval[bool](t, tb, `window.`+canary+` === undefined`); !got {
		t.Error("the hostile reply set the canary: script from the content ran")
	}
	if title := eval[string](t, tb, `document.title`); title != "Reading files in Go <script>window."+canary+"=1</script>" {
		t.Errorf("title %q: changed by script, or not escaped", title)
	}
	got := eval[[]string](t, tb, `[...document.querySelectorAll("main > article")].map(a => a.textContent)`)
	if len(got) != len(f.texts) {
		t.Fatalf("%d messages on the page's active branch, want %d: %q", len(got), len(f.texts), got)
	}
	for i, want := range f.texts {
		if !strings.Contains(got[i], want) {
			t.Errorf("message %d holds %q, want %q in it", i+1, got[i], want)
		}
	}
	if v := eval[[]string](t, tb, `window.__violations`); len(v) > 0 {
		t.Errorf("violations of the page's Content-Security-Policy: %q", v)
	}
	if n, want := eval[int](t, tb, `document.querySelectorAll(".code > .copy").length`), eval[int](t, tb, `document.querySelectorAll(".code").length`); n != want || n == 0 {
		t.Errorf("%d copy buttons for %d code blocks: the page's script did not run", n, want)
	}
	if eval[string](t, tb, `getComputedStyle(document.body).display`) == "none" {
		t.Error("the hostile <style> hid the page")
	}
	if n := eval[int](t, tb, `document.images.length`); n != 2 {
		t.Errorf("%d images on the page, want the attachment and the generated one", n)
	}
	if n := eval[int](t, tb, `[...document.images].filter(i => i.complete && i.naturalWidth > 0).length`); n != 2 {
		t.Errorf("%d of the 2 images decoded", n)
	}

	// The other branch is closed, then readable once its summary is clicked.
	if eval[bool](t, tb, `document.querySelector("details.branch article").checkVisibility()`) {
		t.Error("the other branch shows before it is opened")
	}
	opened := eval[[]string](t, tb, `(() => {
		const out = [];
		for (const d of document.querySelectorAll("details")) {
			if (d.open) { out.push("open at first: " + d.className); continue; }
			d.querySelector(":scope > summary").click();
			const body = [...d.children].filter(c => c.tagName !== "SUMMARY");
			if (!d.open) out.push("did not open: " + d.className);
			else if (!body.length || body.some(c => !c.checkVisibility() || c.getBoundingClientRect().height === 0)) out.push("opened empty: " + d.className);
		}
		return out;
	})()`)
	if len(opened) > 0 {
		t.Errorf("details: %q", opened)
	}
	if n := eval[int](t, tb, `document.querySelectorAll("details").length`); n != 5 {
		t.Errorf("%d <details>, want 5: thinking, tool call, server tool, tool result and branch", n)
	}
	if !eval[bool](t, tb, `document.querySelector("details.branch").innerText.includes("OTHER-BRANCH") && document.querySelector("details.branch article").checkVisibility()`) {
		t.Error("the other branch is not readable once opened")
	}
	if off := tb.offPage(pageURL); len(off) > 0 {
		t.Errorf("the page made requests: %q", off)
	}
	if v := eval[[]string](t, tb, `window.__violations`); len(v) > 0 {
		t.Errorf("violations of the page's Content-Security-Policy after opening everything: %q", v)
	}
}

// TestBrowserPageWithoutScript opens the page with script turned off: it
// is whole, without copy buttons, and its other branch opens by a click
// of the mouse on its summary.
func TestBrowserPageWithoutScript(t *testing.T) {
	f := newFixture(t)
	tb := newTab(t, true)
	tb.open(t, render(t, f.sess, Options{Files: f.store}))
	if n := eval[int](t, tb, `document.querySelectorAll(".copy").length`); n != 0 {
		t.Errorf("%d copy buttons with script off: the page's script ran", n)
	}
	if n := eval[int](t, tb, `document.querySelectorAll("main > article").length`); n != len(f.texts) {
		t.Errorf("%d messages, want %d", n, len(f.texts))
	}
	if err := chromedp.Do(tb.ctx, chromedp.Click(chromedp.CSS("details.branch > summary"))); err != nil {
		t.Fatal(err)
	}
	if !eval[bool](t, tb, `document.querySelector("details.branch").open && document.querySelector("details.branch").innerText.includes("OTHER-BRANCH")`) {
		t.Error("a click on the branch's summary did not open it with script off")
	}
}

// shotsDir is where the screenshots go: $MUSE_PAGE_SHOTS, else a folder
// in the temporary folder that the test names in its log.
func shotsDir(t *testing.T) string {
	dir := os.Getenv("MUSE_PAGE_SHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "muse-page-shots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestBrowserScreenshots takes whole-page screenshots at 390 and 1280 px,
// light and dark, and one with every <details> open, as artefacts for a
// person to look at.
func TestBrowserScreenshots(t *testing.T) {
	f := newFixture(t)
	tb := newTab(t, false)
	tb.open(t, render(t, f.sess, Options{Files: f.store}))
	dir := shotsDir(t)
	for _, width := range []int64{390, 1280} {
		for _, scheme := range []string{"light", "dark"} {
			name := fmt.Sprintf("page-%d-%s.png", width, scheme)
			shot(t, tb, width, scheme, filepath.Join(dir, name))
		}
	}
	eval[bool](t, tb, `(() => { for (const d of document.querySelectorAll("details")) d.open = true; return true })()`)
	shot(t, tb, 1280, "light", filepath.Join(dir, "page-1280-light-open.png"))
	shot(t, tb, 390, "dark", filepath.Join(dir, "page-390-dark-open.png"))
	t.Logf("screenshots in %s", dir)
}

// shot writes a screenshot of the whole page at width px in scheme.
func shot(t *testing.T, tb *tab, width int64, scheme, path string) {
	t.Helper()
	if err := chromedp.Do(tb.ctx, chromedp.EmulateViewport(width, 900)); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
	}); err != nil {
		t.Fatal(err)
	}
	buf, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkFirstPaint opens the page of 10,000 messages in headless
// Chromium and reports its first contentful paint, in ms from the start of
// the navigation. Target: at most 1 s.
func BenchmarkFirstPaint(b *testing.B) {
	sess, _ := bigSession(10_000, "go")
	path := filepath.Join(b.TempDir(), "page.html")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := Write(f, sess, Options{}); err != nil {
		b.Fatal(err)
	}
	f.Close()
	u := (&url.URL{Scheme: "file", Path: path}).String()
	tb := newTab(b, false)
	var total float64
	n := 0
	for b.Loop() {
		if err := chromedp.Do(tb.ctx, chromedp.Navigate(u)); err != nil {
			b.Fatal(err)
		}
		ms, err := chromedp.Run(tb.ctx, chromedp.Poll[float64](`(performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime`))
		if err != nil {
			b.Fatal(err)
		}
		total += ms
		n++
	}
	b.ReportMetric(total/float64(n), "ms-first-paint")
}
