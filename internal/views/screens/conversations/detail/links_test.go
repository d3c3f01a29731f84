package detail_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/conversations/detail"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// shown is a focused detail pane of w×h showing the conversation the JSON describes.
func shown(t *testing.T, js string, w, h int) detail.Model {
	t.Helper()
	var c client.Conversation
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		t.Fatal(err)
	}
	m := detail.New(viewtest.Ctx(nil))
	m.SetSize(w, h)
	m.Focus()
	m.Load(c.ID, false)
	m.Set(c)
	return m
}

// TestAddonLinksAndTheFieldsSent: the add-on links show by name and host, sorted by name,
// a value that is not a web address as text; subject, accepts_messages, data_privacy and
// page_impressions show as sent. The lowest web link in view is marked and is the one the
// copy key copies.
func TestAddonLinksAndTheFieldsSent(t *testing.T) {
	m := shown(t, `{"id": 7, "status": "new", "subject": "Refund \u001b]0;x\u0007", "accepts_messages": false,
		"data_privacy": true, "page_impressions": 12.5, "addon_urls": {
		"shop_admin": "https://shop.example.com/admin/orders/123456",
		"crm": "https://crm.example.com/contacts/88",
		"evil": "https://evil.example/\u001b]8;;https://phish.example\u0007x",
		"bad": "javascript:alert(1)", "empty": ""}}`, 60, 60)
	v := ansi.Strip(m.View())
	for _, want := range []string{
		"Subject      Refund ␛]0;x␇",
		"Accepts msgs no",
		"Data privacy yes",
		"Impressions  12.5",
		"🔗 bad: javascript:alert(1) (not a web address)",
		"🔗 crm · crm.example.com",
		"🔗 evil · evil.example",
		"▸ 🔗 shop_admin · shop.example.com",
	} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in\n%s", want, v)
		}
	}
	if strings.Contains(v, "empty") {
		t.Errorf("an empty add-on link is shown:\n%s", v)
	}
	if a, b := strings.Index(v, "🔗 bad"), strings.Index(v, "🔗 shop_admin"); a < 0 || b < 0 || a > b {
		t.Errorf("the links are not sorted by name:\n%s", v)
	}
	name, l, ok := m.MarkedLink()
	if !ok || name != "shop_admin" || l.URL != "https://shop.example.com/admin/orders/123456" {
		t.Fatalf("marked link %q %+v %v", name, l, ok)
	}
	viewtest.CheckSize(t, m.View(), 60, 60, "detail")

	// With the last links below the view (the pane's last line says how much is below), the
	// lowest link in view is marked.
	lines := strings.Split(v, "\n")
	crm := -1
	for i, line := range lines {
		if strings.Contains(line, "🔗 crm") {
			crm = i
		}
	}
	m.SetSize(60, crm+2)
	if name, l, ok := m.MarkedLink(); !ok || name != "crm" || l.Host != "crm.example.com" {
		t.Fatalf("with the links below crm out of view the marked link is %q %+v %v:\n%s", name, l, ok, m.View())
	}
	if !strings.Contains(ansi.Strip(m.View()), "▸ 🔗 crm") {
		t.Fatalf("crm is not marked:\n%s", m.View())
	}
}

// TestFieldsNotSentShowNothing: a conversation without those fields (or with null) shows
// no line for them: never a zero or a false the server did not send.
func TestFieldsNotSentShowNothing(t *testing.T) {
	for _, js := range []string{
		`{"id": 7, "status": "new"}`,
		`{"id": 7, "status": "new", "subject": null, "accepts_messages": null, "data_privacy": null, "page_impressions": null, "addon_urls": {}}`,
	} {
		v := ansi.Strip(shown(t, js, 60, 60).View())
		for _, absent := range []string{"Subject", "Accepts msgs", "Data privacy", "Impressions", "Links", "🔗"} {
			if strings.Contains(v, absent) {
				t.Errorf("%s: %q is shown:\n%s", js, absent, v)
			}
		}
	}
}
