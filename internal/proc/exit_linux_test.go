package proc

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// awaitExit waits for a running process, returns at once for one that
// has already exited (a zombie), and leaves the reaping to Wait, which
// still gets the exit status.
func TestAwaitExit(t *testing.T) {
	for _, c := range []struct {
		name   string
		script string
		before time.Duration // sleep before awaitExit
	}{
		{"running", "sleep 0.3; exit 3", 0},
		{"exited", "exit 3", 300 * time.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := os.StartProcess("/bin/sh", []string{"sh", "-c", c.script}, &os.ProcAttr{})
			if err != nil {
				t.Fatal(err)
			}
			time.Sleep(c.before)
			done := make(chan struct{})
			go func() {
				awaitExit(p)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = p.Kill()
				t.Fatal("awaitExit did not return after the process exited")
			}
			// Returned once the process exited, and did not reap it: it
			// is a zombie, for Wait to reap.
			stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.Pid))
			if err != nil {
				t.Fatalf("awaitExit reaped the process: %v", err)
			}
			state := ""
			if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) > 0 {
				state = f[0]
			}
			if state != "Z" {
				t.Errorf("awaitExit returned while the process runs: state %q", state)
			}
			st, err := p.Wait()
			if err != nil || st.ExitCode() != 3 {
				t.Errorf("Wait after awaitExit: %v, %v; want exit status 3", st, err)
			}
		})
	}
}
