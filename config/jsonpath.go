package config

import (
	"strconv"
	"strings"
)

// jsonPath is where the JSON parser is, as a chain from the innermost
// value up to the document. The parser passes it down instead of a
// JSON Pointer string: the string is built only for a problem, and most
// files have none, so no string is built for every value of every file.
type jsonPath struct {
	parent  *jsonPath
	key     string // the member's key, unless isIndex
	index   int    // the element's index, if isIndex
	isIndex bool
}

// String is the JSON Pointer of the path; nil is the document, "".
func (p *jsonPath) String() string {
	if p == nil {
		return ""
	}
	var segs []string
	for q := p; q != nil; q = q.parent {
		if q.isIndex {
			segs = append(segs, strconv.Itoa(q.index))
		} else {
			segs = append(segs, q.key)
		}
	}
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		b.WriteString(pointerJoin("", segs[i]))
	}
	return b.String()
}
