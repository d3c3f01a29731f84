package ui

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// TestStatusBarShowsRateLimitCountdown: a retry after a 429 shows "rate-limited, retrying
// in Ns" and the count goes down with the clock until the wait is over.
func TestStatusBarShowsRateLimitCountdown(t *testing.T) {
	t.Parallel()
	now := viewtest.Now
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(),
		Now: func() time.Time { return now }})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	a.Update(eventMsg{client.Event{Kind: client.EventRetry, Family: client.FamilyConversations, Status: 429, Delay: 5 * time.Second,
		Problem: client.ProblemRateLimited}})
	if v := a.Render(); !strings.Contains(v, "rate-limited, retrying in 5s") {
		t.Fatalf("no countdown in the status bar:\n%s", statusLine(v))
	}
	now = now.Add(2 * time.Second)
	a.Update(statusTickMsg{})
	if v := a.Render(); !strings.Contains(v, "rate-limited, retrying in 3s") {
		t.Fatalf("the countdown did not go down:\n%s", statusLine(v))
	}
	now = now.Add(4 * time.Second)
	a.Update(statusTickMsg{})
	if v := a.Render(); strings.Contains(v, "rate-limited") {
		t.Fatalf("the wait is over but the status bar still says rate-limited:\n%s", statusLine(v))
	}
	a.Update(eventMsg{client.Event{Kind: client.EventQueued, Family: "analytics:um_conversation_duration", Delay: 30 * time.Second}})
	if v := a.Render(); !strings.Contains(v, "analytics:um_conversation_duration queued, 30s") {
		t.Fatalf("no queue countdown:\n%s", statusLine(v))
	}
}

// TestStatusBarTellsServerErrorsAndNoAnswerFromRateLimits: a retry after a 503 counts
// down as a server error and one after a failed connection as an unreachable API; neither
// reads as rate limiting.
func TestStatusBarTellsServerErrorsAndNoAnswerFromRateLimits(t *testing.T) {
	t.Parallel()
	now := viewtest.Now
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(),
		Now: func() time.Time { return now }})
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	a.Update(eventMsg{client.Event{Kind: client.EventRetry, Family: client.FamilyConversations, Status: 503, Delay: 5 * time.Second}})
	if v := statusLine(a.Render()); !strings.Contains(v, "server error 503, retrying in 5s") || strings.Contains(v, "rate-limited") {
		t.Fatalf("a 503: %q", v)
	}
	now = now.Add(6 * time.Second)
	a.Update(statusTickMsg{})
	a.Update(eventMsg{client.Event{Kind: client.EventRetry, Family: client.FamilyOperators, Delay: 3 * time.Second,
		Err: errors.New("dial tcp 127.0.0.1:9: connect: connection refused")}})
	if v := statusLine(a.Render()); !strings.Contains(v, "unreachable, retrying in 3s") || strings.Contains(v, "rate-limited") {
		t.Fatalf("no connection: %q", v)
	}
}

// statusLine is the status bar: the line above the footer.
func statusLine(v string) string {
	lines := strings.Split(v, "\n")
	return lines[len(lines)-2]
}

// TestStatusBarNumbersKeepTheirLabel: however narrow the terminal, the request count and
// the refresh time say what they are ("conv 3/400", not "3/400").
func TestStatusBarNumbersKeepTheirLabel(t *testing.T) {
	t.Parallel()
	bare := regexp.MustCompile(`│ (\d+/\d+|\d\d:\d\d:\d\d)`)
	for _, o := range []Options{{Demo: true}, {Label: "api.example.com"}, {Label: "chat-api.eu-west-1.example.com"}} {
		c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
		if err != nil {
			t.Fatal(err)
		}
		o.Client, o.Styles, o.Keys, o.Now = c, theme.Plain(false), keymap.Default(), viewtest.Clock
		o.RefreshInterval = 30 * time.Second
		a := New(o)
		a.opsOrg, a.ctx.DefaultOperatorID, a.ctx.Operators = 1001, 2001, map[int64]string{2001: "Clara"}
		a.Update(common.RefreshedMsg{At: viewtest.Now})
		for _, w := range []int{80, 100, 200} {
			a.Update(tea.WindowSizeMsg{Width: w, Height: 24})
			bar := statusLine(a.Render())
			if m := bare.FindString(bar); m != "" {
				t.Errorf("%d columns: %q without a label in %q", w, m, bar)
			}
			if !strings.Contains(bar, "conv 0/500") {
				t.Errorf("%d columns: no request count in %q", w, bar)
			}
			if w == 80 && !strings.Contains(bar, "as of 15:04:05") {
				t.Errorf("80 columns: no refresh time in %q", bar)
			}
			if w == 200 && !strings.Contains(bar, "conv 0/500 today") || w == 200 && !strings.Contains(bar, "refreshed 15:04:05") {
				t.Errorf("200 columns: want the long forms in %q", bar)
			}
		}
	}
}

