//go:build unix

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/agenthooks/agenthooks/internal/needs"
)

// chromiumEnv names a browser to use instead of the one found on PATH.
const chromiumEnv = "AGENTHOOKS_TEST_CHROMIUM"

// findChromium returns the browser the dashboard tests drive. Its absence
// fails the test rather than skipping it: a skipped browser test would
// leave the dashboard untested without anyone noticing.
func findChromium(t testing.TB) string {
	t.Helper()
	needs.Short(t, "the team dashboard's tests in a real Chromium")
	if p := os.Getenv(chromiumEnv); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	needs.Missing(t, "no Chromium to test the dashboard in: install it (apt-get install -y chromium, brew install --cask chromium) "+
		"or set "+chromiumEnv+" to a Chrome or Chromium binary")
	return ""
}

// lockedBuffer collects the browser's output, written from chromedp's
// goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// browser is one headless Chromium tab, with the console messages the
// page wrote and the dialogs it opened.
type browser struct {
	ctx context.Context

	mu       sync.Mutex
	console  []chromedp.ConsoleMessage
	dialogs  []string
	accepted bool // how the next dialogs are answered
}

// startBrowser starts Chromium with a new empty profile, isolated from
// the network it does not need (the machine may have none but loopback:
// background services would only flood refused connections), and stops
// it when the test ends.
func startBrowser(t testing.TB) *browser {
	t.Helper()
	out := &lockedBuffer{}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(findChromium(t)),
		chromedp.Headless,
		chromedp.NoSandbox, // tests may run as root, where the sandbox refuses to start
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
		chromedp.CombinedOutput(out),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	b := &browser{ctx: ctx}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		cancelTime()
		cctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		_ = chromedp.Cancel(cctx)
		cancelTab()
		cancelAlloc()
		wg.Wait()
		if t.Failed() {
			t.Logf("Chromium's output:\n%s", out.String())
		}
	})
	// Start the browser now, so that the subscriptions below see the tab.
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start Chromium: %v\n%s", err, out.String())
	}
	console := chromedp.Console(ctx)
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	wg.Add(2)
	go func() {
		defer wg.Done()
		for m, err := range console {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m)
			b.mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.dialogs = append(b.dialogs, string(ev.Type)+": "+ev.Message)
			accept := b.accepted
			b.mu.Unlock()
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: accept})
		}
	}()
	return b
}

// do runs steps, failing the test with what was being done.
func (b *browser) do(t testing.TB, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page. DevTools
// evaluations are not subject to the page's Content-Security-Policy.
func eval[T any](t testing.TB, b *browser, expr string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds. chromedp's Poll
// compiles its predicate with new Function, which the dashboard's policy
// (no unsafe-eval) rightly forbids, so the polling is done from here.
func (b *browser) waitFor(t testing.TB, what, cond string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool]("!!("+cond+")"))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s (%s): %v; the page shows the error %q", what, cond, err,
				eval[string](t, b, `document.getElementById("error-text").textContent`))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// clearField empties an input, as select-all and delete would.
// (chromedp's Clear empties the value attribute, not what was typed.)
func clearField(id string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById(%q).value = ""`, id))
}

// rowCells is the text of each cell of the rows a CSS selector finds.
func rowCells(t *testing.T, b *browser, selector string) [][]string {
	t.Helper()
	return eval[[][]string](t, b, fmt.Sprintf(
		`Array.from(document.querySelectorAll(%q)).map(r => Array.from(r.cells).map(c => c.textContent))`, selector))
}

// problems are the console messages that show a defect: an uncaught
// exception, a blocked resource or inline script (the security policy),
// a JavaScript error. Failed API calls the test provoked are network
// messages and are not counted.
func (b *browser) problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, m := range b.console {
		bad := m.IsException() || m.Source == "security" || m.Source == "javascript" ||
			strings.Contains(m.Text, "Content Security Policy") || m.Type == "error" && m.Source != "network"
		if bad {
			out = append(out, m.String())
		}
	}
	return out
}

func (b *browser) setAcceptDialogs(accept bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.accepted = accept
}

func (b *browser) dialogsSeen() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.dialogs...)
}
