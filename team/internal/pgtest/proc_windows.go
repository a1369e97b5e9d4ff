package pgtest

import (
	"os"
	"os/exec"
)

// credential: on Windows PostgreSQL runs as the tests' user.
type credential struct{}

func credentials() (*credential, error) { return &credential{}, nil }
func (c *credential) own(string) error  { return nil }
func (c *credential) apply(*exec.Cmd)   {}
func interrupt(p *os.Process) error     { return p.Kill() }
