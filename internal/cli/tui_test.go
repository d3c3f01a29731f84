package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/creack/pty"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sandbox/sandboxtest"
)

// startTestSandbox serves a small sandbox in-process for the binary under test.
func startTestSandbox(t testing.TB) *sandbox.Running {
	t.Helper()
	sb := sandboxtest.Start(t, sandbox.Options{Size: "small"})
	return sb
}

func tuiEnv(t testing.TB, sb *sandbox.Running, term string) []string {
	env := headlessEnv(t)
	env = append(env, "TERM="+term, "PARLEY_BASE_URL="+sb.URL, "PARLEY_TOKEN="+sb.Server.Info().CustomerToken)
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "COLORFGBG=") && !strings.HasPrefix(kv, "NO_COLOR=") {
			out = append(out, kv)
		}
	}
	return out
}

// firstFrameBudget is how soon the first frame is drawn on a terminal that never answers
// (the background-colour question is asked without waiting): a budget held by
// BenchmarkFirstFrameOnASilentTerminal, not by a timed test.
const firstFrameBudget = 500 * time.Millisecond

// TestStartupDoesNotWaitForASilentTerminal runs parley on a pty that never answers any
// query (parley asks for the background colour, Bubble Tea for synchronized output) and
// checks that the UI is drawn all the same: a start that waited for an answer would draw
// nothing.
func TestStartupDoesNotWaitForASilentTerminal(t *testing.T) {
	t.Logf("first frame after %v on a terminal that never answers", firstFrame(t, parleyBinary(t), startTestSandbox(t)))
}

// BenchmarkFirstFrameOnASilentTerminal is the time from the process's start to its first
// frame on a terminal that never answers, against firstFrameBudget:
//
//	go test -run '^$' -bench FirstFrame -benchtime 10x ./internal/cli/
func BenchmarkFirstFrameOnASilentTerminal(b *testing.B) {
	bin, sb := parleyBinary(b), startTestSandbox(b)
	var total time.Duration
	for b.Loop() {
		total += firstFrame(b, bin, sb)
	}
	per := total / time.Duration(b.N)
	b.ReportMetric(float64(per.Milliseconds()), "ms/first-frame")
	if per > firstFrameBudget {
		b.Errorf("first frame after %v on a silent terminal, budget %v", per, firstFrameBudget)
	}
}

