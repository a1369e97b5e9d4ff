package dialect

import (
	"fmt"
	"io"
	"os"
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

// ReadBounded reads at most max bytes of a file. A cut that splits a
// UTF-8 sequence is moved back to the sequence's start, so the JSON
// carries no replacement character the file does not have.
func ReadBounded(max int64) ReadFunc {
	return func(path string) (string, bool, error) {
		f, err := os.Open(path)
		if err != nil {
			return "", false, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return "", false, fmt.Errorf("%s is a directory", path)
		}
		b, err := io.ReadAll(io.LimitReader(f, max+1))
		if err != nil {
			return "", false, fmt.Errorf("read %s: %w", path, err)
		}
		if int64(len(b)) <= max {
			return string(b), false, nil
		}
		b = b[:max]
		for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
			if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size != 1 {
				break
			}
			b = b[:len(b)-1]
		}
		return string(b), true, nil
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
