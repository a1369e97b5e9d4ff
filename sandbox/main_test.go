package sandbox

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary serve as the engine binary: the
// trampoline starts itself again (os.Executable) to enter the sandbox, and
// the kernel tests run the test binary's helper verbs inside it.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case Verb:
			os.Exit(Main(os.Args[2:], WithResolver(testResolver)))
		case "helper-get":
			os.Exit(helperGet(os.Args[2]))
		case "helper-dial":
			os.Exit(helperDial(os.Args[2], os.Args[3]))
		case "helper-fake-engine":
			os.Exit(helperFakeEngine(os.Args[2]))
		case "helper-probe":
			os.Exit(helperProbe(os.Args[2], os.Args[3]))
		}
	}
	os.Exit(m.Run())
}

// testResolver maps every name under .test to 127.0.0.1, where the tests'
// servers listen: the proxy resolves names itself.
func testResolver(ctx context.Context, host string) ([]netip.Addr, error) {
	if strings.HasSuffix(host, ".test") {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// helperGet fetches url through the proxy the environment names, prints
// the body, and exits 0, or prints the failure and exits 3.
func helperGet(u string) int {
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: func(*http.Request) (*url.URL, error) {
		p := os.Getenv("HTTP_PROXY")
		if p == "" {
			return nil, nil
		}
		return url.Parse(p)
	}}}
	resp, err := c.Get(u)
	if err != nil {
		fmt.Println("error:", err)
		return 3
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Printf("%d %s", resp.StatusCode, b)
	if resp.StatusCode != 200 {
		return 3
	}
	return 0
}

// helperDial opens a socket of kind (tcp, udp, mptcp) to addr directly,
// bypassing any proxy; it exits 0 when it could.
func helperDial(kind, addr string) int {
	var err error
	switch kind {
	case "mptcp":
		d := net.Dialer{Timeout: 5 * time.Second}
		d.SetMultipathTCP(true)
		var c net.Conn
		if c, err = d.Dial("tcp", addr); err == nil {
			c.Close()
		}
	default:
		var c net.Conn
		if c, err = net.DialTimeout(kind, addr, 5*time.Second); err == nil {
			if kind == "udp" {
				_, err = c.Write([]byte("x"))
			}
			c.Close()
		}
	}
	if err != nil {
		fmt.Println("error:", err)
		return 3
	}
	fmt.Println("connected")
	return 0
}
