package host_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/state"
)

// A caller that reuses its payload buffer once Run returns (one that did
// not say PayloadKept) does not rewrite what the log keeps of the step,
// though the log is written later.
func TestReusedPayloadBufferKeepsTheLog(t *testing.T) {
	ctx := context.Background()
	home, stateDir := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(home, ".cursor"), 0o755)
	hooks := `{"version":1,"hooks":{"beforeShellExecution":[{"command":"cat >/dev/null; echo {}"}]}}`
	if err := os.WriteFile(config.UserFile(home), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	// The host reads its settings from Environ alone.
	h := host.Open(ctx, host.Options{
		Environ: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home,
			"AGENTHOOKS_CONFIG_DIR=" + filepath.Join(home, "config"), "AGENTHOOKS_STATE_DIR=" + stateDir},
		Locations: func(roots []string) config.Locations {
			return config.Locations{Home: home, EnterpriseFile: filepath.Join(home, "none.json"), WorkspaceRoots: roots}
		},
	})
	// Every common field, as Cursor sends them: nothing for the engine
	// to add, so nothing would make it copy the bytes on its own.
	buf := fmt.Appendf(nil, `{"conversation_id":"c","generation_id":"g","model":"m","hook_event_name":"beforeShellExecution","cursor_version":"2.0",`+
		`"workspace_roots":[%q],"user_email":null,"transcript_path":null,"command":"ls -la","cwd":%q}`, home, home)
	rep := h.Run(ctx, host.Request{Step: event.BeforeShellExecution, Payload: buf})
	if rep.Code != 0 || len(rep.Decision.Hooks) != 1 {
		t.Fatalf("code %d, %s %s", rep.Code, rep.Stdout, rep.Stderr)
	}
	copy(buf, bytes.Repeat([]byte("X"), len(buf))) // the caller's next step
	if err := h.Close(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := state.Open(ctx, state.Options{Dir: stateDir})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, err := st.Records(ctx, state.Query{})
	if err != nil || len(recs) != 1 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if !bytes.Contains(recs[0].Payload, []byte(`"command":"ls -la"`)) || bytes.Contains(recs[0].Payload, []byte("XXX")) {
		t.Errorf("the log keeps %s", recs[0].Payload)
	}
}
