package agent

// MCPReading is one way to read an agent's name of an MCP tool as the
// server that serves it and the tool's own name.
type MCPReading struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
}

// MCPReadings lists every reading of name as <server><sep><tool>, where
// neither part is empty: an agent that joins the two with a character
// both may contain (Copilot CLI's "-", OpenCode's "_") leaves the split
// open. longestServerFirst orders the readings from the longest server
// part down (Copilot: server names are often hyphenated, tool names
// rarely), else from the shortest (OpenCode: tool names are often
// snake_case, server names rarely).
func MCPReadings(name, sep string, longestServerFirst bool) []MCPReading {
	var out []MCPReading
	for i := 0; i+len(sep) <= len(name); i++ {
		if name[i:i+len(sep)] != sep {
			continue
		}
		server, tool := name[:i], name[i+len(sep):]
		if server != "" && tool != "" {
			out = append(out, MCPReading{server, tool})
		}
	}
	if longestServerFirst {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// AmbiguousMCPToolCall describes a call of an MCP tool whose name the
// agent gives without saying where the server's name ends: readings are
// every split, the likeliest first, which names the tool for Cursor's
// hooks (MCP:<tool>). With one reading it is an ordinary MCP tool call.
// With several, the server is left unsaid (no "server" field) and every
// reading goes to the hooks ("mcp_readings"), so a matcher on one server
// (Claude Code's mcp__memory__.*) is tested against each and never
// misses its server's call; it may also fire for another server whose
// name splits the same way.
func AmbiguousMCPToolCall(agentName, useID string, readings []MCPReading, agentInput, input map[string]any) *ToolCall {
	first := readings[0]
	if len(readings) == 1 {
		return MCPToolCall(agentName, useID, first.Server, first.Tool, agentInput, input)
	}
	t := MCPToolCall(agentName, useID, "", first.Tool, agentInput, input)
	t.MCPReadings = readings
	return t
}
