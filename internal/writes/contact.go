package writes

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/parley-tui/parley/client"
)

// ContactText is one text field of a contact write (the PATCH of an edit, the PUT of an
// upsert): its label, the API's name for it, its check and where it goes in an update.
type ContactText struct {
	// Label names the field in the forms and the command line's help: "Email".
	Label string
	// Name is the API's field: "email" (the command line's flag: --email).
	Name string
	// Check refuses a value the API would refuse (nil: any text). Empty values pass.
	Check func(string) error
	// Required: the field cannot be cleared (a contact always has a locale).
	Required bool
}

// Dst is where the field goes in u.
func (t ContactText) Dst(u *client.ContactUpdate) **string { return u.Texts()[t.Name] }

// Normalize is the value sent for v: trimmed, a country code in upper case.
func (t ContactText) Normalize(v string) string {
	v = strings.TrimSpace(v)
	if t.Name == "country" {
		v = strings.ToUpper(v)
	}
	return v
}

// Set puts the value v (as typed) into u: normalized, and "" as null (cleared). A
// required field cannot be cleared.
func (t ContactText) Set(u *client.ContactUpdate, v string) error {
	v = t.Normalize(v)
	if v == "" && t.Required {
		return fmt.Errorf("%s: a contact always has one; it cannot be removed", t.Name)
	}
	*t.Dst(u) = &v
	return nil
}

// ContactTexts are the contact's writable text fields (docs/api-notes.md, "Writable
// fields"), in the order the edit form shows them.
var ContactTexts = []ContactText{
	{Label: "Name", Name: "name"},
	{Label: "Email", Name: "email", Check: client.ValidEmail},
	{Label: "Phone number", Name: "phone_number"},
	{Label: "Mobile number", Name: "mobile_number"},
	{Label: "Company", Name: "company"},
	{Label: "Position", Name: "position"},
	{Label: "Gender", Name: "gender"},
	{Label: "Salutation", Name: "salutation"},
	{Label: "Street", Name: "street"},
	{Label: "City", Name: "city"},
	{Label: "Country", Name: "country", Check: client.ValidCountry},
	{Label: "Locale", Name: "locale", Check: client.ValidLocale, Required: true},
	{Label: "External customer id", Name: "external_customer_id"},
	{Label: "Facebook URL", Name: "url_facebook", Check: client.ValidURL},
	{Label: "LinkedIn URL", Name: "url_linkedin", Check: client.ValidURL},
	{Label: "Twitter URL", Name: "url_twitter", Check: client.ValidURL},
	{Label: "Profile picture URL", Name: "url_profile_picture", Check: client.ValidURL},
}

// ContactFlag is one of the contact's "may be contacted by" flags.
type ContactFlag struct {
	// Label says what the flag allows: "email".
	Label string
	// Name is the API's field: "contact_by_email".
	Name string
}

// Dst is where the flag goes in u.
func (f ContactFlag) Dst(u *client.ContactUpdate) **bool { return u.ContactBy()[f.Name] }

// Of is the flag's value in c.
func (f ContactFlag) Of(c client.Contact) bool { return c.ContactBy()[f.Name] }

// ContactFlags are the contact's writable flags, in the order the edit form shows them.
var ContactFlags = []ContactFlag{
	{Label: "email", Name: "contact_by_email"},
	{Label: "phone", Name: "contact_by_phone"},
	{Label: "service channels", Name: "contact_by_service_channels"},
	{Label: "service messenger", Name: "contact_by_service_messenger"},
}

// ContactTextNamed is the text field the API calls name.
func ContactTextNamed(name string) (ContactText, bool) {
	for _, t := range ContactTexts {
		if t.Name == name {
			return t, true
		}
	}
	return ContactText{}, false
}

// CheckContact reads the contact again (ctx must skip the response cache) after a PATCH
// of u whose answer was lost: saved, with the contact read, when it has every value sent.
func CheckContact(ctx context.Context, c *client.Client, id int64, u client.ContactUpdate, cause error) (client.Contact, error) {
	ct, err := c.GetContact(ctx, id)
	if err != nil {
		err = fmt.Errorf("read contact %d: %w", id, err)
	}
	if err := CheckSaved(cause, err, err == nil && ContactHas(*ct, u), "whether the contact was saved",
		"the contact on the server does not have the values sent"); err != nil {
		return client.Contact{}, err
	}
	return *ct, nil
}

// ContactHas reports whether c holds every value of u, as a PATCH of u leaves it: a
// cleared field is null or empty, texts compare without the spaces around them (an email
// and a country also without case), flags exactly.
func ContactHas(c client.Contact, u client.ContactUpdate) bool {
	b, err := json.Marshal(c)
	if err != nil {
		return false
	}
	var have map[string]any
	if err := json.Unmarshal(b, &have); err != nil {
		return false
	}
	for k, want := range u.Fields() {
		got := have[k]
		switch w := want.(type) {
		case nil:
			if s, isText := got.(string); got != nil && (!isText || strings.TrimSpace(s) != "") {
				return false
			}
		case string:
			s, ok := got.(string)
			a, b := strings.TrimSpace(w), strings.TrimSpace(s)
			if !ok || a != b && !((k == "email" || k == "country") && strings.EqualFold(a, b)) {
				return false
			}
		case bool:
			if g, ok := got.(bool); !ok || g != w {
				return false
			}
		default:
			return false
		}
	}
	return true
}
