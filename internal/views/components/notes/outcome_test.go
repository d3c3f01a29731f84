package notes

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/internal/writes"
)

const notesPath = "/api/um/v3/notes/"

// flat is a view as one line of words: without styles, the box's border and the line
// breaks the box wraps text at.
func flat(view string) string {
	view = ansi.Strip(view)
	view = strings.Map(func(r rune) rune {
		if strings.ContainsRune("│╭╮╰╯─┃", r) {
			return ' '
		}
		return r
	}, view)
	return strings.Join(strings.Fields(view), " ")
}

// lossy is the shared sandbox behind a proxy that can lose requests, with the form's
// client on the proxy.
func lossy(t *testing.T) (*env, *viewtest.Proxy) {
	t.Helper()
	e := start(t)
	p := viewtest.NewProxy(t, e.url)
	e.ctx.Client = p.Client(t, e.info.CustomerToken, false)
	return e, p
}

// notesWith counts the contact's notes whose body is text, as the sandbox has them.
func notesWith(t *testing.T, e *env, contactID int64, text string) int {
	t.Helper()
	p, err := e.as(t, 0).ListNotes(client.Fresh(context.Background()), client.NoteListOptions{ContactIdentityID: contactID,
		ListOptions: client.ListOptions{Limit: client.MaxLimit}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, x := range p.Results {
		if x.Body == text {
			n++
		}
	}
	return n
}

// save types text into a fresh form and presses ctrl+s; it returns the form and the
// task's report.
func save(t *testing.T, m common.Modal, text string) (common.Modal, common.TaskDoneMsg) {
	t.Helper()
	m = typeText(m, text)
	m, cmd := m.Update(ctrlS)
	d, ok := taskDone(runTask(cmd))
	if !ok {
		t.Fatal("ctrl+s sent nothing")
	}
	return m, d
}

// saveLosing saves text as a new note of the first contact while the proxy meets the POST
// with f; it returns the contact, the form and the save's report.
func saveLosing(t *testing.T, e *env, p *viewtest.Proxy, f viewtest.Fault, text string) (client.Contact, common.Modal, common.TaskDoneMsg) {
	t.Helper()
	ct := e.firstContact(t)
	p.Lose("POST", notesPath, f, 1)
	m, d := save(t, open(e, ct.ID, "Anna"), text)
	return ct, m, d
}

// taskOf runs cmd and returns the task report it makes.
func taskOf(t *testing.T, cmd tea.Cmd) common.TaskDoneMsg {
	t.Helper()
	d, ok := taskDone(runTask(cmd))
	if !ok {
		t.Fatal("no task report")
	}
	return d
}

// lostThenCheck takes the report of a POST whose answer was lost: the form says the note
// may have been saved, refuses another submit and esc while it checks, and the check's
// report is returned.
func lostThenCheck(t *testing.T, e *env, m common.Modal, d common.TaskDoneMsg) (common.Modal, common.TaskDoneMsg) {
	m, check, _ := lostThenCheckView(t, e, m, d)
	return m, check
}

// lostThenCheckView is lostThenCheck, also returning the form's words while it checked.
func lostThenCheckView(t *testing.T, e *env, m common.Modal, d common.TaskDoneMsg) (common.Modal, common.TaskDoneMsg, string) {
	t.Helper()
	if !errors.Is(d.Err, client.ErrOutcomeUnknown) {
		t.Fatalf("the POST's report is not an unknown outcome: %v", d.Err)
	}
	posts := e.log.Count("POST", notesPath)
	m, cmd := m.Update(d)
	checking := flat(m.View())
	if !strings.Contains(checking, "May have been saved: ") || !strings.Contains(checking, "checking…") {
		t.Fatalf("the form does not say the note may have been saved:\n%s", m.View())
	}
	if !m.(*Form).Submitting() || !m.(*Form).inner.Checking() {
		t.Fatal("the form is not checking, or takes submits while it checks")
	}
	for _, k := range []tea.KeyPressMsg{ctrlS, esc} {
		_, c := m.Update(k)
		if run(c); closed(e.ctx) {
			t.Fatalf("%s closed the form while it checks", k)
		}
	}
	check, ok := taskDone(runTask(cmd))
	if !ok {
		t.Fatal("no check after the lost answer")
	}
	if got := e.log.Count("POST", notesPath) - posts; got != 0 {
		t.Fatalf("%d POSTs while checking", got)
	}
	return m, check, checking
}

// The connection drops after the sandbox created the note: the form says it may have
// been saved, finds the note, and closes saying it was saved, confirmed.
func TestNoteLostAnswerIsFoundSaved(t *testing.T) {
	e, p := lossy(t)
	text := "lost answer " + t.Name()
	ct, m, d := saveLosing(t, e, p, viewtest.DropAnswer, text)
	if got := notesWith(t, e, ct.ID, text); got != 1 {
		t.Fatalf("%d notes on the server after the lost answer, want 1", got)
	}
	m, check := lostThenCheck(t, e, m, d)
	if check.Err != nil || check.Kind != KindCreated || check.Lost == nil {
		t.Fatalf("check: %+v", check)
	}
	if n, ok := check.Result.(client.Note); !ok || n.Body != text || n.ContactIdentityID != ct.ID {
		t.Fatalf("check found %+v", check.Result)
	}
	_, cmd := m.Update(check)
	msgs := run(cmd)
	if !closed(e.ctx) {
		t.Fatalf("a confirmed save did not close the form: %#v", msgs)
	}
	if got := viewtest.Toasts(msgs); len(got) != 1 || got[0] != "Note saved (confirmed after the connection dropped)" {
		t.Fatalf("toasts %q", got)
	}
	if got := notesWith(t, e, ct.ID, text); got != 1 {
		t.Fatalf("%d notes, want 1", got)
	}
}

// The connection drops before the request reaches the sandbox: the check finds nothing,
// the form stays open with the text and says so, and ctrl+s sends it (after looking once
// more): one note in the end.
func TestNoteLostRequestIsNotSavedAndSendsAgain(t *testing.T) {
	e, p := lossy(t)
	text := "lost request " + t.Name()
	ct, m, d := saveLosing(t, e, p, viewtest.DropRequest, text)
	m, check := lostThenCheck(t, e, m, d)
	var nd *writes.NotDoneError
	if !errors.As(check.Err, &nd) {
		t.Fatalf("check: %+v", check)
	}
	m, cmd := m.Update(check)
	if msgs := run(cmd); closed(e.ctx) || len(viewtest.Toasts(msgs)) > 0 {
		t.Fatalf("a note that is not on the server closed the form: %#v", msgs)
	}
	want := "Not saved: the connection was lost before the server answered, and the note is not on the server. ctrl+s sends it again."
	if got := m.(*Form).Err(); got != want {
		t.Fatalf("error\n got %q\nwant %q", got, want)
	}
	if v := flat(m.View()); !strings.Contains(v, text) || !strings.Contains(v, want) {
		t.Fatalf("text or message not shown:\n%s", m.View())
	}
	if got := notesWith(t, e, ct.ID, text); got != 0 {
		t.Fatalf("%d notes on the server", got)
	}
	gets, posts := e.log.Count("GET", notesPath), e.log.Count("POST", notesPath)
	resendNotSaved(t, e, m)
	if g, p := e.log.Count("GET", notesPath)-gets, e.log.Count("POST", notesPath)-posts; g != 1 || p != 1 {
		t.Fatalf("resend: %d GETs and %d POSTs, want 1 and 1", g, p)
	}
	if got := notesWith(t, e, ct.ID, text); got != 1 {
		t.Fatalf("%d notes, want 1", got)
	}
}

// resendNotSaved presses ctrl+s in form m after its check found the note not on the server:
// the form looks once more first (the note might have arrived late) and says so, finds it
// still not there, sends, and closes as saved.
func resendNotSaved(t *testing.T, e *env, m common.Modal) {
	t.Helper()
	m, cmd := m.Update(ctrlS)
	if v := flat(m.View()); !strings.Contains(v, "Checking whether the earlier attempt was saved") {
		t.Fatalf("the resend does not look first:\n%s", m.View())
	}
	var nd *writes.NotDoneError
	pre := taskOf(t, cmd)
	if !errors.As(pre.Err, &nd) {
		t.Fatalf("look before the resend: %+v", pre)
	}
	m, cmd = m.Update(pre)
	sent := taskOf(t, cmd)
	if sent.Err != nil {
		t.Fatalf("resend: %+v", sent)
	}
	_, cmd = m.Update(sent)
	msgs := run(cmd)
	if got := viewtest.Toasts(msgs); !closed(e.ctx) || len(got) != 1 || got[0] != "Note saved" {
		t.Fatalf("resend did not close as saved: %#v", msgs)
	}
}

// The answer is lost and so is the check: the form cannot tell and says so. ctrl+s then
// looks again, finds the note the first attempt made and asks before sending a copy: no
// keeps the one note and closes; yes sends a second one on purpose. The question names the
// yes key as bound, and only that key sends.
func TestNoteResendAfterAnUnconfirmedSaveAsksFirst(t *testing.T) {
	for _, tc := range []struct {
		answer string
		notes  int
		toast  string
		yes    string // the yes key when rebound
	}{
		{"n", 1, "Note saved by the earlier attempt; no copy sent", ""},
		{"y", 2, "Note saved", ""},
		{"y, the copy lost", 1, "", ""},
		{"a", 2, "Note saved", "a"},
		{"y", 1, "Note saved by the earlier attempt; no copy sent", "a"},
	} {
		name := tc.answer
		if tc.yes != "" {
			name += " (yes on " + tc.yes + ")"
		}
		t.Run(name, func(t *testing.T) {
			e, p := lossy(t)
			e.ctx.Client = p.Client(t, e.info.CustomerToken, true) // one attempt per read
			yes := "y"
			if tc.yes != "" {
				if err := e.ctx.Keys.Apply(map[string][]string{"yes": {tc.yes}}); err != nil {
					t.Fatal(err)
				}
				yes = tc.yes
			}
			p.Lose("GET", "/api/um/v3/notes/", viewtest.DropRequest, 100) // the client's retries too
			text := "unconfirmed " + t.Name()
			ct, m, d := saveLosing(t, e, p, viewtest.DropAnswer, text)
			m, check := lostThenCheck(t, e, m, d)
			if !errors.Is(check.Err, client.ErrOutcomeUnknown) {
				t.Fatalf("check: %+v", check)
			}
			p.Heal()
			m, _ = m.Update(check)
			want := "Could not confirm whether the note was saved (the connection was lost before the server answered; reading it back: connection lost); check the contact's notes before sending again."
			if got := m.(*Form).Err(); got != want {
				t.Fatalf("error\n got %q\nwant %q", got, want)
			}
			posts := e.log.Count("POST", notesPath)
			m, cmd := m.Update(ctrlS)
			pre, ok := taskDone(runTask(cmd))
			if !ok || pre.Err != nil {
				t.Fatalf("look before the resend: %+v", pre)
			}
			m, cmd = m.Update(pre)
			if d, ok := taskDone(run(cmd)); ok {
				t.Fatalf("sent without asking: %+v", d)
			}
			q := "A note with this text was saved at 10:15 by the earlier attempt. Send another copy? " + yes + "/N"
			if m.(*Form).inner.Asking() != q || !strings.Contains(flat(m.View()), q) {
				t.Fatalf("question %q:\n%s", m.(*Form).inner.Asking(), m.View())
			}
			if c := e.log.Count("POST", notesPath) - posts; c != 0 {
				t.Fatalf("%d POSTs before the answer", c)
			}
			if tc.toast == "" {
				// The copy's request is lost too: the note found before is not taken for it.
				p.Lose("POST", "/api/um/v3/notes/", viewtest.DropRequest, 1)
				m, cmd = m.Update(runes("y"))
				_, check := lostThenCheck(t, e, m, taskOf(t, cmd))
				var nd *writes.NotDoneError
				if !errors.As(check.Err, &nd) {
					t.Fatalf("the copy's check: %+v", check)
				}
				if got := notesWith(t, e, ct.ID, text); got != tc.notes {
					t.Fatalf("%d notes, want %d", got, tc.notes)
				}
				return
			}
			m, cmd = m.Update(runes(tc.answer))
			msgs := run(cmd)
			if d, ok := taskDone(msgs); ok {
				if d.Err != nil {
					t.Fatalf("second copy: %+v", d)
				}
				_, cmd = m.Update(d)
				msgs = run(cmd)
			}
			if got := viewtest.Toasts(msgs); !closed(e.ctx) || len(got) != 1 || got[0] != tc.toast {
				t.Fatalf("after %q: %#v", tc.answer, msgs)
			}
			if got := notesWith(t, e, ct.ID, text); got != tc.notes {
				t.Fatalf("%d notes, want %d", got, tc.notes)
			}
		})
	}
}

// A 200 with an empty body is no proof: nothing created means "not saved", never "Note
// saved"; a note the server did create is confirmed by reading it back.
func TestNoteEmptyAnswerIsCheckedNeverSaved(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault viewtest.Fault
		toast string // "" when the form stays open
		err   string // the form's error when it stays open
		notes int
	}{
		{"nothing created", viewtest.EmptyInstead, "",
			"Not saved: the API answered 200 with an empty body, and the note is not on the server. ctrl+s sends it again.", 0},
		{"created", viewtest.EmptyAnswer, "Note saved (confirmed after an unreadable answer)", "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, p := lossy(t)
			text := "empty " + t.Name()
			ct, m, d := saveLosing(t, e, p, tc.fault, text)
			m, check := lostThenCheck(t, e, m, d)
			m, cmd := m.Update(check)
			msgs := run(cmd)
			if tc.toast == "" {
				if closed(e.ctx) || len(viewtest.Toasts(msgs)) > 0 {
					t.Fatalf("an empty 200 closed the form: %#v", msgs)
				}
				if got := m.(*Form).Err(); got != tc.err {
					t.Fatalf("error\n got %q\nwant %q", got, tc.err)
				}
			} else if got := viewtest.Toasts(msgs); !closed(e.ctx) || len(got) != 1 || got[0] != tc.toast {
				t.Fatalf("%#v", msgs)
			}
			if got := notesWith(t, e, ct.ID, text); got != tc.notes {
				t.Fatalf("%d notes, want %d", got, tc.notes)
			}
		})
	}
}

