package export

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/lazyre"
)

// part is one alternative of a target matcher: an exact tool name, or a
// regular expression (for MCP tools).
type part struct {
	name string
	re   string
}

// matcher returns h's matcher in the target, "" for every tool, or false
// when h cannot be exported (the skip is recorded).
func (x *exporter) matcher(h *config.Hook, m StepMap) (string, bool) {
	t := x.t
	switch h.Step {
	case event.PreToolUse, event.PostToolUse, event.PostToolUseFailure:
		// Tool names: translated below.
	case event.BeforeShellExecution, event.AfterShellExecution:
		if h.Match != nil {
			place := t.CommandPlace
			if place == "" {
				place = "tool_input.command"
			}
			fix := "make the script exit 0 at once, printing nothing, when " + place + " does not match " + quote(h.Matcher)
			x.warn(h, KindMatcher, fmt.Sprintf("matcher %s tests the command line, which %s matchers cannot see: the hook now runs for every shell command",
				quote(h.Matcher), t.Title), fix)
		}
	case event.SubagentStart, event.SubagentStop:
		if h.Match != nil {
			x.warn(h, KindMatcher, fmt.Sprintf("matcher %s tests Cursor's subagent type, which %s names differently or not at all: the hook now runs for every subagent",
				quote(h.Matcher), t.Title), "make the script exit 0 at once, printing nothing, for the subagents it is not about")
		}
	default:
		// Steps matched against a fixed value (Read, Write, Stop, …): a
		// matcher that misses it means Cursor never runs the hook; one
		// that hits it says nothing. Other steps ignore matchers.
		if v, ok := event.MatchTarget(h.Step, nil); ok && v != "" && !h.Matches(v) {
			return "", x.skip(h, KindMatcher, fmt.Sprintf("its matcher %s never matches %q, so Cursor never runs it", quote(h.Matcher), v),
				"remove the hook, or its matcher")
		}
	}
	switch m.Matcher {
	case FromTool:
		var parts []part
		if m.Tool == ToolMCP && t.MCPAll != "" {
			parts = append(parts, part{re: t.MCPAll})
		}
		for _, n := range t.Tools[m.Tool] {
			parts = append(parts, part{name: n})
		}
		if len(parts) == 0 {
			// No such tool: without a matcher the hook would run for
			// every tool.
			msg, fix := t.missing(h.Step)
			return "", x.skip(h, KindStep, msg, fix)
		}
		return t.render(parts), true
	case FromHook:
		return x.translate(h)
	}
	return "", true
}

// simpleName is a Cursor tool name as a matcher alternative.
var simpleName = lazyre.New(`^[A-Za-z0-9_]+$`)

// mcpName is the tool part of an MCP alternative: a name, optionally
// followed by .* or .+ (a prefix), or nothing (every MCP tool).
var mcpName = lazyre.New(`^([A-Za-z0-9_-]*)(\.\*|\.\+)?$`)

// alt is one alternative of a Cursor matcher that lists tools.
type alt struct {
	text string
	mcp  bool
	// tool is the MCP tool name ("" for every MCP tool); prefix says the
	// name is only a prefix.
	tool   string
	prefix bool
}

// splitNames reads a matcher that lists tools, Shell|Read|MCP:x,
// optionally anchored (^…$) and grouped ((…), (?:…)). ok is false for
// any other regular expression.
//
// Cursor tests matchers unanchored, so "Write" also matches any tool
// whose name merely contains Write (TodoWrite, say). A matcher that
// lists names means those tools, so each name is taken as that tool,
// exactly; likewise "MCP:get" is the MCP tool get, not MCP:get_issue
// (write MCP:get.* for a prefix).
func splitNames(pattern string) ([]alt, bool) {
	// Anchored at both ends, or at neither: a name is that tool. (A
	// pattern anchored at one end only is a prefix or suffix.)
	s, start := strings.CutPrefix(pattern, "^")
	end := strings.HasSuffix(s, "$") && !strings.HasSuffix(s, `\$`)
	if start != end {
		return nil, false
	}
	s = strings.TrimSuffix(s, "$")
	for _, open := range []string{"(?:", "("} {
		if inner, ok := strings.CutPrefix(s, open); ok && strings.HasSuffix(inner, ")") {
			s = strings.TrimSuffix(inner, ")")
			break
		}
	}
	var alts []alt
	for _, tok := range strings.Split(s, "|") {
		switch {
		case simpleName().MatchString(tok):
			alts = append(alts, alt{text: tok})
		case strings.HasPrefix(tok, "MCP:"):
			sub := mcpName().FindStringSubmatch(strings.TrimPrefix(tok, "MCP:"))
			if sub == nil {
				return nil, false
			}
			a := alt{text: tok, mcp: true, tool: sub[1], prefix: sub[2] != ""}
			if a.tool == "" {
				a.prefix = false // MCP: or MCP:.* is every MCP tool
			}
			alts = append(alts, a)
		default:
			return nil, false // an empty alternative matches everything; anything else is a pattern
		}
	}
	return alts, true
}

// totalPatterns are regular expressions that match every tool name.
var totalPatterns = Set(".*", "^.*$", ".*?", "^.*", ".*$", "(.*)", "^(.*)$")

