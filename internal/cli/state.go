package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/parley-tui/parley/internal/atomicfile"
	"github.com/parley-tui/parley/internal/config"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/common"
)

// stateFileName is the file in the state directory that keeps what the TUI restores at
// start-up: the last screen, the active saved views and the analytics query.
const stateFileName = "state.json"

// loadState reads the state file at path (now is when, for the name of a damaged file).
// A missing file is a fresh start (nil). A file that is not the JSON parley writes is kept
// aside as state.json.damaged-<UTC time> (nothing of it is lost, and the next write does
// not replace it), and note says so for the TUI to show; a file that cannot be read at all
// (permissions) is left as it is, with a line in the debug log.
func loadState(path string, log *slog.Logger, now time.Time) (s *ui.State, note string) {
	if path == "" {
		return nil, ""
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if !os.IsNotExist(err) {
			log.Debug("state file ignored", "path", path, "problem", err.Error())
		}
		return nil, ""
	}
	st, err := parseState(data)
	if err == nil {
		return &st, ""
	}
	log.Debug("state file damaged", "path", path, "problem", err.Error())
	kept, aerr := atomicfile.SetAside(path, now)
	if aerr != nil {
		log.Debug("state file not kept aside", "path", path, "problem", aerr.Error())
		return nil, fmt.Sprintf("The saved state (%s) could not be read (%s): starting afresh.", filepath.Base(path), stateProblem(err))
	}
	return nil, fmt.Sprintf("The saved state (%s) could not be read (%s); it is kept as %s and parley starts afresh.",
		filepath.Base(path), stateProblem(err), kept)
}

// parseState reads the bytes of a state file: the JSON parley writes. Fields parley does
// not know are ignored, and values it does not know (a screen of a later release) are left
// out when the TUI restores the state; anything that is not such JSON is an error.
func parseState(data []byte) (ui.State, error) {
	var s ui.State
	if err := json.Unmarshal(data, &s); err != nil {
		return ui.State{}, err
	}
	if a := s.Analytics; a != nil {
		// An empty id list filters nothing, like an absent one: both read as nil, so what is
		// read is what a write of it reads back.
		for _, ids := range []*[]int64{&a.Orgs, &a.Widgets, &a.Ops, &a.Groups} {
			if len(*ids) == 0 {
				*ids = nil
			}
		}
	}
	return s, nil
}

// stateProblem says in a few words why a state file could not be read.
func stateProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return "a value of the wrong type"
	}
	return "cut short or not JSON"
}

// stateWriter writes the state file atomically (package atomicfile: a crash leaves the
// old file or the new one, whole), one write at a time; a write that fails is logged and the next one tries again.
type stateWriter struct {
	mu   sync.Mutex
	path string
	log  *slog.Logger
	done bool // the last write (at the program's end) was made: a late one is dropped
}

// write replaces the state file with s.
func (w *stateWriter) write(s ui.State) { w.put(s, false) }

// final writes s as the program ends: no write after it changes the file.
func (w *stateWriter) final(s ui.State) { w.put(s, true) }

func (w *stateWriter) put(s ui.State, last bool) {
	if w == nil || w.path == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	w.done = last
	if err := writeState(w.path, s); err != nil {
		w.log.Debug("state file not written", "path", w.path, "problem", err.Error())
	}
}

func writeState(path string, s ui.State) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create state directory: %w", err)
	}
	if err := atomicfile.Write(path, ".state-*.json", append(data, '\n')); err != nil {
		return fmt.Errorf("write state: %w", err)
	}
	return nil
}

// savedViews are the config file's views as the TUI takes them.
func savedViews(vs []config.View) []common.SavedView {
	out := make([]common.SavedView, 0, len(vs))
	for _, v := range vs {
		out = append(out, common.SavedView{Name: v.Name, Screen: v.Screen, Status: v.Status, Search: v.Search,
			Ordering: v.Ordering, Filters: v.Filters})
	}
	return out
}

// viewSaver writes a view into the config file at path (nil without one). A file that
// does not parse is left as it is and the error says why.
func viewSaver(path string) func(common.SavedView) error {
	if path == "" {
		return nil
	}
	var mu sync.Mutex
	return func(v common.SavedView) error {
		mu.Lock()
		defer mu.Unlock()
		return config.AddView(path, config.View{Name: v.Name, Screen: v.Screen, Status: v.Status, Search: v.Search,
			Ordering: v.Ordering, Filters: v.Filters})
	}
}
