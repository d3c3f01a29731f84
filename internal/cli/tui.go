package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/sanitize"
)

// responseCacheTTL is how long the TUI answers a revisited page from memory.
const responseCacheTTL = 2 * time.Minute

// needTerminal explains why parley will not draw (nil when it may).
func needTerminal(termVar string, hadTerm bool) error {
	switch {
	case !term.IsTerminal(os.Stdin.Fd()) || !term.IsTerminal(os.Stdout.Fd()):
		return errors.New("a terminal is needed: stdin and stdout must be a TTY (over ssh use `ssh -t`); for scripts use the subcommands, see parley --help")
	case !hadTerm || termVar == "" || termVar == "dumb":
		return errors.New("a terminal that can draw is needed: TERM is unset or \"dumb\"; for scripts use the subcommands, see parley --help")
	}
	return nil
}

// runTUI opens the full-screen UI. SIGINT, SIGTERM and SIGHUP end it (shutdown.go); a
// signal's result is a *signalExit.
func runTUI(ctx context.Context, g *globalFlags, termVar string, hadTerm bool, stderr io.Writer) (err error) {
	if err := needTerminal(termVar, hadTerm); err != nil {
		return err
	}
	proc := processFrom(ctx)
	if proc == nil {
		return errors.New("internal error: the TUI started without its process guard")
	}
	ctx, watch := watchSignals(ctx, proc)
	defer func() { err = watch.finish(err, ctx.Err() != nil) }()
	s, err := resolveSettings(ctx, g, os.Getenv)
	if err != nil {
		return err
	}
	keys := keymap.Default()
	if err := keys.Apply(s.Keys); err != nil {
		return keyError(err, s)
	}
	mode, err := theme.ParseMode(string(s.Theme))
	if err != nil {
		return err
	}
	look := lookFor(mode, os.Stdout, os.Environ())

	events := make(chan client.Event, 64)
	onEvent := func(e client.Event) {
		select {
		case events <- e:
		default: // never block a request on a busy UI
		}
	}
	dl, err := openDebugLog(g.debug)
	if err != nil {
		return err
	}
	defer func() { _ = dl.close() }()
	sess, err := sessionFor(ctx, s, stderr, dl, onEvent, nil, responseCacheTTL)
	if err != nil {
		return err
	}
	defer sess.Close()
	proc.log.addSecret(sess.token)

	state := &stateWriter{path: s.StateFile, log: dl.log}
	saved, stateNote := loadState(s.StateFile, dl.log, time.Now())
	app := ui.New(ui.Options{
		Client:            tuiClient(sess.Client, s.ReadOnly),
		Styles:            look.styles,
		AskBackground:     look.ask,
		Keys:              keys,
		Demo:              sess.Demo,
		Label:             hostOf(sess.Label),
		RefreshInterval:   s.RefreshInterval,
		RequestBudget:     s.RequestBudget,
		ShiftEnd:          s.ShiftEnd,
		PageSize:          s.PageSize,
		Events:            events,
		DefaultOperatorID: sess.OwnerID,
		// Read-only offers no edit key, form or delete (ui.Options.ReadOnly).
		ReadOnly: s.ReadOnly,
		// The mouse is the terminal's (text selection) unless asked for (ui.Options.Mouse).
		Mouse: s.Mouse,
		// Arrivals: the bell, the title, notifications; opening marks read.
		Alerts:         uiAlerts(s.Alerts),
		MarkReadOnOpen: s.MarkReadOnOpen,
		// Links are terminal hyperlinks where the terminal takes them (hyperlinksOn).
		Hyperlinks: hyperlinksOn(s.Hyperlinks, os.Environ()),
		// Saved views are not API edits: read-only saves them too. The built-in ones
		// (Mine, New) come first unless the file places or hides them.
		Views: savedViews(config.ShownViews(s.Views)), Orderings: config.DefaultOrderings(s.Views),
		SaveView:  viewSaver(s.ConfigPath),
		State:     saved,
		SaveState: state.write,
		// A damaged state file, kept aside, is said at start (and the screens start afresh).
		StartNote: stateNote,
		ReportCrash: func(c *ui.Crash) (string, string, error) {
			summary, path, err := proc.log.write(c.Where, c.Value, c.Stack)
			dl.log.Error("crash", "in", c.Where, "panic", summary, "stack", proc.log.redact(string(c.Stack)))
			return summary, path, err
		},
	})
	if ctx.Err() != nil {
		return ctx.Err() // a signal during start-up
	}
	// Bubble Tea's own signal handler stays off: the signal watch ends the program. The
	// root's view asks for focus reports (where the terminal sends them, they slow
	// auto-refresh down while it is in the background).
	p := tea.NewProgram(app, tea.WithContext(ctx), tea.WithoutSignalHandler(), tea.WithColorProfile(look.profile),
		tea.WithFilter(ui.Leaving))
	if err := proc.tty.save(os.Stdin.Fd(), os.Stdout); err != nil {
		return err
	}
	// The terminal's title comes back when parley ends (where the terminal keeps a stack).
	saveTitle, restoreTitle := app.Options().TitleBracket()
	_, _ = io.WriteString(os.Stdout, saveTitle)
	_, err = p.Run()
	_, _ = io.WriteString(os.Stdout, restoreTitle)
	proc.tty.released()
	if app.Stopped() == nil {
		state.final(app.State()) // what changed since the last key, too
	}
	if s := app.Stopped(); s != nil {
		return crashError(s, proc.log)
	}
	switch {
	case errors.Is(err, tea.ErrProgramPanic):
		return errors.New("parley stopped after an internal error; the terminal was restored")
	case errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil:
		return nil
	case err != nil:
		return fmt.Errorf("run the terminal UI: %w", err)
	}
	return nil
}

