package cli

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parley-tui/parley/ui"
	"github.com/parley-tui/parley/views/analytics"
)

func TestStateFileRoundTripAndBadFiles(t *testing.T) {
	var logged bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
	path := filepath.Join(t.TempDir(), "state", "parley", stateFileName)

	if s := loadState(path, log); s != nil || logged.Len() != 0 {
		t.Fatalf("a missing file: %+v, log %q", s, logged.String())
	}
	w := &stateWriter{path: path, log: log}
	want := ui.State{Screen: "contacts", Views: map[string]string{"contacts": "Named"},
		Analytics: &analytics.State{Metric: "um_chat_messages_total", Range: "last7"}}
	w.write(want)
	got := loadState(path, log)
	if got == nil || got.Screen != want.Screen || got.Views["contacts"] != "Named" || got.Analytics == nil ||
		got.Analytics.Range != "last7" {
		t.Fatalf("read back %+v", got)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("state directory: %v %v", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}

	// The end of the program writes last: a write arriving later is dropped.
	w.final(ui.State{Screen: "analytics"})
	w.write(ui.State{Screen: "operators"})
	if got := loadState(path, log); got == nil || got.Screen != "analytics" {
		t.Fatalf("after the final write: %+v", got)
	}

	// Not parley's JSON: ignored, with a debug line.
	if err := os.WriteFile(path, []byte("{\"screen\": 3"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s := loadState(path, log); s != nil {
		t.Fatalf("a broken file read as %+v", s)
	}
	if !strings.Contains(logged.String(), "state file ignored") {
		t.Fatalf("no debug line: %q", logged.String())
	}
}
