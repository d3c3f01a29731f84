package config

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// The keys of the serve: section.
const (
	ServeAddr        = "addr"
	ServeUsers       = "users"
	ServeHostKey     = "host_key"
	ServeAuditLog    = "audit_log"
	ServeMaxSessions = "max_sessions"
	ServeIdleTimeout = "idle_timeout"
	ServeConnRate    = "conn_rate"
	// ServeNoSessionTimeout, ServeMaxHandshakes and ServeHandshakeRate bound the
	// connections that do not (yet) run a session.
	ServeNoSessionTimeout = "no_session_timeout"
	ServeMaxHandshakes    = "max_handshakes"
	ServeHandshakeRate    = "handshake_rate"
	// ServeLogFormat is how the hub writes its log: text or json.
	ServeLogFormat = "log_format"
	// ServeMetricsAddr is where the hub serves /metrics and /healthz (off when not set).
	ServeMetricsAddr = "metrics_addr"
	// ServeCacheSize bounds the hub's memory of decoded answers, which every session
	// shares; ServeShiftEnd is when the team's working day ends (the day's forecast).
	ServeCacheSize = "cache_size"
	ServeShiftEnd  = "shift_end"
)

var serveKeys = []string{ServeAddr, ServeUsers, ServeHostKey, ServeAuditLog, ServeMaxSessions, ServeIdleTimeout, ServeConnRate,
	ServeNoSessionTimeout, ServeMaxHandshakes, ServeHandshakeRate, ServeLogFormat, ServeMetricsAddr, ServeCacheSize, ServeShiftEnd}

// LogFormats are the formats of the hub's log: records as key=value text, or one JSON
// object a line.
var LogFormats = []string{"text", "json"}

// Limits of the serve: settings.
const (
	MaxServeSessions = 10000
	MinIdleTimeout   = time.Minute
	MaxIdleTimeout   = 7 * 24 * time.Hour
	MaxServeConnRate = 6000
	// MaxServeHandshakes bounds max_handshakes; handshake_rate is 1 to MaxServeConnRate.
	MaxServeHandshakes  = 10000
	MinNoSessionTimeout = time.Second
	MaxNoSessionTimeout = time.Hour
	serveSectionUsage   = "serve must map settings to values, like \"addr: 127.0.0.1:2222\""
)

// Serve is the serve: section of a config file: the settings of `parley serve`. A zero
// field is not set. Paths are as written (relative ones are relative to the config file's
// directory: see Resolve).
type Serve struct {
	Addr        string
	Users       string
	HostKey     string
	AuditLog    string
	MaxSessions int
	IdleTimeout time.Duration
	ConnRate    int
	// NoSessionTimeout closes a connection without a session after that long.
	NoSessionTimeout time.Duration
	// MaxHandshakes is how many handshakes may be in progress at once.
	MaxHandshakes int
	// HandshakeRate is how many connections all addresses together may open a minute.
	HandshakeRate int
	// LogFormat is the format of the hub's log (one of LogFormats).
	LogFormat string
	// MetricsAddr is where the hub serves /metrics and /healthz ("": nowhere).
	MetricsAddr string
	// CacheSize bounds the hub's memory of decoded answers, in bytes (ParseCacheSize).
	CacheSize int64
	// ShiftEnd is when the team's working day ends, the time since midnight
	// (ParseShiftEnd).
	ShiftEnd time.Duration
	// Lines maps each key of the section to its line in the file.
	Lines map[string]int
}

// Resolve returns path as the config file at configPath means it: a relative path is
// relative to the config file's directory; "~/" is the home directory home.
func Resolve(path, configPath, home string) string {
	switch {
	case path == "":
		return ""
	case strings.HasPrefix(path, "~/") && home != "":
		return filepath.Join(home, path[2:])
	case filepath.IsAbs(path) || configPath == "":
		return path
	}
	return filepath.Join(filepath.Dir(configPath), path)
}

func (p *parser) serve(v *yaml.Node) {
	s := &p.c.Serve
	s.Lines = p.section(v, "serve", serveSectionUsage, serveKeys, s.settings())
}

