package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// maxResponse bounds what is read of a provider's answer: a verdict is a
// few hundred bytes, so anything near this is a misdirected URL.
const maxResponse = 4 << 20

// defaultTimeout bounds a Judge call whose context has no deadline, so
// that a library caller who forgot one cannot hang on a dead server.
const defaultTimeout = 60 * time.Second

// newHTTPClient returns the client used when Config.HTTPClient is nil:
// bounded dial and TLS handshake (the context bounds the rest), proxies
// from the environment, and no redirects, because Go forwards custom
// headers such as x-api-key to the redirect target and a model API has no
// business redirecting a POST.
func newHTTPClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          16,
			MaxIdleConnsPerHost:   8,
			IdleConnTimeout:       60 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ExpectContinueTimeout: time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// base is what both providers share: configuration and the retrying POST.
type base struct {
	cfg Config
	// public is true when BaseURL is the provider's default endpoint,
	// where a missing key can only end in 401.
	public bool
}

// model picks the request's model, else the configured default.
func (b *base) model(req Request) string {
	if req.Model != "" {
		return req.Model
	}
	return b.cfg.Model
}

// checkKey fails fast when no key is set for a public endpoint, rather
// than spending the hook's time on a certain 401.
func (b *base) checkKey() error {
	if b.public && b.cfg.APIKey == "" {
		return fmt.Errorf("%s: no API key: %s is empty (fix: set it, set %s to the name of the variable holding the key, or set %s to a local server that needs none)",
			b.cfg.Provider, b.cfg.KeyEnv, EnvAPIKeyEnv, EnvBaseURL)
	}
	return nil
}

// errorParser extracts the provider's error type and message from a
// non-200 body.
type errorParser func(body []byte) (typ, msg string)

// post sends body to BaseURL+path and returns the 200 answer and the number
// of requests made. Rate limits, overloads, server errors and connection
// failures are retried with exponential backoff and jitter, honouring
// Retry-After, and never past ctx's deadline: a wait that would end after
// it is not started, and the last error is returned at once instead.
func (b *base) post(ctx context.Context, path string, header http.Header, body []byte, parse errorParser) ([]byte, int, error) {
	r := b.cfg.Retry
	url := b.cfg.BaseURL + path
	deadline, hasDeadline := ctx.Deadline()
	for attempt := 1; ; attempt++ {
		ans, err := b.once(ctx, url, header, body)
		if err == nil && ans.status == http.StatusOK {
			return ans.body, attempt, nil
		}
		if ctx.Err() != nil {
			// The deadline or the caller ended it: say so, keeping the
			// context's error for errors.Is.
			msg := fmt.Sprintf("%s API: no answer from %s: %v", b.cfg.Provider, url, context.Cause(ctx))
			if attempt > 1 {
				msg += fmt.Sprintf(" (attempt %d)", attempt)
			}
			return nil, attempt, &requestError{msg: redact(msg, b.cfg.APIKey), err: ctx.Err()}
		}
		var (
			retry     bool
			finalErr  func(gaveUp string) error
			serverSay = ans.retryAfter
		)
		if err != nil {
			// A flood is not retried: the same URL will send it again.
			retry = !errors.Is(err, errTooLarge)
			msg := redact(err.Error(), b.cfg.APIKey)
			finalErr = func(gaveUp string) error {
				m := fmt.Sprintf("%s API: %s", b.cfg.Provider, msg)
				if gaveUp != "" {
					m += "; " + gaveUp
				} else if attempt > 1 {
					m += fmt.Sprintf(" (attempt %d)", attempt)
				}
				return &requestError{msg: m, err: err}
			}
		} else {
			typ, msg := parse(ans.body)
			if msg == "" && typ == "" {
				msg = string(bytes.TrimSpace(ans.body))
			}
			if ans.status >= 300 && ans.status < 400 {
				msg = fmt.Sprintf("redirect to %q refused; set %s to the final address", ans.location, EnvBaseURL)
			}
			apiErr := &APIError{Provider: b.cfg.Provider, Status: ans.status, Type: typ,
				Message: b.excerpt(msg), Attempts: attempt}
			retry = retryableStatus(ans.status)
			switch ans.shouldRetry {
			case "true":
				retry = true
			case "false":
				retry = false
			}
			finalErr = func(gaveUp string) error {
				apiErr.GaveUp = gaveUp
				return apiErr
			}
		}
		if !retry {
			return nil, attempt, finalErr("")
		}
		if attempt >= r.MaxAttempts {
			return nil, attempt, finalErr(fmt.Sprintf("gave up after %d attempts", attempt))
		}
		waitFor := backoff(r, attempt)
		if serverSay > 0 {
			if serverSay > r.MaxRetryAfter {
				return nil, attempt, finalErr(fmt.Sprintf("not retried: the server asked to retry after %s, longer than the %s the client waits", serverSay, r.MaxRetryAfter))
			}
			waitFor = serverSay
		}
		if hasDeadline && time.Until(deadline) < waitFor+minAttemptTime {
			why := fmt.Sprintf("waiting %s to retry", waitFor.Round(time.Millisecond))
			if serverSay > 0 {
				why = fmt.Sprintf("the server asked to retry after %s, which", serverSay)
			}
			return nil, attempt, finalErr(fmt.Sprintf("not retried: %s would leave no time before the deadline", why))
		}
		if err := sleep(ctx, waitFor); err != nil {
			return nil, attempt, &requestError{
				msg: fmt.Sprintf("%s (then %v while waiting to retry)", finalErr("").Error(), err),
				err: err,
			}
		}
	}
}

// minAttemptTime is the least time worth starting a request with: a retry
// that would leave less before the deadline is not made.
const minAttemptTime = 100 * time.Millisecond

// httpAnswer is one HTTP exchange's outcome.
type httpAnswer struct {
	status      int
	body        []byte
	retryAfter  time.Duration
	shouldRetry string // the x-should-retry header: "true", "false" or ""
	location    string
}

// once makes one request. An error means no HTTP answer was had.
func (b *base) once(ctx context.Context, url string, header http.Header, body []byte) (httpAnswer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return httpAnswer{}, fmt.Errorf("building the request: %w", err)
	}
	req.Header = header.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := b.cfg.HTTPClient.Do(req)
	if err != nil {
		return httpAnswer{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return httpAnswer{}, fmt.Errorf("reading the answer of %s: %w", url, err)
	}
	if len(data) > maxResponse {
		return httpAnswer{}, fmt.Errorf("reading the answer of %s: %w", url, errTooLarge)
	}
	return httpAnswer{
		status:      resp.StatusCode,
		body:        data,
		retryAfter:  retryAfter(resp.Header, time.Now()),
		shouldRetry: resp.Header.Get("X-Should-Retry"),
		location:    resp.Header.Get("Location"),
	}, nil
}

var errTooLarge = fmt.Errorf("the answer is larger than %d MiB; is the base URL right?", maxResponse>>20)

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