// firstFrame starts bin on a pty of 100×30 that never answers and returns how long the
// first frame (the alternate screen with the tab bar) took; no frame within 10 s fails.
func firstFrame(tb testing.TB, bin string, sb *sandbox.Running) time.Duration {
	tb.Helper()
	cmd := exec.Command(bin)
	cmd.Env = tuiEnv(tb, sb, "xterm-256color")
	start := time.Now()
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 100, Rows: 30})
	if err != nil {
		tb.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = ptmx.Close()
	}()
	var seen bytes.Buffer
	buf := make([]byte, 4096)
	drawn := make(chan time.Duration, 1)
	go func() {
		for {
			n, err := ptmx.Read(buf)
			seen.Write(buf[:n])
			if bytes.Contains(seen.Bytes(), []byte("\x1b[?1049h")) && bytes.Contains(seen.Bytes(), []byte("parley")) {
				drawn <- time.Since(start)
				return
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case d := <-drawn:
		return d
	case <-time.After(10 * time.Second):
		tb.Fatalf("no frame within 10 s on a silent terminal; output so far: %q", seen.String())
		return 0
	}
}

// TestNeedsATerminal: without a terminal parley says so and exits non-zero instead of
// writing escape codes into a pipe.
func TestNeedsATerminal(t *testing.T) {
	bin := parleyBinary(t)
	sb := startTestSandbox(t)

	cmd := exec.Command(bin)
	cmd.Env = tuiEnv(t, sb, "xterm-256color")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() == 0 {
		t.Fatalf("stdout not a terminal: want a non-zero exit, got %v", err)
	}
	if !strings.Contains(stderr.String(), "parley: a terminal is needed") {
		t.Fatalf("stderr does not say a terminal is needed: %q", stderr.String())
	}
	if strings.Contains(stdout.String(), "\x1b") {
		t.Fatalf("escape codes written into a pipe: %q", stdout.String())
	}

	// TERM=dumb on a real pty: refused as well.
	cmd = exec.Command(bin)
	cmd.Env = tuiEnv(t, sb, "dumb")
	ptmx, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(ptmx)
	err = cmd.Wait()
	_ = ptmx.Close()
	if !errors.As(err, &exit) || exit.ExitCode() == 0 {
		t.Fatalf("TERM=dumb: want a non-zero exit, got %v (%q)", err, out)
	}
	if !strings.Contains(string(out), "parley: a terminal") {
		t.Fatalf("TERM=dumb: output does not explain: %q", out)
	}
	_ = os.Stdout
}

// TestMonoStylesShowTheCursorWithoutColour: without colour (NO_COLOR, a terminal without
// colour, the mono theme) the renderer writes with the ASCII profile and the mono styles:
// the selected row (and a list's marked row under the cursor) and the other theme styles
// keep reverse, bold and underline, no theme style writes a colour, and styles from outside
// the theme (forms, inputs) lose theirs in the renderer's profile.
func TestMonoStylesShowTheCursorWithoutColour(t *testing.T) {
	colour := regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])[;m]`)
	env := func(vars ...string) []string { return append([]string{"TERM=xterm-256color"}, vars...) }
	for _, c := range []struct {
		name string
		mode theme.Mode
		env  []string
	}{
		{"NO_COLOR", theme.ModeAuto, env("NO_COLOR=1", "COLORTERM=truecolor")},
		{"mono theme", theme.ModeMono, env("COLORTERM=truecolor")},
	} {
		l := lookFor(c.mode, io.Discard, append(c.env, "TTY_FORCE=1")) // a terminal to the detection
		if l.profile != colorprofile.ASCII || !l.styles.Mono || l.ask {
			t.Fatalf("%s: profile %v, mono %v, asks the background %v; want ASCII, mono, no question", c.name, l.profile, l.styles.Mono, l.ask)
		}
		st := l.styles
		if got := st.Selected.Render("row"); !strings.Contains(got, "\x1b[7m") {
			t.Errorf("%s: the selected row is not reversed: %q", c.name, got)
		}
		if got := st.CursorMark.Render("*"); !regexp.MustCompile(`\x1b\[([0-9]+;)*7[;m]`).MatchString(got) {
			t.Errorf("%s: a marked row's mark under a list's cursor is not reversed: %q", c.name, got)
		}
		if got := st.Bold.Render("x"); !strings.Contains(got, "\x1b[1m") {
			t.Errorf("%s: bold is dropped: %q", c.name, got)
		}
		v := reflect.ValueOf(st).Elem()
		for i := range v.NumField() {
			s, ok := v.Field(i).Interface().(lipgloss.Style)
			if !ok {
				continue
			}
			if out := s.Render("x"); colour.MatchString(out) {
				t.Errorf("%s: style %s writes a colour: %q", c.name, v.Type().Field(i).Name, out)
			}
		}
		var out strings.Builder
		w := &colorprofile.Writer{Forward: &out, Profile: l.profile}
		if _, err := w.WriteString(lipgloss.NewStyle().Reverse(true).Foreground(lipgloss.Color("1")).Render("x")); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); colour.MatchString(got) || !strings.Contains(got, "x") {
			t.Errorf("%s: a style outside the theme keeps its colour through the renderer's profile: %q", c.name, got)
		}
	}
}

// TestLookFollowsTheTerminal: with colour, the profile is the terminal's and the styles
// are for the background the theme or COLORFGBG names; without either, dark until the
// terminal answers the root's question.
func TestLookFollowsTheTerminal(t *testing.T) {
	for _, c := range []struct {
		name      string
		mode      theme.Mode
		env       []string
		profile   colorprofile.Profile
		dark, ask bool
	}{
		{"truecolor, ask", theme.ModeAuto, []string{"TERM=xterm-256color", "COLORTERM=truecolor"}, colorprofile.TrueColor, true, true},
		{"256 colours, COLORFGBG light", theme.ModeAuto, []string{"TERM=xterm-256color", "COLORFGBG=0;15"}, colorprofile.ANSI256, false, false},
		{"COLORFGBG dark", theme.ModeAuto, []string{"TERM=xterm-256color", "COLORFGBG=15;0"}, colorprofile.ANSI256, true, false},
		{"light theme", theme.ModeLight, []string{"TERM=xterm-256color", "COLORFGBG=15;0"}, colorprofile.ANSI256, false, false},
		{"dark theme", theme.ModeDark, []string{"TERM=xterm-256color"}, colorprofile.ANSI256, true, false},
	} {
		l := lookFor(c.mode, io.Discard, append(c.env, "TTY_FORCE=1")) // a terminal to the detection
		if l.profile != c.profile || l.styles.Dark != c.dark || l.ask != c.ask || l.styles.Mono {
			t.Errorf("%s: profile %v, dark %v, ask %v, mono %v; want %v, %v, %v, colour", c.name, l.profile, l.styles.Dark, l.ask, l.styles.Mono, c.profile, c.dark, c.ask)
		}
	}
}

// TestReadOnlyClientSendsNoWrite: the client a read-only TUI works with refuses a write
// before it is sent (the sandbox's request log sees none) and says why; reads go on, and
// the client of a TUI that is not read-only still writes.
func TestReadOnlyClientSendsNoWrite(t *testing.T) {
	log := &syncBuffer{}
	sb := sandboxtest.Start(t, sandbox.Options{Size: sandbox.SizeSmall, Seed: 1, BurstRate: -1, RequestLog: log})
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken})
	if err != nil {
		t.Fatal(err)
	}
	page, err := tuiClient(c, true).ListConversations(t.Context(), client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 1}})
	if err != nil || len(page.Results) != 1 {
		t.Fatalf("a read-only client reads: %v", err)
	}
	id := page.Results[0].ID
	before := strings.Count(log.String(), "\n")
	_, err = tuiClient(c, true).UpdateConversation(t.Context(), id, client.ConversationUpdate{Topics: &[]string{"read-only"}})
	var refused *client.RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("a read-only client's PATCH: %v, want a refusal that says read-only", err)
	}
	if after := strings.Count(log.String(), "\n"); after != before {
		t.Fatalf("the refused PATCH reached the sandbox: %d requests logged, %d before", after, before)
	}
	if _, err := tuiClient(c, false).UpdateConversation(t.Context(), id, client.ConversationUpdate{Topics: &[]string{"Billing"}}); err != nil {
		t.Fatalf("the client of a TUI that is not read-only: %v", err)
	}
	if after := strings.Count(log.String(), "\n"); after != before+1 {
		t.Fatalf("the PATCH of a TUI that is not read-only: %d requests logged, want %d", after, before+1)
	}
}
