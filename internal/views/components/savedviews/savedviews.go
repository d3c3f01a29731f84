// Package savedviews is the saved views of a list screen: the row of views above the list
// ("all" first, then the config file's views of that screen), switching between them with
// the keymap's previous/next view keys or the command palette, the count each view's query
// had when it was last loaded (as the server sent it, never made up), and saving the
// current query as a new view through a small form.
package savedviews

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/views/components/list"
)

// KindSave is the task kind of a save (TaskDoneMsg.Result: common.SavedView).
const KindSave = "view.save"

// MaxName is the longest view name, in characters (the config file's limit).
const MaxName = 40

// Views is one screen's saved views.
type Views[F interface{ IsZero() bool }] struct {
	ctx    *common.Ctx
	screen string
	codec  codec[F]
	row    list.ViewsRow
	// saved are the views as the config file holds them, "all" (the zero view) first;
	// queries their queries as the codec read them last (Refresh), and errs why it could
	// not read one (a view of the acting operator's before parley knows who that is).
	saved   []common.SavedView
	queries []list.Query[F]
	errs    []error
	owner   int
	// name is the save form's bound value: it survives a failed save.
	name *string
}

// New returns the views of screen, whose list's query r declares, from the context's saved
// views. A view that does not read as a query of r now stays in the row, and choosing it
// says why (the config file's check lets only views through that read once parley knows
// the acting operator: operator_id me).
func New[F interface{ IsZero() bool }, R any](ctx *common.Ctx, screen string, r client.Resource[F, R]) Views[F] {
	codec := codecOf(screen, r, ctx.Me)
	v := Views[F]{ctx: ctx, screen: screen, codec: codec, owner: ctx.NewID(), name: new(string),
		saved: []common.SavedView{{}}}
	var names []string
	for _, sv := range ctx.ViewsOf(screen) {
		names = append(names, sv.Name)
		v.saved = append(v.saved, sv)
	}
	v.row = list.NewViewsRow(names)
	v.Refresh()
	return v
}

// Refresh reads every view's query again (the acting operator changed, or became known)
// and returns the active view's query, and whether that changed.
func (v *Views[F]) Refresh() (list.Query[F], bool) {
	i := v.row.Active()
	var before common.SavedView
	hadActive := i < len(v.queries) && v.errs[i] == nil
	if hadActive {
		before = v.codec.view(v.queries[i])
	}
	v.queries, v.errs = make([]list.Query[F], len(v.saved)), make([]error, len(v.saved))
	for j, sv := range v.saved {
		if j == 0 {
			continue // all: the zero query
		}
		v.queries[j], v.errs[j] = v.codec.query(sv)
	}
	if v.errs[i] != nil {
		return list.Query[F]{}, false
	}
	return v.queries[i], !hadActive || !same(before, v.codec.view(v.queries[i]))
}

// query is view i's query, or a toast saying why it cannot be shown now.
func (v *Views[F]) query(i int) (list.Query[F], tea.Cmd, bool) {
	if err := v.errs[i]; err != nil {
		return list.Query[F]{}, common.Toast(fmt.Sprintf("The view %s cannot be shown now: %s.", v.row.Names()[i], err)), false
	}
	return v.queries[i], nil, true
}

// Shown reports whether the screen has saved views: the row is drawn only then (a screen
// without any keeps its line for rows).
func (v *Views[F]) Shown() bool { return v.row.Len() > 1 }

// Lines is how many lines the row of views takes above the list: 1 when it is shown.
func (v *Views[F]) Lines() int {
	if v.Shown() {
		return 1
	}
	return 0
}

// Row is the row of views.
func (v *Views[F]) Row() list.ViewsRow { return v.row }

// Active is the active view's name ("all" for the whole list).
func (v *Views[F]) Active() string { return v.row.ActiveName() }

// Select makes the view named name the active one and returns its query; false when there
// is no such view, or (with a toast saying why) when its query cannot be read now.
func (v *Views[F]) Select(name string) (list.Query[F], tea.Cmd, bool) {
	i := v.row.Index(name)
	if i < 0 {
		return list.Query[F]{}, common.Toast(fmt.Sprintf("No view %q on this screen.", name)), false
	}
	q, toast, ok := v.query(i)
	if ok {
		v.row.Select(i)
	}
	return q, toast, ok
}

