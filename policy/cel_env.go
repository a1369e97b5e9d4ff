package policy

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/common/types/traits"
	"cel.dev/cel-go/ext"

	"github.com/agenthooks/agenthooks/policy/gitpush"
	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// The variables a rule's condition sees.
const (
	varInput   = "input"   // the step's payload, as a map
	varStep    = "step"    // the step's name
	varCommand = "command" // the shell command line the step is about to run, else ""
	varVars    = "vars"    // the policy file's vars
)

// celEnv is built once per process: building it costs about a
// millisecond, and every policy shares it.
var celEnv = sync.OnceValues(newCELEnv)

func newCELEnv() (*cel.Env, error) {
	mapDyn := cel.MapType(cel.StringType, cel.DynType)
	str := cel.StringType
	return cel.NewEnv(
		cel.Variable(varInput, mapDyn),
		cel.Variable(varStep, str),
		cel.Variable(varCommand, str),
		cel.Variable(varVars, mapDyn),
		cel.OptionalTypes(),
		cel.CrossTypeNumericComparisons(true),
		ext.Strings(),
		ext.Bindings(),
		ext.Lists(),
		cel.Function("commands",
			cel.Overload("commands_string", []*cel.Type{str}, cel.ListType(mapDyn),
				cel.UnaryBinding(celCommands))),
		// gitPush is bound per evaluation (activation.ResolveFunction):
		// following aliases needs the payload's directory and the
		// evaluation's context.
		cel.Function(fnGitPush,
			cel.Overload("gitPush_map", []*cel.Type{cel.DynType}, mapDyn,
				cel.LateFunctionBinding())),
		cel.Function("netHosts",
			cel.Overload("netHosts_map", []*cel.Type{cel.DynType}, cel.ListType(str),
				cel.UnaryBinding(celNetHosts))),
		cel.Function("glob",
			cel.Overload("glob_string_string", []*cel.Type{str, str}, cel.BoolType,
				cel.BinaryBinding(stringsBool(Glob))),
			cel.Overload("glob_string_list", []*cel.Type{str, cel.ListType(cel.DynType)}, cel.BoolType,
				cel.BinaryBinding(globAny))),
		cel.Function("inWorkspace",
			cel.Overload("inWorkspace_string_list", []*cel.Type{str, cel.ListType(cel.DynType)}, cel.BoolType,
				cel.BinaryBinding(celInWorkspace))),
		cel.Function("joinPath",
			cel.Overload("joinPath_string_string", []*cel.Type{str, str}, str,
				cel.BinaryBinding(func(a, b ref.Val) ref.Val {
					x, y, err := twoStrings(a, b)
					if err != nil {
						return err
					}
					return types.String(JoinPath(x, y))
				}))),
		stringFunc("basename", Basename),
		stringFunc("ext", Ext),
		stringFunc("mcpServer", MCPServer),
		stringFunc("mcpTool", MCPTool),
		stringFunc("urlHost", URLHost),
	)
}

// stringFunc declares a string → string helper.
func stringFunc(name string, fn func(string) string) cel.EnvOption {
	return cel.Function(name,
		cel.Overload(name+"_string", []*cel.Type{cel.StringType}, cel.StringType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.(types.String)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				return types.String(fn(string(s)))
			})))
}

func twoStrings(a, b ref.Val) (string, string, ref.Val) {
	x, ok1 := a.(types.String)
	y, ok2 := b.(types.String)
	if !ok1 || !ok2 {
		return "", "", types.NewErr("expected two strings, got %s and %s", a.Type(), b.Type())
	}
	return string(x), string(y), nil
}

func stringsBool(fn func(string, string) bool) func(a, b ref.Val) ref.Val {
	return func(a, b ref.Val) ref.Val {
		x, y, err := twoStrings(a, b)
		if err != nil {
			return err
		}
		return types.Bool(fn(x, y))
	}
}

