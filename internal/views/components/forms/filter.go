package forms

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/when"
)

// Option is an id a picking field offers, by name.
type Option struct {
	ID   int64
	Name string
}

// ByName lists names by id as options, sorted by name, then id.
func ByName(names map[int64]string) []Option {
	out := make([]Option, 0, len(names))
	for id, name := range names {
		out = append(out, Option{id, name})
	}
	slices.SortFunc(out, func(a, b Option) int { return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID)) })
	return out
}

// Pick is what the field of an id with names offers: the known ones, and the select's
// height (0 = as many lines as it has options).
type Pick struct {
	Options []Option
	Height  int
}

// FilterOptions configure a list's filter form.
type FilterOptions[F any] struct {
	Title string
	Width int
	// Picks are the ids each picking field offers, by the resource they name
	// (client.Param.Names).
	Picks map[string]Pick
	// Hint is the first group's description ("" = none).
	Hint string
	// Check shows a problem as the values are edited, not only on submit (Options.Check).
	Check bool
	// Send is the message that applies the filter.
	Send func(F) tea.Msg
}

// Filter is the filter form of a list, built from its declaration r: a field a parameter,
// in the declared order, under the declared groups' titles, holding f's values. Ids with
// names and choices are picked, ids and texts typed (texts checked by their parameter),
// dates typed as package when reads them. Applying it sends o.Send of the filter; every
// problem names its field's label and moves the focus there, and a failed submit keeps
// what was typed.
func Filter[F, R any](ctx *common.Ctx, r client.Resource[F, R], f F, o FilterOptions[F]) common.Modal {
	texts := make([]string, len(r.Params))
	var groups []string
	at := make([][2]int, len(r.Params)) // group and index of each field
	for i, p := range r.Params {
		texts[i] = p.Value(f)
		if p.Kind() == client.KindDate {
			texts[i] = when.Format(*p.Date(&f))
		}
		g := slices.Index(groups, p.Group)
		if g < 0 {
			g = len(groups)
			groups = append(groups, p.Group)
		}
		at[i] = [2]int{g, 0}
		for j := range i {
			if at[j][0] == g {
				at[i][1]++
			}
		}
	}
	now := ctx.Now
	read := func() (F, error) {
		var out F
		for i, p := range r.Params {
			if err := readField(p, &out, texts[i], now()); err != nil {
				return out, AtField(at[i][0], at[i][1], fmt.Errorf("%s: %w", p.Label, err))
			}
		}
		if r.Check == nil {
			return out, nil
		}
		name, err := r.Check(out)
		if i := slices.IndexFunc(r.Params, func(p client.Param[F, R]) bool { return p.Name == name }); err != nil && i >= 0 {
			return out, AtField(at[i][0], at[i][1], err)
		}
		return out, err
	}
	build := func() *huh.Form {
		hg := make([]*huh.Group, len(groups))
		for g, title := range groups {
			var fields []huh.Field
			for i, p := range r.Params {
				if at[i][0] == g {
					fields = append(fields, filterField(p, &texts[i], o.Picks[p.Names], now))
				}
			}
			hg[g] = huh.NewGroup(fields...).Title(title)
		}
		if o.Hint != "" && len(hg) > 0 {
			hg[0] = hg[0].Description(o.Hint)
		}
		return huh.NewForm(hg...)
	}
	opts := Options{
		Title: o.Title,
		Build: build,
		Width: o.Width,
		Submit: func() (int, tea.Cmd, error) {
			f, err := read()
			if err != nil {
				return 0, nil, err
			}
			return 0, func() tea.Msg { return o.Send(f) }, nil
		},
	}
	if o.Check {
		opts.Check = func() error { _, err := read(); return err }
	}
	return New(ctx, opts)
}

// readField sets p in f from what the form holds: an id or a date as typed (the date read
// at now), a pick as its value, a text without the spaces around it, checked.
func readField[F, R any](p client.Param[F, R], f *F, s string, now time.Time) error {
	var err error
	switch p.Kind() {
	case client.KindID:
		*p.ID(f), err = ParseID(s)
	case client.KindDate:
		*p.Date(f), err = when.Parse(s, now)
	case client.KindBool, client.KindEnum:
		if s != "" {
			err = p.Parse(f, s)
		}
	default:
		s = strings.TrimSpace(s)
		if p.Check != nil {
			err = p.Check(s)
		}
		*p.Text(f) = s
	}
	return err
}

// filterField is the form field of p bound to value.
func filterField[F, R any](p client.Param[F, R], value *string, pick Pick, now func() time.Time) huh.Field {
	switch {
	case p.Names != "":
		s := huh.NewSelect[string]().Title(p.Label).Value(value).Options(pickOptions(p.Any, pick.Options, *value)...)
		if pick.Height > 0 {
			s = s.Height(pick.Height)
		}
		return s
	case len(p.Choices) > 0:
		// Options before the value, and no height: huh scrolls a select so that the value
		// known when the options come is its top line, and a set height scrolls it there
		// again on every update, hiding the options above.
		opts := []huh.Option[string]{huh.NewOption(p.Any, "")}
		for _, c := range p.Choices {
			opts = append(opts, huh.NewOption(c.Label, c.Value))
		}
		return huh.NewSelect[string]().Title(p.Label).Options(opts...).Value(value)
	case p.Kind() == client.KindID:
		return IDInput(p.Label, value)
	case p.Kind() == client.KindDate:
		return WhenInput(p.Label, value, now)
	}
	in := huh.NewInput().Title(p.Label).Value(value)
	if p.Check != nil {
		in = in.Validate(Labelled(p.Label, p.Check))
	}
	if p.Hint != "" {
		in = in.Placeholder(p.Hint)
	}
	return in
}

// pickOptions are the options of a picking field: "not set" (unset), then the known ids by
// name, and the current one by number when it is not among them.
func pickOptions(unset string, opts []Option, current string) []huh.Option[string] {
	out := []huh.Option[string]{huh.NewOption(unset, "")}
	found := current == ""
	for _, o := range opts {
		id := strconv.FormatInt(o.ID, 10)
		found = found || id == current
		out = append(out, huh.NewOption(fmt.Sprintf("%s (#%d)", o.Name, o.ID), id))
	}
	if !found {
		out = append(out, huh.NewOption("#"+current, current))
	}
	return out
}