// Move makes the view d places on the active one (passing those whose query cannot be
// read now) and returns its query; false (with a toast saying how to make one) when the
// screen has no saved view.
func (v *Views[F]) Move(d int) (list.Query[F], tea.Cmd, bool) {
	if !v.Shown() {
		return list.Query[F]{}, common.Toast(fmt.Sprintf("No saved views of %s yet: %s saves the current query as one.",
			v.screen, v.ctx.Keys.SaveView.Help().Key)), false
	}
	var toast tea.Cmd
	for range v.row.Len() {
		i := v.row.Move(d)
		q, why, ok := v.query(i)
		if ok {
			return q, toast, true
		}
		if toast == nil {
			toast = why
		}
	}
	return list.Query[F]{}, toast, false
}

// Modified reports whether q is no longer the active view's query.
func (v *Views[F]) Modified(q list.Query[F]) bool {
	i := v.row.Active()
	if v.errs[i] != nil {
		return true
	}
	return !same(v.codec.view(q), v.codec.view(v.queries[i]))
}

// Mark puts mark (counted by count from a view's query: "" for none) beside each view
// whose query can be read now.
func (v *Views[F]) Mark(count func(list.Query[F]) string) {
	for i := range v.row.Len() {
		mark := ""
		if v.errs[i] == nil {
			mark = count(v.queries[i])
		}
		v.row.SetMark(i, mark)
	}
}

// Observe takes what the list knows of its query q's count (sent: list.Model.SentCount):
// when the list shows the active view's query and its first page was answered, that is the
// view's count from now on ("" when the answer carried none).
func (v *Views[F]) Observe(q list.Query[F], sent func() (count string, answered bool)) {
	count, answered := sent()
	if !answered || v.Modified(q) {
		return
	}
	v.row.SetCount(v.row.Active(), count)
}

// Restore makes the view name the active one and hands its query to preset (the list's
// query before the screen's first load); an unknown name, or a view that cannot be shown
// yet, leaves "all".
func (v *Views[F]) Restore(name string, preset func(list.Query[F])) {
	if q, _, ok := v.Select(name); ok {
		preset(q)
	}
}

// Show makes the view name the active one and hands its query to show (the palette's
// choice, a click on the row); a name the screen has no view of, or a view that cannot be
// shown now, is said in a toast.
func (v *Views[F]) Show(name string, show func(list.Query[F]) tea.Cmd) tea.Cmd {
	q, toast, ok := v.Select(name)
	if !ok {
		return toast
	}
	return show(q)
}

// View draws the row of views in w cells for the list's query q.
func (v *Views[F]) View(w int, q list.Query[F]) string {
	return v.row.View(v.ctx.Styles, w, v.Modified(q))
}

// Atop is the list's body under the row of views drawn in w cells for the list's query q,
// when the row is shown; else the body alone.
func (v *Views[F]) Atop(body string, w int, q list.Query[F]) string {
	if !v.Shown() {
		return body
	}
	return v.View(w, q) + "\n" + body
}

// ClickAt reads a click at x, y of a list pane framed w cells wide (x 0 is the frame's left
// edge, y 0 its top) for the list's query q: below the row of views, the list's line
// clicked and true; on the row, the view clicked ("" for none).
func (v *Views[F]) ClickAt(w, x, y int, q list.Query[F]) (view string, line int, inList bool) {
	if top := 1 + v.Lines(); y >= top {
		return "", y - top, true
	}
	if name, ok := v.At(w-2, q, x-1); ok && y == 1 {
		return name, 0, false
	}
	return "", 0, false
}

// At is the name of the view drawn at cell x of View(w, q) (false: none there).
func (v *Views[F]) At(w int, q list.Query[F], x int) (string, bool) {
	i, ok := v.row.At(v.ctx.Styles, w, v.Modified(q), x)
	if !ok {
		return "", false
	}
	return v.row.Names()[i], true
}

// Choices are the views for the command palette, each with its count when known.
func (v *Views[F]) Choices() []common.Choice {
	if !v.Shown() {
		return nil
	}
	group := "Views: " + v.screen
	out := make([]common.Choice, 0, v.row.Len())
	for i, n := range v.row.Names() {
		hint := strings.TrimSpace(v.row.Count(i) + " " + v.row.Mark(i))
		out = append(out, common.Choice{Group: group, Title: n, Hint: hint, Msg: common.ShowViewMsg{Name: n}})
	}
	return out
}

// checkName checks a view name as the config file will.
func checkName(s string) error {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return errors.New("give the view a name")
	case strings.EqualFold(s, list.ViewsAll):
		return fmt.Errorf("%q is the view of the whole list; choose another name", list.ViewsAll)
	case len([]rune(s)) > MaxName:
		return fmt.Errorf("at most %d characters", MaxName)
	case strings.ContainsFunc(s, unicode.IsControl):
		return errors.New("no control characters")
	}
	return nil
}

