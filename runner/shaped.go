package runner

import (
	"bufio"
	"bytes"
	"os"
	"strings"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/hookshape"
)

// shapedResult reads a finished hook of another agent's settings file,
// its exit code and output, by that agent's rules (its hookshape.Shape)
// into res, and on sessionStart takes the variables the hook exported to
// its env file.
func shapedResult(res *Result, shape hookshape.Shape, step event.Step, envFile string) {
	ans := shape.Output(step, res.ExitCode, res.Stdout, res.Stderr)
	if ans.Failure != "" {
		res.Failure, res.Detail = ExitStatus, ans.Failure
		return
	}
	if ans.Ignored != "" {
		res.Warning = "answered " + ans.Ignored + ", which " + string(step) + " ignores"
	}
	res.Blocked = ans.Block
	if ans.Response != nil {
		r, err := event.ParseResponse(step, ans.Response)
		switch {
		case err != nil && !ans.Block:
			res.Failure, res.Detail = InvalidOutput, shape.Title()+" hook answer: "+err.Error()
			return
		case err == nil:
			res.Response = r
		}
	}
	if envFile == "" {
		return
	}
	env := readEnvFile(envFile)
	if len(env) == 0 {
		return
	}
	if res.Response == nil {
		res.Response = &event.Response{Raw: []byte("{}")}
	}
	if res.Response.Env == nil {
		res.Response.Env = map[string]string{}
	}
	for k, v := range env {
		if _, set := res.Response.Env[k]; !set {
			res.Response.Env[k] = v
		}
	}
}

// readEnvFile reads the `export K=V` (or `K=V`) lines a hook appended to
// the file its agent's env file variable named (Shape.EnvFileVar). Values may be single- or double-quoted; anything
// else on a line (commands, functions) has no meaning outside a shell
// and is skipped.
func readEnvFile(path string) map[string]string {
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 {
		return nil
	}
	env := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		if !ok || !isEnvName(k) {
			continue
		}
		env[k] = unquote(strings.TrimSpace(v))
	}
	return env
}

func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !(r >= 'A' && r <= 'Z') && !(r >= 'a' && r <= 'z') && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// unquote undoes the shell quoting of one value: 'a'\”b' and "a\"b".
func unquote(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\'':
			j := strings.IndexByte(v[i+1:], '\'')
			if j < 0 {
				b.WriteString(v[i+1:])
				return b.String()
			}
			b.WriteString(v[i+1 : i+1+j])
			i += j + 1
		case '"':
			for i++; i < len(v) && v[i] != '"'; i++ {
				if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("\"\\$`", v[i+1]) >= 0 {
					i++
				}
				b.WriteByte(v[i])
			}
		case '\\':
			if i+1 < len(v) {
				i++
				b.WriteByte(v[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
