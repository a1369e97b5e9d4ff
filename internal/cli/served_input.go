package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// servedInput is a client's stdin in the resident engine: the bytes the
// client read, and the error its read ended with, if any. A verb reads it
// like any stdin; readPayload takes the bytes as they are, so a 10 MB
// file read is not copied once more.
type servedInput struct {
	body []byte
	err  error // the client's read error, after body
	r    io.Reader
}

func newServedInput(body []byte, readErr string) *servedInput {
	in := &servedInput{body: body}
	if readErr != "" {
		in.err = errors.New(readErr)
	}
	in.r = io.MultiReader(bytes.NewReader(body), errorReader{in})
	return in
}

func (in *servedInput) Read(p []byte) (int, error) { return in.r.Read(p) }

// take returns the whole input, unread: the body, or the read error.
func (in *servedInput) take() ([]byte, error) {
	if in.err != nil {
		return nil, fmt.Errorf("read payload: %w", in.err)
	}
	if len(in.body) > maxPayload {
		return nil, dataErr("payload is larger than %d MiB", maxPayload>>20)
	}
	b := in.body
	in.body, in.r = nil, bytes.NewReader(nil)
	return b, nil
}

// errorReader ends a servedInput with the client's read error, or EOF.
type errorReader struct{ in *servedInput }

func (e errorReader) Read([]byte) (int, error) {
	if e.in.err != nil {
		return 0, e.in.err
	}
	return 0, io.EOF
}
