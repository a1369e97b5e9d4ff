// Package pgtest gives tests a real PostgreSQL server: each test gets a
// database of its own in a throwaway cluster that the test binary starts
// on 127.0.0.1 the first time a test asks for one, and stops when the
// tests are done (call Main from TestMain).
//
// With AGENTHOOKS_TEST_POSTGRES_URL set (a URL whose user may CREATE
// DATABASE), that server is used instead and nothing is started.
//
// PostgreSQL refuses to run as root. When the tests run as root, the
// cluster is created and run as the "postgres" system user (the Debian
// package creates it), by setting the child processes' credentials; the
// cluster's directory is made over to that user.
//
// When neither a URL nor PostgreSQL's programs are found, the test fails
// and says what to install: a skipped backend would let the PostgreSQL
// store go untested without anyone noticing.
package pgtest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"github.com/agenthooks/agenthooks/internal/needs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// EnvURL names the variable that points the tests at an existing server.
const EnvURL = "AGENTHOOKS_TEST_POSTGRES_URL"

var (
	mu      sync.Mutex
	shared  *cluster // started on first use
	startEr error    // why it could not start; every later test fails alike
	dbSeq   atomic.Int64
)

// Main runs the tests and then stops the cluster, if one was started.
// Use it as `func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }`.
func Main(m *testing.M) int {
	code := m.Run()
	mu.Lock()
	defer mu.Unlock()
	if shared != nil {
		if err := shared.stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
			if code == 0 {
				code = 1
			}
		}
		shared = nil
	}
	return code
}

// URL returns the URL of a new, empty database for the test, dropped
// when the test ends.
func URL(tb testing.TB) string {
	tb.Helper()
	base, err := server()
	if errors.Is(err, errNotInstalled) {
		needs.Missing(tb, err.Error())
	}
	if err != nil {
		tb.Fatal(err)
	}
	name := fmt.Sprintf("t%d_%s", dbSeq.Add(1), sanitize(tb.Name()))
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// name is ours: letters, digits and underscores.
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("pgtest: create database: %v", err)
	}
	tb.Cleanup(func() {
		admin, err := sql.Open("pgx", base)
		if err != nil {
			tb.Errorf("pgtest: %v", err)
			return
		}
		defer admin.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			tb.Errorf("pgtest: drop database: %v", err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

var unsafeChars = regexp.MustCompile(`[^a-z0-9_]+`)

func sanitize(name string) string {
	s := unsafeChars.ReplaceAllString(strings.ToLower(name), "_")
	return s[:min(len(s), 40)]
}

// server returns the URL of the maintenance database ("postgres") of
// the server the tests use, starting the cluster if need be.
func server() (string, error) {
	if u := os.Getenv(EnvURL); u != "" {
		return u, nil
	}
	mu.Lock()
	defer mu.Unlock()
	if shared == nil && startEr == nil {
		shared, startEr = start()
	}
	if startEr != nil {
		return "", startEr
	}
	return shared.url, nil
}

// cluster is a running throwaway PostgreSQL.
type cluster struct {
	dir  string // removed by stop
	url  string
	cmd  *exec.Cmd
	done chan error // the server process's exit
	log  string
}

// debianBinDirs is where Debian and Ubuntu install each version's
// programs (a variable for the test of the "not installed" message).
var debianBinDirs = "/usr/lib/postgresql/*/bin"

// binDir finds PostgreSQL's programs: the newest version under
// /usr/lib/postgresql (Debian, Ubuntu), else wherever PATH has initdb.
func binDir() (string, error) {
	dirs, _ := filepath.Glob(debianBinDirs)
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", errNotInstalled
}

// errNotInstalled: the tests that need PostgreSQL skip, unless CI.
var errNotInstalled = errors.New("pgtest: PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or PATH): " +
	"install it (apt-get install postgresql, brew install postgresql), or set " + EnvURL + " to a server's URL")

func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// start creates a cluster in a new temporary directory and starts it on
// a free port of 127.0.0.1, retrying with another port if one was taken
// in the meantime.
func start() (*cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	cred, err := credentials()
	if err != nil {
		return nil, err
	}
	// Not t.TempDir: its parents are private to this user, which the
	// postgres user may not be.
	dir, err := os.MkdirTemp("", "agenthooks-pgtest-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	if err := cred.own(dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
	initdb.Dir = dir
	cred.apply(initdb)
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}
	var lastErr error
	for range 3 {
		c, err := run(bin, dir, data, cred)
		if err == nil {
			return c, nil
		}
		lastErr = err
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

// run starts the server and waits until it accepts connections.
func run(bin, dir, data string, cred *credential) (*cluster, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, "postgres.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	defer logFile.Close()
	if err := cred.own(logPath); err != nil {
		return nil, err
	}
	// A throwaway cluster needs no durability: fsync off makes the
	// tests' many small transactions cheap.
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", data,
		"-c", "listen_addresses=127.0.0.1", "-c", "port="+strconv.Itoa(port), "-c", "unix_socket_directories="+dir,
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=200")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cred.apply(cmd)
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("pgtest: start postgres: %w", err)
	}
	c := &cluster{
		dir:  dir,
		url:  fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port),
		cmd:  cmd,
		done: make(chan error, 1),
		log:  logPath,
	}
	go func() { c.done <- cmd.Wait() }()
	if err := c.waitReady(30 * time.Second); err != nil {
		c.kill()
		return nil, err
	}
	return c, nil
}

func (c *cluster) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	db, err := sql.Open("pgx", c.url)
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	defer db.Close()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := db.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case werr := <-c.done:
			c.done <- werr
			return fmt.Errorf("pgtest: postgres exited (%v):\n%s", werr, c.logTail())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgtest: postgres not ready after %v: %v\n%s", limit, err, c.logTail())
		}
	}
}

// stop shuts the server down ("fast": it disconnects the clients) and
// removes the cluster.
func (c *cluster) stop() error {
	defer os.RemoveAll(c.dir)
	if err := interrupt(c.cmd.Process); err != nil {
		c.kill()
		return fmt.Errorf("pgtest: stop postgres: %w", err)
	}
	select {
	case <-c.done:
		return nil
	case <-time.After(30 * time.Second):
		c.kill()
		return fmt.Errorf("pgtest: postgres did not stop within 30s:\n%s", c.logTail())
	}
}

func (c *cluster) kill() {
	_ = c.cmd.Process.Kill()
	<-c.done
}

func (c *cluster) logTail() string {
	b, _ := os.ReadFile(c.log)
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
