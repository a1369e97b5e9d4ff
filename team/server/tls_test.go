package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"net/http"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their paths and a pool trusting the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "agenthooks test"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

func TestTLS(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)
	e := start(t, backends[0], func(c *Config) { c.TLSCertFile, c.TLSKeyFile = certFile, keyFile })
	if !strings.HasPrefix(e.base, "https://") {
		t.Fatalf("base %s", e.base)
	}
	for _, p := range protocols {
		p.client = func() *http.Client { return tlsClient(&tls.Config{RootCAs: pool}) }
		r, err := e.hooksClient(e.member, p).GetTeamHooks(context.Background(), connect.NewRequest(&teamv1.GetTeamHooksRequest{}))
		if err != nil || r.Msg.TeamName != "platform" {
			t.Errorf("%s over TLS: %v, %v", p.name, r, err)
		}
	}
	// Plain HTTP to the TLS port gets nowhere.
	plain := e
	plain.base = "http://" + strings.TrimPrefix(e.base, "https://")
	if _, err := plain.hooksClient(e.member, protocols[0]).GetTeamHooks(context.Background(), connect.NewRequest(&teamv1.GetTeamHooksRequest{})); err == nil {
		t.Error("plain HTTP to the TLS listener worked")
	}
}

func TestTLSConfigErrors(t *testing.T) {
	st := openStore(t, backends[0], store.Options{})
	certFile, keyFile, _ := selfSigned(t)
	for _, c := range []struct {
		cert, key, want string
	}{
		{certFile, "", "both a certificate and a key"},
		{"", keyFile, "both a certificate and a key"},
		{certFile, certFile, "TLS certificate"},
		{filepath.Join(t.TempDir(), "missing.pem"), keyFile, "missing.pem"},
	} {
		_, err := New(Config{Store: st, TLSCertFile: c.cert, TLSKeyFile: c.key})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("cert %q key %q: %v, want %q", c.cert, c.key, err, c.want)
		}
	}
}
