package sandbox

import (
	"errors"
	"fmt"
	"runtime"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	llsyscall "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Landlock ABI versions the sandbox needs: files from 1 (TCP ports came
// in 4), and from 6 the scopes that keep a command from signalling
// processes outside the sandbox and from reaching their abstract unix
// sockets. 6 is what every sandbox needs.
const (
	abiFiles  = 1
	abiScopes = 6
)

// Supported says whether this kernel can enforce p: Landlock for files,
// its scopes, TCP ports unless the network is open, and the seccomp
// filter for the sockets Landlock does not cover. Where one is missing
// the command is not sandboxed in name only: the reason is returned.
func Supported(p Policy) error {
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil || abi < abiFiles {
		return errors.New("this kernel has no Landlock (it needs Linux 5.13 or later with Landlock enabled)")
	}
	if abi < abiScopes {
		return fmt.Errorf("this kernel's Landlock (ABI %d) cannot keep a command from signalling processes outside the sandbox; the sandbox needs ABI %d (Linux 6.12)", abi, abiScopes)
	}
	if socketFilter(!p.Network.Open()) == nil {
		return fmt.Errorf("agenthooks has no socket filter for %s, which the sandbox needs", runtime.GOARCH)
	}
	return nil
}

// enter restricts this thread and replaces the process with the command:
// no_new_privs (a setuid program gains nothing), every capability dropped,
// Landlock with its scopes, and the socket filter. All of it
// applies to the calling thread, which execve then turns into the
// command, so the rest of this process (and the supervisor, another
// process) is never restricted.
func enter(j job, path string, argv, envv []string) error {
	p := j.Policy
	abi, err := llsyscall.LandlockGetABIVersion()
	if err != nil || abi < abiScopes {
		return errors.New("this kernel's Landlock cannot scope signals and abstract sockets")
	}
	open := p.Network.Open()
	if !open && j.ProxyPort <= 0 {
		return errors.New("the network policy cannot be enforced: no proxy")
	}
	cfg := landlock.Config{HandledAccessFS: landlock.V7.HandledAccessFS, Scoped: landlock.V7.Scoped}
	if !open {
		cfg.HandledAccessNet = landlock.V7.HandledAccessNet
	}
	rules := landlockRules(p.files(currentEnv()), abi)
	if !open {
		// The proxy's port only; nothing may listen. Landlock's TCP rules
		// name ports, not addresses: the port is open on every address,
		// which is why the proxy's port is one the kernel chose for it.
		rules = append(rules, landlock.ConnectTCP(uint16(j.ProxyPort)))
	}
	fd, flags, err := cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("build the Landlock ruleset: %w", err)
	}
	if fd < 0 {
		return errors.New("the Landlock ruleset would restrict nothing here")
	}
	defer unix.Close(fd)
	filter := socketFilter(!open)
	if filter == nil {
		return fmt.Errorf("no socket filter for %s", runtime.GOARCH)
	}
	// From here to execve on this thread only; it is never unlocked, so
	// no other goroutine runs on a half-restricted thread.
	runtime.LockOSThread()
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("set no_new_privs: %w", err)
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	if err := llsyscall.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("enforce Landlock: %w", err)
	}
	if err := installFilter(filter); err != nil {
		return err
	}
	err = syscall.Exec(path, argv, envv)
	return fmt.Errorf("run %s: %w", path, err)
}

// landlockRules turns the filesystem rules into Landlock's. A path that
// does not exist is skipped: there is nothing there to open.
func landlockRules(r fsRules, abi int) []landlock.Rule {
	var rules []landlock.Rule
	if r.readAll {
		rules = append(rules, landlock.RODirs("/"))
	}
	if len(r.read) > 0 {
		rules = append(rules, landlock.RODirs(r.read...).IgnoreIfMissing())
	}
	if len(r.write) > 0 {
		w := landlock.RWDirs(r.write...).IgnoreIfMissing()
		if abi >= 2 {
			// Moving a file between folders (git does) needs refer;
			// asking for it below ABI 2 would turn Landlock off.
			w = w.WithRefer()
		}
		rules = append(rules, w)
	}
	if len(r.devices) > 0 {
		rules = append(rules, landlock.RWFiles(r.devices...).WithIoctlDev().IgnoreIfMissing())
	}
	return rules
}

// dropCapabilities empties the bounding, ambient, effective, permitted
// and inheritable sets when there are any (the command runs as root):
// root with its capabilities could load a module or remount its way out.
func dropCapabilities() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("read capabilities: %w", err)
	}
	if data[0].Permitted == 0 && data[1].Permitted == 0 {
		return nil
	}
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("drop capability %d: %w", c, err)
		}
	}
	_ = unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	data = [2]unix.CapUserData{}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("drop capabilities: %w", err)
	}
	return nil
}
