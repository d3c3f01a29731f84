package savedviews_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/list"
	sv "github.com/parley-tui/parley/internal/views/components/savedviews"
	"github.com/parley-tui/parley/internal/views/viewtest"
)

// saved are the config file's views: two of this screen, one it cannot read, one of
// another screen.
func saved() []common.SavedView {
	return []common.SavedView{
		{Name: "Billing", Screen: common.ViewsConversations, Filters: map[string]string{"topics": "7"}},
		{Name: "Broken", Screen: common.ViewsConversations, Filters: map[string]string{"colour": "red"}},
		{Name: "Elsewhere", Screen: common.ViewsContacts, Search: "x"},
		{Name: "Newest", Screen: common.ViewsConversations, Ordering: "-last_message_sent_at"},
	}
}

func newViews(t *testing.T, views []common.SavedView) (*common.Ctx, *sv.Views[client.ConversationFilter]) {
	t.Helper()
	ctx := viewtest.Ctx(nil)
	ctx.Views = views
	v := sv.New(ctx, common.ViewsConversations, client.Conversations)
	return ctx, &v
}

// The row holds "all" and the screen's own views, in the config file's order, one it cannot
// read now too; the palette offers them under the screen's name. Choosing the one it cannot
// read says why and leaves the active view.
func TestTheRowHoldsAllAndTheScreensReadableViews(t *testing.T) {
	_, v := newViews(t, saved())
	if !v.Shown() || v.Active() != list.ViewsAll {
		t.Fatalf("shown %v, active %q", v.Shown(), v.Active())
	}
	if got, want := strings.Join(v.Row().Names(), ","), "all,Billing,Broken,Newest"; got != want {
		t.Fatalf("row %s, want %s", got, want)
	}
	var titles []string
	for _, c := range v.Choices() {
		if c.Group != "Views: conversations" || c.Msg != (common.ShowViewMsg{Name: c.Title}) {
			t.Errorf("choice %+v", c)
		}
		titles = append(titles, c.Title)
	}
	if strings.Join(titles, ",") != "all,Billing,Broken,Newest" {
		t.Errorf("palette offers %v", titles)
	}
	if _, toast, ok := v.Select("Broken"); ok || toast == nil || v.Active() != list.ViewsAll ||
		!strings.Contains(toast().(common.ToastMsg).Text, "The view Broken cannot be shown now") {
		t.Errorf("choosing the view it cannot read: taken %v, active %q", ok, v.Active())
	}
	// A screen without views of its own draws no row and offers none.
	if _, none := newViews(t, saved()[2:3]); none.Shown() || none.Choices() != nil {
		t.Error("a screen without saved views shows a row of views")
	}
}

// [ and ] step through the views (round from the last to "all") and show each one's query;
// on a screen without views they say how to save one.
func TestKeysStepThroughTheViews(t *testing.T) {
	_, v := newViews(t, saved())
	var shown []list.Query[client.ConversationFilter]
	show := func(q list.Query[client.ConversationFilter]) tea.Cmd { shown = append(shown, q); return nil }
	for _, k := range []string{"]", "]", "]", "["} {
		if _, ok := v.Keys(viewtest.Key(k), list.Query[client.ConversationFilter]{}, show); !ok {
			t.Fatalf("%s was not a views key", k)
		}
	}
	want := []list.Query[client.ConversationFilter]{{Filter: client.ConversationFilter{TopicID: 7}}, {Ordering: "-last_message_sent_at"}, {}, {Ordering: "-last_message_sent_at"}}
	if fmt.Sprint(shown) != fmt.Sprint(want) {
		t.Fatalf("showed %v, want %v", shown, want)
	}
	if v.Active() != "Newest" {
		t.Errorf("active %q after ] ] ] [", v.Active())
	}
	if _, ok := v.Keys(viewtest.Key("j"), list.Query[client.ConversationFilter]{}, show); ok {
		t.Error("j was taken as a views key")
	}

	_, none := newViews(t, nil)
	cmd, ok := none.Keys(viewtest.Key("]"), list.Query[client.ConversationFilter]{}, show)
	if !ok || len(shown) != 4 {
		t.Fatalf("] without views: taken %v, showed %d queries", ok, len(shown))
	}
	if toast := cmd().(common.ToastMsg).Text; !strings.Contains(toast, "No saved views of conversations") || !strings.Contains(toast, "V saves") {
		t.Errorf("] without views says %q", toast)
	}
}

