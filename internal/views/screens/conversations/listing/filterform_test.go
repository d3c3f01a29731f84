package listing_test

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/screens/conversations/listing"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/sandbox"
)

// runFilterForm runs the list's filter form at w×h as a program does (viewtest.ModalRun),
// the FilterMsg it sends kept in Out.
func runFilterForm(m listing.Model, w, h int) *viewtest.ModalRun {
	return viewtest.RunModal(m.FilterForm(), w, h, func(msg tea.Msg) bool {
		_, ok := msg.(listing.FilterMsg)
		return ok
	})
}

// sentFilters are the filters the form sent.
func sentFilters(r *viewtest.ModalRun) []listing.FilterMsg {
	var out []listing.FilterMsg
	for _, msg := range r.Out {
		if fm, ok := msg.(listing.FilterMsg); ok {
			out = append(out, fm)
		}
	}
	return out
}

func TestFilterFormInconsistentIDsKeepTheFocusOnTheIDs(t *testing.T) {
	t.Parallel()
	m := listing.New(viewtest.Ctx(nil))
	r := runFilterForm(m, 76, 20)
	// Status, operator, topic, widget; contact id, UUID; then the id range, the wrong way round.
	r.Batch("enter", "enter", "enter", "enter", "enter", "enter", "500", "enter", "400", "enter")
	// The eight dates, then submit: refused.
	r.Batch("enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter")
	v := r.M.View()
	if sent := sentFilters(r); len(sent) != 0 || !strings.Contains(v, "no id is greater than 500 and smaller than 400") {
		t.Fatalf("sent %v, or no message:\n%s", sent, v)
	}
	if !strings.Contains(v, "┃ Id greater than") {
		t.Fatalf("the focus is not on the id range:\n%s", v)
	}
	// Fix it where the focus is; the message goes as soon as the range is consistent.
	r.Batch("ctrl+u", "100")
	if v := r.M.View(); strings.Contains(v, "no id is greater") {
		t.Fatalf("the message stays after the fix:\n%s", v)
	}
	for i := 0; i < 12 && len(sentFilters(r)) == 0; i++ {
		r.Batch("enter")
	}
	sent := sentFilters(r)
	if len(sent) != 1 || sent[0].Filter.IDGreaterThan != 100 || sent[0].Filter.IDLessThan != 400 {
		t.Fatalf("sent %+v, want one filter with ids in (100, 400)", sent)
	}
}

// TestFilterFormOffersTopicsSeenBefore: after a search (or a topic filter) leaves a few
// rows, the filter form still offers every topic seen, and the header names the topic
// filtered by; ForgetSeen (another organization) forgets them.
func TestFilterFormOffersTopicsSeenBefore(t *testing.T) {
	t.Parallel()
	sb := viewtest.Sandbox(t, sandbox.Options{})
	m := newList(t, viewtest.Client(t, sb), 100, 120, 20)
	m = viewtest.Settle(m, m.Load(false), wait)
	all := map[string]int64{}
	for _, r := range m.Rows() {
		for i, tp := range r.Topics {
			all[tp] = r.TopicIDs[i]
		}
	}
	if len(all) < 3 {
		t.Fatalf("the first page has %d topics", len(all))
	}
	m, cmd := m.Update(listing.SearchMsg{Text: "Mallory"})
	m = viewtest.Settle(m, cmd, wait)
	left := map[string]bool{}
	for _, r := range m.Rows() {
		for _, tp := range r.Topics {
			left[tp] = true
		}
	}
	if len(left) == len(all) {
		t.Fatal("the search left every topic; the test needs fewer rows")
	}
	known := listing.KnownTopics(m)
	for tp := range all {
		if !slices.Contains(known, tp) {
			t.Errorf("the filter form lacks %q, seen before the search (offers %q)", tp, known)
		}
	}
	var name string
	for tp := range all {
		if !left[tp] {
			name = tp
			break
		}
	}
	m, cmd = m.Update(listing.FilterMsg{Filter: client.ConversationFilter{TopicID: all[name]}})
	m = viewtest.Settle(m, cmd, wait)
	if header := strings.Split(m.View(), "\n")[0]; !strings.Contains(header, "topic:"+name) {
		t.Errorf("the header does not name the topic %q: %q", name, header)
	}
	m.ForgetSeen()
	if known := listing.KnownTopics(m); len(known) != 0 {
		t.Errorf("after ForgetSeen the form offers %q", known)
	}
}

// With a status filter set, the form's status select still shows every option, the ones
// above the chosen one included, and the chosen one stays chosen.
func TestFilterFormStatusShowsEveryOption(t *testing.T) {
	t.Parallel()
	m := listing.New(viewtest.Ctx(nil))
	_ = m.SetQuery(listing.Query{Filter: client.ConversationFilter{Status: client.StatusPending}})
	r := runFilterForm(m, 76, 20)
	v := r.M.View()
	for _, want := range []string{"  any", "  ● new", "> ◐ pending", "  ○ ended"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the status select lacks %q:\n%s", want, v)
		}
	}
}

// An age that overflows, or a date outside 2000–2100, is refused with the field's title and
// the forms accepted, and nothing is sent; 3000000h used to come out as the year 2269.
func TestFilterFormRefusesTimesOutsideTheRange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ typed, want string }{
		{"3000000h", `Updated after: "3000000h" is too far back (before 2000)`},
		{"999999999999999999d", `Updated after: "999999999999999999d" is too far back`},
		{"2101-01-01", `Updated after: "2101-01-01" is too far ahead (after 2100)`},
	} {
		m := listing.New(viewtest.Ctx(nil))
		r := runFilterForm(m, 100, 30)
		// Status, operator, topic, widget; the four ids; the first and last message times.
		r.Batch("enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter")
		r.Batch(tc.typed, "enter")
		v := r.M.View()
		if !strings.Contains(v, "✗ "+tc.want) {
			t.Fatalf("%q: no message %q:\n%s", tc.typed, tc.want, v)
		}
		for i := 0; i < 6; i++ {
			r.Batch("enter")
		}
		r.Batch("ctrl+s")
		if sent := sentFilters(r); len(sent) != 0 {
			t.Fatalf("%q: sent %+v", tc.typed, sent)
		}
		if v := r.M.View(); !strings.Contains(v, "> "+tc.typed) {
			t.Fatalf("%q: what was typed is lost:\n%s", tc.typed, v)
		}
	}
}
