package match

import (
	"strings"
	"sync"
)

// Prepare is Compile for a matcher that may never be used: it checks the
// pattern now, reporting every error Compile would, and leaves the
// engine's compilation (most of the cost) to the first Match. A
// configuration names many matchers and a step uses few of them.
//
// Prepared matchers are shared: every call with the same pattern returns
// the same Matcher, compiled at most once in the process.
func Prepare(pattern string) (*Matcher, error) {
	if pattern == "" || pattern == "*" {
		return nil, nil
	}
	return prepared.get(preparedKey{pattern, false}, func() (*Matcher, error) {
		if !plain(pattern) {
			if _, err := parse(pattern); err != nil {
				return nil, err
			}
		}
		return &Matcher{source: pattern, build: func() (*program, error) {
			// The tree is made again rather than kept from the check: a
			// matcher that is never used then holds no more than its text.
			tree, err := parse(pattern)
			if err != nil {
				return nil, err
			}
			return build(pattern, tree)
		}}, nil
	})
}

// PrepareNameList is CompileNameList as Prepare is Compile.
func PrepareNameList(pattern string) (*Matcher, error) {
	if t := strings.TrimSpace(pattern); t == "" || t == "*" {
		return nil, nil
	}
	if !isNameList(pattern) {
		return Prepare(pattern)
	}
	return prepared.get(preparedKey{pattern, true}, func() (*Matcher, error) {
		return &Matcher{source: pattern, program: nameList(pattern)}, nil
	})
}

// maxPrepared bounds the shared matchers. The cache is process-wide
// rather than per load so that a process that reloads its configuration
// (a resident engine, on every edit of a hooks file) compiles nothing it
// compiled before; it is bounded because such a process may see any
// number of patterns over its life. Real configurations have tens.
const maxPrepared = 4096

// preparedKey is a pattern and the rule it is read by: the same text is
// a regular expression in hooks.json and may be a name list in a Claude
// Code settings file.
type preparedKey struct {
	pattern string
	names   bool
}

type preparedCache struct {
	mu sync.Mutex
	m  map[preparedKey]*Matcher
}

var prepared preparedCache

// get returns the matcher for key, making it with newMatcher when there is none.
// Errors are not kept: a bad pattern is rare and checking it again is
// cheap. When the cache is full it starts over; matchers handed out stay
// valid, they are only no longer shared with later calls.
func (c *preparedCache) get(key preparedKey, newMatcher func() (*Matcher, error)) (*Matcher, error) {
	c.mu.Lock()
	m, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err := newMatcher()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[key]; ok {
		return old, nil // made at the same time by another goroutine
	}
	if c.m == nil || len(c.m) >= maxPrepared {
		c.m = map[preparedKey]*Matcher{}
	}
	c.m[key] = m
	return m, nil
}

// plain reports whether pattern is valid by a check much cheaper than
// parsing it: it is made only of printable ASCII characters that stand
// for themselves, '.', '|', '^' and '$', each character or '.' followed
// by at most one of *, + or ? (and a ? after that, for a lazy repeat).
// Tool names, "Shell|Read" and "MCP:.*" are plain. false says nothing:
// the pattern is then parsed.
func plain(pattern string) bool {
	repeatable, lazyNext := false, false
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; c {
		case '*', '+', '?':
			switch {
			case repeatable:
				repeatable, lazyNext = false, true
			case c == '?' && lazyNext:
				lazyNext = false
			default:
				return false
			}
		case '|', '^', '$':
			repeatable, lazyNext = false, false
		case '(', ')', '[', ']', '{', '}', '\\':
			return false
		default:
			if c < ' ' || c > '~' {
				return false
			}
			repeatable, lazyNext = true, false
		}
	}
	return true
}
