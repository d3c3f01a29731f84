package forms

import "strings"

// Text fields (bubbles' textinput and textarea, under huh) drop U+FFFD, which sanitized text
// uses for C1 controls and invalid UTF-8: filled with such text, a field would show less
// than the rest of the screen ("␛[0m2J" where the detail says "␛[0m�2J"), and its value
// would no longer equal what it was filled with, so an untouched field would look edited.
// Prefill keeps each U+FFFD in the field as a stand-in that the fields keep (a noncharacter
// of width 1) and the modal draws as U+FFFD; FromField turns a field's value back into text.

// fieldFFFD stands for U+FFFD inside text fields.
const fieldFFFD = '\uFDD0'

var (
	toField   = strings.NewReplacer("\uFFFD", string(fieldFFFD))
	fromField = strings.NewReplacer(string(fieldFFFD), "\uFFFD")
)

// Prefill returns sanitized text as a text field is filled with it to show it as the rest of
// the screen does. A field left alone keeps exactly this value, so comparing a field's value
// with what Prefill returned tells whether the user changed it.
func Prefill(sanitized string) string {
	// The stand-in itself, should the API send it, is drawn as U+FFFD too.
	return toField.Replace(sanitized)
}

// FromField is the text a field's value stands for (Prefill undone; typed text is kept).
func FromField(v string) string { return fromField.Replace(v) }

// drawn is a form's view with the stand-ins drawn as U+FFFD.
func drawn(view string) string {
	if !strings.ContainsRune(view, fieldFFFD) {
		return view
	}
	return fromField.Replace(view)
}