// stringList converts a CEL list of strings (such as the payload's
// workspace_roots, typed dyn) to Go.
func stringList(v ref.Val) ([]string, ref.Val) {
	l, ok := v.(traits.Lister)
	if !ok {
		return nil, types.NewErr("expected a list of strings, got %s", v.Type())
	}
	n, _ := l.Size().(types.Int)
	out := make([]string, 0, int(n))
	for it := l.Iterator(); it.HasNext() == types.True; {
		s, ok := it.Next().(types.String)
		if !ok {
			return nil, types.NewErr("expected a list of strings")
		}
		out = append(out, string(s))
	}
	return out, nil
}

func globAny(a, b ref.Val) ref.Val {
	p, ok := a.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(a)
	}
	pats, err := stringList(b)
	if err != nil {
		return err
	}
	for _, pat := range pats {
		if Glob(string(p), pat) {
			return types.True
		}
	}
	return types.False
}

func celInWorkspace(a, b ref.Val) ref.Val {
	p, ok := a.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(a)
	}
	roots, err := stringList(b)
	if err != nil {
		return err
	}
	return types.Bool(InWorkspace(string(p), roots))
}

func celCommands(v ref.Val) ref.Val {
	s, ok := v.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	return commandsVal(string(s))
}

const fnGitPush = "gitPush"

// celGitPush is gitPush for a payload whose command line starts in dir
// ("" unknown), run with env (nil: this process's). The answer is kept
// with the line's entry and reused while what it rests on holds (the
// directory, the repository's push mappings: see gitpush.Basis); one
// that read the repository's aliases is computed again, since they may
// change between two decisions on the same line.
func celGitPush(ctx func() context.Context, env []string, dir string, v ref.Val) ref.Val {
	if cv, ok := v.(*cmdVal); ok {
		if k := cv.push.Load(); k != nil && k.basis.Holds(ctx, env, dir) {
			return k.val
		}
		p, basis := gitpush.AnalyzeLine(ctx, env, cv.cmd, dir, cv.line)
		val := gitPushVal(p)
		cv.push.Store(&keptPush{val: val, basis: basis})
		return val
	}
	c, err := commandFromVal(v)
	if err != nil {
		return err
	}
	p, _ := gitpush.AnalyzeLine(ctx, env, &c, dir, gitpush.LineOf(c))
	return gitPushVal(p)
}

// keptPush is gitPush's answer for an entry of commands(), and what it
// rests on besides the line.
type keptPush struct {
	val   ref.Val
	basis gitpush.Basis
}

func celNetHosts(v ref.Val) ref.Val {
	if cv, ok := v.(*cmdVal); ok {
		cv.hostsOnce.Do(func() { cv.hosts = hostsVal(NetHosts(*cv.cmd)) })
		return cv.hosts
	}
	c, err := commandFromVal(v)
	if err != nil {
		return err
	}
	return hostsVal(NetHosts(c))
}

func hostsVal(hosts []string) ref.Val {
	if hosts == nil {
		hosts = []string{}
	}
	return types.NewStringList(types.DefaultTypeAdapter, hosts)
}

// cmdVal is an entry of commands(): a CEL map with the keys
// docs/policies.md lists, which also remembers the Command it was made
// from and what gitPush and netHosts computed from it. Entries are cached
// with their line and shared, so these are computed once per line, not
// once per rule.
type cmdVal struct {
	traits.Mapper
	cmd  *shellscan.Command
	line *gitpush.Line // the line it is part of, which gitPush reads too

	push      atomic.Pointer[keptPush]
	hostsOnce sync.Once
	hosts     ref.Val
}

var (
	stringsType = reflect.TypeFor[[]string]()
	intsType    = reflect.TypeFor[[]int64]()
)

