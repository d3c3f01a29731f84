package contacts

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/forms"
	"github.com/parley-tui/parley/when"
)

// filterValues are the filter form's bound fields (text, so a failed parse keeps what was
// typed).
type filterValues struct {
	id, email, name    string
	activeFrom, active string // active after / active before
	verified           string // "", "yes", "no"
	locale             string
}

func filterValuesFrom(f client.ContactFilter) *filterValues {
	v := &filterValues{email: f.Email, name: f.Name, locale: f.Locale,
		activeFrom: when.Format(f.FromDateTime), active: when.Format(f.ToDateTime)}
	if f.ID != 0 {
		v.id = strconv.FormatInt(f.ID, 10)
	}
	if f.Verified != nil {
		v.verified = "no"
		if *f.Verified {
			v.verified = "yes"
		}
	}
	return v
}

// filter parses the values; the first problem is returned with the field's name.
func (v *filterValues) filter(now time.Time) (client.ContactFilter, error) {
	var f client.ContactFilter
	var err error
	if f.ID, err = forms.ParseID(v.id); err != nil {
		return f, fmt.Errorf("id: %w", err)
	}
	f.Email = strings.TrimSpace(v.email)
	if err := client.ValidEmail(f.Email); err != nil {
		return f, fmt.Errorf("email: %w", err)
	}
	f.Name = strings.TrimSpace(v.name)
	// Named by the fields' titles, as the form shows them.
	from, err := when.ParseField("Active after", v.activeFrom, now)
	if err != nil {
		return f, err
	}
	to, err := when.ParseField("Active before", v.active, now)
	if err != nil {
		return f, err
	}
	f.FromDateTime, f.ToDateTime = from.Time, to.Time
	if !f.FromDateTime.IsZero() && !f.ToDateTime.IsZero() && !f.FromDateTime.Before(f.ToDateTime) {
		return f, fmt.Errorf("active after (%s) must be before active before (%s)",
			when.Format(f.FromDateTime), when.Format(f.ToDateTime))
	}
	switch v.verified {
	case "yes":
		t := true
		f.Verified = &t
	case "no":
		no := false
		f.Verified = &no
	}
	f.Locale = strings.TrimSpace(v.locale)
	if err := client.ValidLocale(f.Locale); err != nil {
		return f, fmt.Errorf("locale: %w", err)
	}
	return f, nil
}

// FilterForm is the `f` modal with the 7 contact filters; applying it sends a FilterMsg.
func (m List) FilterForm() common.Modal {
	v := filterValuesFrom(m.Query().Filter)
	now := m.ctx.Now
	build := func() *huh.Form {
		return huh.NewForm(
			huh.NewGroup(
				huh.NewInput().Title("Name").Value(&v.name).Placeholder("exact name"),
				huh.NewInput().Title("Email").Value(&v.email).Validate(forms.Labelled("Email", client.ValidEmail)).Placeholder("name@example.com"),
				forms.IDInput("Contact id", &v.id),
				huh.NewInput().Title("Locale").Value(&v.locale).Validate(forms.Labelled("Locale", client.ValidLocale)).Placeholder("de_DE"),
			).Title("Who").Description(forms.Hint(m.ctx, "applies")),
			huh.NewGroup(
				forms.WhenInput("Active after", &v.activeFrom, now),
				forms.WhenInput("Active before", &v.active, now),
				// Options before the value and no height, so that every option stays in view.
				huh.NewSelect[string]().Title("Verified (email or mobile)").Options(
					huh.NewOption("any", ""), huh.NewOption("✓ verified", "yes"), huh.NewOption("not verified", "no")).
					Value(&v.verified),
			).Title("Activity"),
		)
	}
	return forms.New(m.ctx, forms.Options{
		Title: "Filter contacts",
		Build: build,
		Width: 64,
		Submit: func() (int, tea.Cmd, error) {
			f, err := v.filter(now())
			if err != nil {
				return 0, nil, err
			}
			return 0, func() tea.Msg { return FilterMsg{Filter: f} }, nil
		},
	})
}