// TestStatusBarCountsWhatTheAPICounted: the conversations count is what the API counted;
// attempts it refused with 429, and those that never reached it, show apart, also on a
// narrow terminal.
func TestStatusBarCountsWhatTheAPICounted(t *testing.T) {
	t.Parallel()
	e := viewtest.NewEnv(t, sandbox.Options{Size: "small", Seed: 1, DailyLimit: 2, BurstRate: -1}, nil)
	for i := range 3 {
		_, err := e.Client.ListConversations(t.Context(), client.ConversationListOptions{})
		if refused := i == 2; refused != client.IsRateLimited(err) {
			t.Fatalf("list %d: %v", i+1, err)
		}
	}
	bar := func(c *client.Client, w int) string {
		a := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Now: viewtest.Clock,
			RequestBudget: 400, RefreshInterval: 30 * time.Second, Label: "api.example.com"})
		a.Update(common.RefreshedMsg{At: viewtest.Now})
		a.Update(tea.WindowSizeMsg{Width: w, Height: 24})
		return statusLine(a.Render())
	}
	if got := bar(e.Client, 200); !strings.Contains(got, "conv 2/400 today · 1 refused") {
		t.Errorf("200 columns: %q", got)
	}
	if got := bar(e.Client, 80); !strings.Contains(got, "conv 2/400 · 1 refused") {
		t.Errorf("80 columns: %q", got)
	}

	down, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t", MaxRetries: -1, Now: viewtest.Clock})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := down.ListConversations(t.Context(), client.ConversationListOptions{}); err == nil {
		t.Fatal("no error from a closed port")
	}
	if got := bar(down, 200); !strings.Contains(got, "conv 0/400 today · 1 unreached") {
		t.Errorf("unreached: %q", got)
	}
	if got := bar(down, 80); !strings.Contains(got, "conv 0/400 · 1 unreached") {
		t.Errorf("unreached, 80 columns: %q", got)
	}
}

// TestToastsStayInsideThePanes: a toast as wide as the terminal allows keeps two columns off
// both sides (the panes' borders stay visible) and every line keeps the width.
func TestToastsStayInsideThePanes(t *testing.T) {
	t.Parallel()
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Now: viewtest.Clock})
	for _, w := range []int{80, 120} {
		a.Update(tea.WindowSizeMsg{Width: w, Height: 24})
		a.toasts = nil
		a.Update(common.ToastMsg{Text: strings.Repeat("All 3 marked conversations are ongoing. ", 4)})
		found := false
		for i, l := range strings.Split(a.Render(), "\n") {
			if lw := ansi.StringWidth(l); lw != w {
				t.Fatalf("%d columns: line %d is %d wide", w, i, lw)
			}
			plain := ansi.Strip(l)
			j := strings.Index(plain, "│ All 3 marked")
			if j < 0 {
				continue
			}
			found = true
			if col := ansi.StringWidth(plain[:j]); col < 2 {
				t.Errorf("%d columns: the toast starts at column %d: %q", w, col, plain)
			}
		}
		if !found {
			t.Fatalf("%d columns: no toast:\n%s", w, a.Render())
		}
	}
}

// boxModal is a centered dialog of a fixed size, filled with 'F'.
type boxModal struct{ w, h int }

func (b boxModal) Init() tea.Cmd                          { return nil }
func (b boxModal) Update(tea.Msg) (common.Modal, tea.Cmd) { return b, nil }
func (b boxModal) SetSize(int, int)                       {}
func (b boxModal) Inline() bool                           { return false }
func (b boxModal) ShortHelp() []key.Binding               { return nil }
func (b boxModal) View() string {
	line := strings.Repeat("F", b.w)
	lines := make([]string, b.h)
	for i := range lines {
		lines[i] = line
	}
	return strings.Join(lines, "\n")
}

