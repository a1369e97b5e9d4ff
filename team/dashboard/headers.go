package dashboard

import "net/http"

// contentSecurityPolicy allows only the server's own script, style sheet
// and API: no inline script, so that text which slipped into the page
// could not run, and no framing, so the page cannot be overlaid by
// another site (clickjacking).
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// secure adds the security headers to every answer, errors included.
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		// The page's address carries nothing secret, but other sites
		// need not learn where the team server is.
		h.Set("Referrer-Policy", "no-referrer")
		// For browsers that predate frame-ancestors.
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}