// settings are the settings of the section, by key.
func (s *Serve) settings() map[string]setter {
	return map[string]setter{
		ServeAddr:        store(&s.Addr, checked(CheckListenAddr)),
		ServeUsers:       store(&s.Users, filePath),
		ServeHostKey:     store(&s.HostKey, filePath),
		ServeAuditLog:    store(&s.AuditLog, filePath),
		ServeMaxSessions: store(&s.MaxSessions, wholeIn(1, MaxServeSessions)),
		ServeIdleTimeout: store(&s.IdleTimeout, ParseIdleTimeout),
		ServeConnRate:    store(&s.ConnRate, wholeIn(1, MaxServeConnRate)),
		ServeNoSessionTimeout: store(&s.NoSessionTimeout, func(text string) (time.Duration, error) {
			return durationIn(text, MinNoSessionTimeout, MaxNoSessionTimeout, "30s or 2m")
		}),
		ServeMaxHandshakes: store(&s.MaxHandshakes, wholeIn(1, MaxServeHandshakes)),
		ServeHandshakeRate: store(&s.HandshakeRate, wholeIn(1, MaxServeConnRate)),
		ServeLogFormat:     store(&s.LogFormat, ParseLogFormat),
		ServeMetricsAddr:   store(&s.MetricsAddr, checked(CheckMetricsAddr)),
		ServeCacheSize:     store(&s.CacheSize, ParseCacheSize),
		ServeShiftEnd:      store(&s.ShiftEnd, ParseShiftEnd),
	}
}

// checked reads a text that check accepts as itself.
func checked(check func(string) error) func(string) (string, error) {
	return func(s string) (string, error) {
		if err := check(s); err != nil {
			return "", err
		}
		return s, nil
	}
}

// filePath reads a file path: any text but none.
func filePath(s string) (string, error) {
	if s == "" {
		return "", fmt.Errorf("must be a file path")
	}
	return s, nil
}

// CheckListenAddr checks an address to listen on: host:port, the port 0 to 65535 (0
// picks a free one).
func CheckListenAddr(s string) error {
	_, port, err := net.SplitHostPort(s)
	if err != nil {
		return fmt.Errorf("%q is not host:port (like 127.0.0.1:2222)", s)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return fmt.Errorf("%q is not a port number", port)
	}
	return nil
}

// CheckMetricsAddr checks the address of the hub's metrics: host:port (CheckListenAddr)
// with the host written out. A missing host (":9470") would listen on every interface
// without saying so, and /metrics asks for no credentials: the address must say
// 127.0.0.1 (this machine only) or, to let another machine scrape, the address to listen
// on (0.0.0.0, an interface's address, a name).
func CheckMetricsAddr(s string) error {
	if err := CheckListenAddr(s); err != nil {
		return err
	}
	host, port, _ := net.SplitHostPort(s)
	if host == "" {
		return fmt.Errorf("%q names no host: it would listen on every interface, and /metrics asks for no credentials; "+
			"write 127.0.0.1:%s for this machine only, or 0.0.0.0:%s to let other machines scrape it", s, port, port)
	}
	return nil
}

// ParseLogFormat reads the format of the hub's log: text or json.
func ParseLogFormat(s string) (string, error) {
	if f, ok := oneOf(s, LogFormats, nil); ok {
		return f, nil
	}
	return "", fmt.Errorf("%q is not a log format (%s)", s, strings.Join(LogFormats, " or "))
}

// ParseIdleTimeout reads a session idle timeout: a Go duration such as 8h or 90m,
// MinIdleTimeout to MaxIdleTimeout.
func ParseIdleTimeout(s string) (time.Duration, error) {
	return durationIn(s, MinIdleTimeout, MaxIdleTimeout, "8h or 90m")
}

// durationIn reads a Go duration from lo to hi; like names examples for the error.
func durationIn(s string, lo, hi time.Duration, like string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration like %s", s, like)
	}
	if d < lo || d > hi {
		return 0, fmt.Errorf("%q is out of range (%s to %s)", s, lo, hi)
	}
	return d, nil
}
