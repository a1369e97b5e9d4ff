// Package export translates Cursor hooks (hooks.json) into another agent's
// native hook settings: Claude Code's settings.json, Gemini CLI's
// settings.json, Codex's hooks.json and GitHub Copilot's
// .github/hooks/*.json. The result runs the same commands without
// agenthooks; whatever the target cannot say is reported as a Warning
// naming the hook (file, step, index), what is lost and what to do
// instead.
//
// To is a pure function: it reads no files and runs nothing. Its choices
// are written down beside the code and in docs/export.md:
//
//   - Steps become the target's events; steps about one kind of tool
//     (beforeShellExecution, beforeReadFile, afterFileEdit, the MCP
//     steps, subagentStart) become the target's tool events with a
//     matcher naming that tool. Steps without a counterpart are skipped.
//   - Cursor matchers name Cursor's tools (Shell, Read, Write, MCP:x…);
//     they are rewritten name by name into the target's tool names.
//   - Cursor runs a command through sh -c from the hooks' folder (the
//     project root, ~/.cursor, …); agents run it from their own working
//     directory, so each command first changes into that folder:
//     `cd <dir> || exit 1; <command>` (Copilot has a cwd field instead).
//     Project hooks name the folder through the agent's project-dir
//     variable where it has one, so the file can be committed.
//   - Timeouts are always written, in the target's unit, Cursor's
//     defaults (60 s for commands, 30 s for prompts) included.
//   - The hook script gets the target's payload and must answer in the
//     target's format: one warning per hook says how they differ.
package export

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
)

// Result is the exported settings document and everything said about it.
type Result struct {
	// Agent is the target's name (claude, codex, gemini, copilot); Title
	// its name in messages.
	Agent, Title string
	// Document is the settings in the shape the agent reads, indented
	// with two spaces and ending in a newline. It holds only hooks: an
	// agent's settings file may hold more, so it is meant to be merged
	// into that file (or to be a file of its own where the agent reads
	// several, as Copilot's .github/hooks/ does).
	Document []byte
	// ProjectPath is where the document belongs in a project, relative
	// to the project root; UserPath where it belongs for the user,
	// relative to the home directory. Both use forward slashes.
	ProjectPath, UserPath string
	// Exported counts the hooks written; Skipped those that could not be.
	Exported, Skipped int
	// Warnings are in the order of the hooks, a file's own warnings
	// before its hooks' ones.
	Warnings []Warning
}

// Warning is one thing the target cannot express, or expresses
// differently, about one hook (or, with Step empty, about a whole file).
type Warning struct {
	File  string     // the hooks file the hook comes from
	Step  event.Step // "" for a warning about the whole file
	Index int        // the hook's position in the step's array
	Kind  Kind
	// Skipped is true when the hook was left out of the document.
	Skipped bool
	Message string // what is lost
	Fix     string // what to do instead
}

// String formats the warning as `<file>:<step>[<index>]: <what> (<fix>)`,
// or `<file>: <what> (<fix>)` for a whole file.
func (w Warning) String() string {
	var b strings.Builder
	b.WriteString(w.File)
	if w.Step != "" {
		b.WriteString(":")
		b.WriteString(string(w.Step))
		b.WriteString("[")
		b.WriteString(strconv.Itoa(w.Index))
		b.WriteString("]")
	}
	b.WriteString(": ")
	b.WriteString(w.Message)
	if w.Fix != "" {
		b.WriteString(" (")
		b.WriteString(w.Fix)
		b.WriteString(")")
	}
	return b.String()
}

// Kind classifies a warning, for programs and tests; the message says the
// rest.
type Kind string

