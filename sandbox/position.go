package sandbox

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// positions maps the JSON pointer of every value in data to the offset
// where it starts, so a problem can give a line and column. It gives up
// quietly on malformed JSON: the problem then has no position.
func positions(data []byte) map[string]int {
	out := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(data))
	start := func() int {
		off := int(dec.InputOffset())
		for off < len(data) && (data[off] == ' ' || data[off] == '\t' || data[off] == '\n' || data[off] == '\r' || data[off] == ',' || data[off] == ':') {
			off++
		}
		return off
	}
	var walk func(ptr string) bool
	walk = func(ptr string) bool {
		out[ptr] = start()
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return false
				}
				key, _ := k.(string)
				if !walk(ptr + "/" + escapePointer(key)) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if !walk(ptr + "/" + strconv.Itoa(i)) {
					return false
				}
			}
			_, err = dec.Token()
			return err == nil
		}
		return true
	}
	walk("")
	return out
}

// lines turns offsets into 1-based lines and columns (in characters).
type lines struct {
	data  []byte
	start []int
}

func newLines(data []byte) *lines {
	l := &lines{data: data, start: []int{0}}
	for i, c := range data {
		if c == '\n' {
			l.start = append(l.start, i+1)
		}
	}
	return l
}

func (l *lines) at(off int) (line, col int) {
	i := 0
	for i+1 < len(l.start) && l.start[i+1] <= off {
		i++
	}
	return i + 1, utf8.RuneCount(l.data[l.start[i]:min(off, len(l.data))]) + 1
}
