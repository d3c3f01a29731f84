package common

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/writes"
)

// Task kinds (TaskDoneMsg.Kind): the resource, a dot, the verb.
const (
	KindConversationUpdate = "conversation.update" // Result: *client.Conversation
	KindConversationDelete = "conversation.delete" // Result: list.Deleted
	KindContactUpdate      = "contact.update"      // Result: client.Contact
	KindContactUpsert      = "contact.upsert"      // Result: contacts.Upserted
	KindContactDelete      = "contact.delete"      // Result: list.Deleted
	KindNoteCreate         = "note.create"         // Result: client.Note
	KindNoteDelete         = "note.delete"         // Result: the note's id (int64)
	KindOperatorAway       = "operator.away"       // Result: operators.Row or client.AwayStatus
	KindOperatorEdit       = "operator.edit"       // Result: operators.Row
	KindOperatorDelete     = "operator.delete"     // Result: list.Deleted
	KindAnalyticsExport    = "analytics.export"    // Result: analytics.ExportResult
	// KindConversationTranscript writes a file, not the API. Result:
	// conversations.TranscriptResult; Subject: the conversation.
	KindConversationTranscript = "conversation.transcript"
)

// TaskTimeout bounds one write (retries included) and, after its answer was lost, the read
// that checks it.
const TaskTimeout = 90 * time.Second

// Write is one write (PATCH, POST, PUT, DELETE) run as a task: every write of parley starts
// through Ctx.Start and reports one TaskDoneMsg.
type Write struct {
	// Owner is the id of the component that started it (Ctx.NewID); Kind says what it
	// does; Subject is the row it writes (0: several, or none).
	Owner   int
	Kind    string
	Subject int64
	// What names the write in its error ("delete contact 12": "delete contact 12: …").
	What string
	// Do sends the write with the client of when it started; its value is the Result.
	Do func(ctx context.Context, c *client.Client) (any, error)
	// Check, when set, settles a write whose answer was lost (OutcomeUnknown) right away, by
	// reading again (its context skips the response cache): its value is the Result (the
	// change was found), its error a *NotDoneError (not made) or an *UncheckedError (the
	// read could not tell). Without it, such an error stays as it is ("may have been
	// made"), for the caller to check (a form's Verify).
	Check func(ctx context.Context, c *client.Client, cause error) (any, error)
	// Lost, when set, makes the task the check of a write whose answer was lost: Do reads,
	// and the message reports Lost (see TaskDoneMsg.Lost).
	Lost error
	// As is the client the write goes out with (nil: the context's when it starts): a
	// check reads as the operator who wrote.
	As *client.Client
}

// Start starts w as a new task: it returns the task id (a form waits for it) and the
// command, which sends w within TaskTimeout and reports a TaskDoneMsg.
func (c *Ctx) Start(w Write) (taskID int, cmd tea.Cmd) {
	id := c.NewID()
	return id, c.StartAs(id, w)
}

// StartAs is Start under a task id already given out: a form that checks a write whose
// answer was lost waits for the check under the id it chose (forms.Options.Verify).
func (c *Ctx) StartAs(taskID int, w Write) tea.Cmd {
	cl := w.As
	if cl == nil {
		cl = c.Client
	}
	return func() tea.Msg { return w.run(taskID, cl) }
}

// run sends w as task id and, after a lost answer, checks it when w says how.
func (w Write) run(id int, c *client.Client) TaskDoneMsg {
	msg := TaskDoneMsg{TaskID: id, Owner: w.Owner, Kind: w.Kind, Subject: w.Subject, Lost: w.Lost}
	ctx, cancel := RequestContext(TaskTimeout, w.Lost != nil)
	msg.Result, msg.Err = w.Do(ctx, c)
	cancel()
	if l, ok := msg.Result.(interface{ LostAnswer() error }); ok && msg.Lost == nil {
		msg.Lost = l.LostAnswer() // the write checked what it did itself (a delete)
	}
	if w.Check != nil && w.Lost == nil && writes.OutcomeUnknown(msg.Err) {
		msg.Lost = msg.Err
		ctx, cancel := RequestContext(TaskTimeout, true)
		defer cancel()
		msg.Result, msg.Err = w.Check(ctx, c, msg.Lost)
	}
	if msg.Err != nil && w.What != "" {
		msg.Err = fmt.Errorf("%s: %w", w.What, msg.Err)
	}
	return msg
}

// Mine reports whether msg is the result of a task owner started.
func (msg TaskDoneMsg) Mine(owner int) bool { return owner != 0 && msg.Owner == owner }

// DoneToast is the toast of a finished task: the error in plain words (what a check after a
// lost answer found included), or done followed by " (confirmed after …)" when the write's
// answer was lost and the check found the change made (before done's full stop: "Ended
// conversation #5 (confirmed after the connection dropped)."); nothing for an empty done.
func DoneToast(msg TaskDoneMsg, done string) tea.Cmd {
	switch {
	case msg.Err != nil:
		return ErrorToast(msg.Err)
	case done == "":
		return nil
	}
	if text, ok := strings.CutSuffix(done, "."); ok {
		return Toast(text + writes.Confirmed(msg.Lost) + ".")
	}
	return Toast(done + writes.Confirmed(msg.Lost))
}

// CheckGoneOf is a Write.Check for a delete of what: done (the Result a success reports)
// when reading it again answers 404 (see CheckGone).
func CheckGoneOf(what string, done any, read func(ctx context.Context, c *client.Client) error) func(context.Context, *client.Client, error) (any, error) {
	return func(ctx context.Context, c *client.Client, cause error) (any, error) {
		if err := writes.CheckGone(ctx, cause, what, func(ctx context.Context) error { return read(ctx, c) }); err != nil {
			return nil, err
		}
		return done, nil
	}
}