// commandFromVal reads back an entry of commands() (or a map literal
// with the same keys) as a Command: name, args, dynamic_args and cwd.
func commandFromVal(v ref.Val) (shellscan.Command, ref.Val) {
	mp, ok := v.(traits.Mapper)
	if !ok {
		return shellscan.Command{}, types.NewErr("expected an entry of commands(), got %s", v.Type())
	}
	c := shellscan.Command{Cwd: "."} // a map without cwd runs where the line starts
	if d, found := mp.Find(types.String("cwd")); found {
		s, _ := d.(types.String)
		c.Cwd = string(s)
	}
	if n, found := mp.Find(types.String("name")); found {
		s, _ := n.(types.String)
		c.Name = string(s)
	}
	if a, found := mp.Find(types.String("args")); found {
		args, err := a.ConvertToNative(stringsType)
		if err != nil {
			return shellscan.Command{}, types.NewErr("args: %v", err)
		}
		c.Args = args.([]string)
	}
	if d, found := mp.Find(types.String("dynamic_args")); found {
		idx, err := d.ConvertToNative(intsType)
		if err != nil {
			return shellscan.Command{}, types.NewErr("dynamic_args: %v", err)
		}
		for _, i := range idx.([]int64) {
			c.DynamicArgs = append(c.DynamicArgs, int(i))
		}
	}
	return c, nil
}

// commandVal is the CEL form of a Command of line.
func commandVal(c *shellscan.Command, line *gitpush.Line) *cmdVal {
	a := types.DefaultTypeAdapter
	dyn := make([]int64, len(c.DynamicArgs))
	for i, d := range c.DynamicArgs {
		dyn[i] = int64(d)
	}
	env := c.Env
	if env == nil {
		env = map[string]string{}
	}
	m := map[ref.Val]ref.Val{
		types.String("name"):         types.String(c.Name),
		types.String("path"):         types.String(c.Path),
		types.String("args"):         types.NewStringList(a, nonNil(c.Args)),
		types.String("dynamic"):      types.Bool(c.Dynamic),
		types.String("dynamic_args"): types.NewDynamicList(a, dyn),
		types.String("env"):          types.NewStringStringMap(a, env),
		types.String("via"):          types.NewStringList(a, nonNil(c.Via)),
		types.String("cwd"):          types.String(c.Cwd),
		types.String("text"):         types.String(c.Text),
		types.String("reads"):        types.NewStringList(a, nonNil(c.Reads)),
	}
	return &cmdVal{Mapper: types.NewRefValMap(a, m), cmd: c, line: line}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// commandsCache keeps the analysis of recent command lines: several rules
// of a policy (and several policies) look at the same line, and CEL
// values are immutable, so they can be shared.
var commandsCache = struct {
	sync.Mutex
	m map[string]ref.Val
}{m: map[string]ref.Val{}}

const commandsCacheMax = 256

func commandsVal(line string) ref.Val {
	commandsCache.Lock()
	v, ok := commandsCache.m[line]
	commandsCache.Unlock()
	if ok {
		return v
	}
	li := gitpush.ReadLine(line)
	cmds := li.Commands()
	vals := make([]ref.Val, len(cmds))
	for i := range cmds {
		vals[i] = commandVal(&cmds[i], li)
	}
	v = types.NewRefValList(types.DefaultTypeAdapter, vals)
	if len(line) <= 64<<10 {
		commandsCache.Lock()
		if len(commandsCache.m) >= commandsCacheMax {
			clear(commandsCache.m)
		}
		commandsCache.m[line] = v
		commandsCache.Unlock()
	}
	return v
}

func gitPushVal(p gitpush.Push) ref.Val {
	refspecs := make([]any, len(p.Refspecs))
	for i, r := range p.Refspecs {
		refspecs[i] = map[string]any{"src": r.Src, "dst": r.Dst, "force": r.Force, "pattern": r.Pattern}
	}
	return types.NewStringInterfaceMap(types.DefaultTypeAdapter, map[string]any{
		"push":     p.Push,
		"dynamic":  p.Dynamic,
		"remote":   p.Remote,
		"refspecs": refspecs,
		"all":      p.All,
		"mirror":   p.Mirror,
		"tags":     p.Tags,
		"delete":   p.Delete,
		"force":    p.Force,
		"implicit": p.Implicit,
	})
}

// mustEnv returns the shared environment; its construction only fails on
// a programming error in the declarations above.
func mustEnv() (*cel.Env, error) {
	env, err := celEnv()
	if err != nil {
		return nil, fmt.Errorf("policy: building the CEL environment: %w", err)
	}
	return env, nil
}
