package contacts

import (
	"strconv"
	"strings"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/views/components/layout"
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

// cells is what a one-line row's cells are drawn from.
type cells struct {
	r  *Row
	st *theme.Styles
	// name and when are the row's name and time as shown.
	name, when string
}

// columns lay a one-line row out (from wideRow): mark, verified, name, email, place, then
// from 120 columns the phone, from 140 the company and from 90 the locale, and the time.
// What the fixed columns leave is shared: the name 30 % (12 to 28 cells), the place 25 %
// (10 to 26) and the email the rest, so an email is cut only in a narrow pane: at 78
// columns (an 80-column terminal) name 19, email 30 and place 16, at 86 (the list at 160)
// 21, 34 and 18, at 108 (at 200) 26, 41 and 22.
var columns = layout.Table[cells]{Lead: 1, MinFlex: 3, Columns: []layout.Column[cells]{
	{Title: "✓", Width: 1, Cell: verifiedCell},
	{Title: "NAME", Flex: layout.Part{N: 30, D: 100}, Min: 12, Max: 28, Cell: func(c cells, w int) string {
		return c.st.Bold.Render(layout.Pad(c.name, w))
	}},
	{Title: "EMAIL", Rest: true, Cell: func(c cells, w int) string { return layout.Pad(c.r.Email, w) }},
	{Title: "PLACE", Flex: layout.Part{N: 25, D: 100}, Min: 10, Max: 26, Cell: func(c cells, w int) string {
		return c.st.Muted.Render(layout.Pad(c.r.Place(), w))
	}},
	{Title: "PHONE", Width: 16, From: 120, Cell: func(c cells, w int) string { return c.st.Muted.Render(layout.Pad(c.r.Phone, w)) }},
	{Title: "COMPANY", Pane: layout.Part{N: 1, D: 8}, Min: 10, Max: 22, From: 140, Cell: func(c cells, w int) string {
		return c.st.Muted.Render(layout.Pad(c.r.Company, w))
	}},
	{Title: "LOCALE", Width: 5, From: 90, Cell: func(c cells, w int) string { return c.st.Muted.Render(layout.Pad(c.r.Locale, w)) }},
	{Title: "TIME", Width: 6, Right: true, Cell: func(c cells, w int) string { return c.st.Muted.Render(layout.PadLeft(c.when, w)) }},
}}

// verifiedCell marks a contact verified (✓) or blocked (⊘).
func verifiedCell(c cells, _ int) string {
	switch {
	case c.r.Blocked:
		return c.st.Error.Render("⊘")
	case c.r.Verified:
		return c.st.Success.Render("✓")
	}
	return " "
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
