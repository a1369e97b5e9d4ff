package sandbox

import (
	"fmt"
	"strconv"
	"strings"
)

// seatbeltProfile renders the policy as a macOS Seatbelt profile (the
// language of sandbox-exec -p), from the same filesystem rules Landlock
// gets on Linux. proxyPort is the only TCP port the command may connect to
// when the network is not open. It is rendered everywhere, so that it is
// tested everywhere; only macOS runs it.
func seatbeltProfile(r fsRules, openNet bool, proxyPort int) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(deny default)\n")
	// What every program needs to start and run: processes, signals
	// within the sandbox, system information, the services libSystem
	// looks up.
	b.WriteString("(allow process-exec process-fork)\n(allow signal (target same-sandbox))\n")
	b.WriteString("(allow sysctl-read)\n(allow mach-lookup)\n(allow ipc-posix-shm)\n(allow pseudo-tty)\n")
	if r.readAll {
		b.WriteString("(allow file-read*)\n")
	} else {
		b.WriteString("(allow file-read-metadata)\n")
		writeRule(&b, "file-read*", r.read)
	}
	writeRule(&b, "file-read* file-write*", r.write)
	writeRule(&b, "file-read* file-write* file-ioctl", r.devices)
	// Never a unix socket: the daemons behind them (the resident engine,
	// ssh-agent, Docker) act outside the sandbox for whoever connects.
	if openNet {
		b.WriteString("(allow network* (remote ip \"*:*\"))\n(allow network* (local ip \"*:*\"))\n")
	} else {
		b.WriteString("(allow network-outbound (remote tcp \"localhost:" + strconv.Itoa(proxyPort) + "\"))\n")
	}
	return b.String()
}

func writeRule(b *strings.Builder, ops string, paths []string) {
	if len(paths) == 0 {
		return
	}
	fmt.Fprintf(b, "(allow %s", ops)
	for _, p := range paths {
		fmt.Fprintf(b, "\n  (subpath %s)", strconv.Quote(p))
	}
	b.WriteString(")\n")
}