// A note with the same text that the screen had already loaded is not taken for the
// attempt's: the form was told the newest note it had seen.
func TestNoteCheckIgnoresNotesTheScreenHadSeen(t *testing.T) {
	e, p := lossy(t)
	ct := e.firstContact(t)
	text := "seen before " + t.Name()
	old, err := e.as(t, 0).CreateNote(context.Background(), client.NewNote{ContactIdentityID: ct.ID, Body: text})
	if err != nil {
		t.Fatal(err)
	}
	p.Lose("POST", "/api/um/v3/notes/", viewtest.DropRequest, 1)
	m := NewNoteFormAbove(e.ctx, ct.ID, "Anna", writes.NoteFloor{ID: old.ID, Known: true})
	m.SetSize(76, 20)
	run(m.Init())
	m, d := save(t, m, text)
	_, check := lostThenCheck(t, e, m, d)
	var nd *writes.NotDoneError
	if !errors.As(check.Err, &nd) {
		t.Fatalf("the note seen before was taken for the attempt's: %+v", check)
	}
}

// After an unconfirmed save, a resend whose look fails too says so and sends nothing; the
// next ctrl+s sends. A text edited since the lost attempt is asked about as another note,
// and no keeps the form open.
func TestNoteResendWhenTheLookFailsOrTheTextChanged(t *testing.T) {
	unconfirmed := func(t *testing.T, text string) (*env, *viewtest.Proxy, common.Modal, int64) {
		e, p := lossy(t)
		e.ctx.Client = p.Client(t, e.info.CustomerToken, true)
		p.Lose("GET", "/api/um/v3/notes/", viewtest.DropRequest, 100)
		ct, m, d := saveLosing(t, e, p, viewtest.DropAnswer, text)
		m, check := lostThenCheck(t, e, m, d)
		m, _ = m.Update(check)
		return e, p, m, ct.ID
	}
	t.Run("look fails", func(t *testing.T) {
		text := "look fails " + t.Name()
		e, p, m, contact := unconfirmed(t, text)
		posts := e.log.Count("POST", notesPath)
		m, cmd := m.Update(ctrlS)
		pre, ok := taskDone(runTask(cmd))
		if !ok || !errors.Is(pre.Err, client.ErrOutcomeUnknown) {
			t.Fatalf("look: %+v", pre)
		}
		m, cmd = m.Update(pre)
		if _, ok := taskDone(run(cmd)); ok || e.log.Count("POST", notesPath) != posts {
			t.Fatal("sent although the look failed")
		}
		if got := m.(*Form).Err(); !strings.HasSuffix(got, "; check the contact's notes before sending again. ctrl+s sends it anyway.") {
			t.Fatalf("error %q", got)
		}
		p.Heal()
		m, cmd = m.Update(ctrlS)
		sent, ok := taskDone(runTask(cmd))
		if !ok || sent.Err != nil || e.log.Count("POST", notesPath) != posts+1 {
			t.Fatalf("ctrl+s after the failed look did not send: %+v", sent)
		}
		m.Update(sent)
		if got := notesWith(t, e, contact, text); got != 2 {
			t.Fatalf("%d notes, want the 2 the user chose to send", got)
		}
	})
	t.Run("text changed", func(t *testing.T) {
		text := "changed " + t.Name()
		e, p, m, contact := unconfirmed(t, text)
		p.Heal()
		m = typeText(m, " and more")
		m, cmd := m.Update(ctrlS)
		pre, ok := taskDone(runTask(cmd))
		if !ok || pre.Err != nil {
			t.Fatalf("look: %+v", pre)
		}
		m, _ = m.Update(pre)
		if q := "The earlier attempt saved its note at 10:15 (with the text as it was then). Send this one as well? y/N"; m.(*Form).inner.Asking() != q {
			t.Fatalf("question %q", m.(*Form).inner.Asking())
		}
		m, cmd = m.Update(runes("n"))
		if run(cmd); closed(e.ctx) {
			t.Fatal("no closed the form over an edited text")
		}
		if got := m.(*Form).Err(); got != "Not sent: the earlier attempt is on the server. ctrl+s asks again." {
			t.Fatalf("error %q", got)
		}
		if !strings.Contains(flat(m.View()), text+" and more") {
			t.Fatalf("edited text lost:\n%s", m.View())
		}
		if got := notesWith(t, e, contact, text); got != 1 {
			t.Fatalf("%d notes", got)
		}
	})
}