// The kinds of warnings.
const (
	// KindStep: the step has no counterpart in the target; skipped.
	KindStep Kind = "step"
	// KindPrompt: a prompt hook the target cannot run; skipped. Also the
	// model of a prompt hook the target may not know.
	KindPrompt Kind = "prompt"
	// KindMatcher: the matcher could not be carried over as it is.
	KindMatcher Kind = "matcher"
	// KindPayload: the script gets the target's payload and must answer
	// in the target's format (one per exported command hook).
	KindPayload Kind = "payload"
	// KindFailClosed: failClosed is lost; the target fails open.
	KindFailClosed Kind = "failClosed"
	// KindLoopLimit: loop_limit is lost.
	KindLoopLimit Kind = "loop_limit"
	// KindTimeout: the timeout could not be written exactly.
	KindTimeout Kind = "timeout"
	// KindAsk: the target cannot ask the user.
	KindAsk Kind = "ask"
	// KindExitCode: the target reads exit codes differently.
	KindExitCode Kind = "exit_code"
	// KindContent: beforeReadFile's content is not sent.
	KindContent Kind = "content"
	// KindEvent: the target's event behaves differently from the step.
	KindEvent Kind = "event"
	// KindSource: the hooks come from a managed source (enterprise,
	// team) and lose that status.
	KindSource Kind = "source"
	// KindLocation: the document names a folder of this machine.
	KindLocation Kind = "location"
)

// Targets are the agents export knows, in the order they are listed: each
// agent's package defines its Target, and the registry (package
// agent/agents) gathers them.
type Targets []*Target

// Agents lists the targets' names, in order.
func (ts Targets) Agents() []string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return names
}

// Lookup returns the target named agent, nil for an unknown agent.
func (ts Targets) Lookup(agent string) *Target {
	for _, t := range ts {
		if t.Name == agent {
			return t
		}
	}
	return nil
}

// Title returns an agent's name in messages ("Claude Code"), or "" for an
// unknown agent.
func (ts Targets) Title(agent string) string {
	if t := ts.Lookup(agent); t != nil {
		return t.Title
	}
	return ""
}

// UnknownAgentError is To's error for an agent it does not know.
type UnknownAgentError struct {
	Agent string
	// Known are the agents it knows.
	Known []string
}

func (e *UnknownAgentError) Error() string {
	return fmt.Sprintf("unknown agent %q: export knows %s", e.Agent, strings.Join(e.Known, ", "))
}

// To translates hooks into agent's native settings. The hooks keep their
// order; each is exported or skipped with a warning saying why. An
// unknown agent is the only error: a result with nothing exported is
// still a result (its warnings say why), for the caller to judge.
func (ts Targets) To(agent string, hooks []*config.Hook) (Result, error) {
	t := ts.Lookup(agent)
	if t == nil {
		return Result{}, &UnknownAgentError{Agent: agent, Known: ts.Agents()}
	}
	return t.To(hooks)
}

// To translates hooks into the target's native settings, as Targets.To.
func (t *Target) To(hooks []*config.Hook) (Result, error) {
	x := &exporter{t: t, res: Result{
		Agent: t.Name, Title: t.Title,
		ProjectPath: t.ProjectPath, UserPath: t.UserPath,
	}, filesSeen: map[string]bool{}, names: map[string]bool{}}
	for _, h := range hooks {
		if h == nil {
			continue
		}
		x.file(h)
		if x.hook(h) {
			x.res.Exported++
		} else {
			x.res.Skipped++
		}
	}
	doc, err := x.document()
	if err != nil {
		return Result{}, err
	}
	x.res.Document = doc
	return x.res, nil
}

// exporter holds one translation in progress.
type exporter struct {
	t   *Target
	res Result
	// events maps each target event to its matcher groups, in order of
	// first appearance.
	events    map[string][]*group
	filesSeen map[string]bool
	names     map[string]bool // Gemini hook names used so far
}

// group is one matcher group of one event: Claude's {"matcher", "hooks"}
// object, or for Copilot the matcher every handler carries.
type group struct {
	matcher  string
	handlers []any
}

// warn records a warning about h.
func (x *exporter) warn(h *config.Hook, kind Kind, msg, fix string) {
	x.res.Warnings = append(x.res.Warnings, Warning{
		File: h.File, Step: h.Step, Index: h.Index, Kind: kind, Message: msg, Fix: fix,
	})
}

