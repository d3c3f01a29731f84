package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseServeSection(t *testing.T) {
	data := `theme: dark
serve:
  addr: 0.0.0.0:2222
  users: team/users.yaml
  host_key: ~/keys/hub
  audit_log: /var/log/parley-audit.jsonl
  max_sessions: 20
  idle_timeout: 90m
  conn_rate: 12
  no_session_timeout: 45s
  max_handshakes: 16
  handshake_rate: 90
  log_format: JSON
  metrics_addr: 127.0.0.1:9470
  cache_size: 2048KiB
  shift_end: "17:30"
`
	c, err := Parse([]byte(data), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := Serve{Addr: "0.0.0.0:2222", Users: "team/users.yaml", HostKey: "~/keys/hub", AuditLog: "/var/log/parley-audit.jsonl",
		MaxSessions: 20, IdleTimeout: 90 * time.Minute, ConnRate: 12, NoSessionTimeout: 45 * time.Second, MaxHandshakes: 16, HandshakeRate: 90,
		LogFormat: "json", MetricsAddr: "127.0.0.1:9470", CacheSize: 2 << 20, ShiftEnd: 17*time.Hour + 30*time.Minute,
		Lines: map[string]int{"addr": 3, "users": 4, "host_key": 5, "audit_log": 6, "max_sessions": 7, "idle_timeout": 8, "conn_rate": 9,
			"no_session_timeout": 10, "max_handshakes": 11, "handshake_rate": 12, "log_format": 13, "metrics_addr": 14, "cache_size": 15,
			"shift_end": 16}}
	if !reflect.DeepEqual(c.Serve, want) {
		t.Fatalf("serve section\n got %+v\nwant %+v", c.Serve, want)
	}
	if got := Resolve(c.Serve.Users, "/home/a/.config/parley/config.yaml", "/home/a"); got != "/home/a/.config/parley/team/users.yaml" {
		t.Errorf("a relative path resolves to %s", got)
	}
	if got := Resolve(c.Serve.HostKey, "/etc/parley/config.yaml", "/home/a"); got != "/home/a/keys/hub" {
		t.Errorf("~/keys/hub resolves to %s", got)
	}
	if got := Resolve(c.Serve.AuditLog, "/etc/parley/config.yaml", "/home/a"); got != "/var/log/parley-audit.jsonl" {
		t.Errorf("an absolute path resolves to %s", got)
	}
}

func TestParseServeProblemsCarryLines(t *testing.T) {
	data := `serve:
  adr: 127.0.0.1:2222
  addr: localhost
  max_sessions: 0
  idle_timeout: 10s
  conn_rate: many
  users: [a, b]
  addr: 127.0.0.1:1
  no_session_timeout: 2h
  max_handshakes: -9223372036854775808
  handshake_rate: 9223372036854775807
  log_format: xml
  metrics_addr: :9470
  cache_size: 64
  shift_end: "25:00"
`
	_, err := Parse([]byte(data), "c.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range []string{
		`c.yaml:2: serve: unknown key "adr" (did you mean "addr"?)`,
		`c.yaml:3: serve: addr: "localhost" is not host:port`,
		`c.yaml:4: serve: max_sessions: 0 is out of range (1 to 10000)`,
		`c.yaml:5: serve: idle_timeout: "10s" is out of range (1m0s to 168h0m0s)`,
		`c.yaml:6: serve: conn_rate: "many" is not a whole number`,
		`c.yaml:7: serve: users must be a single value`,
		`c.yaml:8: serve: addr is set twice (first on line 3)`,
		`c.yaml:9: serve: no_session_timeout: "2h" is out of range (1s to 1h0m0s)`,
		`c.yaml:10: serve: max_handshakes: -9223372036854775808 is out of range (1 to 10000)`,
		`c.yaml:11: serve: handshake_rate: 9223372036854775807 is out of range (1 to 6000)`,
		`c.yaml:12: serve: log_format: "xml" is not a log format (text or json)`,
		`c.yaml:13: serve: metrics_addr: ":9470" names no host: it would listen on every interface`,
		`c.yaml:14: serve: cache_size: "64" is not a size like 64MiB (KiB, MiB or GiB)`,
		`c.yaml:15: serve: shift_end: "25:00" is out of range (00:01 to 24:00)`,
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error\n%s\ndoes not contain\n%s", err, w)
		}
	}
	if _, err := Parse([]byte("serve: yes\n"), "c.yaml"); err == nil || !strings.Contains(err.Error(), "c.yaml:1: serve must map settings to values") {
		t.Errorf("a scalar serve: %v", err)
	}
}

// config set keeps a serve section as it is, and refuses to set the section itself.
func TestSetKeepsTheServeSection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	orig := "serve:\n  addr: 0.0.0.0:2222 # the team\n  max_sessions: 9\n"
	if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Set(path, Setting{KeyTheme, "dark"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), orig) {
		t.Errorf("file:\n%s", data)
	}
	c, err := Load(path)
	if err != nil || c.Serve.MaxSessions != 9 || c.Theme != ThemeDark {
		t.Errorf("reads back %+v, %v", c, err)
	}
	if _, err := Set(path, Setting{KeyServe, "x"}); err == nil {
		t.Error("Set(serve) accepted")
	}
}

// The metrics address must name its host; any host written out is taken (the log says
// when it is not this machine only).
func TestCheckMetricsAddr(t *testing.T) {
	for _, ok := range []string{"127.0.0.1:9470", "[::1]:0", "localhost:9470", "0.0.0.0:9470", "10.0.4.2:9470", "hub.internal:9470"} {
		if err := CheckMetricsAddr(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		":9470":          "write 127.0.0.1:9470 for this machine only, or 0.0.0.0:9470",
		"9470":           "is not host:port",
		"127.0.0.1:http": "is not a port number",
	} {
		if err := CheckMetricsAddr(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", bad, err, want)
		}
	}
}

// A shift end is a time of day, HH:MM, 00:01 to 24:00; a size of memory a whole number of
// KiB, MiB or GiB, 1 MiB to 4 GiB. Both say what they expect of anything else.
func TestShiftEndAndCacheSize(t *testing.T) {
	for in, want := range map[string]time.Duration{"17:00": 17 * time.Hour, " 9:05 ": 9*time.Hour + 5*time.Minute,
		"24:00": 24 * time.Hour, "00:01": time.Minute} {
		if got, err := ParseShiftEnd(in); err != nil || got != want {
			t.Errorf("ParseShiftEnd(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "17", "17:0", "17:60", "-1:00", "24:01", "00:00", "5pm", "017:00", "9223372036854775807:00"} {
		if _, err := ParseShiftEnd(in); err == nil {
			t.Errorf("ParseShiftEnd(%q) took it", in)
		}
	}
	for in, want := range map[string]int64{"64MiB": 64 << 20, "1024KiB": 1 << 20, "4GiB": 4 << 30, " 2 GiB": 2 << 30} {
		if got, err := ParseCacheSize(in); err != nil || got != want {
			t.Errorf("ParseCacheSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "64", "64MB", "1023KiB", "5GiB", "-1MiB", "9223372036854775807KiB", "1.5GiB", "MiB"} {
		if _, err := ParseCacheSize(in); err == nil {
			t.Errorf("ParseCacheSize(%q) took it", in)
		}
	}
	c, err := Parse([]byte("shift_end: \"16:45\"\n"), "c.yaml")
	if err != nil || c.ShiftEnd != 16*time.Hour+45*time.Minute {
		t.Errorf("top-level shift_end: %v, %v", c.ShiftEnd, err)
	}
}
