package notes

import (
	"context"
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sandbox"
)

// skewedRun is a note form's save on a sandbox of the test's own whose clock the test moves
// (s), with the form's client (one attempt per request) on a proxy that can lose requests
// and the local clock (the client's and the view's) skewed off the sandbox's
// (viewtest.EachSkew).
type skewedRun struct {
	e   *env
	s   *viewtest.Skewed
	ct  client.Contact
	old client.Note // a note of the same text the server stamped an hour before the save
}

// skewedSave is a save whose answer is lost, run by each for each of viewtest.Skews: text
// is saved as a new note of the first contact (floor unknown, as from the conversations
// screen) while the proxy meets the POST with fault and, when loseCheck is set, the read
// that checks it with DropRequest. With older set, a note of the same text is written
// first, as another operator would, an hour before the save by the server's clock.
type skewedSave struct {
	text      string
	older     bool
	fault     viewtest.Fault
	loseCheck bool
}

// each runs the save on each skew and hands f the run, the form and the check's report.
func (c skewedSave) each(t *testing.T, f func(t *testing.T, r *skewedRun, m common.Modal, check common.TaskDoneMsg)) {
	log := &viewtest.RequestLog{}
	viewtest.EachSkew(t, sandbox.Options{RequestLog: log}, func(t *testing.T, s *viewtest.Skewed) {
		p, ctx := s.Lossy(t)
		r := &skewedRun{e: &env{ctx: ctx, log: log, info: s.Sandbox.Server.Info(), url: s.Sandbox.URL}, s: s}
		r.ct = r.e.firstContact(t)
		if c.older {
			n, err := r.e.as(t, 0).CreateNote(context.Background(), client.NewNote{ContactIdentityID: r.ct.ID, Body: c.text})
			if err != nil {
				t.Fatal(err)
			}
			r.old = *n
			s.Server.Add(time.Hour)
		}
		p.Lose("POST", notesPath, c.fault, 1)
		if c.loseCheck {
			p.Lose("GET", notesPath, viewtest.DropRequest, 1)
		}
		m, d := save(t, open(r.e, r.ct.ID, "Anna"), c.text)
		s.Server.Add(time.Second)
		m, check := lostThenCheck(t, r.e, m, d)
		f(t, r, m, check)
	})
}

// closed checks that msgs closed the form with the one toast want, and that the server
// holds notes notes of text about the contact.
func (r *skewedRun) closed(t *testing.T, msgs []tea.Msg, want, text string, notes int) {
	t.Helper()
	if got := viewtest.Toasts(msgs); !closed(r.e.ctx) || len(got) != 1 || got[0] != want {
		t.Fatalf("the form did not close with %q: %#v", want, msgs)
	}
	if got := notesWith(t, r.e, r.ct.ID, text); got != notes {
		t.Fatalf("%d notes with the text, want %d", got, notes)
	}
}

// With the local clock 17 days off the server's either way, a note whose POST answer was
// lost is found by the server's clock (its Date header against the notes' created_at): the
// form closes as saved, confirmed, and takes the note the attempt made for it, not an older
// one with the same text. One new note on the server.
func TestNoteLostAnswerIsFoundSavedWhateverTheLocalClock(t *testing.T) {
	const text = "skewed lost answer"
	skewedSave{text: text, older: true, fault: viewtest.DropAnswer}.each(t, func(t *testing.T, r *skewedRun, m common.Modal, check common.TaskDoneMsg) {
		if check.Err != nil {
			t.Fatalf("a note that reached the server was not found: %v", check.Err)
		}
		if n, ok := check.Result.(client.Note); !ok || n.ID == r.old.ID || n.Body != text {
			t.Fatalf("check found %+v; the older note is #%d", check.Result, r.old.ID)
		}
		_, cmd := m.Update(check)
		r.closed(t, run(cmd), "Note saved (confirmed after the connection dropped)", text, 2) // the older one and the attempt's
	})
}

// With the local clock 17 days off the server's either way, the answer is lost and so is
// the read that checks it: the form says it could not confirm (never "not saved"), and
// ctrl+s looks first, finds the note the attempt made by the server's clock and asks
// before sending a copy; no sends nothing. One note on the server.
func TestNoteResendAfterAnUnconfirmedSaveSendsNoCopyWhateverTheLocalClock(t *testing.T) {
	const text = "skewed unconfirmed"
	skewedSave{text: text, fault: viewtest.DropAnswer, loseCheck: true}.each(t, func(t *testing.T, r *skewedRun, m common.Modal, check common.TaskDoneMsg) {
		var unchecked *writes.UncheckedError
		if !errors.As(check.Err, &unchecked) {
			t.Fatalf("check: %+v", check)
		}
		m, _ = m.Update(check)
		want := "Could not confirm whether the note was saved (the connection was lost before the server answered; reading it back: connection lost); check the contact's notes before sending again."
		if got := m.(*Form).Err(); got != want {
			t.Fatalf("error\n got %q\nwant %q", got, want)
		}
		r.s.Server.Add(time.Minute)
		m, cmd := m.Update(ctrlS)
		pre := taskOf(t, cmd)
		if pre.Err != nil {
			t.Fatalf("the look before the resend did not find the note: %v", pre.Err)
		}
		m, cmd = m.Update(pre)
		if d, ok := taskDone(run(cmd)); ok {
			t.Fatalf("sent a copy without asking: %+v", d)
		}
		if q := m.(*Form).inner.Asking(); q == "" {
			t.Fatal("the resend does not ask about the note on the server")
		}
		_, cmd = m.Update(runes("n"))
		r.closed(t, run(cmd), "Note saved by the earlier attempt; no copy sent", text, 1)
	})
}

// With the local clock 17 days off the server's either way, the POST never reaches the
// server, and a note with the same text written an hour earlier (by the server's clock) is
// there: it is not taken for the attempt's. The form says the note is not on the server and
// keeps it; ctrl+s sends it.
func TestNoteLostRequestIsNotTakenForAnOlderNoteWhateverTheLocalClock(t *testing.T) {
	const text = "skewed lost request"
	skewedSave{text: text, older: true, fault: viewtest.DropRequest}.each(t, func(t *testing.T, r *skewedRun, m common.Modal, check common.TaskDoneMsg) {
		var nd *writes.NotDoneError
		if !errors.As(check.Err, &nd) {
			t.Fatalf("an older note was taken for the attempt's: %+v", check)
		}
		m, cmd := m.Update(check)
		if msgs := run(cmd); closed(r.e.ctx) || len(viewtest.Toasts(msgs)) > 0 {
			t.Fatalf("a note that is not on the server closed the form: %#v", msgs)
		}
		resendNotSaved(t, r.e, m)
		if got := notesWith(t, r.e, r.ct.ID, text); got != 2 {
			t.Fatalf("%d notes with the text, want 2 (the older one and the resend)", got)
		}
	})
}
