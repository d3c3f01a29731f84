package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAlertsSection(t *testing.T) {
	c, err := Parse([]byte("alerts:\n  bell: false\n  title: TRUE\n  notify: osc777\n  mute: 2h\nmark_read_on_open: false\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a := c.Alerts
	if a.Bell == nil || *a.Bell || a.Title == nil || !*a.Title || a.Notify != NotifyOSC777 || a.Mute != 2*time.Hour {
		t.Errorf("alerts %+v", a)
	}
	if c.MarkReadOnOpen == nil || *c.MarkReadOnOpen {
		t.Errorf("mark_read_on_open %v", c.MarkReadOnOpen)
	}
	if c, err := Parse([]byte("alerts:\n  notify: false\n"), "c.yaml"); err != nil || c.Alerts.Notify != NotifyOff || c.Alerts.Bell != nil {
		t.Errorf("notify: false: %+v, %v", c.Alerts, err)
	}
	if c, err := Parse([]byte("theme: dark\n"), "c.yaml"); err != nil || c.MarkReadOnOpen != nil || c.Alerts.Bell != nil || c.Alerts.Notify != "" {
		t.Errorf("unset: %+v %v, %v", c.Alerts, c.MarkReadOnOpen, err)
	}
}

func TestBadAlertsHaveLines(t *testing.T) {
	data := `theme: dark
alerts:
  bell: loud
  notify: osc8
  mute: 10s
  bel: true
  title: true
  title: false
mark_read_on_open: maybe
`
	_, err := Parse([]byte(data), "c.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`c.yaml:3: alerts: bell: "loud" is not true or false`,
		`c.yaml:4: alerts: notify: "osc8" is not one of off, osc9, osc777`,
		`c.yaml:5: alerts: mute: 10s is outside 1m to 24h`,
		`c.yaml:6: alerts: unknown key "bel" (did you mean "bell"?)`,
		`c.yaml:8: alerts: title is set twice (first on line 7)`,
		`c.yaml:9: mark_read_on_open: "maybe" is not true or false`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
	if _, err := Parse([]byte("alerts: loud\n"), "c.yaml"); err == nil || !strings.Contains(err.Error(), "alerts must map settings to values") {
		t.Errorf("a scalar section: %v", err)
	}
}

// mark_read_on_open is set like any top-level setting; the alerts section is not (a
// section is edited by hand).
func TestSetMarkReadOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("# mine\ntheme: dark\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Set(path, Setting{KeyMarkReadOnOpen, "false"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil || c.MarkReadOnOpen == nil || *c.MarkReadOnOpen {
		t.Fatalf("after Set: %v, %v", c.MarkReadOnOpen, err)
	}
	if _, err := Set(path, Setting{KeyAlerts, "off"}); err == nil {
		t.Error("Set wrote the alerts section")
	}
}
