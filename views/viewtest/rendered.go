package viewtest

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
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
	deadline := time.After(20 * time.Second)
	for !out.shows(until) {
		select {
		case <-out.wrote:
		case <-deadline:
			p.Kill()
			<-done
			tb.Fatalf("waited 20s for the renderer to draw %q", until)
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
