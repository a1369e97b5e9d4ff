// Package dashboard is the team server's web page: an administrator
// lists, creates, edits, switches on and off and deletes a team's hooks,
// creates teams, and reads the history of changes.
//
// The page is plain HTML, CSS and JavaScript embedded in the binary: no
// framework and no build step, so what is reviewed is what runs. It holds
// no server-side state and no credentials: the script calls AdminService
// through the Connect protocol's JSON form with the admin token the user
// types in, which it keeps in the tab's sessionStorage (gone when the tab
// closes, never sent as a cookie, so no request can be forged from another
// site). The server checks that token on every call, as for any client.
package dashboard

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"net/http"
	"sync"
	"time"
)

//go:embed assets
var assets embed.FS

// asset is one file the handler serves.
type asset struct {
	body        []byte
	contentType string
	etag        string // quoted, from the content, so browsers revalidate cheaply
}

func newAsset(body []byte, contentType string) asset {
	sum := sha256.Sum256(body)
	return asset{body: body, contentType: contentType, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
}

// loadAssets renders the page and reads the script and the style sheet.
// It runs once; its only possible failure is a broken embedded template,
// which the package's tests catch.
var loadAssets = sync.OnceValues(func() (map[string]asset, error) {
	page, err := renderPage()
	if err != nil {
		return nil, err
	}
	out := map[string]asset{"/": newAsset(page, "text/html; charset=utf-8")}
	for path, typ := range map[string]string{
		"/app.js":    "text/javascript; charset=utf-8",
		"/style.css": "text/css; charset=utf-8",
	} {
		body, err := assets.ReadFile("assets" + path)
		if err != nil {
			return nil, fmt.Errorf("dashboard: embedded %s: %w", path, err)
		}
		out[path] = newAsset(body, typ)
	}
	return out, nil
})

// Handler serves the dashboard: the page at "/", its script and style
// sheet, and 404 for every other path. Mount it as the team server's
// Config.Root, on the server's own origin: the script calls the API at
// paths relative to the page.
func Handler() http.Handler {
	return secure(http.HandlerFunc(serve))
}

func serve(w http.ResponseWriter, r *http.Request) {
	files, err := loadAssets()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	a, ok := files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: the dashboard is read with GET", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", a.contentType)
	w.Header().Set("ETag", a.etag)
	// Revalidate every time: after an upgrade the page and its script
	// must change together.
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}
