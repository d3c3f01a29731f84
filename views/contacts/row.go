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

// columns are the widths of a one-line contact row's cells (0: the column is not shown).
type columns struct{ name, email, place, phone, company, locale int }

// oneLine lays a one-line row out at pane width w: mark, verified, name, email, place, then
// from 120 columns the phone, from 140 the company and from 90 the locale, and the time.
// What the fixed columns leave is shared: the name 30 % (12 to 28 cells), the place 25 %
// (10 to 26) and the email the rest, so an email is cut only in a narrow pane: at 78
// columns (an 80-column terminal) name 19, email 30 and place 16, at 86 (the list at 160)
// 21, 34 and 18, at 108 (at 200) 26, 41 and 22.
func oneLine(w int) columns {
	c := columns{}
	if w >= 90 {
		c.locale = 5
	}
	if w >= 120 {
		c.phone = 16
	}
	if w >= 140 {
		c.company = min(22, max(10, w/8))
	}
	const timeW = 6
	fixed := 1 + 2 + 1 + 1 + 1 + timeW + 1 // mark, verified, the spaces after name, email and place, the time and its space
	for _, x := range []int{c.locale, c.phone, c.company} {
		if x > 0 {
			fixed += x + 1
		}
	}
	flex := max(3, w-fixed)
	c.name = min(28, max(12, flex*30/100))
	c.place = min(26, max(10, flex*25/100))
	c.email = max(0, flex-c.name-c.place)
	return c
}

// WideListWidth is the terminal width from which the list takes 55 % beside the detail
// (45 % below it): from there its rows take one line each with the email whole, while the
// detail keeps 70 columns and more.
const WideListWidth = 140

// listWidth is the list pane's width (frame included) beside the detail in width w.
func listWidth(w int) int {
	if w >= WideListWidth {
		return w * 55 / 100
	}
	return w * 45 / 100
}
