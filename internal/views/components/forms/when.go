package forms

import (
	"time"

	"charm.land/huh/v2"

	"github.com/parley-tui/parley/internal/when"
)

// WhenInput is a text field for an optional time as when.Parse reads it at now() (a date,
// a date and time, an age such as 6h or 7d, today), titled title, with examples as its
// placeholder; a message about it names it.
func WhenInput(title string, value *string, now func() time.Time) *huh.Input {
	return huh.NewInput().Title(title).Value(value).Validate(Labelled(title, func(s string) error {
		_, err := when.Parse(s, now())
		return err
	})).Placeholder("2026-11-01, 2026-11-01 14:30, 6h, 7d, today")
}
