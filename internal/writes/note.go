package writes

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/parley-tui/parley/client"
)

// A note POST whose answer was lost may have created the note. NoteCheck reads the
// contact's notes again and looks for it. Whether a note is older than the attempt is told
// by ids or by the server's clock, never by the local one.

// MaxNoteBody is the longest note body parley sends, in characters.
const MaxNoteBody = 5000

// noteStampSlack is how much earlier than an attempt, on the server's clock as its Date
// header tells it, a note's created_at may lie and still not be told apart from the
// attempt's: the clock that stamps the notes may not be the one that writes the Date (two
// machines, each set by its own time server). The attempt's moment read that way is never
// later than the server's clock was when the POST arrived (client.ServerTimeOf), so the
// attempt's note is at or after it; a note with the text within noteStampSlack before it
// makes the check say it cannot tell, and one older still is not the attempt's.
const noteStampSlack = time.Minute

// NoteFloor is the newest of the contact's notes known before the note was written. The API
// gives notes growing ids, so a note with a higher id was created after it. Known is false
// when the notes were not read.
type NoteFloor struct {
	ID    int64
	Known bool
}

// NoteAttempt is one POST of a note: the text it sent and when, by the local clock (the
// check places it on the server's, client.ServerTimeOf).
type NoteAttempt struct {
	Text string
	At   time.Time
}

// NoteCheck looks for a note that a POST whose answer was lost may have created: one of
// the contact's notes whose body is what an attempt sent, that did not exist before, and
// that no earlier check found (Known: after "send another copy", the copy is looked for). A
// note existed before when its id is not above the floor (when the floor is known), else
// when its created_at is earlier than the first attempt by more than noteStampSlack, both
// on the server's clock: the attempt's moment is read against the Date header of the
// check's own answer (client.ServerTimeOf), never against the local clock, which may be
// days off. A note that neither tells apart (no floor and no created_at, no Date header
// from the server, or a created_at within noteStampSlack before the attempt) cannot be
// placed, and the check says it could not confirm rather than guess either way.
type NoteCheck struct {
	ContactID int64
	Floor     NoteFloor
	Sent      []NoteAttempt
	Known     []int64
}

// Clone is k with its own lists (a check running while more attempts are made).
func (k NoteCheck) Clone() NoteCheck {
	k.Sent, k.Known = slices.Clone(k.Sent), slices.Clone(k.Known)
	return k
}

// Run reads the contact's notes with c, newest first (one request; ctx must skip the
// response cache), and tells whether the note is there: the note found, or a
// *NotDoneError or an *UncheckedError.
func (k NoteCheck) Run(ctx context.Context, c *client.Client, cause error) (client.Note, error) {
	unchecked := func(err error) (client.Note, error) {
		return client.Note{}, &UncheckedError{Cause: cause, Check: err, What: "whether the note was saved",
			Advice: "check the contact's notes before sending again"}
	}
	if c == nil || len(k.Sent) == 0 {
		return unchecked(errors.New("nothing was sent"))
	}
	p, err := c.ListNotes(ctx, client.NoteListOptions{ContactIdentityID: k.ContactID,
		ListOptions: client.ListOptions{Limit: client.MaxLimit, Ordering: "-id"}})
	if err != nil {
		return unchecked(fmt.Errorf("read the notes of contact %d: %w", k.ContactID, err))
	}
	since, onServer := c.ServerTimeOf(k.first())
	n, found, unsure := k.find(p.Results, since, onServer)
	switch {
	case found:
		return n, nil
	case unsure:
		return unchecked(errors.New("a note with this text is there, but nothing tells whether it is older than the attempt"))
	}
	return client.Note{}, &NotDoneError{Cause: cause, Done: "saved", Found: "the note is not on the server"}
}

// first is the moment of the first attempt, by the local clock.
func (k NoteCheck) first() time.Time {
	since := k.Sent[0].At
	for _, a := range k.Sent {
		if a.At.Before(since) {
			since = a.At
		}
	}
	return since
}

// find picks the attempt's note among notes: the oldest one that an attempt sent and that
// did not exist before. since is the first attempt's moment on the server's clock (onServer
// false: the client has no Date header to place it by). unsure reports a note with a sent
// text of which nothing tells whether it existed before.
func (k NoteCheck) find(notes []client.Note, since time.Time, onServer bool) (n client.Note, found, unsure bool) {
	for _, x := range notes {
		if !k.sentText(x.Body) || slices.Contains(k.Known, x.ID) {
			continue
		}
		var after bool
		switch {
		case k.Floor.Known:
			after = x.ID > k.Floor.ID
		case !onServer || x.CreatedAt.IsZero():
			unsure = true
			continue
		case !x.CreatedAt.Before(since):
			after = true
		case !x.CreatedAt.Before(since.Add(-noteStampSlack)):
			unsure = true
			continue
		}
		if after && (!found || x.ID < n.ID) {
			n, found = x, true
		}
	}
	return n, found, unsure && !found
}

// sentText reports whether body is what an attempt sent.
func (k NoteCheck) sentText(body string) bool {
	for _, a := range k.Sent {
		if SameNoteText(body, a.Text) {
			return true
		}
	}
	return false
}

// SameNoteText compares note bodies as a server may store them: line ends and the white
// space around the text may differ.
func SameNoteText(a, b string) bool { return normText(a) == normText(b) }

func normText(s string) string {
	return strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n"))
}
