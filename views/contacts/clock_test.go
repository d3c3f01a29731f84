package contacts_test

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/contacts"
	"github.com/parley-tui/parley/views/viewtest"
)

// TestListAgesFollowTheServerClock: with the local clock 10 minutes fast, a contact row's
// age is told from the server's clock (learnt from its answers), not 10 minutes more.
func TestListAgesFollowTheServerClock(t *testing.T) {
	s := viewtest.NewSkewed(t, 10*time.Minute, sandbox.Options{})
	ctx := s.Ctx()
	ctx.PageSize = 100
	m := contacts.NewList(ctx)
	m.SetSize(120, 60)
	m.Focus()
	m = viewtest.Settle(m, m.Load(false), wait)
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	checked := 0
	for _, r := range m.Rows() {
		want, wrong := common.RelTime(r.LastAt, s.Server.Now()), common.RelTime(r.LastAt, s.Local())
		var found []string
		for _, l := range lines {
			if r.Name != "" && strings.Contains(l, r.Name) {
				found = append(found, l)
			}
		}
		if want == wrong || len(found) != 1 {
			continue // the same age either way, not shown, or the name does not tell its line
		}
		if f := strings.Fields(found[0]); f[len(f)-1] != want {
			t.Errorf("contact %d (last message %s before the server's now) shows %q, want %q", r.ID,
				s.Server.Now().Sub(r.LastAt), f[len(f)-1], want)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no visible row whose age differs by the skew: the seed has no recent contact")
	}
}

// TestDetailAgesFollowTheServerClock: with the local clock 10 minutes fast or slow, the
// contact detail tells ages from the server's clock: a contact created 20 seconds ago on the
// server was created "just now", not "10m ago", and the age is not left out as if to come.
func TestDetailAgesFollowTheServerClock(t *testing.T) {
	for _, skew := range []time.Duration{10 * time.Minute, -10 * time.Minute} {
		s := viewtest.NewSkewed(t, skew, sandbox.Options{})
		p, err := s.Client.ListContacts(t.Context(), client.ContactListOptions{ListOptions: client.ListOptions{Limit: 1}})
		if err != nil || len(p.Results) == 0 {
			t.Fatalf("list: %v", err)
		}
		c := p.Results[0]
		c.CreatedAt = client.Time{Time: s.Server.Now().Add(-20 * time.Second)}
		d := contacts.NewDetail(s.Ctx())
		d.SetSize(80, 60)
		_ = d.Open(c.ID, false) // the pane shows contact c.ID (its loads are not run)
		d.SetContact(c)
		var line string
		for _, l := range strings.Split(ansi.Strip(d.View()), "\n") {
			if strings.Contains(l, "Created") {
				line = l
			}
		}
		if !strings.Contains(line, "(just now)") {
			t.Errorf("local clock off by %s: the detail shows %q, want the contact created \"just now\"", skew, strings.TrimSpace(line))
		}
	}
}
