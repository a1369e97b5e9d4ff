package teamsync

import (
	"fmt"
	"io"
	"net/http"

	"connectrpc.com/connect"
)

// capped is an HTTP client whose response bodies end in an error past max
// bytes: a server that streams without end is cut off there, rather than
// read to the end so that the RPC layer can report the size it refuses.
type capped struct {
	next connect.HTTPClient
	max  int64
}

func (c capped) Do(req *http.Request) (*http.Response, error) {
	resp, err := c.next.Do(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	resp.Body = &cappedBody{ReadCloser: resp.Body, max: c.max, left: c.max + 1}
	return resp, nil
}

// cappedBody reads at most left bytes, then fails.
type cappedBody struct {
	io.ReadCloser
	max, left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("the server's answer is larger than the %d bytes a team set may take", b.max)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}
