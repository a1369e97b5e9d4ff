package wire

import (
	"bytes"
	"reflect"
	"testing"
)

func TestParseCall(t *testing.T) {
	tests := []struct {
		args []string
		want *Call // nil: not read, the full binary answers
	}{
		{[]string{"run", "beforeShellExecution"}, &Call{Verb: VerbRun, Args: []string{"beforeShellExecution"}}},
		{[]string{"run", "-w", "a", "stop", "--workspace=b", "-wc"}, &Call{Verb: VerbRun, Args: []string{"stop"}, Workspaces: []string{"a", "b", "c"}}},
		{[]string{"run", "--from", "claude", "--allow-means=approve", "--verbose", "PreToolUse"},
			&Call{Verb: VerbRun, Args: []string{"PreToolUse"}, From: "claude", AllowMeans: "approve", Verbose: true}},
		{[]string{"run", "--verbose=false", "--", "-x"}, &Call{Verb: VerbRun, Args: []string{"-x"}}},
		{[]string{"run"}, &Call{Verb: VerbRun}},
		{[]string{"run", "--verbose=maybe", "stop"}, nil},
		{[]string{"run", "--from"}, nil},
		{[]string{"run", "--allow-means=", "stop"}, nil},
		{[]string{"run", "--help"}, nil},
		{[]string{"run", "-x", "stop"}, nil},
		{[]string{"policy", "p.yaml", "--step", "stop"}, &Call{Verb: VerbPolicy, Args: []string{"p.yaml"}, Step: "stop"}},
		{[]string{"policy", "check", "p.yaml"}, nil},
		{[]string{"policy", "test", "p.yaml"}, nil},
		{[]string{"exec", "--plan", "-lc", "git push", "sh", "x"}, &Call{Verb: VerbExecPlan, Args: []string{"sh", "x"}, Script: "git push", ScriptSet: true}},
		{[]string{"exec", "--plan", "-q", "--ask", "deny", "-w", "/w", "--no-pty", "--conversation=c", "--", "ls", "-la"},
			&Call{Verb: VerbExecPlan, Args: []string{"ls", "-la"}, Workspaces: []string{"/w"}, Ask: "deny", NoPTY: true, Quiet: true, Conversation: "c"}},
		{[]string{"exec", "--plan", "ls", "-q"}, &Call{Verb: VerbExecPlan, Args: []string{"ls", "-q"}}},
		{[]string{"exec", "--plan", "-c"}, nil},
		{[]string{"exec", "--plan", "-h"}, nil},
		{[]string{"exec", "--report"}, &Call{Verb: VerbExecReport}},
		{[]string{"exec", "--report", "x"}, nil},
		{[]string{"exec", "ls"}, nil},
		{[]string{"list"}, nil},
		{nil, nil},
	}
	for _, tt := range tests {
		got, ok := ParseCall(tt.args)
		if ok != (tt.want != nil) || ok && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseCall(%q) = %+v, %v; want %+v", tt.args, got, ok, tt.want)
		}
	}
}

func TestCallRoundTrip(t *testing.T) {
	for _, c := range []*Call{nil, {Verb: VerbRun}, {Verb: VerbExecPlan, Args: []string{"a", ""}, Workspaces: []string{"w"}, From: "f", AllowMeans: "approve",
		Verbose: true, Step: "s", Script: "x", ScriptSet: true, Conversation: "c", Ask: "allow", NoPTY: true, Quiet: true}} {
		in := Request{Protocol: Protocol, Args: []string{"run"}, Call: c, Env: []string{"A=1"}}
		var buf bytes.Buffer
		if err := WriteRequest(&buf, &in); err != nil {
			t.Fatal(err)
		}
		var out Request
		if err := ReadRequest(&buf, &out); err != nil {
			t.Fatal(err)
		}
		if c != nil && c.Args == nil {
			c.Args = []string{}
		}
		if c != nil && c.Workspaces == nil {
			c.Workspaces = []string{}
		}
		if !reflect.DeepEqual(out.Call, c) || !reflect.DeepEqual(out.Env, in.Env) {
			t.Errorf("got %+v %q, want %+v %q", out.Call, out.Env, c, in.Env)
		}
	}
}
