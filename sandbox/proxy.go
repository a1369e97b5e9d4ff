package sandbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Resolver turns a host name into addresses. The proxy resolves names
// itself and connects to the address it checked, so a name cannot be
// re-pointed between the check and the connection.
type Resolver func(ctx context.Context, host string) ([]netip.Addr, error)

// proxy is the local allow-list proxy a sandboxed command reaches the
// network through: HTTP CONNECT for TLS and anything tunnelled, and plain
// HTTP requests in absolute form. Landlock lets the command connect to its
// port only.
type proxy struct {
	net     Network
	resolve Resolver
	log     io.Writer // refusals, one line each, for the user and the after-hooks
	ln      net.Listener
	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   map[net.Conn]struct{}
	closed  bool
	dialer  net.Dialer
}

// startProxy listens on 127.0.0.1 on a port of the kernel's choosing and
// serves until ctx ends or stop is called.
func startProxy(ctx context.Context, n Network, resolve Resolver, log io.Writer) (*proxy, error) {
	if resolve == nil {
		resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	var lc net.ListenConfig
	// Plain TCP: the command's Landlock rule names this port for TCP.
	lc.SetMultipathTCP(false)
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("start the sandbox's network proxy: %w", err)
	}
	p := &proxy{net: n, resolve: resolve, log: log, ln: ln, conns: map[net.Conn]struct{}{}, dialer: net.Dialer{Timeout: 30 * time.Second}}
	p.dialer.SetMultipathTCP(false)
	p.wg.Go(func() { p.serve(ctx) })
	go func() {
		<-ctx.Done()
		p.stop()
	}()
	return p, nil
}

// port is the proxy's TCP port.
func (p *proxy) port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// stop closes the listener and every connection, and waits for the
// goroutines: nothing of the proxy outlives the command.
func (p *proxy) stop() {
	p.mu.Lock()
	if !p.closed {
		p.closed = true
		_ = p.ln.Close()
		for c := range p.conns {
			_ = c.Close()
		}
	}
	p.mu.Unlock()
	p.wg.Wait()
}

func (p *proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		_ = c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	_ = c.Close()
}

func (p *proxy) serve(ctx context.Context) {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		if !p.track(c) {
			return
		}
		p.wg.Go(func() {
			defer p.untrack(c)
			p.handle(ctx, c)
		})
	}
}

// handle serves one client connection: one request, then the tunnel or
// the response.
func (p *proxy) handle(ctx context.Context, c net.Conn) {
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	host, port, err := target(req)
	if err != nil {
		p.refuse(c, http.StatusBadRequest, err.Error())
		return
	}
	up, why := p.dial(ctx, host, port)
	if up == nil {
		p.refuse(c, http.StatusForbidden, why)
		return
	}
	if !p.track(up) {
		return
	}
	defer p.untrack(up)
	if req.Method == http.MethodConnect {
		if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
			return
		}
	} else {
		// Plain HTTP: pass the request on in origin form, one per
		// connection, then the response back as it comes.
		req.RequestURI = ""
		req.Header.Del("Proxy-Connection")
		req.Header.Del("Proxy-Authorization")
		req.Close = true
		if err := req.Write(up); err != nil {
			return
		}
	}
	splice(c, br, up)
}

// target is the host and port a request wants.
func target(req *http.Request) (string, string, error) {
	hostport := req.Host
	if req.Method != http.MethodConnect {
		if req.URL == nil || req.URL.Host == "" {
			return "", "", errors.New("not a proxy request: the URL has no host")
		}
		if req.URL.Scheme != "http" {
			return "", "", fmt.Errorf("scheme %q: only http:// requests and CONNECT tunnels go through the proxy", req.URL.Scheme)
		}
		hostport = req.URL.Host
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		if req.Method == http.MethodConnect {
			return "", "", fmt.Errorf("CONNECT %q: no port", hostport)
		}
		host, port = strings.Trim(hostport, "[]"), "80"
	}
	if host == "" {
		return "", "", errors.New("no host")
	}
	return host, port, nil
}

// dial checks host against the policy, resolves it, checks each address
// and connects to the first that passes and answers. It returns the
// refusal when none does.
func (p *proxy) dial(ctx context.Context, host, port string) (net.Conn, string) {
	if v := p.net.checkName(host); !v.ok {
		return nil, v.reason
	}
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip}
	} else {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		addrs, err = p.resolve(rctx, host)
		cancel()
		if err != nil || len(addrs) == 0 {
			return nil, fmt.Sprintf("%s does not resolve: %v", host, err)
		}
	}
	why := ""
	for _, ip := range addrs {
		if v := p.net.checkAddr(host, ip); !v.ok {
			why = v.reason
			continue
		}
		c, err := p.dialer.DialContext(ctx, "tcp", net.JoinHostPort(ip.Unmap().String(), port))
		if err == nil {
			return c, ""
		}
		why = fmt.Sprintf("%s: %v", host, err)
	}
	return nil, why
}

// refuse answers the client with the reason, and says it on the log.
func (p *proxy) refuse(c net.Conn, status int, why string) {
	msg := "agenthooks sandbox: network access refused: " + why
	if p.log != nil && status == http.StatusForbidden {
		fmt.Fprintln(p.log, msg)
	}
	body := msg + "\n"
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), len(body), body)
}

// splice copies both ways until either side is done; what the client sent
// after the request head is in br.
func splice(client net.Conn, br *bufio.Reader, up net.Conn) {
	done := make(chan struct{}, 2)
	go func() {
		_, _ = io.Copy(up, br)
		if tc, ok := up.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		done <- struct{}{}
	}()
	go func() {
		_, _ = io.Copy(client, up)
		if tc, ok := client.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
		done <- struct{}{}
	}()
	<-done
	<-done
}
