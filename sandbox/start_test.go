package sandbox_test

import (
	"net"
	"net/url"
	"testing"

	"github.com/parley-tui/parley/sandbox"
)

// On every interface (0.0.0.0, [::] or no host), the base URL names this machine's loopback
// address, which a client can use (and a shell reads without globbing): never the
// unspecified address, which names no machine. Addr is the address listened on.
func TestStartOnEveryInterfaceGivesALoopbackURL(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", ":0"} {
		r, err := sandbox.Start(t.Context(), sandbox.Options{Size: sandbox.SizeSmall, Now: clock}, addr)
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(r.URL)
		if err != nil {
			t.Fatal(err)
		}
		tcp, ok := r.Addr.(*net.TCPAddr)
		if !ok || !tcp.IP.IsUnspecified() || u.Hostname() != "127.0.0.1" || u.Port() == "" || u.Port() != itoa(int64(tcp.Port)) {
			t.Fatalf("%s: URL %s, Addr %v; want http://127.0.0.1 on the port of an unspecified Addr", addr, r.URL, r.Addr)
		}
		a := newAPI(t, r)
		expectStatus(t, a.get("/api/um/v3/operators/"), 200, addr)
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