// uiAlerts are the settings' alerts as the TUI takes them.
func uiAlerts(a AlertSettings) ui.Alerts {
	n := ui.NotifyOff
	switch a.Notify {
	case config.NotifyOSC9:
		n = ui.NotifyOSC9
	case config.NotifyOSC777:
		n = ui.NotifyOSC777
	}
	return ui.Alerts{Bell: a.Bell, Title: a.Title, Notify: n, Mute: a.Mute}
}

// readOnlyReason is why a read-only parley sends no write.
const readOnlyReason = "parley runs read-only (--readonly, or readonly: true in the config file)"

// tuiClient is the client the TUI works with: a read-only parley's refuses every write
// before it is sent, whatever a key or a form would ask, so read-only never rests on the
// keys alone.
func tuiClient(c *client.Client, readOnly bool) *client.Client {
	if !readOnly {
		return c
	}
	return c.WithGate(client.RefuseWrites(readOnlyReason))
}

// look is how parley draws on its terminal: the colour profile the renderer writes with,
// the styles, and whether the root asks the terminal for its background.
type look struct {
	profile colorprofile.Profile
	styles  *theme.Styles
	ask     bool
}

// lookFor picks the look for out and env. The colour profile is the terminal's (NO_COLOR
// leaves none: attributes only), ASCII for the mono theme; the renderer brings every style
// down to it, those of forms and inputs included. The background is the theme's when it
// names one, else COLORFGBG's, else dark until the terminal answers the root's query
// (Bubble Tea asks without waiting: a terminal that never answers keeps the dark colours
// and start-up does not wait for it).
func lookFor(mode theme.Mode, out io.Writer, env []string) look {
	return lookWith(mode, colorprofile.Detect(out, env), env)
}

// lookWith is lookFor with the terminal's colour profile known: a session of the team hub
// tells it by its environment (colorprofile.Env), its output being an SSH channel.
func lookWith(mode theme.Mode, profile colorprofile.Profile, env []string) look {
	mono := mode == theme.ModeMono || profile <= colorprofile.ASCII
	if mono {
		profile = min(profile, colorprofile.ASCII)
	}
	dark, ask := true, false
	switch mode {
	case theme.ModeLight:
		dark = false
	case theme.ModeDark, theme.ModeMono:
	default:
		if v, ok := colorFGBG(envValue(env, "COLORFGBG")); ok {
			dark = v
		} else {
			ask = !mono
		}
	}
	return look{profile: profile, styles: theme.New(theme.Default(), dark, mono), ask: ask}
}

// envValue is the value of the variable name in env ("" when unset).
func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// colorFGBG reads the COLORFGBG convention ("fg;bg"): backgrounds 0-6 and 8 are dark.
func colorFGBG(v string) (dark, ok bool) {
	if v == "" {
		return false, false
	}
	parts := strings.Split(v, ";")
	bg := parts[len(parts)-1]
	switch bg {
	case "0", "1", "2", "3", "4", "5", "6", "8":
		return true, true
	case "7", "9", "10", "11", "12", "13", "14", "15":
		return false, true
	}
	return false, false
}

// keyError names the config line of each bad key binding.
func keyError(err error, s Settings) error {
	var ae *keymap.ApplyError
	if !errors.As(err, &ae) {
		return err
	}
	var b strings.Builder
	b.WriteString("key bindings in the config file are not usable:")
	for _, p := range ae.Problems {
		where := displayPath(s.ConfigPath)
		if line, ok := s.KeyLines[p.Action]; ok {
			where = fmt.Sprintf("%s:%d", where, line)
		}
		fmt.Fprintf(&b, "\n  %s: keys.%s: %s", where, p.Action, p.Msg)
	}
	return errors.New(b.String())
}

func hostOf(label string) string {
	if i := strings.Index(label, "://"); i >= 0 {
		label = label[i+3:]
	}
	return strings.TrimSuffix(label, "/")
}

// crashError is the message printed after the UI stopped itself because of repeated
// panics (each one is in the crash log already): the first one's cause and where the
// details are.
func crashError(s *ui.Stopped, log *crashLog) error {
	first := sanitize.Line(log.redact(fmt.Sprint(s.First.Value)))
	msg := fmt.Sprintf("parley stopped after %d internal errors within %s (the first: %s); the terminal was restored", s.Count, s.Within, first)
	if log.pathErr != nil {
		return fmt.Errorf("%s; the crash log could not be written: %w", msg, log.pathErr)
	}
	return fmt.Errorf("%s; details in %s", msg, log.path)
}
