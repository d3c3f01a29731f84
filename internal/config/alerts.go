package config

import (
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// KeyAlerts is the top-level key of the alerts section: how parley tells the agent that
// something arrived (a conversation new to the list, one newly assigned to them, a new
// message in one of theirs).
const KeyAlerts = "alerts"

// KeyMarkReadOnOpen is the top-level key of the setting that marks an unread conversation
// read when it is opened.
const KeyMarkReadOnOpen = "mark_read_on_open"

// The keys of the alerts: section.
const (
	AlertBell   = "bell"   // the terminal bell on arrivals (true or false)
	AlertTitle  = "title"  // the terminal's title with the counts (true or false)
	AlertNotify = "notify" // desktop notifications through the terminal: off, osc9 or osc777
	AlertMute   = "mute"   // how long the mute key silences the bell and notifications
)

var alertKeys = []string{AlertBell, AlertTitle, AlertNotify, AlertMute}

// The ways a desktop notification may go (Alerts.Notify).
const (
	NotifyOff    = "off"
	NotifyOSC9   = "osc9"   // ESC ] 9 ; text BEL: iTerm2, WezTerm, Ghostty, kitty, foot…
	NotifyOSC777 = "osc777" // ESC ] 777 ; notify ; title ; body BEL: VTE terminals, urxvt, foot, WezTerm, Ghostty…
)

// NotifyWays are the values notify takes.
var NotifyWays = []string{NotifyOff, NotifyOSC9, NotifyOSC777}

// Defaults and limits of the alerts section.
const (
	DefaultMute = 30 * time.Minute
	MinMute     = time.Minute
	MaxMute     = 24 * time.Hour
)

// Alerts is the alerts: section. A nil or empty field is not set.
type Alerts struct {
	Bell   *bool
	Title  *bool
	Notify string        // one of NotifyWays ("" = not set)
	Mute   time.Duration // 0 = not set
	// Lines maps each key of the section to its line in the file.
	Lines map[string]int
}

// ParseNotify reads a notify value: off (or false), osc9 or osc777.
func ParseNotify(s string) (string, error) {
	if w, ok := oneOf(s, NotifyWays, map[string]string{"false": NotifyOff}); ok {
		return w, nil
	}
	return "", fmt.Errorf("%q is not one of %s (osc9 for iTerm2, WezTerm, Ghostty and kitty; osc777 for GNOME Terminal and other VTE terminals, urxvt and foot)",
		s, strings.Join(NotifyWays, ", "))
}

// ParseMute reads the mute duration: a duration such as 30m or 2h, 1m to 24h.
func ParseMute(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration like 30m or 2h", s)
	}
	if d < MinMute || d > MaxMute {
		return 0, fmt.Errorf("%s is outside 1m to 24h", d)
	}
	return d, nil
}

// alerts reads the alerts: section.
func (p *parser) alerts(v *yaml.Node) {
	a := &p.c.Alerts
	a.Lines = p.section(v, "alerts", "alerts must map settings to values, like \"bell: false\"", alertKeys, a.settings())
}

// settings are the settings of the section, by key.
func (a *Alerts) settings() map[string]setter {
	return map[string]setter{
		AlertBell:   store(&a.Bell, ptr(parseBool)),
		AlertTitle:  store(&a.Title, ptr(parseBool)),
		AlertNotify: store(&a.Notify, ParseNotify),
		AlertMute:   store(&a.Mute, ParseMute),
	}
}
