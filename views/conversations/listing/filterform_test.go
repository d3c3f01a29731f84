package listing_test

import (
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/conversations/listing"
	"github.com/parley-tui/parley/views/viewtest"
)

// filterFormRun is a modal run as a program runs it: messages one at a time, in the order
// sent, a command's messages after those already waiting, a sequence in order; ticks and
// cursor blinks never fire. FilterMsg is kept in out.
type filterFormRun struct {
	m     common.Modal
	queue []tea.Msg
	out   []tea.Msg
}

func (r *filterFormRun) exec(c tea.Cmd) {
	if c == nil {
		return
	}
	if name := runtime.FuncForPC(reflect.ValueOf(c).Pointer()).Name(); strings.Contains(name, "bubbletea/v2.Tick") ||
		strings.Contains(name, "cursor.(*Model).Blink") {
		return
	}
	msg := c()
	if cmds, ok := viewtest.SubCommands(msg); ok {
		for _, sc := range cmds {
			r.exec(sc)
		}
		return
	}
	switch msg.(type) {
	case nil:
	case listing.FilterMsg:
		r.out = append(r.out, msg)
	default:
		r.queue = append(r.queue, msg)
	}
}

func (r *filterFormRun) keys(keys ...string) {
	for _, k := range keys {
		r.queue = append(r.queue, viewtest.KeysOf(k)...)
	}
	for n := 0; len(r.queue) > 0 && n < 1000; n++ {
		msg := r.queue[0]
		r.queue = r.queue[1:]
		var cmd tea.Cmd
		r.m, cmd = r.m.Update(msg)
		r.exec(cmd)
	}
}

func TestFilterFormInconsistentIDsKeepTheFocusOnTheIDs(t *testing.T) {
	m := listing.New(viewtest.Ctx(nil))
	form := m.FilterForm()
	form.SetSize(76, 20)
	r := &filterFormRun{m: form}
	r.exec(form.Init())
	r.keys()
	// Status, operator, topic, widget; contact id, UUID; then the id range, the wrong way round.
	r.keys("enter", "enter", "enter", "enter", "enter", "enter", "500", "enter", "400", "enter")
	// The eight dates, then submit: refused.
	r.keys("enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter")
	v := r.m.View()
	if len(r.out) != 0 || !strings.Contains(v, "no id is greater than 500 and smaller than 400") {
		t.Fatalf("sent %v, or no message:\n%s", r.out, v)
	}
	if !strings.Contains(v, "┃ Id greater than") {
		t.Fatalf("the focus is not on the id range:\n%s", v)
	}
	// Fix it where the focus is; the message goes as soon as the range is consistent.
	r.keys("ctrl+u", "100")
	if v := r.m.View(); strings.Contains(v, "no id is greater") {
		t.Fatalf("the message stays after the fix:\n%s", v)
	}
	for i := 0; i < 12 && len(r.out) == 0; i++ {
		r.keys("enter")
	}
	var got listing.FilterMsg
	for _, msg := range r.out {
		if fm, ok := msg.(listing.FilterMsg); ok {
			got = fm
		}
	}
	if got.Filter.IDGreaterThan != 100 || got.Filter.IDLessThan != 400 {
		t.Fatalf("filter %+v, want ids in (100, 400); sent %v", got.Filter, r.out)
	}
}

// TestFilterFormOffersTopicsSeenBefore: after a search (or a topic filter) leaves a few
// rows, the filter form still offers every topic seen, and the header names the topic
// filtered by; ForgetSeen (another organization) forgets them.
func TestFilterFormOffersTopicsSeenBefore(t *testing.T) {
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
	m := listing.New(viewtest.Ctx(nil))
	_ = m.SetQuery(listing.Query{Filter: client.ConversationFilter{Status: client.StatusPending}})
	form := m.FilterForm()
	form.SetSize(76, 20)
	r := &filterFormRun{m: form}
	r.exec(form.Init())
	r.keys()
	v := r.m.View()
	for _, want := range []string{"  any", "  ● new", "> ◐ pending", "  ○ ended"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the status select lacks %q:\n%s", want, v)
		}
	}
}

// An age that overflows, or a date outside 2000–2100, is refused with the field's title and
// the forms accepted, and nothing is sent; 3000000h used to come out as the year 2269.
func TestFilterFormRefusesTimesOutsideTheRange(t *testing.T) {
	for _, tc := range []struct{ typed, want string }{
		{"3000000h", `Updated after: "3000000h" is too far back (before 2000)`},
		{"999999999999999999d", `Updated after: "999999999999999999d" is too far back`},
		{"2101-01-01", `Updated after: "2101-01-01" is too far ahead (after 2100)`},
	} {
		m := listing.New(viewtest.Ctx(nil))
		form := m.FilterForm()
		form.SetSize(100, 30)
		r := &filterFormRun{m: form}
		r.exec(form.Init())
		// Status, operator, topic, widget; the four ids; the first and last message times.
		r.keys("enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter")
		r.keys(tc.typed, "enter")
		v := r.m.View()
		if !strings.Contains(v, "✗ "+tc.want) {
			t.Fatalf("%q: no message %q:\n%s", tc.typed, tc.want, v)
		}
		for i := 0; i < 6; i++ {
			r.keys("enter")
		}
		r.keys("ctrl+s")
		for _, msg := range r.out {
			if fm, ok := msg.(listing.FilterMsg); ok {
				t.Fatalf("%q: sent %+v", tc.typed, fm.Filter)
			}
		}
		if v := r.m.View(); !strings.Contains(v, "> "+tc.typed) {
			t.Fatalf("%q: what was typed is lost:\n%s", tc.typed, v)
		}
	}
}
