package viewtest

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/internal/waitfor"
)

// Rendered is the bytes Bubble Tea's renderer writes to a true-colour terminal of w×h for a
// program whose screen is view: what a terminal receives, escape sequences and all (the
// view's own sequences are read into cells first: only those the renderer knows, SGR and
// hyperlinks, come out again). It waits until the output shows until (plain text of the
// view), then quits the program.
func Rendered(tb testing.TB, view string, w, h int, until string) []byte {
	tb.Helper()
	out := &recording{wrote: make(chan struct{}, 1)}
	p := tea.NewProgram(screen(view), tea.WithInput(nil), tea.WithOutput(out), tea.WithoutSignalHandler(),
		tea.WithColorProfile(colorprofile.TrueColor), tea.WithWindowSize(w, h))
	done := make(chan struct{})
	go func() { _, _ = p.Run(); close(done) }()
	deadline := time.After(waitfor.Deadline)
	for !out.shows(until) {
		select {
		case <-out.wrote:
		case <-deadline:
			p.Kill()
			<-done
			tb.Fatalf("waited %s for the renderer to draw %q", waitfor.Deadline, until)
		}
	}
	p.Quit()
	<-done
	return out.bytes()
}

// screen is a program that only draws its view.
type screen string

func (s screen) Init() tea.Cmd                       { return nil }
func (s screen) Update(tea.Msg) (tea.Model, tea.Cmd) { return s, nil }
func (s screen) View() tea.View                      { return tea.NewView(string(s)) }

// recording is a terminal that keeps what is written to it.
type recording struct {
	mu    sync.Mutex
	out   bytes.Buffer
	wrote chan struct{}
}

func (r *recording) Write(p []byte) (int, error) {
	r.mu.Lock()
	r.out.Write(p)
	r.mu.Unlock()
	select {
	case r.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (r *recording) shows(text string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Contains(ansi.Strip(r.out.String()), text)
}

func (r *recording) bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Clone(r.out.Bytes())
}

// RawLinks reads what a renderer wrote as a terminal does, sequence by sequence, and fails
// the test unless the only string sequences are hyperlinks (OSC 8) to the targets of want
// or their ends, and no control character stands alone but those that move the cursor
// (CR, LF, BS). It returns the targets linked.
func RawLinks(tb testing.TB, out []byte, want ...string) map[string]bool {
	tb.Helper()
	p := ansi.NewParser()
	var state byte
	seen := map[string]bool{}
	for len(out) > 0 {
		seq, _, n, next := ansi.DecodeSequence(out, state, p)
		state, out = next, out[n:]
		switch {
		case ansi.HasOscPrefix(seq):
			target, ok := strings.CutPrefix(string(p.Data()), "8;;")
			if p.Command() != 8 || !ok {
				tb.Fatalf("the renderer wrote an OSC that is not a hyperlink: %q", seq)
			}
			if target != "" && !slices.Contains(want, target) {
				tb.Fatalf("a hyperlink to %q, not one of %q", target, want)
			}
			if target != "" {
				seen[target] = true
			}
		case ansi.HasDcsPrefix(seq), ansi.HasApcPrefix(seq), ansi.HasPmPrefix(seq), ansi.HasSosPrefix(seq):
			tb.Fatalf("the renderer wrote a string sequence: %q", seq)
		case len(seq) == 1 && (seq[0] < 0x20 || seq[0] == 0x7f) && !strings.ContainsRune("\r\n\b", rune(seq[0])):
			tb.Fatalf("the renderer wrote the control %q on its own", seq)
		}
	}
	return seen
}
