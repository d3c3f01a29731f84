package contacts

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/forms"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sanitize"
)

// TaskDoneMsg kinds reported by the contact forms and deletes.
const (
	// KindUpdated: Result is the updated client.Contact.
	KindUpdated = common.KindContactUpdate
	// KindUpserted: Result is an Upserted.
	KindUpserted = common.KindContactUpsert
	// KindDeleted: Result is a list.Deleted.
	KindDeleted = common.KindContactDelete
)

// Upserted is the result of the create-or-update-by-identifier form.
type Upserted struct {
	Contact client.Contact
	Created bool
}

// fields are the writable contact fields as the form edits them: the values of its text
// fields (forms.Prefill of the sanitized text when they came from the API, never sent back
// unless the user changed them) and the contact-by flags.
type fields struct {
	name, email, phone, mobile, company, position string
	gender, salutation, street, city, country     string
	locale, externalID                            string
	contactBy                                     []string
	facebook, linkedin, twitter, picture          string
}

// fieldsFrom is what the edit form shows of c: the sanitized text (as forms.Prefill puts it
// in a field), which is display text only. The PATCH never carries it for a field the user
// left alone (changes compares with these values).
func fieldsFrom(c client.Contact) fields {
	s := func(p *string) string { return forms.Prefill(sanitize.Line(client.Str(p))) }
	f := fields{
		name: s(c.Name), email: s(c.Email), phone: s(c.PhoneNumber), mobile: s(c.MobileNumber),
		company: s(c.Company), position: s(c.Position), gender: s(c.Gender), salutation: s(c.Salutation),
		street: s(c.Street), city: s(c.City), country: s(c.Country), locale: s(&c.Locale),
		externalID: s(c.ExternalCustomerID),
		facebook:   s(c.URLFacebook), linkedin: s(c.URLLinkedIn), twitter: s(c.URLTwitter), picture: s(c.URLProfilePicture),
	}
	for _, b := range writes.ContactFlags {
		if b.Of(c) {
			f.contactBy = append(f.contactBy, b.Name)
		}
	}
	return f
}

// text is one text field: what it is (its label, its check) and its value in the form.
type text struct {
	writes.ContactText
	cur *string
	dst **string // where it goes in the update texts was given
}

// texts are the form's text fields over f, in writes.ContactTexts' order, each going into u.
func (f *fields) texts(u *client.ContactUpdate) []text {
	cur := map[string]*string{
		"name": &f.name, "email": &f.email, "phone_number": &f.phone, "mobile_number": &f.mobile,
		"company": &f.company, "position": &f.position, "gender": &f.gender, "salutation": &f.salutation,
		"street": &f.street, "city": &f.city, "country": &f.country, "locale": &f.locale,
		"external_customer_id": &f.externalID, "url_facebook": &f.facebook, "url_linkedin": &f.linkedin,
		"url_twitter": &f.twitter, "url_profile_picture": &f.picture,
	}
	out := make([]text, len(writes.ContactTexts))
	for i, t := range writes.ContactTexts {
		out[i] = text{ContactText: t, cur: cur[t.Name], dst: t.Dst(u)}
	}
	return out
}

// validate checks every field the user may have changed: all of them, or with orig only
// those that differ from it (a field left alone is not sent, so whatever the API holds
// there never stops a save). The first problem names its field and, for the form, says
// where it is (lead is the number of fields in front of the first group's own).
func (f *fields) validate(lead int, orig *fields) error {
	var u, uo client.ContactUpdate
	var old []text
	if orig != nil {
		old = orig.texts(&uo)
	}
	for i, t := range f.texts(&u) {
		if t.Check == nil || (old != nil && *t.cur == *old[i].cur) {
			continue
		}
		if err := t.Check(forms.FromField(*t.cur)); err != nil {
			return atLabel(t.Label, lead, fmt.Errorf("%s: %w", t.Label, err))
		}
	}
	return nil
}

// fieldGroups is the order of the text fields in the forms: the groups' titles and the labels
// in each (the first group may get fields in front, the third the contact-by flags after).
var fieldGroups = []struct {
	title  string
	labels []string
}{
	{"Person", []string{"Name", "Email", "Salutation", "Gender", "Company", "Position"}},
	{"Phone and address", []string{"Phone number", "Mobile number", "Street", "City", "Country", "Locale"}},
	{"Reach and ids", []string{"External customer id"}},
	{"Social and picture", []string{"Facebook URL", "LinkedIn URL", "Twitter URL", "Profile picture URL"}},
}

