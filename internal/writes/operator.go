package writes

import (
	"context"
	"fmt"

	"github.com/parley-tui/parley/client"
)

// AwayWord is an away status in a word: "away" or "available".
func AwayWord(away bool) string {
	if away {
		return "away"
	}
	return "available"
}

// SetAway sends the away PATCH of operator id. An answer that states the other away status
// is a *NotShownError, returned with the answer; one that does not state it is taken as
// the server's yes (the spec shows no fields of the answer; docs/api-notes.md).
func SetAway(ctx context.Context, c *client.Client, id int64, away bool) (*client.AwayStatus, error) {
	st, err := c.SetOperatorAway(ctx, id, away)
	if err != nil {
		return nil, err
	}
	is := st.IsAway
	if st.Operator != nil && st.Operator.ID == id {
		is = st.Operator.IsAway
	}
	if is.Known && is.V != away {
		return st, &NotShownError{What: fmt.Sprintf("operator #%d", id), Fields: fmt.Sprintf("is_away %t", away),
			Shows: "it is " + AwayWord(is.V)}
	}
	return st, nil
}

// CheckAway settles an away PATCH of operator id asking for away whose answer was lost
// (cause) by reading the operator again (ctx must skip the response cache): the operator
// read when its away status is the one asked for, a *NotDoneError when it is the other,
// and an *UncheckedError when the read failed or does not say. label names the operator in
// the verdict, sanitized: "Ben", "operator #7".
func CheckAway(ctx context.Context, c *client.Client, id int64, away bool, cause error, label string) (*client.Operator, error) {
	asked, other := AwayWord(away), AwayWord(!away)
	op, err := c.GetOperator(ctx, id)
	switch {
	case err != nil:
		return nil, &UncheckedError{Cause: cause, Check: fmt.Errorf("read operator %d: %w", id, err),
			What: "whether " + label + " was set " + asked, Advice: "refresh to see the status"}
	case !op.IsAway.Known:
		return nil, &UncheckedError{Cause: cause, Check: fmt.Errorf("read operator %d: the answer does not say whether it is away", id),
			What: "whether " + label + " was set " + asked, Advice: "refresh to see the status"}
	case op.IsAway.V == away:
		return op, nil
	}
	return nil, &NotDoneError{Cause: cause, Done: "saved", Found: label + " is still " + other}
}