// translate rewrites a preToolUse-style matcher over Cursor's tool names
// into the target's tool names.
func (x *exporter) translate(h *config.Hook) (string, bool) {
	t := x.t
	if h.Match == nil || totalPatterns[h.Matcher] {
		return "", true
	}
	alts, ok := splitNames(h.Matcher)
	if !ok {
		return x.expand(h)
	}
	var parts []part
	var lost, unknown []string
	for _, a := range alts {
		if a.mcp {
			if t.MCPAll == "" {
				lost = append(lost, a.text)
				continue
			}
			re := t.MCPAll
			if a.tool != "" {
				re = fmt.Sprintf(t.MCPOne, regexp.QuoteMeta(a.tool))
				if a.prefix {
					re += ".*"
				}
			}
			parts = append(parts, part{re: re})
			continue
		}
		if names, ok := t.Tools[a.text]; ok {
			for _, n := range names {
				parts = append(parts, part{name: n})
			}
			continue
		}
		if slices.Contains(cursorTools, a.text) {
			lost = append(lost, a.text)
			continue
		}
		// Other tools keep their name, as the dialects pass them.
		parts = append(parts, part{name: a.text})
		if !t.Native[a.text] {
			unknown = append(unknown, a.text)
		}
	}
	if len(parts) == 0 {
		return "", x.skip(h, KindMatcher, fmt.Sprintf("%s has no counterpart for %s, all its matcher %s names, so it would never run",
			t.Title, strings.Join(lost, ", "), quote(h.Matcher)), x.lostFix(lost))
	}
	if len(lost) > 0 {
		x.warn(h, KindMatcher, fmt.Sprintf("%s has no counterpart for %s: dropped from the matcher, which keeps %s",
			t.Title, strings.Join(lost, ", "), t.describe(parts)), x.lostFix(lost))
	}
	if len(unknown) > 0 {
		x.warn(h, KindMatcher, fmt.Sprintf("%s is not a tool name agenthooks knows for %s: kept as written",
			quoteList(unknown), t.Title), "check that "+t.Title+" calls the tool so")
	}
	return t.render(parts), true
}

// lostFix is the advice for tools the target does not have.
func (x *exporter) lostFix(lost []string) string {
	t := x.t
	for _, l := range lost {
		if strings.HasPrefix(l, "MCP:") && t.MCPAll == "" {
			return "name the MCP tools by their " + t.Title + " names in a matcher of your own"
		}
	}
	if t.ShellReadsFix != "" && slices.ContainsFunc(lost, func(s string) bool { return s == ToolRead || s == ToolGrep || s == ToolGlob }) {
		return t.ShellReadsFix
	}
	return "keep it in Cursor for those tools"
}

// expand turns a matcher that is a regular expression (not a list of
// names) into the names it matches among the tools agenthooks knows.
func (x *exporter) expand(h *config.Hook) (string, bool) {
	t := x.t
	note := ""
	if _, err := regexp.Compile(h.Matcher); err != nil {
		note = " (it also uses JavaScript-only syntax, such as look-around or back-references, that " + t.Title + "'s matchers may not accept)"
	}
	matchesAll := h.Matches("MCP:any_tool") && h.Matches("SomeOtherTool") && h.Matches("other_tool")
	var matched []string
	for _, n := range cursorTools {
		if h.Matches(n) {
			matched = append(matched, n)
		} else {
			matchesAll = false
		}
	}
	if matchesAll {
		x.warn(h, KindMatcher, fmt.Sprintf("matcher %s is a regular expression that matches every tool agenthooks tried: exported without a matcher, so it runs for every tool%s",
			quote(h.Matcher), note), "write the matcher as tool names separated by | to have it translated exactly")
		return "", true
	}
	var parts []part
	var kept []string
	for _, n := range matched {
		if names, ok := t.Tools[n]; ok {
			kept = append(kept, n)
			for _, tn := range names {
				parts = append(parts, part{name: tn})
			}
		}
	}
	if h.Matches("MCP:any_tool") && t.MCPAll != "" {
		kept = append(kept, "MCP:*")
		parts = append(parts, part{re: t.MCPAll})
	}
	if len(parts) == 0 {
		return "", x.skip(h, KindMatcher, fmt.Sprintf("matcher %s is a regular expression that matches none of the tools agenthooks can name for %s%s",
			quote(h.Matcher), t.Title, note), "write the matcher as tool names separated by |")
	}
	x.warn(h, KindMatcher, fmt.Sprintf("matcher %s is a regular expression, not a list of tool names: exported as the tools it matches among those agenthooks knows (%s), which misses any other tool it would match%s",
		quote(h.Matcher), strings.Join(kept, ", "), note), "check the result, or write the matcher as tool names separated by | to have it translated exactly")
	return t.render(parts), true
}

// render writes parts as a matcher in the target's syntax; none is ""
// (every tool).
func (t *Target) render(parts []part) string {
	var alts []string
	names := true
	seen := map[string]bool{}
	for _, p := range parts {
		a := p.re
		if p.re == "" {
			a = regexp.QuoteMeta(p.name)
			for _, r := range p.name {
				if t.NameRune == nil || !t.NameRune(r) {
					names = false
				}
			}
		} else {
			names = false
		}
		if !seen[a] {
			seen[a] = true
			alts = append(alts, a)
		}
	}
	switch {
	case len(alts) == 0:
		return ""
	case t.Style == Anchored:
		// Copilot anchors the whole pattern itself.
		return strings.Join(alts, "|")
	case t.Style == NameList && names:
		// An exact list: Claude Code and Codex compare each name with ==.
		return strings.Join(alts, "|")
	case len(alts) == 1:
		return "^" + alts[0] + "$"
	}
	return "^(?:" + strings.Join(alts, "|") + ")$"
}

// describe lists parts for a message.
func (t *Target) describe(parts []part) string {
	var out []string
	for _, p := range parts {
		if p.name != "" {
			out = append(out, p.name)
		} else {
			out = append(out, p.re)
		}
	}
	return strings.Join(slices.Compact(out), ", ")
}

func quote(s string) string { return strconv.Quote(s) }

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n)
	}
	return strings.Join(q, ", ")
}
