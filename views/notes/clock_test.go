package notes

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/viewtest"
)

// skews are the local clocks the clock tests run with: 17 days ahead of the server's and
// 17 days behind it.
var skews = []time.Duration{17 * 24 * time.Hour, -17 * 24 * time.Hour}

func skewName(d time.Duration) string {
	if d > 0 {
		return fmt.Sprintf("local clock %d days ahead", d/(24*time.Hour))
	}
	return fmt.Sprintf("local clock %d days behind", -d/(24*time.Hour))
}

// skewedEnv is a sandbox of the test's own on a clock the test moves, behind a proxy that
// can lose requests, and the form's context: the client on the proxy (one attempt per
// request), its clock and the view's skew off the sandbox's.
func skewedEnv(t *testing.T, skew time.Duration) (*env, *viewtest.Proxy, *viewtest.Skewed) {
	t.Helper()
	log := &viewtest.RequestLog{}
	s := viewtest.NewSkewed(t, skew, sandbox.Options{RequestLog: log})
	p, ctx := s.Lossy(t)
	return &env{ctx: ctx, log: log, info: s.Sandbox.Server.Info(), url: s.Sandbox.URL}, p, s
}

// olderNote creates a note with text about the contact as another operator would, then
// moves the server's clock on by ago: the note is that much older than what follows.
func olderNote(t *testing.T, e *env, s *viewtest.Skewed, contactID int64, text string, ago time.Duration) client.Note {
	t.Helper()
	n, err := e.as(t, 0).CreateNote(context.Background(), client.NewNote{ContactIdentityID: contactID, Body: text})
	if err != nil {
		t.Fatal(err)
	}
	s.Server.Add(ago)
	return *n
}

// With the local clock 17 days off the server's either way, a note whose POST answer was
// lost is found by the server's clock (its Date header against the notes' created_at): the
// form closes as saved, confirmed, and takes the note the attempt made for it, not an older
// one with the same text. One new note on the server.
func TestNoteLostAnswerIsFoundSavedWhateverTheLocalClock(t *testing.T) {
	for _, skew := range skews {
		t.Run(skewName(skew), func(t *testing.T) {
			e, p, s := skewedEnv(t, skew)
			ct := e.firstContact(t)
			text := "skewed lost answer"
			old := olderNote(t, e, s, ct.ID, text, time.Hour)
			p.Lose("POST", notesPath, viewtest.DropAnswer, 1)
			m, d := save(t, open(e, ct.ID, "Anna"), text)
			s.Server.Add(time.Second)
			m, check := lostThenCheck(t, e, m, d)
			if check.Err != nil {
				t.Fatalf("a note that reached the server was not found: %v", check.Err)
			}
			if n, ok := check.Result.(client.Note); !ok || n.ID == old.ID || n.Body != text {
				t.Fatalf("check found %+v; the older note is #%d", check.Result, old.ID)
			}
			_, cmd := m.Update(check)
			msgs := run(cmd)
			if got := viewtest.Toasts(msgs); !closed(e.ctx) || len(got) != 1 || got[0] != "Note saved (confirmed after the connection dropped)" {
				t.Fatalf("the form did not close as saved: %#v", msgs)
			}
			if got := notesWith(t, e, ct.ID, text); got != 2 {
				t.Fatalf("%d notes with the text, want 2 (the older one and the attempt's)", got)
			}
		})
	}
}

// With the local clock 17 days off the server's either way, the answer is lost and so is
// the read that checks it: the form says it could not confirm (never "not saved"), and
// ctrl+s looks first, finds the note the attempt made by the server's clock and asks
// before sending a copy; no sends nothing. One note on the server.
func TestNoteResendAfterAnUnconfirmedSaveSendsNoCopyWhateverTheLocalClock(t *testing.T) {
	for _, skew := range skews {
		t.Run(skewName(skew), func(t *testing.T) {
			e, p, s := skewedEnv(t, skew)
			ct := e.firstContact(t)
			text := "skewed unconfirmed"
			p.Lose("POST", notesPath, viewtest.DropAnswer, 1)
			p.Lose("GET", notesPath, viewtest.DropRequest, 1)
			m, d := save(t, open(e, ct.ID, "Anna"), text)
			s.Server.Add(time.Second)
			m, check := lostThenCheck(t, e, m, d)
			var unchecked *common.UncheckedError
			if !errors.As(check.Err, &unchecked) {
				t.Fatalf("check: %+v", check)
			}
			m, _ = m.Update(check)
			want := "Could not confirm whether the note was saved (the connection was lost before the server answered; reading it back: connection lost); check the contact's notes before sending again."
			if got := m.(*Form).Err(); got != want {
				t.Fatalf("error\n got %q\nwant %q", got, want)
			}
			s.Server.Add(time.Minute)
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
			msgs := run(cmd)
			if got := viewtest.Toasts(msgs); !closed(e.ctx) || len(got) != 1 || got[0] != "Note saved by the earlier attempt; no copy sent" {
				t.Fatalf("after no: %#v", msgs)
			}
			if got := notesWith(t, e, ct.ID, text); got != 1 {
				t.Fatalf("%d notes with the text, want 1", got)
			}
		})
	}
}

// With the local clock 17 days off the server's either way, the POST never reaches the
// server, and a note with the same text written an hour earlier (by the server's clock) is
// there: it is not taken for the attempt's. The form says the note is not on the server and
// keeps it; ctrl+s sends it.
func TestNoteLostRequestIsNotTakenForAnOlderNoteWhateverTheLocalClock(t *testing.T) {
	for _, skew := range skews {
		t.Run(skewName(skew), func(t *testing.T) {
			e, p, s := skewedEnv(t, skew)
			ct := e.firstContact(t)
			text := "skewed lost request"
			olderNote(t, e, s, ct.ID, text, time.Hour)
			p.Lose("POST", notesPath, viewtest.DropRequest, 1)
			m, d := save(t, open(e, ct.ID, "Anna"), text)
			m, check := lostThenCheck(t, e, m, d)
			var nd *common.NotDoneError
			if !errors.As(check.Err, &nd) {
				t.Fatalf("an older note was taken for the attempt's: %+v", check)
			}
			m, cmd := m.Update(check)
			if msgs := run(cmd); closed(e.ctx) || len(viewtest.Toasts(msgs)) > 0 {
				t.Fatalf("a note that is not on the server closed the form: %#v", msgs)
			}
			m, cmd = m.Update(ctrlS)
			pre := taskOf(t, cmd)
			if !errors.As(pre.Err, &nd) {
				t.Fatalf("look before the resend: %+v", pre)
			}
			m, cmd = m.Update(pre)
			sent := taskOf(t, cmd)
			if sent.Err != nil {
				t.Fatalf("resend: %v", sent.Err)
			}
			_, cmd = m.Update(sent)
			if got := viewtest.Toasts(run(cmd)); !closed(e.ctx) || len(got) != 1 || got[0] != "Note saved" {
				t.Fatalf("the resend did not close as saved: %q", got)
			}
			if got := notesWith(t, e, ct.ID, text); got != 2 {
				t.Fatalf("%d notes with the text, want 2 (the older one and the resend)", got)
			}
		})
	}
}
