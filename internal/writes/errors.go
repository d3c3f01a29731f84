package writes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// ErrorText turns an error into plain words for a toast, a form or a command's error line,
// with the server's detail sanitized.
func ErrorText(err error) string {
	if err == nil {
		return ""
	}
	// A write checked after its answer was lost: what the check found.
	var notDone *NotDoneError
	var unchecked *UncheckedError
	switch {
	case errors.As(err, &notDone):
		return sentence(notDone.Error())
	case errors.As(err, &unchecked):
		return sentence(unchecked.Error())
	}
	text := errorText(err)
	if OutcomeUnknown(err) {
		// Sent, and the answer lost or not believable: it may have been carried out.
		text += " The change may have been made: check before sending it again."
	}
	return text
}

// sentence is s with a capital letter and a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func errorText(err error) string {
	detail := sanitize.Line(client.Detail(err))
	// A request that got no complete answer: say what happened to it (refused, lost after
	// it was sent, no answer in time) and whether it was sent, without the method and the
	// whole URL in front.
	var te *client.TransportError
	if errors.As(err, &te) {
		if text, ok := client.NetworkProblem(err); ok {
			return sanitize.Line(sentence(text))
		}
	}
	var bad *client.BadResponseError
	if errors.As(err, &bad) {
		return sentence(sanitize.Line(bad.Reason))
	}
	switch {
	case client.IsPermission(err):
		return permissionText(detail)
	case client.IsAuth(err):
		return "The token was rejected (" + detail + "). Run `parley auth login` or set PARLEY_TOKEN."
	case client.IsRateLimited(err):
		if until, ok := client.DailyLimit(err); ok {
			return DailyLimitText(client.FamilyOf(err), until)
		}
		text := "Rate-limited by the API: " + detail
		var apiErr *client.Error
		if errors.As(err, &apiErr) && apiErr.RetryAfter > 0 {
			text += " (it asks to wait " + client.WaitText(apiErr.RetryAfter) + ")"
		}
		return text
	case client.IsNotFound(err):
		if strings.EqualFold(strings.TrimRight(detail, ". "), "not found") {
			return "Not found: the server has nothing by that id." // its own words say no more
		}
		return "Not found: " + detail
	case client.IsValidation(err):
		return "Refused by the API: " + detail
	case errors.Is(err, context.DeadlineExceeded):
		return "The API did not answer in time."
	case errors.Is(err, context.Canceled):
		return "Cancelled."
	}
	var apiErr *client.Error
	if errors.As(err, &apiErr) {
		return fmt.Sprintf("API error %d: %s", apiErr.Status, detail)
	}
	// Another network failure: say which host could not be reached and why.
	if text, ok := client.NetworkProblem(err); ok {
		return sanitize.Line(sentence(text))
	}
	return sanitize.Line(err.Error())
}

// DailyLimitText says why nothing of family can be fetched before until (the API's daily
// limit, counted per family and organization), in local time, and that what is shown
// stays.
func DailyLimitText(family client.Family, until time.Time) string {
	what := string(family)
	if family.IsAnalytics() {
		what = string(family.Metric())
	}
	return "Daily limit of " + what + " requests reached: the API takes them again at " +
		until.Local().Format("Mon 15:04") + " (local time). What is shown stays."
}

// genericDenial is what the API says about every refusal (Django REST framework's default
// 403 text); the specific reason, when there is one, follows it.
const genericDenial = "You do not have permission to perform this action"

// permissionText says a 403 once: the server's specific reason without the generic
// sentence in front of it.
func permissionText(detail string) string {
	d := strings.TrimSpace(detail)
	if n := len(genericDenial); len(d) >= n && strings.EqualFold(d[:n], genericDenial) {
		d = strings.TrimSpace(strings.TrimLeft(d[n:], " .:;,-–—"))
	}
	if d == "" {
		return "You lack permission for this action."
	}
	return "You lack permission: " + d
}
