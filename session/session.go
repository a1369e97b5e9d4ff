// Package session holds what the engine remembers about one conversation
// between steps, and the stores that keep it. It sits just above config
// (a session variable remembers the source that set it) so that a durable
// store such as state's can implement Store without importing the engine.
package session

import (
	"maps"

	"github.com/agenthooks/agenthooks/config"
)

// Session is what the engine remembers about one conversation between
// steps: the sessionStart env and context, and the stop follow-up counts.
type Session struct {
	// Env is every variable the conversation's sessionStart hooks set,
	// each with the value of the highest-priority source that set it.
	Env map[string]string `json:"env,omitempty"`
	// EnvSource names, for each variable of Env, the source whose hook set
	// it (config.Source.String()), read back against the host's sources
	// (config.Sources.Named). A hook sees a variable only when that
	// source is its own or one of higher priority, so a project cannot
	// reach an enterprise hook through its environment. A variable without
	// a source (a session stored by an older version) or with a name the
	// host does not know counts as set by the lowest-priority source.
	EnvSource         map[string]string `json:"env_source,omitempty"`
	AdditionalContext string            `json:"additional_context,omitempty"`
	// LoopCounts counts consecutive automatic follow-ups, keyed by "stop"
	// or "subagentStop:<subagent>".
	LoopCounts map[string]int `json:"loop_counts,omitempty"`
}

// Clone returns a copy of s that shares no map with it, so a store can hand
// out a session without letting the caller edit the stored one.
func (s Session) Clone() Session {
	s.Env = maps.Clone(s.Env)
	s.EnvSource = maps.Clone(s.EnvSource)
	s.LoopCounts = maps.Clone(s.LoopCounts)
	return s
}

// SourceOf is the source among known that set the session variable
// name; known's lowest (config.Sources.Lowest) when the session does not
// say, or names a source known does not have.
func (s Session) SourceOf(name string, known config.Sources) config.Source {
	if n, ok := s.EnvSource[name]; ok {
		if src, ok := known.Named(n); ok {
			return src
		}
	}
	return known.Lowest()
}

// EnvFor returns the session variables a hook of source src sees: those
// set by src or a source of higher priority, less any refused for the
// source that set them (a session stored before the refusal existed).
func (s Session) EnvFor(src config.Source, known config.Sources) map[string]string {
	out := map[string]string{}
	for k, v := range s.Env {
		if from := s.SourceOf(k, known); from.Compare(src) <= 0 && Refused(k, from, known) == "" {
			out[k] = v
		}
	}
	return out
}

// SetEnv records that a hook of source src set name to value. A variable
// set before by a source of higher priority keeps that value: a later
// sessionStart of the conversation (a resumed one) in which the higher
// hook failed or kept quiet must not let a lower source displace it.
func (s *Session) SetEnv(name, value string, src config.Source, known config.Sources) {
	if _, set := s.Env[name]; set && s.SourceOf(name, known).Compare(src) < 0 {
		return
	}
	if s.Env == nil {
		s.Env = map[string]string{}
	}
	if s.EnvSource == nil {
		s.EnvSource = map[string]string{}
	}
	s.Env[name] = value
	s.EnvSource[name] = src.String()
}
