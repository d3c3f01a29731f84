package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/ledger"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/sandbox"
)

// ledgerStatus opens the ledger of sb in dir (after prepare wrote its day file), sends one
// conversations request through a client counting into it, and returns the status bar
// line of a TUI on that client, 200 columns wide, and the ledger.
func ledgerStatus(t *testing.T, sb *sandbox.Running, dir string, prepare func(day string)) (string, *ledger.Ledger) {
	t.Helper()
	day := ledger.DayOf(time.Now())
	prepare(day)
	l, err := ledger.Open(ledger.Options{Dir: dir, BaseURL: sb.URL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken, Store: ledgerStore{l}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListConversations(t.Context(), client.ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	app := ui.New(ui.Options{Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), RequestBudget: 400, Label: "api.example.com"})
	app.Update(tea.WindowSizeMsg{Width: 200, Height: 24})
	lines := strings.Split(app.Render(), "\n")
	return lines[len(lines)-2], l
}

// ledgerDir is where the ledger of sb keeps its day files under dir.
func ledgerDir(t *testing.T, sb *sandbox.Running, dir string) string {
	t.Helper()
	l, err := ledger.Open(ledger.Options{Dir: dir, BaseURL: sb.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Path()
}

// A day count of the largest int in the ledger's file survives the next request: the
// status bar shows it (it wrapped round to the smallest int, whose formatting ended the
// process with a stack overflow).
func TestTheStatusBarShowsALedgerCountAtTheLargestInt(t *testing.T) {
	if now := time.Now().UTC(); now.Add(time.Minute).Day() != now.Day() {
		t.Skip("too close to midnight UTC: the ledger would start a new day")
	}
	sb := startTestSandbox(t)
	dir := t.TempDir()
	files := ledgerDir(t, sb, dir)
	base, err := ledger.CanonicalBaseURL(sb.URL)
	if err != nil {
		t.Fatal(err)
	}
	bar, _ := ledgerStatus(t, sb, dir, func(day string) {
		body := `{"version": 1, "api": "` + base + `", "day": "` + day + `", "counts": [
 {"org": 0, "family": "conversations", "answered": 9223372036854775807, "refused": 0, "unreached": 0}]}`
		if err := os.WriteFile(filepath.Join(files, day+".json"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	if !strings.Contains(bar, "conv 9,223,372,036,854,775,807/400 today") {
		t.Errorf("status bar %q", bar)
	}
}

// A damaged ledger file is kept aside and the status bar says that the count restarted,
// when and why, without --debug.
func TestTheStatusBarSaysTheCountRestarted(t *testing.T) {
	if now := time.Now().UTC(); now.Add(time.Minute).Day() != now.Day() {
		t.Skip("too close to midnight UTC: the ledger would start a new day")
	}
	sb := startTestSandbox(t)
	dir := t.TempDir()
	files := ledgerDir(t, sb, dir)
	bar, l := ledgerStatus(t, sb, dir, func(day string) {
		if err := os.WriteFile(filepath.Join(files, day+".json"), []byte(`{"version": 1, "counts": [{"org`), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	r, ok := l.Restarted(ledger.DayOf(time.Now()))
	if !ok {
		t.Fatal("no restart")
	}
	if _, err := os.Stat(filepath.Join(files, r.Kept)); err != nil {
		t.Errorf("the damaged file is not kept: %v", err)
	}
	want := regexp.MustCompile(`conv 1/400 today │ count restarted \d\d:\d\d: the ledger file was cut short or not JSON; kept as ` +
		regexp.QuoteMeta(r.Kept))
	if !want.MatchString(bar) {
		t.Errorf("status bar %q", bar)
	}
}
