package detail_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/conversations/detail"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// TestEveryTextIsSanitized: API text in any slot of the detail (fields, part titles,
// custom data) reaches the screen inert, and every line fits the pane.
func TestEveryTextIsSanitized(t *testing.T) {
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	m := detail.New(viewtest.Ctx(c))
	m.SetSize(60, 80)
	evil := "\x1b]0;pwned\x07Eve\u202e\u009b2J" + viewtest.Invisible
	ref := evil
	m.Load(7, false) // the pane now shows conversation 7 (the command is not run)
	m.Set(client.Conversation{
		ID: 7, Status: evil, StatusDescription: evil, LanguageName: evil, Locale: evil,
		Widget:              client.Widget{Name: evil},
		Contact:             client.Contact{Name: &evil, City: &evil},
		FeedbackMessage:     &evil,
		Topics:              []client.Topic{{Text: evil}},
		Custom:              []byte(`{"note": "\u001b[2J"}`),
		ConversationPartSet: []client.ConversationPart{{NameFriendly: evil, Referrer: &ref, Browser: client.Browser{Name: evil}}},
	})
	v := m.View()
	if !strings.Contains(v, "Part 1 of 1") {
		t.Fatalf("the part is not shown:\n%s", v)
	}
	viewtest.CheckInert(t, v, "the detail pane")
	for i, l := range strings.Split(v, "\n") {
		if w := ansi.StringWidth(l); w != 60 {
			t.Fatalf("line %d is %d wide", i, w)
		}
	}
}

// referrer is the last field of the conversation tall shows.
const referrer = "https://example.com/from"

// tall is a focused detail pane of 60×10 on c showing a conversation taller than the
// pane, whose last line is its part's referrer.
func tall(c *client.Client) detail.Model {
	m := detail.New(viewtest.Ctx(c))
	m.SetSize(60, 10)
	m.Focus()
	m.Load(7, false)
	ref := referrer
	m.Set(client.Conversation{ID: 7, Status: client.StatusNew,
		ConversationPartSet: []client.ConversationPart{{NameFriendly: "Chat", Referrer: &ref}}})
	return m
}

// TestMoreBelowIsShown: a detail taller than the pane says how much is below on its last
// line, and scrolling to the end shows the last line instead.
func TestMoreBelowIsShown(t *testing.T) {
	m := tall(nil)
	lines := strings.Split(m.View(), "\n")
	if len(lines) != 10 || !strings.Contains(lines[9], "more lines") {
		t.Fatalf("no sign of more below:\n%s", m.View())
	}
	m, _ = m.Update(viewtest.Key("G"))
	v := m.View()
	if strings.Contains(v, "more lines") || !strings.Contains(v, referrer) {
		t.Fatalf("at the end the last line (the referrer) should show:\n%s", v)
	}
	viewtest.CheckSize(t, v, 60, 10, "detail")
}

const wait = 5 * time.Second

// TestRefreshKeepsTheDetailShown: while a refresh is in flight, and when it fails, the
// conversation stays on screen at the same scroll position.
func TestRefreshKeepsTheDetailShown(t *testing.T) {
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	m := tall(c)
	m, _ = m.Update(viewtest.Key("j"))
	m, _ = m.Update(viewtest.Key("j"))
	before := m.View()
	cmd := m.Refresh()
	if m.View() != before {
		t.Fatalf("a refresh in flight changed the pane:\n%s", m.View())
	}
	m, _ = viewtest.Apply(m, viewtest.Run(cmd, wait)) // no server: the refresh fails
	if m.View() != before {
		t.Fatalf("a failed refresh changed the pane:\nbefore:\n%s\nafter:\n%s", before, m.View())
	}
}

// Loading another conversation cancels the request for the one left, also while it waits
// out a 429: no retries are spent on a conversation the pane no longer shows.
func TestLoadingAnotherConversationCancelsTheLeftOne(t *testing.T) {
	api := viewtest.NewThrottling(t, "/conversations/1/", `{"id":2,"status":"new"}`)
	m := detail.New(viewtest.Ctx(api.Client))
	m.SetSize(60, 20)
	second := api.Leave(t, m.Load(1, false), func() tea.Cmd { return m.Load(2, false) })
	for _, msg := range viewtest.Run(second, 5*time.Second) {
		m, _ = m.Update(msg)
	}
	if cv, ok := m.Conversation(); !ok || cv.ID != 2 {
		t.Fatalf("conversation 2 not shown: %+v %v", cv, ok)
	}
}

// TestLongSectionTitlesWrap: a part's title wider than the pane ("Part 1 of 8 · Chat via
// Help Center" in the three-pane layout at 120 columns) wraps like every field instead of
// being cut.
func TestLongSectionTitlesWrap(t *testing.T) {
	m := detail.New(viewtest.Ctx(nil))
	m.SetSize(34, 60)
	m.Load(700924, false)
	parts := make([]client.ConversationPart, 8)
	for i := range parts {
		parts[i].NameFriendly = "Chat via Help Center"
	}
	m.Set(client.Conversation{ID: 700924, Status: client.StatusNew, ConversationPartSet: parts})
	v := m.View()
	viewtest.CheckSize(t, v, 34, 60, "detail")
	lines := strings.Split(v, "\n")
	i := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "Part 1 of 8") })
	if i < 0 || i+1 >= len(lines) {
		t.Fatalf("no part title:\n%s", v)
	}
	title := strings.Join(strings.Fields(lines[i]+" "+lines[i+1]), " ")
	if !strings.Contains(title, "Part 1 of 8 · Chat via Help Center") {
		t.Fatalf("the part's title is cut, not wrapped:\n%s\n%s", lines[i], lines[i+1])
	}
}

// The contact's position is no company: with company null and a position set, Company says
// — and Position says the position; with both, each has its own line.
func TestContactPositionIsNotTheCompany(t *testing.T) {
	for _, tc := range []struct {
		name              string
		company, position *string
		want              map[string]string
	}{
		{"position only", nil, ptr("Office Manager"), map[string]string{"Company": "—", "Position": "Office Manager"}},
		{"both", ptr("Studio Olivetti"), ptr("HR"), map[string]string{"Company": "Studio Olivetti", "Position": "HR"}},
		{"company only", ptr("Studio Olivetti"), nil, map[string]string{"Company": "Studio Olivetti", "Position": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := detail.New(viewtest.Ctx(nil))
			m.SetSize(60, 80)
			m.Load(7, false)
			m.Set(client.Conversation{ID: 7, Status: client.StatusNew,
				Contact: client.Contact{Company: tc.company, Position: tc.position}})
			got := map[string]string{"Company": "", "Position": ""}
			v := ansi.Strip(m.View())
			for _, l := range strings.Split(v, "\n") {
				if f := strings.Fields(l); len(f) >= 2 {
					if _, ok := got[f[0]]; ok {
						got[f[0]] = strings.Join(f[1:], " ")
					}
				}
			}
			for k, want := range tc.want {
				if got[k] != want {
					t.Errorf("%s %q, want %q:\n%s", k, got[k], want, v)
				}
			}
		})
	}
}

func ptr(s string) *string { return &s }
