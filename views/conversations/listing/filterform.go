package listing

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/forms"
	"github.com/parley-tui/parley/when"
)

// filterValues are the form's bound fields (text, so a failed parse keeps what was typed).
type filterValues struct {
	status, operator, topic, widget string
	contact, uuid                   string
	idGT, idLT                      string
	firstFrom, firstTo              string
	lastFrom, lastTo                string
	updatedFrom, updatedTo          string
	activityFrom, activityTo        string
}

func valuesFrom(f client.ConversationFilter) *filterValues {
	id := func(v int64) string {
		if v == 0 {
			return ""
		}
		return strconv.FormatInt(v, 10)
	}
	return &filterValues{
		status: f.Status, operator: id(f.OperatorID), topic: id(f.TopicID), widget: id(f.WidgetID),
		contact: id(f.ContactIdentityID), uuid: f.ContactUUID, idGT: id(f.IDGreaterThan), idLT: id(f.IDLessThan),
		firstFrom: when.Format(f.ContactFirstMessageFromDate), firstTo: when.Format(f.ContactFirstMessageToDate),
		lastFrom: when.Format(f.ContactLastMessageFromDate), lastTo: when.Format(f.ContactLastMessageToDate),
		updatedFrom: when.Format(f.UpdatedAtFromDate), updatedTo: when.Format(f.UpdatedAtToDate),
		activityFrom: when.Format(f.LastActivityFromDate), activityTo: when.Format(f.LastActivityToDate),
	}
}

// filter parses the values; the first problem is returned with the field's name, as a
// forms.FieldError that says where the field is in the form (group, index).
func (v *filterValues) filter(now time.Time) (client.ConversationFilter, error) {
	var f client.ConversationFilter
	var err error
	f.Status = v.status
	f.ContactUUID = v.uuid
	ids := []struct {
		name       string
		s          string
		dst        *int64
		group, idx int
	}{
		{"Operator", v.operator, &f.OperatorID, 0, 1}, {"Topic", v.topic, &f.TopicID, 0, 2},
		{"Widget", v.widget, &f.WidgetID, 0, 3}, {"Contact id", v.contact, &f.ContactIdentityID, 1, 0},
		{"Id greater than", v.idGT, &f.IDGreaterThan, 1, 2}, {"Id smaller than", v.idLT, &f.IDLessThan, 1, 3},
	}
	for _, x := range ids {
		if *x.dst, err = forms.ParseID(x.s); err != nil {
			return f, forms.AtField(x.group, x.idx, fmt.Errorf("%s: %w", x.name, err))
		}
	}
	times := []struct {
		name string
		s    string
		dst  *time.Time
	}{ // groups 2 and 3, four fields each
		{"First contact message after", v.firstFrom, &f.ContactFirstMessageFromDate},
		{"First contact message before", v.firstTo, &f.ContactFirstMessageToDate},
		{"Last contact message after", v.lastFrom, &f.ContactLastMessageFromDate},
		{"Last contact message before", v.lastTo, &f.ContactLastMessageToDate},
		{"Updated after", v.updatedFrom, &f.UpdatedAtFromDate},
		{"Updated before", v.updatedTo, &f.UpdatedAtToDate},
		{"Last activity after", v.activityFrom, &f.LastActivityFromDate},
		{"Last activity before", v.activityTo, &f.LastActivityToDate},
	}
	for i, x := range times {
		if *x.dst, err = when.Parse(x.s, now); err != nil {
			return f, forms.AtField(2+i/4, i%4, fmt.Errorf("%s: %w", x.name, err))
		}
	}
	if f.IDGreaterThan != 0 && f.IDLessThan != 0 && f.IDGreaterThan >= f.IDLessThan-1 {
		return f, forms.AtField(1, 2, fmt.Errorf("no id is greater than %d and smaller than %d", f.IDGreaterThan, f.IDLessThan))
	}
	return f, nil
}

