package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/creack/pty"
	"github.com/muesli/termenv"

	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/theme"
)

// startTestSandbox serves a small sandbox in-process for the binary under test.
func startTestSandbox(t *testing.T) *sandbox.Running {
	t.Helper()
	sb, err := sandbox.Start(context.Background(), sandbox.Options{Size: "small"}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	return sb
}

func tuiEnv(t *testing.T, sb *sandbox.Running, term string) []string {
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

// TestStartupDoesNotWaitForASilentTerminal runs parley on a pty that never answers any
// query (Bubble Tea v1's package init would wait 5 s for the background colour there)
// and checks that the UI is drawn promptly.
func TestStartupDoesNotWaitForASilentTerminal(t *testing.T) {
	bin := parleyBinary(t)
	sb := startTestSandbox(t)
	cmd := exec.Command(bin)
	cmd.Env = tuiEnv(t, sb, "xterm-256color")
	start := time.Now()
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 100, Rows: 30})
	if err != nil {
		t.Fatal(err)
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
		// The whole start (sandbox round trip included) well under Bubble Tea's 5 s wait.
		if d > 2500*time.Millisecond {
			t.Fatalf("first frame after %v on a silent terminal", d)
		}
		t.Logf("first frame after %v on a terminal that never answers", d)
	case <-time.After(10 * time.Second):
		t.Fatalf("no frame within 10 s on a silent terminal; output so far: %q", seen.String())
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

// TestMonoStylesShowTheCursorWithoutColour: without colour (NO_COLOR, the mono theme) the
// selected row and the other theme styles keep reverse, bold and underline, no theme style
// writes a colour, and styles from outside the theme (the default renderer) write nothing.
func TestMonoStylesShowTheCursorWithoutColour(t *testing.T) {
	old := lipgloss.ColorProfile()
	t.Cleanup(func() { lipgloss.SetColorProfile(old) })
	for _, profile := range []termenv.Profile{termenv.Ascii, termenv.TrueColor} {
		r := themeRenderer(profile, true, io.Discard)
		st := theme.New(r, theme.Default(), true)
		if got := st.Selected.Render("row"); !strings.Contains(got, "\x1b[7m") {
			t.Errorf("profile %v: the selected row is not reversed: %q", profile, got)
		}
		if got := st.Bold.Render("x"); !strings.Contains(got, "\x1b[1m") {
			t.Errorf("profile %v: bold is dropped: %q", profile, got)
		}
		colour := regexp.MustCompile(`\x1b\[[0-9;]*(3[0-9]|4[0-9]|9[0-7]|10[0-7])[;m]`)
		v := reflect.ValueOf(st).Elem()
		for i := range v.NumField() {
			s, ok := v.Field(i).Interface().(lipgloss.Style)
			if !ok {
				continue
			}
			if out := s.Render("x"); colour.MatchString(out) {
				t.Errorf("profile %v: style %s writes a colour: %q", profile, v.Type().Field(i).Name, out)
			}
		}
		if got := lipgloss.NewStyle().Reverse(true).Foreground(lipgloss.Color("1")).Render("x"); got != "x" {
			t.Errorf("profile %v: a style outside the theme writes escape codes: %q", profile, got)
		}
	}
	// With colour, parley's styles use the default renderer and its profile.
	r := themeRenderer(termenv.ANSI256, false, io.Discard)
	if r != lipgloss.DefaultRenderer() || lipgloss.ColorProfile() != termenv.ANSI256 {
		t.Errorf("colour: renderer %p (default %p), profile %v", r, lipgloss.DefaultRenderer(), lipgloss.ColorProfile())
	}
}
