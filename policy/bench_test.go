package policy

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
)

// benchPayload is a beforeShellExecution payload as Cursor sends it,
// common fields included.
func benchPayload(command string) []byte {
	return fmt.Appendf(nil, `{"conversation_id":"c0ffee00-1234-5678-9abc-def012345678","generation_id":"g-42","model":"claude-sonnet","hook_event_name":"beforeShellExecution","cursor_version":"1.7.2","workspace_roots":["/src/app"],"user_email":"dev@example.com","transcript_path":null,"command":%q,"cwd":"/src/app","sandbox":false}`, command)
}

func benchRequest(b *testing.B, dir, command string, payload []byte) runner.Request {
	b.Helper()
	return runner.Request{
		Hook:    &config.Hook{Step: event.BeforeShellExecution, Type: config.TypeCommand, Command: command, Dir: dir},
		Step:    event.BeforeShellExecution,
		Payload: payload,
		Env:     os.Environ(),
		Timeout: 10 * time.Second,
	}
}

// BenchmarkPolicyDecision is one decision of examples/policies/git.yaml
// in process, as the engine makes it: recognise the hook command, stat
// the file, read the payload, evaluate the rules, build the result.
// "repeated" sees the same command line every time (its shell analysis is
// cached); "fresh-plain" a new line of plain words every time (analysed
// without the parser); "fresh-parsed" a new line with quotes and a
// comment every time (parsed).
func BenchmarkPolicyDecision(b *testing.B) {
	dir := filepath.Dir(examplePath(b, "git.yaml"))
	r := Runner{Fallback: &spy{}, Cache: &Cache{}}
	lines := map[string]func(i int) string{
		"repeated":     func(int) string { return "git push origin main" },
		"fresh-plain":  func(i int) string { return fmt.Sprintf("git push remote%d main", i) },
		"fresh-parsed": func(i int) string { return fmt.Sprintf(`git push "remote%d" 'main' # why`, i) },
	}
	for _, mode := range []string{"repeated", "fresh-plain", "fresh-parsed"} {
		b.Run(mode, func(b *testing.B) {
			req := benchRequest(b, dir, "agenthooks policy git.yaml", nil)
			payloads := make([][]byte, 4096)
			for i := range payloads {
				payloads[i] = benchPayload(lines[mode](i))
			}
			i := 0
			for b.Loop() {
				req.Payload = payloads[i%len(payloads)]
				i++
				res := r.Run(context.Background(), req)
				if res.Response == nil || res.Response.Permission != event.Deny {
					b.Fatalf("result %+v", res)
				}
			}
		})
	}
}

// BenchmarkPolicyDecisionInRepo is the "repeated" decision with the
// payload's cwd in a git repository (without push mappings): each
// decision checks that the repository's configuration still maps no
// push, from its files' stat.
func BenchmarkPolicyDecisionInRepo(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is needed for a repository")
	}
	repo := b.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v: %s", err, out)
	}
	time.Sleep(2100 * time.Millisecond) // past the racy window of the files git wrote
	dir := filepath.Dir(examplePath(b, "git.yaml"))
	r := Runner{Fallback: &spy{}, Cache: &Cache{}}
	req := benchRequest(b, dir, "agenthooks policy git.yaml", nil)
	req.Payload = fmt.Appendf(nil, `{"conversation_id":"c0ffee00-1234-5678-9abc-def012345678","generation_id":"g-42","model":"claude-sonnet","hook_event_name":"beforeShellExecution","cursor_version":"1.7.2","workspace_roots":[%q],"user_email":"dev@example.com","transcript_path":null,"command":"git push origin main","cwd":%q,"sandbox":false}`, repo, repo)
	for b.Loop() {
		res := r.Run(context.Background(), req)
		if res.Response == nil || res.Response.Permission != event.Deny {
			b.Fatalf("result %+v", res)
		}
	}
}

// BenchmarkPolicyProcess is the same decision made by a spawned
// `agenthooks policy git.yaml` process, as Cursor runs it and as the
// engine's command runner does (directly: the command has no shell
// syntax).
func BenchmarkPolicyProcess(b *testing.B) {
	bin := buildAgenthooks(b)
	dir := filepath.Dir(examplePath(b, "git.yaml"))
	req := benchRequest(b, dir, bin+" policy git.yaml", benchPayload("git push origin main"))
	cmd := runner.Command{}
	for b.Loop() {
		res := cmd.Run(context.Background(), req)
		if res.Response == nil || res.Response.Permission != event.Deny {
			b.Fatalf("result %+v", res)
		}
	}
}

// BenchmarkSeedBlockGit is block-git.sh from Cursor's hooks documentation,
// run by bash with jq, for the same payload.
func BenchmarkSeedBlockGit(b *testing.B) {
	for _, tool := range []string{"bash", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s is needed by the seed script", tool)
		}
	}
	ws, err := filepath.Abs(filepath.Join("..", "examples", "workspace"))
	if err != nil {
		b.Fatal(err)
	}
	req := benchRequest(b, ws, ".cursor/hooks/block-git.sh", benchPayload("git push origin main"))
	cmd := runner.Command{}
	for b.Loop() {
		res := cmd.Run(context.Background(), req)
		if res.Response == nil || res.Response.Permission != event.Deny {
			b.Fatalf("result %+v", res)
		}
	}
}

// BenchmarkCELEnv is building the CEL environment, which a process does
// once, on its first policy. The first build in a process costs several
// times this: CEL's own tables are made then.
func BenchmarkCELEnv(b *testing.B) {
	for b.Loop() {
		if _, err := newCELEnv(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile is compiling each example policy, the environment
// built: what a process pays per policy file before its first decision
// (more for the first, whose parse warms CEL's parser up).
func BenchmarkCompile(b *testing.B) {
	for _, name := range []string{"git.yaml", "network.yaml", "rm.yaml", "secrets.yaml"} {
		src, err := os.ReadFile(examplePath(b, name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Compile(name, src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
