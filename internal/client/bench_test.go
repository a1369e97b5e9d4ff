//go:build unix

package client_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// These benchmarks time whole processes, as an agent spawns them, side by
// side with their floor: the bare spawn of the same hook, and a Go hello
// world. "engine" is the agenthooks client with the user's resident
// engine running; "own-process" is the same with AGENTHOOKS_ENGINE=off,
// the in-process fallback. Compare with benchstat, or read the ratios
// the benchmarks report. RAMPART_BIN, when set, adds rampart deciding
// the same Claude Code `git push`.

// trivialScript is the cheapest real hook: a shell script that reads its
// payload, as every hook does, and answers {}.
const trivialScript = "#!/bin/sh\ncat >/dev/null\necho '{}'\n"

// trivialHook writes the script into dir and returns its path, which is
// both the hook's command and what the bare spawn runs.
func trivialHook(b *testing.B, dir string) string {
	p := filepath.Join(dir, "trivial.sh")
	if err := os.WriteFile(p, []byte(trivialScript), 0o755); err != nil {
		b.Fatal(err)
	}
	return p
}

// bareHook is the floor: the hook spawned by itself with the payload.
func bareHook(b *testing.B, hook string, payload []byte) {
	b.Run("bare-hook", func(b *testing.B) {
		for b.Loop() {
			spawn(b, os.Environ(), "/", payload, hook)
		}
	})
}

// spawn runs argv with stdin and env, failing the benchmark on an error
// other than the exit codes in ok.
func spawn(b *testing.B, env []string, dir string, stdin []byte, argv ...string) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin = bytes.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			b.Fatalf("%v: %v", argv, err)
		}
	}
}

// helloWorld builds a Go hello world, the floor of any Go process.
func helloWorld(b *testing.B) string {
	return goProgram(b, "hello", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"{}\") }\n")
}

// goSpawner is the least any Go program that runs a hook can cost: it
// starts, spawns its first argument with the payload on stdin, and passes
// the answer on. A step through agenthooks is such a program (the client)
// plus a hop to the engine, so this, not the bare hook, is the floor of a
// Go client.
func goSpawner(b *testing.B) string {
	return goProgram(b, "spawner", `package main

import (
	"os"
	"os/exec"
)

func main() {
	cmd := exec.Command(os.Args[1])
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	_ = cmd.Run()
}
`)
}

// goProgram builds a one-file Go program, static as the client is.
func goProgram(b *testing.B, name, src string) string {
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+name+"\n\ngo 1.26\n"), 0o644)
	cmd := exec.Command("go", "build", "-o", name, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build %s: %v\n%s", name, err, out)
	}
	return filepath.Join(dir, name)
}

// stepWorld is a world with the given user hooks and its engine started.
func stepWorld(b *testing.B, hooks string) *world {
	w := newWorld(b)
	w.userHooks(hooks)
	w.startEngine()
	settle()
	return w
}

// settle waits until the files just written are older than the racy
// window: until then every step reads them again (and compiles a policy
// again), since their times cannot yet prove them unchanged. A user's
// files are older than that; the benchmarks time the steady state.
func settle() { time.Sleep(2100 * time.Millisecond) }

func (w *world) bench(b *testing.B, payload []byte, off bool, args ...string) {
	env := w.env
	if off {
		env = append(slices.Clone(env), "AGENTHOOKS_ENGINE=off")
	}
	argv := append([]string{w.bin}, args...)
	spawn(b, env, w.ws, payload, argv...) // warm: the engine loads this step's hooks
	b.ResetTimer()
	for b.Loop() {
		spawn(b, env, w.ws, payload, argv...)
	}
}

func hooksFor(step string, commands ...string) string {
	var hs []string
	for _, c := range commands {
		hs = append(hs, fmt.Sprintf(`{"command":%q}`, c))
	}
	return fmt.Sprintf(`{"version":1,"hooks":{%q:[%s]}}`, step, strings.Join(hs, ","))
}

var shellPayload = []byte(`{"command":"ls","cwd":"/","hook_event_name":"beforeShellExecution"}`)

