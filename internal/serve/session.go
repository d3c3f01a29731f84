package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"

	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/common"
)

// runProgram runs the session's TUI until the user quits, the connection closes or the hub
// ends the session. It does what wish's Bubble Tea middleware does (the session's input,
// output, environment and size; window changes as tea.WindowSizeMsg; the program killed
// after it returns, which restores the terminal) and also learns how the program ended, to
// log it with the user's name.
func (h *Hub) runProgram(sess *session) {
	s := sess.ssh
	p := h.program(sess)
	if p == nil {
		return // ended before it started
	}
	_, windows, _ := s.Pty()
	ctx, cancel := context.WithCancel(s.Context())
	go func() {
		defer h.recoverIn(sess.user.Name + "'s window changes")
		for {
			select {
			case <-ctx.Done():
				p.Quit()
				return
			case w, ok := <-windows:
				if !ok {
					<-ctx.Done()
					p.Quit()
					return
				}
				p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
			}
		}
	}()
	go sess.pump()
	// The session's terminal gets its title back when the session ends (alerts write it).
	saveTitle, restoreTitle := sess.app.Options().TitleBracket()
	_, _ = io.WriteString(s, saveTitle)
	_, err := p.Run()
	p.Kill()
	_, _ = io.WriteString(s, restoreTitle)
	cancel()
	switch {
	case sess.app != nil && sess.app.Stopped() != nil:
		st := sess.app.Stopped()
		h.record(slog.LevelError, "internal error", slog.String("user", sess.user.Name), slog.Int64("session", sess.id),
			slog.String("in", st.First.Where), slog.String("error", fmt.Sprint(st.First.Value)),
			slog.String("outcome", fmt.Sprintf("the session stopped after %d internal errors within %s; the terminal was restored", st.Count, st.Within)))
		sess.setWhy("parley stopped after repeated internal errors; the hub's log has the details")
	case errors.Is(err, tea.ErrProgramPanic):
		h.opts.Metrics.panicked(panicSession)
		h.record(slog.LevelError, "internal error", slog.String("user", sess.user.Name), slog.Int64("session", sess.id),
			slog.String("in", "the session's TUI"), slog.String("error", err.Error()),
			slog.String("outcome", "the session ended; the terminal was restored"))
		sess.setWhy("parley stopped after an internal error; the hub's log has the details")
	case err != nil && !errors.Is(err, tea.ErrProgramKilled):
		h.record(slog.LevelError, "session error", slog.String("user", sess.user.Name), slog.Int64("session", sess.id),
			slog.String("error", err.Error()))
	}
}

// program makes the session's TUI: its own renderer and colour profile from the session's
// terminal (TERM and the environment the client sent), its own size, its own screen state
// and client. nil when the hub ended the session before it started.
func (h *Hub) program(sess *session) *tea.Program {
	s := sess.ssh
	pty, _, _ := s.Pty()
	env := sessionEnv(s.Environ(), pty.Term)
	look := h.opts.Look(env)
	app := ui.New(h.uiOptions(sess, look))
	p := tea.NewProgram(app,
		tea.WithInput(s),
		tea.WithOutput(s),
		tea.WithEnvironment(env),
		tea.WithWindowSize(pty.Window.Width, pty.Window.Height),
		tea.WithColorProfile(look.Profile),
		tea.WithoutSignalHandler(), // the hub's signals are the hub's
		tea.WithFilter(sess.filter),
	)
	h.mu.Lock()
	defer h.mu.Unlock()
	if sess.why != "" {
		return nil
	}
	sess.app, sess.program = app, p
	timeout := h.opts.IdleTimeout
	sess.idle = time.AfterFunc(timeout, func() {
		sess.end(fmt.Sprintf("no key for %s: the session ended", timeout))
	})
	return p
}

// Bounds on what a session keeps of the environment its client sent.
const (
	maxSessionEnv    = 64   // variables
	maxSessionEnvVar = 4096 // bytes of one NAME=VALUE
)

// sessionEnv is a session's environment for its TUI (the colour profile, the background,
// the renderer): the variables the client sent (ssh's SendEnv and SetEnv) that are
// NAME=VALUE with a name of ASCII letters, digits and _ not starting with a digit, at most
// maxSessionEnvVar bytes each and maxSessionEnv in all, in the client's order, without a
// TERM of its own; then TERM, the terminal type of its PTY request. Whoever reads it (the
// first match or the last) finds the PTY's TERM, and nothing a client sends grows it
// without bound.
func sessionEnv(client []string, term string) []string {
	env := make([]string, 0, min(len(client), maxSessionEnv)+1)
	for _, kv := range client {
		if len(env) == maxSessionEnv {
			break
		}
		name, _, ok := strings.Cut(kv, "=")
		if !ok || len(kv) > maxSessionEnvVar || !envName(name) || name == "TERM" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "TERM="+term)
}

// envName reports whether s is a portable environment variable name.
func envName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// filter watches the session's input on its way to the TUI: a key (or a paste) is work,
// which keeps the session from its idle timeout and the organization's poller at the
// working pace. A suspend (ctrl+z) resumes at once: there is no shell to suspend to. A quit
// empties the last frame (ui.Leaving).
func (s *session) filter(m tea.Model, msg tea.Msg) tea.Msg {
	msg = ui.Leaving(m, msg)
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		s.input()
	case tea.SuspendMsg:
		return tea.ResumeMsg{}
	}
	return msg
}

// input records a key of the session.
func (s *session) input() {
	if s.idle != nil {
		s.idle.Reset(s.hub.opts.IdleTimeout)
	}
	s.hub.mu.Lock()
	p := s.hub.pollers[s.user.Org]
	s.hub.mu.Unlock()
	if p != nil {
		p.key(s.hub.opts.Now())
	}
}

// pump delivers the organization's polls and outlooks of the day's budget to the TUI, the
// latest first and one at a time.
func (s *session) pump() {
	defer s.hub.recoverIn(s.user.Name + "'s polls")
	for {
		select {
		case <-s.done:
			return
		case p := <-s.polls:
			s.program.Send(p)
		case o := <-s.outlooks:
			s.program.Send(common.OutlookMsg{Org: s.user.Org, Outlook: o})
		}
	}
}

// setWhy records why the session ended, when nothing else did.
func (s *session) setWhy(why string) {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	if s.why == "" {
		s.why = why
	}
}

// userOf is the user of an SSH session, by its key in the users file in force.
func (h *Hub) userOf(s ssh.Session) (User, bool) {
	return h.currentUsers().ByKey(s.PublicKey())
}
