package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/navigation"
	"github.com/parley-tui/parley/internal/views/screens/operators"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// hubRole is a role of the team hub as its sessions are built (internal/serve/wire.go), and what
// the hub's gate refuses it, written here from the gate's rules and not from the key table:
// a viewer changes nothing; an agent acts only as their own operator, changes no operator
// (sets only their own away status), no session picks another organization, and no
// session writes a file (a transcript, an export: it would land on the hub's machine).
type hubRole struct {
	name    string
	set     func(o *Options, own int64)
	refuses func(action string, w keymap.Where) bool
}

// apiWrites are the actions that send a write to the API.
var apiWrites = []string{"topics", "note", "edit", "away", "upsert", "delete", "take", "assign", "unassign", "end", "reopen", "toggle_read"}

// fileWriters are the actions that write a file on the machine parley runs on.
var fileWriters = []string{"transcript", "export"}

var hubRoles = []hubRole{
	{"viewer", func(o *Options, own int64) {
		o.ReadOnly, o.FixedOrganization, o.Remote, o.DefaultOperatorID = true, true, true, own
	}, func(a string, _ keymap.Where) bool {
		return slices.Contains(apiWrites, a) || slices.Contains(fileWriters, a) || a == "pick_org" || a == "act_as"
	}},
	{"agent", func(o *Options, own int64) {
		o.FixedOperator, o.FixedOrganization, o.Remote, o.DefaultOperatorID = true, true, true, own
	}, func(a string, w keymap.Where) bool {
		return slices.Contains(fileWriters, a) || a == "pick_org" || a == "act_as" || (w == keymap.InOperators && (a == "edit" || a == "delete"))
	}},
	{"supervisor", func(o *Options, own int64) {
		o.FixedOrganization, o.Remote, o.DefaultOperatorID = true, true, own
	}, func(a string, _ keymap.Where) bool { return slices.Contains(fileWriters, a) || a == "pick_org" }},
}

// TestHubRolesAreOfferedNothingTheHubRefuses is the table of every key × role: in every
// place of every screen, an action the hub's gate would refuse the role is named neither
// by the footer, help nor the palette, and its key opens nothing, sends nothing and says
// at once, in words (no method, no path), why it is off. An agent's away key on another
// operator says so too, before any confirmation.
func TestHubRolesAreOfferedNothingTheHubRefuses(t *testing.T) {
	const w, h = 160, 40
	all := keymap.Default()
	for _, role := range hubRoles {
		t.Run(role.name, func(t *testing.T) {
			l, info := startAppFor(t, nil, w, h, func(o *Options, info sandbox.Info) { role.set(o, info.RestrictedOperatorID) })
			checked := 0
			check := func(place string, where keymap.Where) {
				t.Helper()
				foot := l.footer()
				help := strings.Join(helpEntries(t, l, l.openHelp(), w, h), "\n")
				l.closeAll()
				l.Quiet(200 * time.Millisecond) // timers of the walk so far (rest, reload) are done
				var palette []string
				for _, it := range l.app.paletteItems() {
					if _, here := it.msg.(replayKeyMsg); here {
						palette = append(palette, it.title+" "+it.keys) // a key of this place
					}
					if what := refusedPaletteEntry(all, role, info.RestrictedOperatorID, it); what != "" {
						t.Errorf("%s: the palette offers %q: %s", place, it.title, what)
					}
				}
				for _, action := range keymap.Actions() {
					if !all.Allows(action, where) || !role.refuses(action, where) {
						continue
					}
					b := all.Binding(action)
					hint := b.Help().Key + " " + b.Help().Desc
					if strings.Contains(foot, " "+b.Help().Key+" ") {
						t.Errorf("%s: the footer offers %s: %q", place, action, foot)
					}
					if strings.Contains(help, hint) {
						t.Errorf("%s: help offers %q", place, hint)
					}
					if slices.Contains(palette, b.Help().Desc+" "+b.Help().Key) {
						t.Errorf("%s: the palette offers %q", place, hint)
					}
					for _, k := range b.Keys() {
						toast, what := pressRefusedKey(l, k)
						if what != "" {
							t.Errorf("%s: %s (%s) %s", place, k, action, what)
						}
						if toast == "" || strings.Contains(toast, "/api/") || strings.ContainsAny(toast, "{}") ||
							strings.Contains(toast, "PATCH") || strings.Contains(toast, "DELETE") || !strings.Contains(toast, " is off") {
							t.Errorf("%s: %s (%s) says %q, want why it is off in words", place, k, action, toast)
						}
						checked++
					}
				}
			}
			walkPlaces(l, check)
			if checked == 0 && role.name != "supervisor" {
				t.Fatal("no refused key was pressed: the walk sees nothing")
			}

			// The away key on another operator than one's own.
			l.Key("3")
			ops := l.app.Screen().(*operators.Model)
			l.Until("operators", func() bool { return ops.Loaded() && !ops.Busy() })
			for i := 0; i < 20; i++ {
				if r, ok := ops.Selected(); ok && r.ID != info.RestrictedOperatorID {
					break
				}
				l.Key("j")
			}
			r, _ := ops.Selected()
			toast, what := pressRefusedKey(l, "w")
			switch role.name {
			case "agent":
				if what != "" || !strings.Contains(toast, "sets only their own away status") {
					t.Errorf("w on operator %d: %s, toast %q", r.ID, what, toast)
				}
			case "supervisor":
				if !strings.Contains(what, "opened") {
					t.Errorf("w on operator %d asked nothing (toast %q)", r.ID, toast)
				}
				l.closeAll()
			}
		})
	}
}

