package netaddr

import (
	"net"
	"testing"
)

func TestLocal(t *testing.T) {
	for _, c := range []struct {
		a    net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4zero, Port: 2222}, "127.0.0.1:2222"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 80}, "127.0.0.1:80"},
		{&net.TCPAddr{IP: net.IPv4(10, 0, 0, 7), Port: 8080}, "10.0.0.7:8080"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 9}, "[::1]:9"},
		{&net.UnixAddr{Name: "/run/parley.sock", Net: "unix"}, "/run/parley.sock"},
	} {
		if got := Local(c.a); got != c.want {
			t.Errorf("Local(%v) = %q, want %q", c.a, got, c.want)
		}
	}
}
