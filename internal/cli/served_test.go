package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// The engine runs only requests that come as a Call, and a Call's values
// are checked as the verb checks its flags: the same message and exit
// code as in a process of its own.
func TestServedCallsAreChecked(t *testing.T) {
	if servesCall(&wire.Request{Args: []string{"run", "stop"}}) {
		t.Error("a request without a Call is served")
	}
	call, _ := wire.ParseCall([]string{"run", "stop"})
	if !servesCall(&wire.Request{Args: []string{"run", "stop"}, Call: call}) {
		t.Error("run stop as a Call is not served")
	}
	for _, args := range [][]string{
		{"run", "nosuchstep"},
		{"run", "--allow-means", "approve", "stop"},
		{"run", "--from", "nosuchagent"},
		{"exec", "--plan", "--ask", "sometimes", "ls"},
		{"policy", "a.yaml", "b.yaml"},
	} {
		call, ok := wire.ParseCall(args)
		if !ok {
			t.Fatalf("%q is not read as a Call", args)
		}
		var out, served bytes.Buffer
		code := exitCode(&IO{Err: &served}, runCall(context.Background(), &IO{In: strings.NewReader(""), Out: &out, Err: &served, env: []string{}}, call))
		var own bytes.Buffer
		ownCode := Execute(&IO{In: strings.NewReader(""), Out: &out, Err: &own}, args)
		if code != ExitUsage || code != ownCode || served.String() != own.String() {
			t.Errorf("%q: served %d %q, in its own process %d %q", args, code, served.String(), ownCode, own.String())
		}
	}
}