// SaveForm opens the form that saves query q as a view: it asks the name and writes the
// view into the config file. A failed save keeps the form open with the name typed.
func (v *Views[F]) SaveForm(q list.Query[F]) tea.Cmd {
	save := v.ctx.SaveView
	if save == nil {
		return common.Toast("Views cannot be saved: there is no config file (set HOME or XDG_CONFIG_HOME, or --config).")
	}
	name := v.name
	*name = ""
	sv := v.codec.view(q)
	if i := v.row.Active(); i > 0 && !v.Modified(q) {
		// Saving the view shown again replaces it, as it is written (operator_id: me stays
		// the acting operator).
		*name = v.row.ActiveName()
		sv = v.saved[i]
		sv.Name = ""
	}
	owner, ctx := v.owner, v.ctx
	return ctx.OpenModal(forms.New(ctx, forms.Options{
		Title: "Save the query as a view",
		Width: 56,
		Build: func() *huh.Form {
			return huh.NewForm(huh.NewGroup(
				huh.NewInput().Title("Name").Description(describe(sv)).Value(name).CharLimit(MaxName).
					Validate(forms.Labelled("Name", checkName)),
			).Description(forms.Hint(ctx, "saves")))
		},
		Check: func() error { return forms.AtField(0, 0, checkName(*name)) },
		Dirty: func() bool { return strings.TrimSpace(*name) != "" },
		Submit: func() (int, tea.Cmd, error) {
			if err := checkName(*name); err != nil {
				return 0, nil, forms.AtField(0, 0, err)
			}
			view := sv
			view.Name = strings.TrimSpace(*name)
			id := ctx.NewID()
			return id, func() tea.Msg {
				err := save(view)
				if err != nil {
					err = fmt.Errorf("save view %q: %w", view.Name, err)
				}
				return common.TaskDoneMsg{TaskID: id, Owner: owner, Kind: KindSave, Result: view, Err: err}
			}, nil
		},
		Success: "View saved in the config file",
	}))
}

// describe says in a line what a view holds.
func describe(sv common.SavedView) string {
	var parts []string
	if sv.Status != "" {
		parts = append(parts, "status "+sv.Status)
	}
	for _, k := range sortedKeys(sv.Filters) {
		parts = append(parts, k+"="+sv.Filters[k])
	}
	if sv.Search != "" {
		parts = append(parts, fmt.Sprintf("search %q", sv.Search))
	}
	if sv.Ordering != "" {
		parts = append(parts, "ordering "+sv.Ordering)
	}
	if len(parts) == 0 {
		return "No filters: the whole list."
	}
	return strings.Join(parts, ", ")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// OnTask takes the end of a save of this screen's: the view joins the row (or replaces
// the one of its name) and becomes the active one. False when msg is not such a save.
func (v *Views[F]) OnTask(msg common.TaskDoneMsg) bool {
	if msg.Kind != KindSave || !msg.Mine(v.owner) {
		return false
	}
	sv, ok := msg.Result.(common.SavedView)
	if msg.Err != nil || !ok {
		return true // the form shows the error and keeps the name
	}
	q, err := v.codec.query(sv)
	if err != nil {
		return true
	}
	i := v.row.Add(sv.Name)
	if i == len(v.queries) {
		v.saved, v.queries, v.errs = append(v.saved, sv), append(v.queries, q), append(v.errs, nil)
	} else {
		v.saved[i], v.queries[i], v.errs[i] = sv, q, nil
	}
	v.row.Select(i)
	replaced := false
	for j, o := range v.ctx.Views {
		if o.Screen == sv.Screen && strings.EqualFold(o.Name, sv.Name) {
			v.ctx.Views[j], replaced = sv, true
		}
	}
	if !replaced {
		v.ctx.Views = append(v.ctx.Views, sv)
	}
	return true
}

// Keys handles the views' keys: previous and next view (the list then shows that view's
// query, through show) and save. ok is false for other keys.
func (v *Views[F]) Keys(msg tea.KeyPressMsg, q list.Query[F], show func(list.Query[F]) tea.Cmd) (tea.Cmd, bool) {
	k := v.ctx.Keys
	switch {
	case key.Matches(msg, k.PrevView), key.Matches(msg, k.NextView):
		d := 1
		if key.Matches(msg, k.PrevView) {
			d = -1
		}
		nq, toast, ok := v.Move(d)
		if !ok {
			return toast, true
		}
		return show(nq), true
	case key.Matches(msg, k.SaveView):
		return v.SaveForm(q), true
	}
	return nil, false
}

// same reports whether a and b are the same query (names aside).
func same(a, b common.SavedView) bool {
	return a.Status == b.Status && a.Search == b.Search && a.Ordering == b.Ordering &&
		maps.Equal(a.Filters, b.Filters)
}