// skip records why h is left out.
func (x *exporter) skip(h *config.Hook, kind Kind, msg, fix string) bool {
	x.res.Warnings = append(x.res.Warnings, Warning{
		File: h.File, Step: h.Step, Index: h.Index, Kind: kind, Skipped: true,
		Message: msg + "; not exported", Fix: fix,
	})
	return false
}

// file says, once per file, what concerns all of its hooks.
func (x *exporter) file(h *config.Hook) {
	if x.filesSeen[h.File] {
		return
	}
	x.filesSeen[h.File] = true
	w := func(kind Kind, msg, fix string) {
		x.res.Warnings = append(x.res.Warnings, Warning{File: h.File, Kind: kind, Message: msg, Fix: fix})
	}
	switch h.Source {
	case config.Enterprise, config.Team:
		w(KindSource, fmt.Sprintf("these are %s hooks: in %s's settings they are ordinary hooks the user can edit or remove, with no priority over others",
			h.Source, x.t.Title), x.t.ManagedFix)
	}
	if x.t.LocationWarning != "" && h.Source.ProjectLevel() && h.Dir != "" {
		w(KindLocation, fmt.Sprintf(x.t.LocationWarning, h.Dir),
			"export again in each checkout, or edit the cd at the start of each command")
	}
}

// hook translates one hook; it reports whether the hook was exported.
func (x *exporter) hook(h *config.Hook) bool {
	t := x.t
	m, ok := t.Steps[h.Step]
	if !ok {
		msg, fix := t.missing(h.Step)
		return x.skip(h, KindStep, msg, fix)
	}
	if h.Type == config.TypePrompt && !t.Prompts[m.Event] {
		return x.skip(h, KindPrompt, t.promptMissing(m.Event), "rewrite it as a command hook, or keep it as it is and run it through "+t.install())
	}
	matcher, ok := x.matcher(h, m)
	if !ok {
		return false
	}
	handler := x.handler(h, m, matcher)
	x.add(m.Event, matcher, handler)
	x.warnings(h, m)
	return true
}

// add puts a handler into its event's group for matcher.
func (x *exporter) add(ev, matcher string, handler any) {
	if x.events == nil {
		x.events = map[string][]*group{}
	}
	for _, g := range x.events[ev] {
		if g.matcher == matcher && !x.t.Flat {
			g.handlers = append(g.handlers, handler)
			return
		}
	}
	x.events[ev] = append(x.events[ev], &group{matcher: matcher, handlers: []any{handler}})
}

// document renders the settings: {"hooks": {…}} in the target's event
// order, with "version": 1 first for Copilot.
func (x *exporter) document() ([]byte, error) {
	var hooks object
	for _, ev := range x.t.EventOrder {
		groups := x.events[ev]
		if len(groups) == 0 {
			continue
		}
		var list []any
		for _, g := range groups {
			if x.t.Flat {
				list = append(list, g.handlers...)
				continue
			}
			list = append(list, matcherGroup{Matcher: g.matcher, Hooks: g.handlers})
		}
		hooks = append(hooks, member{ev, list})
	}
	if hooks == nil {
		hooks = object{}
	}
	doc := object{member{"hooks", hooks}}
	if x.t.Version {
		doc = slices.Insert(doc, 0, member{"version", 1})
	}
	return encodeIndent(doc)
}

// matcherGroup is a Claude-shaped matcher group.
type matcherGroup struct {
	Matcher string `json:"matcher,omitempty"`
	Hooks   []any  `json:"hooks"`
}

// object is a JSON object whose members keep their order.
type object []member

type member struct {
	key   string
	value any
}

// MarshalJSON writes the members in order, without HTML escaping (a
// command's && must stay readable).
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := encode(m.key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := encode(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// encode marshals v compactly without HTML escaping.
func encode(v any) ([]byte, error) { return jsonplain.Marshal(v) }

// encodeIndent marshals v indented by two spaces, with a final newline.
func encodeIndent(v any) ([]byte, error) {
	b, err := jsonplain.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("export: encode the document: %w", err)
	}
	return append(b, '\n'), nil
}