// A view's count is the one its own query's first page was answered with, never another
// query's, never one from before an answer; a query changed from the view's is modified.
func TestObserveTakesTheCountOfTheViewsOwnQueryOnly(t *testing.T) {
	_, v := newViews(t, saved())
	billing, _, _ := v.Select("Billing")
	sent := func(count string, answered bool) func() (string, bool) {
		return func() (string, bool) { return count, answered }
	}
	v.Observe(billing, sent("12", false)) // the first page is not in yet
	other := billing
	other.Search = "refund"
	if !v.Modified(other) || v.Modified(billing) {
		t.Fatalf("modified: the view's query %v, another %v", v.Modified(billing), v.Modified(other))
	}
	v.Observe(other, sent("3", true)) // the list shows another query
	if c := v.Row().Count(1); c != "" {
		t.Fatalf("Billing's count %q before its own query was answered", c)
	}
	v.Observe(billing, sent("12", true))
	if c := v.Row().Count(1); c != "12" {
		t.Fatalf("Billing's count %q, want 12", c)
	}
	if hint := v.Choices()[1].Hint; hint != "12" {
		t.Errorf("the palette's hint for Billing is %q", hint)
	}
	if row := ansi.Strip(v.View(60, billing)); !strings.Contains(row, "Billing") || !strings.Contains(row, "12") {
		t.Errorf("the row %q lacks Billing's count", row)
	}
}

// Restore (a state file's view) and Show (the palette, a click) make a view active and
// hand over its query; a name the screen has no view of leaves "all", and Show says so.
func TestRestoreAndShowByName(t *testing.T) {
	_, v := newViews(t, saved())
	var preset []list.Query[client.ConversationFilter]
	v.Restore("gone", func(q list.Query[client.ConversationFilter]) { preset = append(preset, q) })
	if len(preset) != 0 || v.Active() != list.ViewsAll {
		t.Fatalf("an unknown view restored %v, active %q", preset, v.Active())
	}
	v.Restore("Newest", func(q list.Query[client.ConversationFilter]) { preset = append(preset, q) })
	if len(preset) != 1 || preset[0].Ordering != "-last_message_sent_at" || v.Active() != "Newest" {
		t.Fatalf("restored %v, active %q", preset, v.Active())
	}
	var shown []list.Query[client.ConversationFilter]
	show := func(q list.Query[client.ConversationFilter]) tea.Cmd { shown = append(shown, q); return nil }
	cmd := v.Show("Elsewhere", show) // another screen's view
	if len(shown) != 0 || cmd == nil || !strings.Contains(cmd().(common.ToastMsg).Text, `No view "Elsewhere"`) {
		t.Fatalf("Show of another screen's view: showed %v", shown)
	}
	if v.Show("Billing", show); len(shown) != 1 || shown[0].Filter.TopicID != 7 || v.Active() != "Billing" {
		t.Fatalf("Show(Billing) showed %v, active %q", shown, v.Active())
	}
}