type option struct {
	id   int64
	name string
}

// known lists the topics and widgets seen in this context (not only on the rows the current
// query left), by name, for the selects.
func (m Model) known() (topics, widgets []option) {
	return byName(m.seenTopics), byName(m.seenWidgets)
}

// byName lists names by id as options, sorted by name, then id.
func byName(names map[int64]string) []option {
	out := make([]option, 0, len(names))
	for id, name := range names {
		out = append(out, option{id, name})
	}
	slices.SortFunc(out, func(a, b option) int { return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.id, b.id)) })
	return out
}

func selectOptions(any string, opts []option, current string) []huh.Option[string] {
	out := []huh.Option[string]{huh.NewOption(any, "")}
	found := current == ""
	for _, o := range opts {
		id := strconv.FormatInt(o.id, 10)
		found = found || id == current
		out = append(out, huh.NewOption(fmt.Sprintf("%s (#%d)", o.name, o.id), id))
	}
	if !found {
		out = append(out, huh.NewOption("#"+current, current))
	}
	return out
}

// FilterForm is the `f` modal with all 16 conversation filters; applying it sends a FilterMsg.
func (m Model) FilterForm() common.Modal {
	v := valuesFrom(m.Query().Filter)
	topics, widgets := m.known()
	var ops []option
	for id, name := range operatorNames(m.ctx, m.operators) {
		ops = append(ops, option{id, name})
	}
	slices.SortFunc(ops, func(a, b option) int { return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.id, b.id)) })
	now := m.ctx.Now
	build := func() *huh.Form {
		when := func(title string, dst *string) *huh.Input { return forms.WhenInput(title, dst, now) }
		return huh.NewForm(
			huh.NewGroup(
				// Options before the value, and no height: huh scrolls a select so that
				// the value known when the options come is its top line, and a set height
				// scrolls it there again on every update, hiding the options above.
				huh.NewSelect[string]().Title("Status").Options(
					huh.NewOption("any", ""), huh.NewOption("● new", client.StatusNew),
					huh.NewOption("◐ pending", client.StatusPending), huh.NewOption("○ ended", client.StatusEnded)).
					Value(&v.status),
				huh.NewSelect[string]().Title("Operator").Value(&v.operator).Options(selectOptions("any operator", ops, v.operator)...).Height(6),
				huh.NewSelect[string]().Title("Topic").Value(&v.topic).Options(selectOptions("any topic", topics, v.topic)...).Height(6),
				huh.NewSelect[string]().Title("Widget").Value(&v.widget).Options(selectOptions("any widget", widgets, v.widget)...).Height(5),
			).Title("Who and what"),
			huh.NewGroup(
				forms.IDInput("Contact id", &v.contact),
				huh.NewInput().Title("Contact UUID (conversation contact)").Value(&v.uuid),
				forms.IDInput("Id greater than", &v.idGT),
				forms.IDInput("Id smaller than", &v.idLT),
			).Title("Ids"),
			huh.NewGroup(
				when("First contact message after", &v.firstFrom),
				when("First contact message before", &v.firstTo),
				when("Last contact message after", &v.lastFrom),
				when("Last contact message before", &v.lastTo),
			).Title("Contact messages"),
			huh.NewGroup(
				when("Updated after", &v.updatedFrom),
				when("Updated before", &v.updatedTo),
				when("Last activity after", &v.activityFrom),
				when("Last activity before", &v.activityTo),
			).Title("Activity"),
		)
	}
	return forms.New(m.ctx, forms.Options{
		Title: "Filter conversations",
		Build: build,
		Width: 72,
		Check: func() error { _, err := v.filter(now()); return err },
		Submit: func() (int, tea.Cmd, error) {
			f, err := v.filter(now())
			if err != nil {
				return 0, nil, err
			}
			return 0, func() tea.Msg { return FilterMsg{Filter: f} }, nil
		},
	})
}
