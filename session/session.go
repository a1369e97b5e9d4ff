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
	// it (config.Source.String()). A hook sees a variable only when that
	// source is its own or one of higher priority, so a project cannot
	// reach an enterprise hook through its environment. A variable without
	// a source (a session stored by an older version) or with a name this
	// version does not know counts as set by the lowest-priority source.
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

// UnknownSource is the source of lowest priority (config.LowestSource):
// what a session variable of unknown origin is taken to come from.
func UnknownSource() config.Source { return config.LowestSource() }

// SourceOf is the source that set the session variable name,
// UnknownSource when the session does not say.
func (s Session) SourceOf(name string) config.Source {
	lowest := UnknownSource()
	if n, ok := s.EnvSource[name]; ok {
		for src := config.Enterprise; src <= lowest; src++ {
			if src.String() == n {
				return src
			}
		}
	}
	return lowest
}

// EnvFor returns the session variables a hook of source src sees: those
// set by src or a source of higher priority, less any refused for the
// source that set them (a session stored before the refusal existed).
func (s Session) EnvFor(src config.Source) map[string]string {
	out := map[string]string{}
	for k, v := range s.Env {
		if from := s.SourceOf(k); from <= src && Refused(k, from) == "" {
			out[k] = v
		}
	}
	return out
}

// SetEnv records that a hook of source src set name to value. A variable
// set before by a source of higher priority keeps that value: a later
// sessionStart of the conversation (a resumed one) in which the higher
// hook failed or kept quiet must not let a lower source displace it.
func (s *Session) SetEnv(name, value string, src config.Source) {
	if _, set := s.Env[name]; set && s.SourceOf(name) < src {
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