// V asks a name (checked as the config file checks it), writes the view with the query
// shown, and the view joins the row as the active one; a failed write keeps the form's
// name and changes nothing; saving under a name the screen has replaces that view.
func TestSaveWritesTheViewAndKeepsTheNameOnFailure(t *testing.T) {
	ctx, v := newViews(t, saved())
	q := list.Query[client.ConversationFilter]{Filter: client.ConversationFilter{TopicID: 9}, Search: "late"}
	if cmd := v.SaveForm(q); cmd == nil || !strings.Contains(cmd().(common.ToastMsg).Text, "no config file") {
		t.Fatal("without a config file the form opened")
	}
	var written []common.SavedView
	fail := errors.New("the disk is full")
	ctx.SaveView = func(view common.SavedView) error {
		if fail != nil {
			return fail
		}
		written = append(written, view)
		return nil
	}
	save := func(keys ...string) *viewtest.ModalRun {
		t.Helper()
		if _, ok := v.Keys(viewtest.Key("V"), q, nil); !ok {
			t.Fatal("V was not a views key")
		}
		f, ok := viewtest.Opened(ctx).(*forms.Modal)
		if !ok {
			t.Fatal("V opened no form")
		}
		r := viewtest.RunModal(f, 60, 20, nil)
		r.Batch(keys...)
		return r
	}
	done := func(r *viewtest.ModalRun) (common.TaskDoneMsg, bool) {
		for _, m := range r.Out {
			if d, ok := m.(common.TaskDoneMsg); ok {
				return d, true
			}
		}
		return common.TaskDoneMsg{}, false
	}

	for _, bad := range []string{"All", "   "} {
		r := save(bad, "ctrl+s")
		if _, ok := done(r); ok {
			t.Errorf("the name %q was saved", bad)
		}
		if !strings.Contains(ansi.Strip(r.M.View()), "Name") {
			t.Errorf("the form closed on the name %q", bad)
		}
	}
	// A longer name stops at MaxName characters as it is typed.
	if d, ok := done(save(strings.Repeat("x", sv.MaxName+5), "ctrl+s")); !ok ||
		!strings.Contains(d.Err.Error(), fmt.Sprintf("%q", strings.Repeat("x", sv.MaxName))) {
		t.Errorf("a long name: %+v", d)
	}

	r := save("Late ones", "ctrl+s")
	d, ok := done(r)
	if !ok || d.Err == nil || !errors.Is(d.Err, fail) || !strings.Contains(d.Err.Error(), `"Late ones"`) {
		t.Fatalf("a failed write reported %+v (%v)", d, ok)
	}
	if !v.OnTask(d) || v.Row().Len() != 4 || v.Active() != list.ViewsAll {
		t.Fatalf("a failed save changed the row: %v, active %q", v.Row().Names(), v.Active())
	}
	if view := ansi.Strip(r.M.View()); !strings.Contains(view, "Late ones") {
		t.Errorf("the form lost the name typed:\n%s", view)
	}

	fail = nil
	d, _ = done(save("Late ones", "ctrl+s"))
	want := common.SavedView{Name: "Late ones", Screen: common.ViewsConversations, Search: "late", Filters: map[string]string{"topics": "9"}}
	if d.Err != nil || len(written) != 1 || fmt.Sprint(written[0]) != fmt.Sprint(want) {
		t.Fatalf("wrote %v (%v), want %v", written, d.Err, want)
	}
	if !v.OnTask(d) || v.Active() != "Late ones" || v.Modified(q) || len(ctx.Views) != 5 {
		t.Fatalf("after the save: row %v, active %q, modified %v, %d views in the context",
			v.Row().Names(), v.Active(), v.Modified(q), len(ctx.Views))
	}
	if v.OnTask(common.TaskDoneMsg{Kind: sv.KindSave, Owner: -1, Result: want}) {
		t.Error("a save of another screen's views was taken")
	}

	// The form for the view shown offers its name; a query saved under a view's name
	// replaces that view.
	d, _ = done(save("ctrl+s"))
	if d.Err != nil || len(written) != 2 || written[1].Name != "Late ones" {
		t.Fatalf("saving the view shown again wrote %v (%v): its name was not offered", written, d.Err)
	}
	q = list.Query[client.ConversationFilter]{Filter: client.ConversationFilter{TopicID: 9}, Search: "late", Ordering: "-last_message_sent_at"}
	d, _ = done(save("late ONES", "ctrl+s"))
	if !v.OnTask(d) || v.Row().Len() != 5 || len(ctx.Views) != 5 || ctx.Views[4].Ordering != "-last_message_sent_at" {
		t.Fatalf("saving under the view's name: row %v, views %v", v.Row().Names(), ctx.Views)
	}
}
