package agent

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/agenthooks/agenthooks/event"
)

// MaxContent bounds the file content put into a beforeReadFile payload.
// Cursor sends the whole file; agents send none, so agenthooks reads it,
// and a bound keeps a read of a huge log from costing every hook a copy.
const MaxContent = 16 << 20

// ReadFunc reads a file's content for beforeReadFile. truncated reports
// that only the first part was read.
type ReadFunc func(path string) (content string, truncated bool, err error)

// ReadBounded reads at most limit bytes of a file. A cut that splits a
// UTF-8 sequence is moved back to the sequence's start, so the JSON
// carries no replacement character the file does not have.
func ReadBounded(limit int64) ReadFunc {
	return func(path string) (string, bool, error) {
		f, err := openForContent(path)
		if err != nil {
			return "", false, err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return "", false, fmt.Errorf("read %s: %w", path, err)
		}
		if st.IsDir() {
			return "", false, fmt.Errorf("%s is a directory", path)
		}
		if !st.Mode().IsRegular() || kernelFile(f) {
			// A folder, a named pipe, a device or a socket: no content to
			// give the hooks, and a read that might never end.
			return "", false, fmt.Errorf("%s is not a regular file on a disk (%s): no content read", path, st.Mode().Type())
		}
		size := st.Size()
		// Straight into the string, in a buffer of the file's size: not
		// io.ReadAll's doubling one and a copy of it as a string, which
		// for a large file allocate it three times over.
		var b strings.Builder
		b.Grow(int(min(max(size, 0), limit)) + 1)
		if _, err := io.Copy(&b, io.LimitReader(f, limit+1)); err != nil {
			return "", false, fmt.Errorf("read %s: %w", path, err)
		}
		s := b.String()
		if int64(len(s)) <= limit {
			return s, false, nil
		}
		s = s[:limit]
		for i := 0; i < utf8.UTFMax && len(s) > 0; i++ {
			if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size != 1 {
				break
			}
			s = s[:len(s)-1]
		}
		return s, true, nil
	}
}

// LoadContents fills in the content of every beforeReadFile call that
// lacks it. A file that cannot be read gets "" (the agent's own read will
// fail the same way); the problems come back for --verbose.
func LoadContents(calls []Call, read ReadFunc) []error {
	var errs []error
	for _, c := range calls {
		if c.Step != event.BeforeReadFile {
			continue
		}
		if _, ok := c.Payload["content"]; ok {
			continue
		}
		path, _ := c.Payload["file_path"].(string)
		content, truncated, err := read(path)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("beforeReadFile: content of %s: %w", path, err))
		case truncated:
			errs = append(errs, fmt.Errorf("beforeReadFile: %s is larger than the bound; the hooks get only its first %d bytes", path, len(content)))
		}
		c.Payload["content"] = content
	}
	return errs
}