func BenchmarkOneHook(b *testing.B) {
	hook := trivialHook(b, b.TempDir())
	bareHook(b, hook, shellPayload)
	spawner := goSpawner(b)
	b.Run("go-spawner", func(b *testing.B) {
		for b.Loop() {
			spawn(b, os.Environ(), "/", shellPayload, spawner, hook)
		}
	})
	w := stepWorld(b, hooksFor("beforeShellExecution", hook))
	b.Run("engine", func(b *testing.B) { w.bench(b, shellPayload, false, "run", "beforeShellExecution") })
	b.Run("own-process", func(b *testing.B) { w.bench(b, shellPayload, true, "run", "beforeShellExecution") })
}

func BenchmarkNoHooks(b *testing.B) {
	hello := helloWorld(b)
	b.Run("hello-world", func(b *testing.B) {
		for b.Loop() {
			spawn(b, os.Environ(), "/", shellPayload, hello)
		}
	})
	w := stepWorld(b, `{"version":1,"hooks":{}}`)
	b.Run("engine", func(b *testing.B) { w.bench(b, shellPayload, false, "run", "beforeShellExecution") })
	b.Run("own-process", func(b *testing.B) { w.bench(b, shellPayload, true, "run", "beforeShellExecution") })
}

// gitPolicy denies git push; the payloads below do not push, or do.
const gitPolicy = "version: 1\nrules:\n  - name: no-push\n    steps: [beforeShellExecution, preToolUse]\n    when: commands(command).exists(c, gitPush(c).push)\n    decision: deny\n    user_message: pushing is for humans\n"

// rampartPolicy is the same rule in rampart's format.
const rampartPolicy = `version: "1"
default_action: allow
policies:
  - name: no-push
    match:
      tool: ["exec"]
    rules:
      - action: deny
        when:
          command_matches: ["git push*"]
        message: "pushing is for humans"
`

func BenchmarkPolicyHook(b *testing.B) {
	bareHook(b, trivialHook(b, b.TempDir()), shellPayload)
	w := newWorld(b)
	policy := filepath.Join(w.home, "git.yaml")
	os.WriteFile(policy, []byte(gitPolicy), 0o644)
	w.userHooks(hooksFor("beforeShellExecution", "agenthooks policy "+policy))
	w.startEngine()
	settle()
	b.Run("engine", func(b *testing.B) { w.bench(b, shellPayload, false, "run", "beforeShellExecution") })
	b.Run("own-process", func(b *testing.B) { w.bench(b, shellPayload, true, "run", "beforeShellExecution") })
	claude := []byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin main"},"cwd":"/"}`)
	b.Run("claude-push/engine", func(b *testing.B) { w.bench(b, claude, false, "run", "--from", "claude") })
	b.Run("claude-push/own-process", func(b *testing.B) { w.bench(b, claude, true, "run", "--from", "claude") })
	if r := w.run(string(claude), nil, "run", "--from", "claude"); !strings.Contains(r.out, `"deny"`) {
		b.Fatalf("the policy did not deny the push: %+v", r)
	}
	if bin := os.Getenv("RAMPART_BIN"); bin != "" {
		cfg := filepath.Join(w.home, "rampart.yaml")
		os.WriteFile(cfg, []byte(rampartPolicy), 0o644)
		b.Run("claude-push/rampart", func(b *testing.B) {
			env := append(os.Environ(), "HOME="+w.home)
			spawn(b, env, w.ws, claude, bin, "hook", "--config", cfg)
			for b.Loop() {
				spawn(b, env, w.ws, claude, bin, "hook", "--config", cfg)
			}
		})
	}
}

// 1,000 hooks configured, none for the step run: the cost of loading.
func BenchmarkThousandHooks(b *testing.B) {
	var hs []string
	for i := range 1000 {
		hs = append(hs, fmt.Sprintf(`{"command":"echo %d","matcher":"^tool_%d_(read|write)$"}`, i, i))
	}
	hook := trivialHook(b, b.TempDir())
	bareHook(b, hook, shellPayload)
	hooks := fmt.Sprintf(`{"version":1,"hooks":{"preToolUse":[%s],"beforeShellExecution":[{"command":%q}]}}`, strings.Join(hs, ","), hook)
	w := stepWorld(b, hooks)
	b.Run("engine", func(b *testing.B) { w.bench(b, shellPayload, false, "run", "beforeShellExecution") })
	b.Run("own-process", func(b *testing.B) { w.bench(b, shellPayload, true, "run", "beforeShellExecution") })
}

