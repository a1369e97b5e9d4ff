package jsonscan

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// readPayload is a beforeReadFile payload carrying a 10 MB file, the
// largest payload a host sends.
func readPayload() []byte {
	line := "\tif err := run(ctx, \"x\", 42); err != nil { return fmt.Errorf(\"run: %w\", err) } // ünïcode\n"
	content := strings.Repeat(line, 10<<20/len(line))
	return []byte(`{"content":` + strconv.Quote(content) + `,"file_path":"x"}`)
}

func BenchmarkReadPayload(b *testing.B) {
	data := readPayload()
	b.Run("jsonscan.Object", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := Object(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(data, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// A file of plain text, no escapes: the string scan at its fastest.
func BenchmarkPlainPayload(b *testing.B) {
	data := []byte(`{"content":"` + strings.Repeat("0123456789abcdef", 10<<20/16) + `","file_path":"x"}`)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Object(data); err != nil {
			b.Fatal(err)
		}
	}
}
