package proc

import (
	"fmt"
	"os"
	"path/filepath"
)

// child is a started hook process and our ends of its pipes.
type child struct {
	proc   *os.Process
	group  *group
	stdin  *os.File // write end
	stdout *os.File // read end
	stderr *os.File // read end
	direct bool
}

// workDir makes dir absolute (a relative program path is resolved against
// it before the child changes into it) and checks that it is a directory, so
// a bad directory is reported as such rather than as a failed exec.
func workDir(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("proc: working directory %q: %w", dir, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("proc: working directory: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("proc: working directory %q is not a directory", abs)
	}
	return abs, nil
}

// start creates the pipes (ours, not os/exec's copying goroutines) and
// starts argv when given, else command: directly when it has no shell
// syntax and the program can be exec'd, else through the shell.
func start(command string, argv []string, dir string, env []string) (*child, error) {
	var ours, theirs [3]*os.File // stdin, stdout, stderr
	for i := range ours {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(ours[:i])
			closeAll(theirs[:i])
			return nil, fmt.Errorf("proc: pipe: %w", err)
		}
		if i == 0 {
			ours[i], theirs[i] = w, r
		} else {
			ours[i], theirs[i] = r, w
		}
	}
	attr := &os.ProcAttr{Dir: dir, Env: childEnv(env, dir), Files: theirs[:], Sys: sysProcAttr()}
	if len(argv) > 0 {
		p, err := startArgv(argv, attr)
		if err != nil {
			closeAll(theirs[:])
			closeAll(ours[:])
			return nil, err
		}
		closeAll(theirs[:])
		return &child{proc: p, group: newGroup(p), stdin: ours[0], stdout: ours[1], stderr: ours[2], direct: true}, nil
	}
	p, direct := startDirect(command, attr), true
	if p == nil {
		direct = false
		argv := shellArgv(command)
		var err error
		if p, err = os.StartProcess(argv[0], argv, attr); err != nil {
			closeAll(theirs[:])
			closeAll(ours[:])
			return nil, fmt.Errorf("proc: start shell: %w", err)
		}
	}
	// The child has its copies; ours must go, or we would never see EOF.
	closeAll(theirs[:])
	return &child{
		proc:   p,
		group:  newGroup(p),
		stdin:  ours[0],
		stdout: ours[1],
		stderr: ours[2],
		direct: direct,
	}, nil
}

// startDirect execs command's words without a shell when that means the
// same thing, and returns nil when it cannot. Any failure (not found,
// ENOEXEC for a script without a shebang, permission denied) leaves the
// command to the shell, whose behaviour and messages users' hooks expect.
func startDirect(command string, attr *os.ProcAttr) *os.Process {
	if !directExec || NeedsShell(command) {
		return nil
	}
	words := splitWords(command)
	path, ok := directCommand(words, attr.Dir, attr.Env)
	if !ok {
		return nil
	}
	p, err := os.StartProcess(path, words, attr)
	if err != nil {
		return nil
	}
	return p
}

// startArgv starts the program argv[0] with argv, with no shell.
func startArgv(argv []string, attr *os.ProcAttr) (*os.Process, error) {
	path, err := findProgram(argv[0], attr.Dir, attr.Env)
	if err != nil {
		return nil, err
	}
	p, err := os.StartProcess(path, argv, attr)
	if err != nil {
		return nil, fmt.Errorf("proc: start %s: %w", argv[0], err)
	}
	return p, nil
}

func closeAll(files []*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}
