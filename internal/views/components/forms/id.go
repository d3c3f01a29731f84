package forms

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/huh/v2"
)

// ParseID reads an optional positive integer id ("" = 0).
func ParseID(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("%q is not a positive whole number", s)
	}
	return v, nil
}

// IDInput is a text field for an optional id (ParseID), titled title; a message about it
// names it.
func IDInput(title string, value *string) *huh.Input {
	return huh.NewInput().Title(title).Value(value).Validate(Labelled(title, func(s string) error {
		_, err := ParseID(s)
		return err
	}))
}
