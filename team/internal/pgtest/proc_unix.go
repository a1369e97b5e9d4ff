//go:build unix

package pgtest

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
)

// credential is the user PostgreSQL runs as: nil fields mean this
// process's own user.
type credential struct {
	uid, gid *uint32
}

// credentials picks the user to run PostgreSQL as: this one, unless it
// is root, which PostgreSQL refuses; then the "postgres" system user.
func credentials() (*credential, error) {
	if os.Geteuid() != 0 {
		return &credential{}, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgtest: the tests run as root, which PostgreSQL refuses, and there is no \"postgres\" user to run it as (%v): "+
			"install the postgresql package (it creates the user), run the tests as another user, or set %s", err, EnvURL)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("pgtest: user postgres has uid %q, gid %q: not numbers", u.Uid, u.Gid)
	}
	u32, g32 := uint32(uid), uint32(gid)
	return &credential{uid: &u32, gid: &g32}, nil
}

// own gives path to the user PostgreSQL runs as.
func (c *credential) own(path string) error {
	if c.uid == nil {
		return nil
	}
	if err := os.Chown(path, int(*c.uid), int(*c.gid)); err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	return nil
}

// apply makes cmd run as the user PostgreSQL runs as.
func (c *credential) apply(cmd *exec.Cmd) {
	if c.uid == nil {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: *c.uid, Gid: *c.gid, NoSetGroups: true}
}

// interrupt asks the server for a fast shutdown.
func interrupt(p *os.Process) error { return p.Signal(syscall.SIGINT) }
