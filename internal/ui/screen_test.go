package ui_test

import (
	"bytes"
	"slices"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/parley-tui/parley/internal/ui"
)

// terminalEnv is the terminal the frames are drawn for: an xterm with true colour.
var terminalEnv = []string{"TERM=xterm-256color", "COLORTERM=truecolor"}

// screen is Bubble Tea v2.1.1's renderer as its program drives it for a frame on the
// alternate screen without the terminal's cursor: each frame is drawn into a cell buffer
// (cleared first), which ultraviolet's terminal renderer compares with what the terminal
// shows and turns into the bytes that change it, at true colour. It is the program's
// renderer (cursed_renderer.go's flush) without the program around it, so a benchmark
// times it on the benchmark's goroutine and counts its bytes; TestScreenIsBubbleTeas holds
// it to what the program writes.
type screen struct {
	out     bytes.Buffer
	scr     *uv.TerminalRenderer
	cells   uv.ScreenBuffer
	last    string
	started bool
}

// newScreen is the renderer of a program at w×h. tty: the program writes to a terminal
// whose line discipline expands neither tabs nor backspaces (the usual settings, under
// which Bubble Tea moves the cursor with them too); else it writes to something else, as
// in a test (newlines then stand for a cursor move down).
func newScreen(w, h int, tty bool) *screen {
	s := &screen{cells: uv.NewScreenBuffer(w, h)}
	s.scr = uv.NewTerminalRenderer(&s.out, terminalEnv)
	s.scr.SetColorProfile(colorprofile.TrueColor)
	s.scr.SetRelativeCursor(true)
	s.scr.SetFullscreen(false)
	s.scr.SetScrollOptim(true)
	if tty {
		s.scr.SetTabStops(w)
	} else {
		s.scr.SetTabStops(-1)
	}
	s.scr.SetBackspace(tty)
	s.scr.SetMapNewline(!tty)
	// The program's first size: the renderer erases and takes the size.
	s.scr.Erase()
	s.scr.Resize(w, h)
	return s
}

// frame draws content and returns the bytes written to the terminal for it (none when it
// is the frame drawn last: the program does not flush a view that did not change).
func (s *screen) frame(content string) int {
	if s.started && content == s.last {
		return 0
	}
	if !s.started {
		// The first frame enters the alternate screen.
		s.scr.SaveCursor()
		s.scr.SetFullscreen(true)
		s.scr.SetRelativeCursor(false)
		s.scr.Erase()
		s.started = true
	}
	s.last = content
	s.cells.Clear()
	uv.NewStyledString(content).Draw(s.cells, s.cells.Bounds())
	s.scr.Render(s.cells.RenderBuffer)
	if err := s.scr.Flush(); err != nil {
		panic(err) // a bytes.Buffer does not fail
	}
	n := s.out.Len()
	s.out.Reset()
	return n
}

// TestScreenIsBubbleTeas: the benchmarks' renderer writes, frame for frame, what Bubble
// Tea's program writes to the terminal for the same keys: 50 presses of j from the top at
// 120×40, on rows in Latin letters and on rows with Chinese, Arabic, Hebrew and emoji.
func TestScreenIsBubbleTeas(t *testing.T) {
	cs, ms := latinData()
	for _, c := range []struct {
		what string
		app  func() *ui.App
	}{
		{"Latin rows", func() *ui.App { return appWith(t, 120, 40, cs, ms) }},
		{"international rows", func() *ui.App { return loadedApp(t, 120, 40) }},
	} {
		program := keystrokeBytes(t, c.app(), 120, 40, 50)
		app := c.app()
		scr := newScreen(120, 40, false)
		scr.frame(app.View().Content)
		ours := make([]int, 0, 50)
		for range 50 {
			app.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
			ours = append(ours, scr.frame(app.View().Content))
		}
		if !slices.Equal(ours, program) {
			t.Errorf("%s: the benchmarks' renderer wrote %v bytes a press, Bubble Tea's program %v", c.what, ours, program)
		}
	}
}

// terminal stands for the terminal: it counts the bytes and the writes the renderer makes
// (one write per frame it flushes) and tells a waiting test about each.
type terminal struct {
	mu     sync.Mutex
	bytes  int
	writes int
	// sizedAt is the writes made when the program's model got the window's size (-1:
	// not yet).
	sizedAt int
	wrote   chan struct{} // one slot: "something was written since you last looked"
}

func newTerminal() *terminal { return &terminal{sizedAt: -1, wrote: make(chan struct{}, 1)} }

func (w *terminal) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.bytes += len(p)
	w.writes++
	w.mu.Unlock()
	select {
	case w.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

// sized notes that the model got the window's size.
func (w *terminal) sized() {
	w.mu.Lock()
	w.sizedAt = w.writes
	w.mu.Unlock()
}

// state is the bytes and the writes so far, and the writes when the size arrived.
func (w *terminal) state() (bytes, writes, sizedAt int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.bytes, w.writes, w.sizedAt
}

// await waits until ok holds, woken by each write; it fails the test after 20 s (the
// condition is a frame being written, never an amount of time passing).
func (w *terminal) await(tb testing.TB, what string, ok func(writes, sizedAt int) bool) {
	tb.Helper()
	deadline := time.After(20 * time.Second)
	for {
		if _, writes, sizedAt := w.state(); ok(writes, sizedAt) {
			return
		}
		select {
		case <-w.wrote:
		case <-deadline:
			tb.Fatalf("waited 20s for %s", what)
		}
	}
}

// still runs the root model with nothing but the keys the test sends: its Init (loads from
// a server that is not there) and the commands its keys return (the rest timer, loads) are
// never run, so the only frames are those the keys draw. It draws nothing until the
// program gave it the window's size: the program's renderer erases the screen on that
// size, and the frame drawn after it is the first whole one, with the erase behind it.
type still struct {
	app   *ui.App
	term  *terminal
	ready *bool
}

func (s still) Init() tea.Cmd { return nil }

func (s still) View() tea.View {
	if !*s.ready {
		return tea.View{AltScreen: true}
	}
	return s.app.View()
}

func (s still) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		if !*s.ready {
			*s.ready = true
			s.term.sized()
		}
	case tea.KeyPressMsg:
		s.app.Update(msg)
	}
	return s, nil
}

// keystrokeBytes runs Bubble Tea's program with app at w×h with true colour, writing to
// something that is not a terminal, and returns the bytes it writes for each of presses
// presses of j. A press is sent once the frame before it was written, and its frame is the
// next write (the renderer flushes a frame in one write).
func keystrokeBytes(tb testing.TB, app *ui.App, w, h, presses int) []int {
	tb.Helper()
	term := newTerminal()
	p := tea.NewProgram(still{app: app, term: term, ready: new(bool)}, tea.WithInput(nil), tea.WithOutput(term),
		tea.WithoutSignalHandler(), tea.WithEnvironment(terminalEnv), tea.WithColorProfile(colorprofile.TrueColor),
		tea.WithWindowSize(w, h))
	done := make(chan struct{})
	go func() { _, _ = p.Run(); close(done) }()
	defer func() { p.Quit(); <-done }()
	term.await(tb, "the first whole frame", func(writes, sizedAt int) bool { return sizedAt >= 0 && writes > sizedAt })
	out := make([]int, 0, presses)
	for range presses {
		before, writes, _ := term.state()
		p.Send(tea.KeyPressMsg{Code: 'j', Text: "j"})
		term.await(tb, "the frame of a j", func(n, _ int) bool { return n > writes })
		after, _, _ := term.state()
		out = append(out, after-before)
	}
	return out
}
