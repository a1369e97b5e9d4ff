package jsonplain

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// walker encodes the generic shapes a decoded payload is made of
// (map[string]any, []any, map[string]json.RawMessage, json.RawMessage)
// itself, so that a RawMessage is compacted by jsonscan rather than
// checked by encoding/json, and hands every other value to encoding/json,
// which writes into the same buffer. The output is what encoding/json
// would write: keys sorted, values formatted by it.
type walker struct {
	out sink
	enc *json.Encoder
}

// sink is the output buffer, which the delegated encoder appends to.
type sink struct{ b []byte }

func (s *sink) Write(p []byte) (int, error) {
	s.b = append(s.b, p...)
	return len(p), nil
}

func newWalker() *walker {
	w := &walker{}
	w.enc = NewEncoder(&w.out)
	return w
}

// maxWalk is how deep the walker follows nested Go maps and slices
// before it hands the rest to encoding/json, whose cycle check then stops
// a map that contains itself. Decoded payloads are far shallower: what is
// deep in them stays json.RawMessage.
const maxWalk = 1000

func (w *walker) value(v any, depth int) error {
	if depth > maxWalk {
		return w.delegate(v)
	}
	switch x := v.(type) {
	case string:
		w.out.b = appendString(w.out.b, x)
		return nil
	case json.RawMessage:
		return w.raw(x)
	case map[string]any:
		if x == nil {
			w.out.b = append(w.out.b, "null"...)
			return nil
		}
		return w.object(sortedKeys(x), func(k string) error { return w.value(x[k], depth+1) })
	case map[string]json.RawMessage:
		if x == nil {
			w.out.b = append(w.out.b, "null"...)
			return nil
		}
		return w.object(sortedKeys(x), func(k string) error { return w.raw(x[k]) })
	case []any:
		if x == nil {
			w.out.b = append(w.out.b, "null"...)
			return nil
		}
		w.out.b = append(w.out.b, '[')
		for i, e := range x {
			if i > 0 {
				w.out.b = append(w.out.b, ',')
			}
			if err := w.value(e, depth+1); err != nil {
				return err
			}
		}
		w.out.b = append(w.out.b, ']')
		return nil
	}
	return w.delegate(v)
}

// object writes {"k":v,...} in the order of keys.
func (w *walker) object(keys []string, each func(string) error) error {
	w.out.b = append(w.out.b, '{')
	for i, k := range keys {
		if i > 0 {
			w.out.b = append(w.out.b, ',')
		}
		w.out.b = appendString(w.out.b, k)
		w.out.b = append(w.out.b, ':')
		if err := each(k); err != nil {
			return err
		}
	}
	w.out.b = append(w.out.b, '}')
	return nil
}

// raw writes a RawMessage compacted, null when it is nil, as
// encoding/json does.
func (w *walker) raw(m json.RawMessage) error {
	if m == nil {
		w.out.b = append(w.out.b, "null"...)
		return nil
	}
	b, err := jsonscan.AppendCompact(w.out.b, m)
	if err != nil {
		return fmt.Errorf("json: error calling MarshalJSON for type json.RawMessage: %w", err)
	}
	w.out.b = b
	return nil
}

// delegate writes v with encoding/json, without the newline its encoder
// ends each value with. On an error nothing is written.
func (w *walker) delegate(v any) error {
	if err := w.enc.Encode(v); err != nil {
		return err
	}
	w.out.b = w.out.b[:len(w.out.b)-1]
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
