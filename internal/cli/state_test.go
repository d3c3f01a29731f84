package cli

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/theme"
	"github.com/parley-tui/parley/internal/ui"
	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/internal/when"
)

func TestStateFileRoundTripAndBadFiles(t *testing.T) {
	var logged bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
	path := filepath.Join(t.TempDir(), "state", "parley", stateFileName)

	if s, note := loadState(path, log, stateNow); s != nil || note != "" || logged.Len() != 0 {
		t.Fatalf("a missing file: %+v, %q, log %q", s, note, logged.String())
	}
	w := &stateWriter{path: path, log: log}
	want := ui.State{Screen: "contacts", Views: map[string]string{"contacts": "Named"},
		Analytics: &analytics.State{Metric: "um_chat_messages_total", Range: "last7"}}
	w.write(want)
	got, _ := loadState(path, log, stateNow)
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
	if got, _ := loadState(path, log, stateNow); got == nil || got.Screen != "analytics" {
		t.Fatalf("after the final write: %+v", got)
	}

	// Not parley's JSON: kept aside, said in a note, with a debug line; the next write
	// leaves what was kept aside alone.
	if err := os.WriteFile(path, []byte("{\"screen\": 3"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, note := loadState(path, log, stateNow)
	if s != nil {
		t.Fatalf("a broken file read as %+v", s)
	}
	kept := "state.json.damaged-20261120T140200Z"
	if want := "The saved state (state.json) could not be read (cut short or not JSON); it is kept as " + kept +
		" and parley starts afresh."; note != want {
		t.Errorf("note %q, want %q", note, want)
	}
	if !strings.Contains(logged.String(), "state file damaged") {
		t.Fatalf("no debug line: %q", logged.String())
	}
	w = &stateWriter{path: path, log: log}
	w.write(ui.State{Screen: "operators"})
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(path), kept)); err != nil || string(b) != "{\"screen\": 3" {
		t.Errorf("kept aside: %q, %v", b, err)
	}
	if got, note := loadState(path, log, stateNow); got == nil || got.Screen != "operators" || note != "" {
		t.Errorf("the state written after: %+v, %q", got, note)
	}
	// A value of the wrong type is damage too.
	if err := os.WriteFile(path, []byte(`{"screen": 3}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if s, note := loadState(path, log, stateNow.Add(time.Second)); s != nil || !strings.Contains(note, "(a value of the wrong type); it is kept as state.json.damaged-20261120T140201Z") {
		t.Errorf("a value of the wrong type: %+v, %q", s, note)
	}
}

var stateNow = time.Date(2026, 11, 20, 15, 2, 0, 0, time.FixedZone("CET", 3600))

// stateSeeds are the shapes a state file may come in.
func stateSeeds() []string {
	valid := `{"screen": "analytics", "views": {"contacts": "Named"}, "analytics": {"metric": "um_chat_messages_total",
 "range": "custom", "from": "2026-01-01T00:00:00Z", "to": "2026-02-01T00:00:00Z", "organizations": [1, 2], "chart": "mean"}}`
	return []string{
		"", "{}", "null", "[]", valid, valid[:len(valid)/2], "\xef\xbb\xbf" + valid, "\xfe\xff" + valid, "\xff\xfe{}",
		`{"screen": 3}`, `{"screen": "NaN"}`, `{"analytics": {"organizations": [9223372036854775807, -9223372036854775808, 0]}}`,
		`{"analytics": {"organizations": [9223372036854775808]}}`, `{"analytics": {"organizations": [NaN]}}`,
		`{"analytics": {"range": "custom", "from": "0001-01-01T00:00:00Z", "to": "9999-12-31T23:59:59Z"}}`,
		`{"analytics": {"range": "custom", "from": "1900-01-01T00:00:00Z", "to": "9999-12-31T23:59:59Z"}}`,
		`{"analytics": {"range": "custom", "from": "2026-02-01T00:00:00Z", "to": "2026-01-01T00:00:00Z"}}`,
		`{"views": {"contacts": "` + strings.Repeat("v", 1<<20) + `"}}`,
		`{"screen": "\u001b]0;title\u0007"}`,
	}
}

// The state file's parser takes anything: what it reads writes back to a file that reads
// the same, and a TUI restored from it starts on a screen it has, with a custom analytics
// range inside the years a typed date may take and no id below one.
func FuzzParseState(f *testing.F) {
	for _, s := range stateSeeds() {
		f.Add([]byte(s))
	}
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", Token: "t"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := parseState(data)
		if err != nil {
			if s.Screen != "" || s.Views != nil || s.Analytics != nil {
				t.Fatalf("%q: an error (%v) with a state %+v", data, err, s)
			}
			return
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("%q: %+v does not encode: %v", data, s, err)
		}
		again, err := parseState(out)
		if err != nil || !reflect.DeepEqual(normalState(again), normalState(s)) {
			t.Fatalf("%q: read %+v, written and read again %+v, %v", data, s, again, err)
		}
		app := ui.New(ui.Options{Client: c, Styles: theme.Plain(false), Keys: keymap.Default(), State: &s})
		restored := app.State()
		if restored.Screen == "" {
			t.Fatalf("%q: restored on no screen", data)
		}
		if a := restored.Analytics; a != nil {
			if a.Range == "custom" && (a.From.Year() < when.FirstYear || a.To.Year() > when.LastYear || !a.To.After(a.From)) {
				t.Fatalf("%q: restored the range %v → %v", data, a.From, a.To)
			}
			for _, ids := range [][]int64{a.Orgs, a.Widgets, a.Ops, a.Groups} {
				for _, id := range ids {
					if id < 1 {
						t.Fatalf("%q: restored the id %d", data, id)
					}
				}
			}
		}
	})
}

// normalState is s with empty maps as nil (JSON writes an empty map as {} and omits nil).
func normalState(s ui.State) ui.State {
	if len(s.Views) == 0 {
		s.Views = nil
	}
	return s
}
