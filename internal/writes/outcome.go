package writes

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// A write whose answer was lost (errors.Is(err, client.ErrOutcomeUnknown): sent, then the
// connection broke, the time ran out, or the answer could not be believed) may have been
// carried out. It is never reported as saved or failed as it stands: whoever sent it (a
// screen, a command) reads the resource again, fresh, and reports what it found:
//
//   - no error: the change is on the server, and the read shows it;
//   - a *NotDoneError: the change is not on the server;
//   - an *UncheckedError: the read failed too, or cannot tell, and nobody knows.

// OutcomeUnknown reports a write that may have been carried out although its answer was lost.
func OutcomeUnknown(err error) bool { return errors.Is(err, client.ErrOutcomeUnknown) }

// NotDoneError says that a write whose answer was lost was checked and is not on the server:
// "Not saved: the connection was lost before the server answered, and the note is not on the
// server."
type NotDoneError struct {
	// Cause is the write's error.
	Cause error
	// Done is what the write would have done: "saved", "deleted".
	Done string
	// Found is what the read found, in words, already sanitized: "the note is not on the
	// server".
	Found string
}

func (e *NotDoneError) Error() string {
	return "not " + e.Done + ": " + LostAnswer(e.Cause) + ", and " + e.Found
}

// The outcome is known now: a NotDoneError does not unwrap to the write's error (which
// matches client.ErrOutcomeUnknown).

// UncheckedError says that a write whose answer was lost could not be checked: the read
// failed too (or found nothing that tells). The outcome stays unknown, so it unwraps to the
// write's error as well as the read's.
type UncheckedError struct {
	// Cause is the write's error.
	Cause error
	// Check is why the read could not tell.
	Check error
	// What is what could not be confirmed: "whether the note was saved".
	What string
	// Advice is what the user should do, already sanitized: "check the contact's notes
	// before sending again" ("" = none).
	Advice string
}

func (e *UncheckedError) Error() string {
	s := "could not confirm " + e.What + " (" + LostAnswer(e.Cause) + "; reading it back: " + checkText(e.Check) + ")"
	if e.Advice != "" {
		s += "; " + e.Advice
	}
	return s
}

func (e *UncheckedError) Unwrap() []error { return []error{e.Cause, e.Check} }

// checkText is why a read-back could not tell, in a few words: "connection lost", "no
// answer in time", "cannot connect", or the error's text.
func checkText(err error) string {
	var te *client.TransportError
	switch {
	case err == nil:
		return "no answer"
	case errors.As(err, &te):
		switch {
		case te.Limit > 0:
			return "no answer in time"
		case te.Sent:
			return "connection lost"
		case te.Connected:
			return "connection broken"
		}
		return "cannot connect"
	}
	t := strings.TrimSuffix(ErrorText(err), ".")
	if t != "" {
		t = strings.ToLower(t[:1]) + t[1:]
	}
	return t
}

// LostAnswer says in plain words (sanitized) why a write's outcome is unknown, to follow
// "Not saved: ":
//
//	the connection was lost before the server answered
//	no answer came within 30s
//	the request was cancelled before the answer came
//	the API answered 201 with an empty body
//	the API answered 502 Bad Gateway (detail)
func LostAnswer(err error) string {
	var te *client.TransportError
	var bad *client.BadResponseError
	var apiErr *client.Error
	switch {
	case err == nil:
		return "the answer was lost"
	case errors.As(err, &te):
		switch {
		case te.Limit > 0 && te.Sent:
			return "no answer came within " + client.WaitText(te.Limit)
		case errors.Is(te.Err, context.Canceled) && te.Sent:
			return "the request was cancelled before the answer came"
		case te.Sent:
			return "the connection was lost before the server answered"
		}
		if text, ok := client.NetworkProblem(err); ok {
			return sanitize.Line(text)
		}
	case errors.As(err, &bad):
		return sanitize.Line(bad.Reason)
	case errors.As(err, &apiErr):
		s := "the API answered " + strconv.Itoa(apiErr.Status)
		if t := http.StatusText(apiErr.Status); t != "" {
			s += " " + t
		}
		if d := strings.TrimSpace(apiErr.Detail); d != "" && d != http.StatusText(apiErr.Status) {
			s += " (" + sanitize.Line(d) + ")"
		}
		return s
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer came in time"
	}
	return sanitize.Line(err.Error())
}

// LostShort is LostAnswer in a few words, for "Note saved (confirmed after …)": "the
// connection dropped", "no answer came in time", "an unreadable answer", "a 502 answer".
func LostShort(err error) string {
	var te *client.TransportError
	var bad *client.BadResponseError
	var apiErr *client.Error
	switch {
	case errors.As(err, &te):
		switch {
		case te.Limit > 0:
			return "no answer came in time"
		case errors.Is(te.Err, context.Canceled):
			return "the request was cancelled"
		}
		return "the connection dropped"
	case errors.As(err, &bad):
		return "an unreadable answer"
	case errors.As(err, &apiErr):
		return "a " + strconv.Itoa(apiErr.Status) + " answer"
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer came in time"
	}
	return "the answer was lost"
}

// Confirmed is the note added to a success text when the success was confirmed by a read
// after the write's answer was lost: " (confirmed after the connection dropped)"; "" when
// lost is nil.
func Confirmed(lost error) string {
	if lost == nil {
		return ""
	}
	return " (confirmed after " + LostShort(lost) + ")"
}

// CheckGone settles a delete whose answer was lost by reading the item again (read must
// skip the response cache): a 404 means it is gone (nil), an answer means it is still there
// (a *NotDoneError saying "<what> is still there"), and a failed read leaves it unknown (an
// *UncheckedError). what names the item, sanitized: "note #12".
func CheckGone(ctx context.Context, cause error, what string, read func(context.Context) error) error {
	err := read(client.Fresh(ctx))
	switch {
	case client.IsNotFound(err):
		return nil
	case err == nil:
		return &NotDoneError{Cause: cause, Done: "deleted", Found: what + " is still there"}
	}
	return &UncheckedError{Cause: cause, Check: err, What: "whether " + what + " was deleted",
		Advice: "refresh to see whether it is still there"}
}

// CheckSaved settles a write whose answer was lost (cause) by a read of the resource again:
// nil when the read found the change (has), a *NotDoneError saying what it found instead
// (found, sanitized) when it did not, and an *UncheckedError about what ("whether the
// contact was saved") when the read failed (readErr).
func CheckSaved(cause, readErr error, has bool, what, found string) error {
	switch {
	case readErr != nil:
		return &UncheckedError{Cause: cause, Check: readErr, What: what}
	case has:
		return nil
	}
	return &NotDoneError{Cause: cause, Done: "saved", Found: found}
}
