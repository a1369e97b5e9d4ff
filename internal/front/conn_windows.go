//go:build windows

package front

import (
	"errors"
	"time"
)

// conn is unused on Windows, which has no resident engine yet.
type conn struct{}

func dial(string, time.Duration) (*conn, error) {
	return nil, errors.New("the resident engine is not available on Windows")
}

func (*conn) SetReadTimeout(time.Duration)  {}
func (*conn) SetWriteTimeout(time.Duration) {}
func (*conn) Read([]byte) (int, error)      { return 0, errEOF }
func (*conn) Write(p []byte) (int, error)   { return 0, errEOF }
func (*conn) Close() error                  { return nil }
func (*conn) peerUID() (int, error)         { return -1, errEOF }