// A 10 MB file read, through a hook that reads its payload. The payload
// is Cursor's: every common field and the file.
func BenchmarkLargeRead(b *testing.B) {
	reader := trivialHook(b, b.TempDir())
	w := stepWorld(b, hooksFor("beforeReadFile", reader))
	content := strings.Repeat("0123456789abcdef", 10<<20/16)
	payload := []byte(fmt.Sprintf(`{"conversation_id":"c","generation_id":"g","model":"m","hook_event_name":"beforeReadFile",`+
		`"cursor_version":"2.0.77","workspace_roots":[%q],"user_email":null,"transcript_path":null,"file_path":"/tmp/big.txt","content":%q,"attachments":[]}`, w.ws, content))
	bareHook(b, reader, payload)
	b.Run("engine", func(b *testing.B) { w.bench(b, payload, false, "run", "beforeReadFile") })
	b.Run("own-process", func(b *testing.B) { w.bench(b, payload, true, "run", "beforeReadFile") })
}

// Twenty steps at once, as parallel agents send them: p50 and p99 of one
// step's latency, and every run in the log; beside twenty bare spawns of
// the same hook at once, the floor on a machine of few cores, and twenty
// Go spawners of it, the floor of a Go client.
func BenchmarkTwentyAtOnce(b *testing.B) {
	b.Run("bare-hooks", func(b *testing.B) {
		hook := trivialHook(b, b.TempDir())
		atOnce(b, func() { spawn(b, os.Environ(), "/", shellPayload, hook) })
	})
	b.Run("go-spawners", func(b *testing.B) {
		hook, spawner := trivialHook(b, b.TempDir()), goSpawner(b)
		atOnce(b, func() { spawn(b, os.Environ(), "/", shellPayload, spawner, hook) })
	})
	for _, off := range []bool{false, true} {
		name := "engine"
		if off {
			name = "own-process"
		}
		b.Run(name, func(b *testing.B) {
			w := stepWorld(b, hooksFor("beforeShellExecution", trivialHook(b, b.TempDir())))
			env := w.env
			if off {
				env = append(slices.Clone(env), "AGENTHOOKS_ENGINE=off")
			}
			before := logCount(b, w)
			runs := atOnce(b, func() { spawn(b, env, w.ws, shellPayload, w.bin, "run", "beforeShellExecution") })
			deadline := time.Now().Add(20 * time.Second)
			for logCount(b, w) < before+runs && time.Now().Before(deadline) {
				time.Sleep(100 * time.Millisecond)
			}
			if got := logCount(b, w) - before; got != runs {
				b.Errorf("%d runs, %d in the log", runs, got)
			}
		})
	}
}

// atOnce runs step twenty times at once per iteration, reports the p50
// and p99 of one step's latency, and returns how many steps ran.
func atOnce(b *testing.B, step func()) int {
	var lat []time.Duration
	var mu sync.Mutex
	runs := 0
	for b.Loop() {
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				t0 := time.Now()
				step()
				mu.Lock()
				lat = append(lat, time.Since(t0))
				mu.Unlock()
			})
		}
		wg.Wait()
		runs += 20
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	return runs
}

// An agent's terminal command through agenthooks as its $SHELL, with one
// trivial beforeShellExecution hook, beside the bare `sh -c true` and
// `sh -c true` plus the hook's bare spawn.
func BenchmarkShell(b *testing.B) {
	hook := trivialHook(b, b.TempDir())
	b.Run("bare-sh", func(b *testing.B) {
		for b.Loop() {
			spawn(b, os.Environ(), "/", nil, "/bin/sh", "-c", "true")
		}
	})
	b.Run("bare-sh+hook", func(b *testing.B) {
		for b.Loop() {
			spawn(b, os.Environ(), "/", shellPayload, hook)
			spawn(b, os.Environ(), "/", nil, "/bin/sh", "-c", "true")
		}
	})
	w := stepWorld(b, hooksFor("beforeShellExecution", hook))
	b.Run("engine", func(b *testing.B) { w.bench(b, nil, false, "-c", "true") })
	b.Run("own-process", func(b *testing.B) { w.bench(b, nil, true, "-c", "true") })
}