// TestToastsNeverCoverADialog: with a form open, a toast goes below it, and when the form
// leaves no room there, into the bottom line in place of the status bar; the form's every
// cell stays visible in all cases.
func TestToastsNeverCoverADialog(t *testing.T) {
	t.Parallel()
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		modalH int
		where  string // "below" or "line"
	}{
		{"small form", 6, "below"},
		{"tall form", 14, "below"}, // rows 18..20 are free: just enough for one toast
		{"taller form", 15, "line"},
		{"full form", 21, "line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Now: viewtest.Clock})
			a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
			a.route.Modals = append(a.route.Modals, boxModal{w: 40, h: tc.modalH})
			a.Update(common.ToastMsg{Text: "Saved.", Error: true})
			lines := strings.Split(ansi.Strip(a.Render()), "\n")
			if len(lines) != 24 {
				t.Fatalf("%d lines", len(lines))
			}
			formRows, toastRow := 0, -1
			for i, l := range lines {
				if strings.Contains(l, strings.Repeat("F", 40)) {
					formRows++
				}
				if strings.Contains(l, "Saved.") {
					toastRow = i
				}
			}
			if formRows != tc.modalH {
				t.Fatalf("%d of the form's %d rows are whole:\n%s", formRows, tc.modalH, strings.Join(lines, "\n"))
			}
			top := 1 + (21-tc.modalH)/2 // the tab bar, then the centered form (status bar and footer below)
			var ok bool
			switch tc.where {
			case "below":
				ok = toastRow >= top+tc.modalH && toastRow < 22
			case "line":
				ok = toastRow == 22 && strings.Contains(lines[22], "✗ Saved.")
			}
			if !ok {
				t.Fatalf("toast on row %d, want it %s the form (rows %d..%d):\n%s", toastRow, tc.where, top, top+tc.modalH-1, strings.Join(lines, "\n"))
			}
		})
	}
}

// The same toast twice (two lists failing on one unreachable API) shows once.
func TestRepeatedToastShowsOnce(t *testing.T) {
	t.Parallel()
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Now: viewtest.Clock})
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	for _, text := range []string{"Cannot reach 127.0.0.1:9.", "Saved.", "Cannot reach 127.0.0.1:9."} {
		a.Update(common.ToastMsg{Text: text, Error: true})
	}
	if v := ansi.Strip(a.Render()); strings.Count(v, "Cannot reach 127.0.0.1:9.") != 1 || !strings.Contains(v, "Saved.") {
		t.Fatalf("toasts:\n%s", v)
	}
}

// TestStatusBarKeepsAnUnusualAutoStateWhenNarrow: at 80 columns an auto-refresh state
// other than live (idle, the budget, stopped) stays in the status bar and the time of
// the last refresh gives way; live, the usual state, is the first to go.
func TestStatusBarKeepsAnUnusualAutoStateWhenNarrow(t *testing.T) {
	t.Parallel()
	now := viewtest.Now
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t", Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	a := New(Options{Timer: viewtest.After, Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), Demo: true,
		Now: func() time.Time { return now }, RefreshInterval: 30 * time.Second})
	a.opsOrg, a.ctx.DefaultOperatorID, a.ctx.Operators = 1001, 2001, map[int64]string{2001: "Clara"}
	a.Update(common.RefreshedMsg{At: now})
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if bar := statusLine(a.Render()); !strings.Contains(bar, "as of 15:04:05") {
		t.Fatalf("live: %q", bar)
	}
	for _, c := range []struct {
		after time.Duration
		want  string
	}{
		{3 * time.Minute, "auto 2m (idle)"},
		{12 * time.Minute, "auto 10m (idle)"},
		{40 * time.Minute, "auto off (idle)"},
	} {
		now = viewtest.Now.Add(c.after)
		if bar := statusLine(a.Render()); !strings.Contains(bar, c.want) || !strings.Contains(bar, "conv 0/500") {
			t.Errorf("%v without a key: %q", c.after, bar)
		}
	}
}

// A start note (the state file was damaged and kept aside) shows as an error toast, for
// as long as errors show.
func TestAStartNoteIsAnErrorToast(t *testing.T) {
	t.Parallel()
	note := "The saved state (state.json) could not be read (cut short or not JSON); it is kept as state.json.damaged-20261120T140200Z and parley starts afresh."
	a := New(Options{Timer: viewtest.After, Client: viewtest.Client(t, viewtest.Sandbox(t, sandbox.Options{Size: "small"})), Styles: theme.Plain(false),
		Keys: keymap.Default(), Now: viewtest.Clock, RequestBudget: 400, PageSize: 100, StartNote: note})
	l := viewtest.NewLoop(t, a)
	l.Deliver(tea.WindowSizeMsg{Width: 200, Height: 40})
	l.Run(a.Init())
	l.Until("the note", func() bool { return slices.ContainsFunc(a.toasts, func(t toast) bool { return t.text == note }) })
	i := slices.IndexFunc(a.toasts, func(t toast) bool { return t.text == note })
	if tt := a.toasts[i]; !tt.err || tt.until.Sub(viewtest.Now) != 7*time.Second {
		t.Errorf("the note is a toast %+v, want an error shown for 7s", tt)
	}
}