// refusedPaletteEntry says what of the hub's refusals the palette entry it offers (another
// screen's key, an operator's away status), or "".
func refusedPaletteEntry(all *keymap.KeyMap, role hubRole, own int64, it paletteItem) string {
	switch msg := it.msg.(type) {
	case screenKeyMsg:
		for _, action := range keymap.Actions() {
			if all.Allows(action, msg.where) && slices.Contains(all.Binding(action).Keys(), msg.press.String()) && role.refuses(action, msg.where) {
				return fmt.Sprintf("%s (%s) of another screen", action, msg.press.String())
			}
		}
	case common.SwitchScreenMsg:
		if c, ok := msg.Then.(operators.ChooseMsg); ok && c.Away &&
			(role.refuses("away", keymap.InOperators) || (role.name == "agent" && c.ID != own)) {
			return fmt.Sprintf("the away status of operator %d", c.ID)
		}
	}
	return ""
}

// pressRefusedKey presses k and reports the toast it raised and what else it did (opened a
// modal, changed the frame, sent a write), closing what it opened.
func pressRefusedKey(l *appLoop, k string) (toast, what string) {
	l.t.Helper()
	toast, did, sent := pressKey(l, k)
	for _, line := range sent {
		if line.Method != "GET" {
			did = append(did, "sent "+line.Method+" "+line.Path)
		}
	}
	if l.top() != nil {
		l.closeAll()
	}
	return toast, strings.Join(did, ", ")
}

// pressKey presses k and reports the newest toast it raised, whether it opened a modal or
// changed the frame (toasts aside), and the requests sent meanwhile; it closes nothing.
func pressKey(l *appLoop, k string) (toast string, did []string, sent []viewtest.Logged) {
	l.t.Helper()
	before, n, toastID := renderWithoutToasts(l.app), len(l.log.Lines()), l.app.toastID
	l.Key(k)
	if m := l.top(); m != nil {
		did = append(did, fmt.Sprintf("opened %T", m))
	}
	if renderWithoutToasts(l.app) != before {
		did = append(did, "changed the frame")
	}
	for _, t := range l.app.toasts {
		if t.id > toastID {
			toast = t.text
		}
	}
	return toast, did, l.log.Lines()[n:]
}

// walkPlaces shows every place of every screen in l (the conversations list, thread and
// detail, the contacts list and a contact without notes, the operators, analytics and
// navigation) and calls check at each.
func walkPlaces(l *appLoop, check func(place string, where keymap.Where)) {
	l.t.Helper()
	tri := l.app.Screen().(*conversations.Model)
	l.Until("conversations", func() bool { return len(tri.List.Rows()) > 0 && !tri.List.Loading() })
	check("conversations list", keymap.InConvList)
	l.Key("enter")
	l.Until("the thread", func() bool { return tri.Focused() == conversations.PaneMessages })
	check("conversations thread", keymap.InThread)
	l.Key("tab")
	l.Until("the detail", func() bool { return tri.Focused() == conversations.PaneDetail })
	check("conversations detail", keymap.InConvDetail)

	l.Key("2")
	ct := l.app.Screen().(*contacts.Model)
	l.Until("contacts", func() bool { return len(ct.List.Rows()) > 0 })
	check("contacts list", keymap.InContactList)
	// A contact without notes: its notes say how to write one (a hint of the n key).
	l.Key("enter")
	l.Until("a contact's detail", func() bool { return ct.Focused() == contacts.PaneDetail })
	for i := 0; i < 30 && !strings.Contains(ansi.Strip(l.app.Render()), "Notes (0)"); i++ {
		l.Key("esc", "j", "enter")
		l.Quiet(50 * time.Millisecond)
	}
	if !strings.Contains(ansi.Strip(l.app.Render()), "Notes (0)") {
		l.t.Fatalf("no contact without notes among the first 30:\n%s", ansi.Strip(l.app.Render()))
	}
	check("contact detail", keymap.InContactDetail)

	l.Key("3")
	ops := l.app.Screen().(*operators.Model)
	l.Until("operators", func() bool { return ops.Loaded() && !ops.Busy() })
	check("operators", keymap.InOperators)
	l.Key("4")
	an := l.app.Screen().(*analytics.Model)
	l.Until("analytics", func() bool { return an.Loaded() })
	check("analytics", keymap.InAnalytics)
	l.Key("5")
	nav := l.app.Screen().(*navigation.Model)
	l.Until("navigation", func() bool { return nav.Loaded() })
	check("navigation", keymap.InNavigation)
}
