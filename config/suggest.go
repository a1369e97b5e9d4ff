package config

import (
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/suggest"
)

// closest returns the candidate nearest to word (see suggest.Closest).
func closest(word string, candidates []string) (string, bool) {
	return suggest.Closest(word, candidates)
}

// SuggestStep returns the known step name nearest to name, for "did you
// mean …?" messages wherever a step is written by hand. It is
// event.SuggestStep, kept here for the callers that used it.
func SuggestStep(name string) (string, bool) { return event.SuggestStep(name) }