// placeholders are the hints shown in empty fields.
var placeholders = map[string]string{
	"Email": "name@example.com", "Salutation": "ms, mr, …", "Gender": "f, m, …",
	"Country": "two letters: DE, US, …", "Locale": "ll_CC: de_DE, en_US, …",
	"Facebook URL": "https://…", "LinkedIn URL": "https://…", "Twitter URL": "https://…",
	"Profile picture URL": "https://…",
}

// atLabel makes err a forms.FieldError about the field labelled label.
func atLabel(label string, lead int, err error) error {
	for g, grp := range fieldGroups {
		for i, l := range grp.labels {
			if l == label {
				if g == 0 {
					i += lead
				}
				return forms.AtField(g, i, err)
			}
		}
	}
	return err
}

// errRequired is returned for a required field left empty.
func errRequired(name string) error { return errors.New(name + " is required") }

// changes is the PATCH body: only the fields whose value differs from orig, the values the
// fields were filled with. A field left alone is never sent (what it shows is sanitized
// display text, not what the API holds). A cleared nullable field is sent as null; the
// locale cannot be cleared.
func (f *fields) changes(orig fields) (client.ContactUpdate, error) {
	var u, uo client.ContactUpdate
	cur, old := f.texts(&u), orig.texts(&uo)
	for i, t := range cur {
		if *t.cur == *old[i].cur {
			continue
		}
		v := t.Normalize(forms.FromField(*t.cur))
		if v == t.Normalize(forms.FromField(*old[i].cur)) {
			continue // only spaces (or the country's case) changed
		}
		if err := t.Set(&u, v); err != nil {
			return u, atLabel(t.Label, 0, err)
		}
	}
	for _, b := range writes.ContactFlags {
		on, was := slices.Contains(f.contactBy, b.Name), slices.Contains(orig.contactBy, b.Name)
		if on != was {
			*b.Dst(&u) = &on
		}
	}
	return u, nil
}

// filled is the PUT body of the upsert form: every non-empty field (an empty field leaves
// an existing contact's value alone).
func (f *fields) filled() client.ContactUpdate {
	var u client.ContactUpdate
	for _, t := range f.texts(&u) {
		if v := t.Normalize(forms.FromField(*t.cur)); v != "" {
			*t.dst = &v
		}
	}
	return u
}

// input is a text field over v. Its check runs on what the value stands for, and not while
// the value is still initial (a field left alone is not sent), when initial is set.
func input(title string, v *string, check func(string) error, placeholder string, initial *string) *huh.Input {
	in := huh.NewInput().Title(title).Value(v).CharLimit(500)
	if check != nil {
		in = in.Validate(forms.Labelled(title, func(s string) error {
			if initial != nil && s == *initial {
				return nil
			}
			return check(forms.FromField(s))
		}))
	}
	if placeholder != "" {
		in = in.Placeholder(placeholder)
	}
	return in
}

// groups are the form's pages over f, laid out as layout says, with the keys of ctx in
// their hints; the first group may get extra fields in front. With orig (the values the
// fields were filled with), a field still holding its initial value is not checked.
func (f *fields) groups(ctx *common.Ctx, lead []huh.Field, withFlags bool, orig *fields) []*huh.Group {
	byLabel := map[string]text{}
	for _, t := range f.texts(&client.ContactUpdate{}) {
		byLabel[t.Label] = t
	}
	initial := map[string]*string{}
	if orig != nil {
		for _, t := range orig.texts(&client.ContactUpdate{}) {
			initial[t.Label] = t.cur
		}
	}
	out := make([]*huh.Group, len(fieldGroups))
	for g, grp := range fieldGroups {
		var fields []huh.Field
		if g == 0 {
			fields = append(fields, lead...)
		}
		for _, l := range grp.labels {
			t := byLabel[l]
			fields = append(fields, input(l, t.cur, t.Check, placeholders[l], initial[l]))
		}
		if g == 2 && withFlags {
			opts := make([]huh.Option[string], len(writes.ContactFlags))
			for i, b := range writes.ContactFlags {
				opts[i] = huh.NewOption(b.Label, b.Name)
			}
			fields = append(fields, huh.NewMultiSelect[string]().Title("May be contacted by").Value(&f.contactBy).Options(opts...).
				Description(ctx.Keys.Mark.Help().Key+" toggles"))
		}
		out[g] = huh.NewGroup(fields...).Title(grp.title)
	}
	out[0] = out[0].Description(forms.Hint(ctx, "saves"))
	return out
}

