package common

import (
	"context"
	"errors"
	"fmt"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// ErrorText turns an error into plain words for a toast or a form, with the server's
// detail sanitized.
func ErrorText(err error) string {
	if err == nil {
		return ""
	}
	detail := sanitize.Line(client.Detail(err))
	switch {
	case client.IsPermission(err):
		return "You lack permission: " + detail
	case client.IsAuth(err):
		return "The token was rejected (" + detail + "). Run `parley auth login` or set PARLEY_TOKEN."
	case client.IsRateLimited(err):
		return "Rate-limited by the API: " + detail
	case client.IsNotFound(err):
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
	return sanitize.Line(err.Error())
}
