package contacts

import (
	"strconv"
	"strings"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// Row is the compact, sanitized form of a contact that the list keeps.
type Row struct {
	ID                int64
	Name              string // sanitized, single line
	Email             string
	Phone             string // phone, else mobile
	Company           string
	City              string
	Country           string
	Locale            string
	Verified          bool
	Blocked           bool
	CreatedAt         time.Time
	LastAt            time.Time // last message sent, zero when none
	ConversationCount int       // -1 when the API did not say
}

// RowFrom builds a Row from an API contact, sanitizing every text.
func RowFrom(c client.Contact) Row {
	str := func(p *string) string { return sanitize.Line(strings.TrimSpace(client.Str(p))) }
	r := Row{
		ID:                c.ID,
		Name:              str(c.Name),
		Email:             str(c.Email),
		Phone:             str(c.PhoneNumber),
		Company:           str(c.Company),
		City:              str(c.City),
		Country:           str(c.Country),
		Locale:            sanitize.Line(c.Locale),
		Verified:          c.Verified,
		Blocked:           c.IsBlocked,
		CreatedAt:         c.CreatedAt.Time,
		ConversationCount: -1,
	}
	if r.Phone == "" {
		r.Phone = str(c.MobileNumber)
	}
	if c.LastMessageSentAt != nil {
		r.LastAt = c.LastMessageSentAt.Time
	}
	if c.ConversationCount != nil {
		r.ConversationCount = *c.ConversationCount
	}
	return r
}

// Title is how the contact is named to the user: its name, else its email, else its id.
func (r Row) Title() string {
	switch {
	case r.Name != "":
		return r.Name
	case r.Email != "":
		return r.Email
	}
	return "contact #" + strconv.FormatInt(r.ID, 10)
}

// Place is "city, country" without empty parts.
func (r Row) Place() string {
	switch {
	case r.City != "" && r.Country != "":
		return r.City + ", " + r.Country
	case r.City != "":
		return r.City
	}
	return r.Country
}
