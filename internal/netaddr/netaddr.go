// Package netaddr says where a client on this machine reaches a listener of parley's (the
// sandbox's HTTP server, the hub's SSH and metrics listeners).
package netaddr

import (
	"net"
	"strconv"
)

// Local is the host:port where a client on this machine reaches a listener on a: a itself,
// or the IPv4 loopback address for the unspecified address (every interface; Go listens
// there on IPv4 and IPv6 alike). An address of [::] or 0.0.0.0 names no machine to dial.
func Local(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return a.String()
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
}
