package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/sanitize"
)

// The alerts of arrivals (common.Arrival: what a refresh merge or a shared poll brought
// into the session's queues). The conversations screen finds them and counts those not
// opened yet (common.Arriving); the root rings the bell, sends the desktop notification,
// writes the counts into the terminal's title and beside the tab. Every byte goes out
// through the session's own program (tea.Raw, the view's title): in the team hub that is
// the session's SSH channel, never the hub's terminal.

// Alerts are the alerts of arrivals (the config file's alerts: section and the flags).
type Alerts struct {
	// Bell rings the terminal bell on arrivals, at most once every BellGap.
	Bell bool
	// Title writes the counts of arrivals not opened yet into the terminal's title (OSC
	// 2): "parley — 3 new · 1 mine".
	Title bool
	// Notify sends a desktop notification through the terminal on arrivals.
	Notify Notify
	// Mute is how long the mute key silences the bell and the notifications (0: 30
	// minutes).
	Mute time.Duration
}

// Notify is how a desktop notification goes to the terminal.
type Notify int

// The ways of a notification.
const (
	NotifyOff    Notify = iota
	NotifyOSC9          // ESC ] 9 ; text BEL
	NotifyOSC777        // ESC ] 777 ; notify ; title ; body BEL
)

// BellGap is the least time between two rings of the bell (and two notifications), by
// the injected clock: a burst of arrivals over several polls rings once.
const BellGap = 15 * time.Second

// defaultMute is the mute key's silence without a setting.
const defaultMute = 30 * time.Minute

// TitleSave and TitleRestore are XTWINOPS' push and pop of the terminal's title (CSI 22;0t,
// CSI 23;0t): written around the program, they give the terminal back the title it had
// (xterm, VTE terminals, kitty, WezTerm, iTerm2; others ignore them and keep the empty
// title Bubble Tea leaves).
const (
	TitleSave    = "\x1b[22;0t"
	TitleRestore = "\x1b[23;0t"
)

// TitleBracket is what to write to the terminal before the program starts and after it
// ended: the title's save and restore when parley writes the title, else nothing.
func (o Options) TitleBracket() (before, after string) {
	if !o.Alerts.Title {
		return "", ""
	}
	return TitleSave, TitleRestore
}

// alerting is the root's state of the alerts.
type alerting struct {
	last  time.Time // when the bell last rang (or a notification went)
	muted time.Time // the mute ends (zero: not muted)
}

// onArrived rings the bell and sends a notification for arrivals, unless muted or within
// BellGap of the last one.
func (a *App) onArrived(msg common.ArrivedMsg) tea.Cmd {
	o, now := a.opts.Alerts, a.ctx.Now()
	if len(msg.Arrivals) == 0 || (!o.Bell && o.Notify == NotifyOff) || a.isMuted() {
		return nil
	}
	if !a.alert.last.IsZero() && !now.Before(a.alert.last) && now.Sub(a.alert.last) < BellGap {
		return nil
	}
	a.alert.last = now
	var out strings.Builder
	if o.Bell {
		out.WriteByte('\a')
	}
	out.WriteString(notification(o.Notify, notifyText(msg.Arrivals)))
	return tea.Raw(out.String())
}

// isMuted reports whether the mute key silences the bell and the notifications now.
func (a *App) isMuted() bool { return !a.alert.muted.IsZero() && a.ctx.Now().Before(a.alert.muted) }

// toggleMute silences the bell and the notifications for the mute duration, or sounds
// them again.
func (a *App) toggleMute() tea.Cmd {
	key := a.ctx.Keys.MuteAlerts.Help().Key
	if a.isMuted() {
		a.alert.muted = time.Time{}
		return common.Toast("Alerts on again: the bell and notifications sound for arrivals.")
	}
	d := a.opts.Alerts.Mute
	if d <= 0 {
		d = defaultMute
	}
	a.alert.muted = a.ctx.Now().Add(d)
	return common.Toast(fmt.Sprintf("Alerts muted for %s: no bell, no notification (the title and counts go on); %s sounds them again.",
		common.CompactDuration(d), key))
}

// muteSegment is the status bar's part while muted: until when, by the local clock.
func (a *App) muteSegment() []segment {
	if !a.isMuted() {
		return nil
	}
	return []segment{{"muted until " + a.alert.muted.Format("15:04"), "muted", a.ctx.Styles.StatusBar, 2}}
}

// unseen counts the arrivals not opened yet, from the screens that count them.
func (a *App) unseen() common.Unseen {
	var u common.Unseen
	for _, s := range a.route.Screens {
		if c, ok := s.(common.Arriving); ok {
			n := c.Unseen()
			u.All, u.New, u.Mine = u.All+n.All, u.New+n.New, u.Mine+n.Mine
		}
	}
	return u
}

// windowTitle is the terminal's title: "parley", then the counts of arrivals not opened yet
// ("parley — 3 new · 1 mine"); numbers only, never text of the API's. "" when parley does
// not write the title.
func (a *App) windowTitle() string {
	if !a.opts.Alerts.Title {
		return ""
	}
	u := a.unseen()
	if c := counted(u.New, u.Mine); c != "" {
		return "parley — " + c
	}
	return "parley"
}

// counted words counts of arrivals as the title and a notification give them: "3 new · 1
// mine" ("" when both are 0).
func counted(n, mine int) string {
	var parts []string
	if n > 0 {
		parts = append(parts, strconv.Itoa(n)+" new")
	}
	if mine > 0 {
		parts = append(parts, strconv.Itoa(mine)+" mine")
	}
	return strings.Join(parts, " · ")
}

// tabCount is what the tab of screen i shows beside its title: the arrivals not opened
// yet ("" when none, or the screen counts none).
func (a *App) tabCount(i int) string {
	if c, ok := a.route.Screens[i].(common.Arriving); ok {
		if n := c.Unseen().All; n > 0 {
			return strconv.Itoa(n)
		}
	}
	return ""
}

// maxNotifyName is the most cells of a contact's name a notification carries.
const maxNotifyName = 40

// notifyText words arrivals for a notification: one names its contact ("Assigned to you:
// Ann Lee"), several are counted as the title counts them ("3 new · 1 mine").
func notifyText(as []common.Arrival) string {
	if len(as) == 1 {
		x := as[0]
		name := notifyName(x.Name)
		if name == "" {
			name = fmt.Sprintf("conversation #%d", x.Conversation.ID)
		}
		switch {
		case x.Assigned:
			return "Assigned to you: " + name
		case x.Message:
			return "New message from " + name
		}
		return "New conversation from " + name
	}
	u := common.CountArrivals(slices.Values(as))
	return counted(u.New, u.Mine)
}

// notifyName is a contact's name as a notification carries it: sanitized to one line, cut
// to maxNotifyName cells, and without any character that could end or split the
// sequence it travels in (ESC, BEL, every other C0 and C1 control, ST, and the ';' that
// separates OSC 777's fields).
func notifyName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			return -1
		case r == ';':
			return ','
		}
		return r
	}, sanitize.Line(s))
	return ansi.Truncate(strings.TrimSpace(s), maxNotifyName, "…")
}

// notification is the sequence that asks the terminal for a desktop notification of text
// ("" when off). text is parley's words and names made safe by notifyName.
func notification(how Notify, text string) string {
	switch how {
	case NotifyOSC9:
		return "\x1b]9;parley: " + text + "\a"
	case NotifyOSC777:
		return "\x1b]777;notify;parley;" + text + "\a"
	}
	return ""
}
