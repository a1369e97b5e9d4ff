package dashboard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

func get(t *testing.T, method, path string, header http.Header) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, path, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSecurityHeaders: every answer, errors included, carries the
// headers that keep the page from running foreign script or being framed.
func TestSecurityHeaders(t *testing.T) {
	for _, tc := range []struct{ method, path string }{
		{"GET", "/"}, {"GET", "/app.js"}, {"GET", "/style.css"}, {"GET", "/nothing"}, {"POST", "/"},
	} {
		res := get(t, tc.method, tc.path, nil)
		h := res.Header
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s %s: Content-Security-Policy %q lacks %q", tc.method, tc.path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("%s %s: Content-Security-Policy %q allows inline or eval'd script", tc.method, tc.path, csp)
		}
		if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s: X-Content-Type-Options %q", tc.method, tc.path, got)
		}
		if got := h.Get("Referrer-Policy"); got != "no-referrer" {
			t.Errorf("%s %s: Referrer-Policy %q", tc.method, tc.path, got)
		}
		if got := h.Get("X-Frame-Options"); got != "DENY" {
			t.Errorf("%s %s: X-Frame-Options %q", tc.method, tc.path, got)
		}
	}
}

func TestAssets(t *testing.T) {
	for _, tc := range []struct{ path, contentType, contains string }{
		{"/", "text/html; charset=utf-8", `<script type="module" src="app.js"></script>`},
		{"/app.js", "text/javascript; charset=utf-8", `"agenthooks.team.v1.AdminService/"`},
		{"/style.css", "text/css; charset=utf-8", "--accent"},
	} {
		res := get(t, "GET", tc.path, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %s", tc.path, res.Status)
		}
		if got := res.Header.Get("Content-Type"); got != tc.contentType {
			t.Errorf("GET %s: Content-Type %q, want %q", tc.path, got, tc.contentType)
		}
		if b := body(t, res); !strings.Contains(b, tc.contains) {
			t.Errorf("GET %s: no %q in\n%s", tc.path, tc.contains, b)
		}
		etag := res.Header.Get("ETag")
		if etag == "" || res.Header.Get("Cache-Control") != "no-cache" {
			t.Fatalf("GET %s: ETag %q, Cache-Control %q", tc.path, etag, res.Header.Get("Cache-Control"))
		}
		// A browser revalidating an unchanged file gets no body.
		res = get(t, "GET", tc.path, http.Header{"If-None-Match": {etag}})
		if res.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s with its ETag: %s, want 304", tc.path, res.Status)
		}
	}
	res := get(t, "HEAD", "/", nil)
	if res.StatusCode != http.StatusOK || body(t, res) != "" {
		t.Errorf("HEAD /: %s", res.Status)
	}
}

// TestPageListsTheChoices: the form offers every step the server
// accepts, beforeShellExecution first chosen, and the three systems.
func TestPageListsTheChoices(t *testing.T) {
	page := body(t, get(t, "GET", "/", nil))
	if n := strings.Count(page, "<option value="); n != event.NumSteps {
		t.Errorf("%d step options, want %d", n, event.NumSteps)
	}
	for _, s := range event.Steps {
		if !strings.Contains(page, `<option value="`+string(s)+`"`) {
			t.Errorf("no option for step %s", s)
		}
	}
	if !strings.Contains(page, `<option value="beforeShellExecution" selected>`) {
		t.Error("beforeShellExecution is not the step chosen by default")
	}
	for _, os := range []string{"Windows", "Macintosh", "Linux"} {
		if !strings.Contains(page, `id="os-`+os+`" value="`+os+`"`) {
			t.Errorf("no checkbox for %s", os)
		}
	}
	// The page runs no inline script: the policy would block it.
	if n := len(regexp.MustCompile(`<script\b`).FindAllString(page, -1)); n != 1 {
		t.Errorf("%d script elements, want the one of app.js", n)
	}
	if m := regexp.MustCompile(`(?i)<[^>]*\son[a-z]+\s*=`).FindString(page); m != "" {
		t.Errorf("inline event handler: %s", m)
	}
}

func TestRefused(t *testing.T) {
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/index.html", http.StatusNotFound},
		{"GET", "/assets/app.js", http.StatusNotFound},
		{"GET", "/../go.mod", http.StatusNotFound},
		{"POST", "/", http.StatusMethodNotAllowed},
		{"DELETE", "/app.js", http.StatusMethodNotAllowed},
	} {
		res := get(t, tc.method, tc.path, nil)
		if res.StatusCode != tc.status {
			t.Errorf("%s %s: %s, want %d", tc.method, tc.path, res.Status, tc.status)
		}
	}
	if got := get(t, "POST", "/", nil).Header.Get("Allow"); got != "GET, HEAD" {
		t.Errorf("Allow %q", got)
	}
}
