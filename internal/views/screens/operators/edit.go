package operators

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/writes"
)

// maxFieldBytes is the longest value the API accepts for a text field.
const maxFieldBytes = 200

var localeRe = regexp.MustCompile(`^[a-z]{2}_[A-Z]{2}$`)

// EditValues are the edit form's bound fields.
type EditValues struct {
	Name, DisplayName, Email, Locale string
}

// valuesOf is what the form shows of r: sanitized display text, which is never sent back
// for a field the user leaves alone (see Changes).
func valuesOf(r Row) EditValues {
	return EditValues{Name: forms.Prefill(r.Name), DisplayName: forms.Prefill(r.DisplayName),
		Email: forms.Prefill(r.Email), Locale: forms.Prefill(r.Locale)}
}

// ValidateName checks a name or display name: not empty, at most 200 bytes.
func ValidateName(s string) error {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return errors.New("cannot be empty")
	case len(s) > maxFieldBytes:
		return fmt.Errorf("at most %d bytes", maxFieldBytes)
	}
	return nil
}

// ValidateEmail checks an email address the way the API does: something, @, something,
// no spaces.
func ValidateEmail(s string) error {
	s = strings.TrimSpace(s)
	at := strings.Index(s, "@")
	switch {
	case s == "":
		return errors.New("cannot be empty")
	case at <= 0 || at == len(s)-1 || strings.ContainsAny(s, " \t"):
		return fmt.Errorf("%q is not an email address (name@example.com)", s)
	case len(s) > maxFieldBytes:
		return fmt.Errorf("at most %d bytes", maxFieldBytes)
	}
	return nil
}

// ValidateLocale checks a locale of the form ll_CC (en_US).
func ValidateLocale(s string) error {
	s = strings.TrimSpace(s)
	if !localeRe.MatchString(s) {
		return fmt.Errorf("%q: use language_COUNTRY, e.g. en_US or de_DE", s)
	}
	return nil
}

// unchanged passes a field that still holds what it was filled with (nothing is sent
// then, so what the API holds there never stops a save) or that stays empty as it was, and
// checks anything else as the text it stands for.
func unchanged(was string, check func(string) error) func(string) error {
	return func(s string) error {
		if s == was || (strings.TrimSpace(s) == "" && strings.TrimSpace(was) == "") {
			return nil
		}
		return check(forms.FromField(s))
	}
}

// Changes is the PATCH body of what differs from orig, the values the form was filled
// with: only the fields the user changed (the others show display text, which must never
// replace what the API holds), never the away status (only /away/ changes that).
func (v EditValues) Changes(orig EditValues) (client.OperatorUpdate, bool) {
	var u client.OperatorUpdate
	changed := false
	set := func(now, was string, dst **string) {
		if now == was {
			return
		}
		now = strings.TrimSpace(forms.FromField(now))
		if now != strings.TrimSpace(forms.FromField(was)) {
			s := now
			*dst = &s
			changed = true
		}
	}
	set(v.Name, orig.Name, &u.Name)
	set(v.DisplayName, orig.DisplayName, &u.DisplayName)
	set(v.Email, orig.Email, &u.Email)
	set(v.Locale, orig.Locale, &u.Locale)
	return u, changed
}

// validate checks the fields the user changed from orig (the form's validators, again,
// before sending).
func (v EditValues) validate(orig EditValues) error {
	checks := []struct {
		name string
		s    string
		fn   func(string) error
	}{
		{"Name", v.Name, unchanged(orig.Name, ValidateName)},
		{"Display name", v.DisplayName, unchanged(orig.DisplayName, ValidateName)},
		{"Email", v.Email, unchanged(orig.Email, ValidateEmail)},
		{"Locale", v.Locale, unchanged(orig.Locale, ValidateLocale)},
	}
	for i, c := range checks { // in the form's order
		if err := c.fn(c.s); err != nil {
			return forms.AtField(0, i, fmt.Errorf("%s: %w", c.name, err))
		}
	}
	return nil
}

// EditForm is the `e` modal: name, display name, email and locale of r. Only the fields the
// user changed are sent; a failure keeps everything typed and shows the server's detail.
func (m *Model) EditForm(r Row) common.Modal {
	v := valuesOf(r)
	orig := v
	build := func() *huh.Form {
		return huh.NewForm(huh.NewGroup(
			huh.NewInput().Title("Name").Value(&v.Name).CharLimit(maxFieldBytes).
				Validate(forms.Labelled("Name", unchanged(orig.Name, ValidateName))),
			huh.NewInput().Title("Display name").Description("shown to contacts").Value(&v.DisplayName).
				CharLimit(maxFieldBytes).Validate(forms.Labelled("Display name", unchanged(orig.DisplayName, ValidateName))),
			huh.NewInput().Title("Email").Value(&v.Email).CharLimit(maxFieldBytes).
				Validate(forms.Labelled("Email", unchanged(orig.Email, ValidateEmail))),
			huh.NewInput().Title("Locale").Placeholder("en_US").Value(&v.Locale).CharLimit(5).
				Validate(forms.Labelled("Locale", unchanged(orig.Locale, ValidateLocale))),
		))
	}
	id := r.ID
	save := &forms.Checked[client.OperatorUpdate]{Kind: KindEdit, Subject: id, What: fmt.Sprintf("update operator %d", id),
		Send: func(ctx context.Context, c *client.Client, u client.OperatorUpdate) (any, error) {
			op, err := c.UpdateOperator(ctx, id, u)
			if err != nil {
				return nil, err
			}
			return RowFrom(*op), nil
		},
		Check: func(ctx context.Context, c *client.Client, u client.OperatorUpdate, cause error) (any, error) {
			return checkEdit(ctx, c, id, u, cause)
		}}
	return forms.New(m.ctx, forms.Options{
		Title: "Edit operator " + r.Label(),
		Build: build,
		Width: 64,
		// The screen says "Saved operator …" with the name as saved (it may have changed).
		Dirty:  func() bool { return v != orig },
		Check:  func() error { return v.validate(orig) },
		Verify: save.Verify(m.ctx),
		Submit: func() (int, tea.Cmd, error) {
			if err := v.validate(orig); err != nil {
				return 0, nil, err
			}
			u, changed := v.Changes(orig)
			if !changed {
				return 0, common.Toast("Nothing changed"), nil
			}
			taskID, cmd := save.Start(m.ctx, u)
			return taskID, cmd, nil
		},
	})
}

// checkEdit reads the operator again (fresh) after an edit whose answer was lost: saved,
// with the operator read as the result, when it has every value sent (see
// forms.Options.Verify).
func checkEdit(ctx context.Context, c *client.Client, id int64, u client.OperatorUpdate, cause error) (any, error) {
	op, err := c.GetOperator(ctx, id)
	if err != nil {
		err = fmt.Errorf("read operator %d: %w", id, err)
	}
	if err := writes.CheckSaved(cause, err, err == nil && editApplied(u, *op), "whether the operator was saved",
		"the operator on the server does not have the values sent"); err != nil {
		return nil, err
	}
	return RowFrom(*op), nil
}

// editApplied reports whether op has every value of u (an email compares without case).
func editApplied(u client.OperatorUpdate, op client.Operator) bool {
	same := func(sent *string, have string, fold bool) bool {
		if sent == nil {
			return true
		}
		a, b := strings.TrimSpace(*sent), strings.TrimSpace(have)
		return a == b || fold && strings.EqualFold(a, b)
	}
	return same(u.Name, op.Name, false) && same(u.DisplayName, op.DisplayName, false) &&
		same(u.Email, op.Email, true) && same(u.Locale, op.Locale, false)
}