// NewEditForm returns the `e` modal: every writable field of c prefilled (sanitized, as the
// detail shows it), the changed ones checked before sending; the PATCH carries only the
// fields the user changed (a cleared field is sent as null), so what the API holds in the
// others is never replaced by its display text, and reports KindUpdated with the updated
// client.Contact.
func NewEditForm(ctx *common.Ctx, c client.Contact) common.Modal {
	orig := fieldsFrom(c)
	cur := orig
	cur.contactBy = slices.Clone(orig.contactBy)
	id := c.ID
	title := fmt.Sprintf("Edit contact #%d", id)
	if n := sanitize.Line(strings.TrimSpace(client.Str(c.Name))); n != "" {
		title = fmt.Sprintf("Edit %s (#%d)", n, id)
	}
	check := func() error {
		if err := cur.validate(0, &orig); err != nil {
			return err
		}
		_, err := cur.changes(orig)
		return err
	}
	save := &forms.Checked[client.ContactUpdate]{Kind: KindUpdated, Subject: id, What: fmt.Sprintf("update contact %d", id),
		Send: func(ctx context.Context, c *client.Client, u client.ContactUpdate) (any, error) {
			ct, err := c.UpdateContact(ctx, id, u)
			if err != nil {
				return nil, err
			}
			return *ct, nil
		},
		Check: func(ctx context.Context, c *client.Client, u client.ContactUpdate, cause error) (any, error) {
			ct, err := writes.CheckContact(ctx, c, id, u, cause)
			if err != nil {
				return nil, err
			}
			return ct, nil
		}}
	return forms.New(ctx, forms.Options{
		Title: title,
		Build: func() *huh.Form { return huh.NewForm(cur.groups(ctx, nil, true, &orig)...) },
		Check: check,
		Width: 64,
		Dirty: func() bool {
			u, err := cur.changes(orig)
			return err != nil || len(u.Fields()) > 0
		},
		Success: "Contact saved",
		Verify:  save.Verify(ctx),
		Submit: func() (int, tea.Cmd, error) {
			if err := check(); err != nil {
				return 0, nil, err
			}
			u, err := cur.changes(orig)
			if err != nil {
				return 0, nil, err
			}
			if len(u.Fields()) == 0 {
				return 0, common.Toast("Nothing changed"), nil
			}
			task, cmd := save.Start(ctx, u)
			return task, cmd, nil
		},
	})
}

// identifierFields are the upsert's identifiers (client.Identifiers) as the form offers
// them: the option's name and the label of the field that holds the value.
var identifierFields = []struct{ id, option, label string }{
	{client.IdentifierEmail, "email", "Email"},
	{client.IdentifierExternalCustomerID, "external customer id", "External customer id"},
	{client.IdentifierMobileNumber, "mobile number", "Mobile number"},
	{client.IdentifierPhoneNumber, "phone number", "Phone number"},
}

// NewUpsertForm returns the `a` modal: "create or update by identifier". The identifier is
// a contact field that identifies a contact (email, external customer id, mobile or phone
// number); the PUT updates the contact whose identifier field equals the typed value, or
// creates one. The identifier's value is required and checked like the field's own value;
// only filled fields are sent. It reports KindUpserted with an Upserted.
func NewUpsertForm(ctx *common.Ctx) common.Modal {
	var cur fields
	identifier := client.IdentifierEmail
	lead := func() []huh.Field {
		opts := make([]huh.Option[string], len(identifierFields))
		for i, f := range identifierFields {
			opts[i] = huh.NewOption(f.option, f.id)
		}
		return []huh.Field{huh.NewSelect[string]().Title("Find the contact by").Value(&identifier).Options(opts...).
			Description("the contact with this value is updated; without one, a new contact is created")}
	}
	check := func() error {
		if err := cur.validate(1, nil); err != nil {
			return err
		}
		for _, f := range identifierFields {
			if f.id != identifier {
				continue
			}
			for _, t := range cur.texts(&client.ContactUpdate{}) {
				if t.Label == f.label && strings.TrimSpace(forms.FromField(*t.cur)) == "" {
					return atLabel(f.label, 1, errRequired(f.label+" (the identifier)"))
				}
			}
		}
		return nil
	}
	return forms.New(ctx, forms.Options{
		Title: "Create or update a contact by identifier",
		Build: func() *huh.Form { return huh.NewForm(cur.groups(ctx, lead(), false, nil)...) },
		Check: check,
		Width: 64,
		Dirty: func() bool { return len(cur.filled().Fields()) > 0 },
		Submit: func() (int, tea.Cmd, error) {
			if err := check(); err != nil {
				return 0, nil, err
			}
			u, ident := cur.filled(), identifier
			task, cmd := ctx.Start(common.Write{Kind: KindUpserted, What: "create or update contact",
				Do: func(ctx context.Context, c *client.Client) (any, error) {
					ct, created, err := c.UpsertContact(ctx, ident, u)
					if err != nil {
						return nil, err
					}
					return Upserted{Contact: *ct, Created: created}, nil
				}})
			return task, cmd, nil
		},
	})
}
