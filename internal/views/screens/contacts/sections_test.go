package contacts_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// TestDetailSectionsSayWhereTheyStand: the conversations and the notes of a contact say
// "(loading…)" in their headings until their first pages come; a first page that fails
// says why in place of the items, and its heading has no count of its own (the count the
// contact tells stays); a section with a next page gives its count and says below its
// items how many more there are.
func TestDetailSectionsSayWhereTheyStand(t *testing.T) {
	t.Parallel()
	e := envOn(t, viewtest.Sandbox(t, sandbox.Options{DailyLimit: 1 << 30, BurstRate: -1}), 0)
	p := viewtest.NewProxy(t, e.sb.URL)
	ctx := viewtest.Ctx(p.Client(t, e.info.CustomerToken, true))
	ct := e.upsert(t, client.ContactUpdate{Email: ptr("many.notes@example.com"), Name: ptr("Many Notes")})
	for i := range contacts.DetailPageSize + 2 {
		if _, err := e.c.CreateNote(context.Background(), client.NewNote{ContactIdentityID: ct.ID, Body: fmt.Sprintf("note %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	d := contacts.NewDetail(ctx)
	d.SetSize(100, 400)
	cmd := d.Open(ct.ID, false)
	v := ansi.Strip(d.View())
	for _, want := range []string{"Conversations (loading…)", "Notes (loading…)"} {
		if !strings.Contains(v, want) {
			t.Fatalf("before the pages came the detail lacks %q:\n%s", want, v)
		}
	}
	p.Lose("GET", "/api/um/v3/conversations/", viewtest.EmptyAnswer, 5)
	d = viewtest.Settle(d, cmd, wait)
	var lines []string
	for _, l := range strings.Split(ansi.Strip(d.View()), "\n") {
		lines = append(lines, strings.TrimSpace(l))
	}
	told := "Conversations"
	if ct.ConversationCount != nil {
		told = fmt.Sprintf("Conversations (%d)", *ct.ConversationCount)
	}
	i := slices.Index(lines, told)
	if i < 0 || i+1 == len(lines) || !strings.Contains(lines[i+1], "empty body") {
		t.Fatalf("the failed conversations do not stand under %q with their error:\n%s", told, d.View())
	}
	i = slices.Index(lines, fmt.Sprintf("Notes (%d)", contacts.DetailPageSize+2))
	if i < 0 || !slices.Contains(lines[i:], "… 2 more (move down to load)") {
		t.Fatalf("the notes do not give their count and the 2 below the first page:\n%s", d.View())
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "none") {
			t.Fatalf("a section that failed or holds notes says %q:\n%s", l, d.View())
		}
	}
}