// No answer in time after the POST was sent: the form says so while it checks, and a note
// the sandbox made is confirmed. A refused connection sent nothing: no check, no doubt.
func TestNoteTimeoutIsCheckedAndRefusedIsNot(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		e, p := lossy(t)
		e.ctx.Client = p.ClientWith(t, client.Config{Token: e.info.CustomerToken, Timeout: time.Second})
		text := "timeout " + t.Name()
		ct, m, d := saveLosing(t, e, p, viewtest.Hold, text)
		m, check, checking := lostThenCheckView(t, e, m, d)
		if !strings.Contains(checking, "May have been saved: no answer came within 1s; checking…") {
			t.Fatalf("the form does not say the time ran out after sending: %s", checking)
		}
		_, cmd := m.Update(check)
		msgs := run(cmd)
		if got := viewtest.Toasts(msgs); !closed(e.ctx) || len(got) != 1 || got[0] != "Note saved (confirmed after no answer came in time)" {
			t.Fatalf("%#v", msgs)
		}
		if got := notesWith(t, e, ct.ID, text); got != 1 {
			t.Fatalf("%d notes", got)
		}
	})
	t.Run("refused", func(t *testing.T) {
		e := start(t)
		c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: e.info.CustomerToken, MaxRetries: -1})
		if err != nil {
			t.Fatal(err)
		}
		e.ctx.Client = c
		m, d := save(t, open(e, 1, "Anna"), "refused")
		m, cmd := m.Update(d)
		if _, ok := taskDone(run(cmd)); ok || m.(*Form).Submitting() {
			t.Fatal("a request that was never sent is checked")
		}
		if got := m.(*Form).Err(); got != "Cannot connect to 127.0.0.1:9 (connection refused); nothing was sent." {
			t.Fatalf("error %q", got)
		}
		if !strings.Contains(flat(m.View()), "refused") {
			t.Fatalf("text lost:\n%s", m.View())
		}
	})
}
