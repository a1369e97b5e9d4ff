package opencode

import (
	"strings"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// mcpServers are the MCP servers' names the adapter sent beside a tool
// call ("mcp_servers"); nil when it sent none (an adapter written before
// it did, or a tool of OpenCode's own).
func mcpServers(f *agent.Fields) []string {
	raw := f.Raw("mcp_servers")
	if len(raw) == 0 {
		return nil
	}
	v, err := jsonscan.Decode(raw)
	list, ok := jsonscan.AsArray(v)
	if err != nil || !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, v := range list {
		if s, ok := v.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// mcpReadings reads an OpenCode tool id as an MCP tool, <server>_<tool>
// with the server's name spelt as OpenCode spells it in ids: the readings
// whose server is one of the servers OpenCode has (one, unless one
// server's name and "_" begin another's). A tool of OpenCode's own has
// none.
func mcpReadings(name string, servers []string) []agent.MCPReading {
	if _, builtin := opencodeTools[name]; builtin {
		return nil
	}
	var out []agent.MCPReading
	for _, s := range servers {
		if tool, ok := strings.CutPrefix(name, sanitize(s)+"_"); ok && tool != "" {
			out = append(out, agent.MCPReading{Server: s, Tool: tool})
		}
	}
	return out
}

// sanitize is OpenCode's spelling of a server's name in a tool id: every
// character but letters, digits, "_" and "-" becomes "_".
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}
