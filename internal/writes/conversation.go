package writes

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sanitize"
)

// The conversation actions: take, assign, unassign, end, reopen and mark read or unread.
// Each is one PATCH of one conversation carrying only the field changed; its answer is
// believed only when it shows the change, and a lost answer is settled by reading the
// conversation again (docs/api-notes.md, "Conversation actions").

// ReopenStatus is the status a reopened conversation is sent with: an ended conversation
// was answered before, so it waits for a reply ("pending") rather than being "new" (not yet
// answered; docs/api-notes.md).
const ReopenStatus = client.StatusPending

// MaxTopic is the longest topic the forms and the command line send, in characters.
const MaxTopic = 100

// Change is one action on one conversation.
type Change struct {
	ID     int64
	Update client.ConversationUpdate
	// Fields names what is sent, for a refusal: `status "ended"`.
	Fields string
	// Shows is "" when c (the answer, or a read after a lost answer) shows the change, else
	// what it shows instead: "its status is pending".
	Shows func(c *client.Conversation) string
}

// NotShownError is a 2xx answer to a write that does not show the change sent: the server
// took the request but did not make the change (or says it did not).
type NotShownError struct {
	What   string // what was written: "conversation #12"
	Fields string // what was sent
	Shows  string // what the answer shows instead
}

func (e *NotShownError) Error() string {
	return fmt.Sprintf("the API answered success but %s does not show %s: %s", e.What, e.Fields, e.Shows)
}

// AssignChange assigns conversation id to operator op (0: unassigns it). name words an
// operator for what an answer shows instead ("it is assigned to Ben"); nil names them by id.
func AssignChange(id, op int64, name func(int64) string) Change {
	if name == nil {
		name = func(id int64) string { return fmt.Sprintf("operator #%d", id) }
	}
	u := client.ConversationUpdate{}
	fields := "operator_assigned_to null"
	if op == 0 {
		u.Unassign = true
	} else {
		u.OperatorAssignedTo = &op
		fields = fmt.Sprintf("operator_assigned_to %d", op)
	}
	return Change{ID: id, Update: u, Fields: fields,
		Shows: func(c *client.Conversation) string {
			have := int64(0)
			if c.OperatorAssignedTo != nil {
				have = *c.OperatorAssignedTo
			}
			switch {
			case have == op:
				return ""
			case have == 0:
				return "it is unassigned"
			}
			return "it is assigned to " + name(have)
		}}
}

// StatusChange sets conversation id's status to status (ended to end it, ReopenStatus to
// reopen it).
func StatusChange(id int64, status string) Change {
	return Change{ID: id, Update: client.ConversationUpdate{Status: &status},
		Fields: fmt.Sprintf("status %q", status),
		Shows: func(c *client.Conversation) string {
			if c.Status == status {
				return ""
			}
			return "its status is " + strings.TrimSpace(sanitize.Line(c.Status))
		}}
}

// ReadChange marks conversation id read (read) or unread.
func ReadChange(id int64, read bool) Change {
	return Change{ID: id, Update: client.ConversationUpdate{MarkedReadOperator: &read},
		Fields: fmt.Sprintf("marked_read_operator %t", read),
		Shows: func(c *client.Conversation) string {
			switch {
			case c.MarkedReadOperator == read:
				return ""
			case c.MarkedReadOperator:
				return "it is still read"
			}
			return "it is still unread"
		}}
}

// Send PATCHes the change. An answer that does not show it is a *NotShownError, returned
// with the conversation as the server has it.
func (ch Change) Send(ctx context.Context, c *client.Client) (*client.Conversation, error) {
	conv, err := c.UpdateConversation(ctx, ch.ID, ch.Update)
	if err != nil {
		return nil, err
	}
	if why := ch.Shows(conv); why != "" {
		return conv, &NotShownError{What: fmt.Sprintf("conversation #%d", ch.ID), Fields: ch.Fields, Shows: why}
	}
	return conv, nil
}

// Check settles a Send whose answer was lost (cause) by reading the conversation again
// (ctx must skip the response cache): the conversation when it shows the change, else a
// *NotDoneError saying what it shows, or an *UncheckedError when the read failed.
func (ch Change) Check(ctx context.Context, c *client.Client, cause error) (*client.Conversation, error) {
	conv, err := c.GetConversation(ctx, ch.ID)
	if err != nil {
		err = fmt.Errorf("read conversation %d: %w", ch.ID, err)
	}
	found := ""
	if err == nil {
		found = ch.Shows(conv)
	}
	if err := CheckSaved(cause, err, err == nil && found == "", fmt.Sprintf("whether conversation #%d changed", ch.ID),
		fmt.Sprintf("conversation #%d does not show %s: %s", ch.ID, ch.Fields, found)); err != nil {
		return nil, err
	}
	return conv, nil
}

// ErrorText says why the change failed, in words that follow "Could not end conversation
// #12: ": a refusal names the fields sent, whatever the server's words.
func (ch Change) ErrorText(err error) string {
	var notShown *NotShownError
	switch {
	case client.IsValidation(err):
		detail := sanitize.Line(client.Detail(err))
		return fmt.Sprintf("the API refused %s: %s", ch.Fields, strings.TrimSuffix(detail, "."))
	case errors.As(err, &notShown):
		return sanitize.Line(notShown.Error()) + "."
	}
	return ErrorText(err)
}

// CheckTopics reads the conversation again (ctx must skip the response cache) after a
// topics PATCH whose answer was lost: saved when its topics are the ones sent (as the API
// matches them, in any order), with the conversation read.
func CheckTopics(ctx context.Context, c *client.Client, id int64, sent []string, cause error) (*client.Conversation, error) {
	conv, err := c.GetConversation(ctx, id)
	if err != nil {
		err = fmt.Errorf("read conversation %d: %w", id, err)
	}
	if err := CheckSaved(cause, err, err == nil && SameTopics(conv.Topics, sent), "whether the topics were saved",
		"the conversation's topics on the server are not the ones sent"); err != nil {
		return nil, err
	}
	return conv, nil
}

// SameTopics reports whether have are the topics sent, as the API matches topics.
func SameTopics(have []client.Topic, sent []string) bool {
	a := map[string]bool{}
	for _, t := range have {
		if k := TopicKey(t.Text); k != "" {
			a[k] = true
		}
	}
	b := map[string]bool{}
	for _, t := range sent {
		if k := TopicKey(t); k != "" {
			b[k] = true
		}
	}
	return maps.Equal(a, b)
}

// TopicKey is how the API matches topics: case-insensitively on the trimmed text.
func TopicKey(text string) string { return strings.ToLower(strings.TrimSpace(text)) }

// MergeTopics is topics without blank ones and without duplicates as the API matches them
// (the first spelling kept), in their order. Each is sent as it is: a topic the API has is
// kept in its own spelling, and a new one should come trimmed.
func MergeTopics(topics []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, t := range topics {
		if k := TopicKey(t); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, t)
		}
	}
	return out
}

// CheckTopic refuses a topic longer than MaxTopic characters.
func CheckTopic(t string) error {
	if len([]rune(strings.TrimSpace(t))) > MaxTopic {
		return fmt.Errorf("a topic is at most %d characters", MaxTopic)
	}
	return nil
}
