package cli

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/parley-tui/parley/config"
	"github.com/parley-tui/parley/ui"
	"github.com/parley-tui/parley/views/common"
)

// stateFileName is the file in the state directory that keeps what the TUI restores at
// start-up: the last screen, the active saved views and the analytics query.
const stateFileName = "state.json"

// loadState reads the state file at path. A file that is missing, unreadable or not the
// JSON parley writes is left aside (nil: start afresh), with a line in the debug log.
func loadState(path string, log *slog.Logger) *ui.State {
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if !os.IsNotExist(err) {
			log.Debug("state file ignored", "path", path, "problem", err.Error())
		}
		return nil
	}
	var s ui.State
	if err := json.Unmarshal(data, &s); err != nil {
		log.Debug("state file ignored", "path", path, "problem", err.Error())
		return nil
	}
	return &s
}

// stateWriter writes the state file atomically (a temporary file renamed over it), one
// write at a time; a write that fails is logged and the next one tries again.
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
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create state directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".state-*.json")
	if err != nil {
		return fmt.Errorf("write state: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after the rename
	if _, err := f.Write(append(data, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("write state: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write state: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
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
