package writes

import (
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
)

// The rules that tell the attempt's note from older ones with the same text. The first
// attempt was at "at" on the server's clock (as the check's Date header placed it).
func TestNoteCheckTellsNewNotesApart(t *testing.T) {
	at := time.Date(2026, 11, 20, 10, 15, 0, 0, time.UTC)
	note := func(id int64, body string, created time.Time) client.Note {
		return client.Note{ID: id, Body: body, CreatedAt: client.Time{Time: created}}
	}
	k := NoteCheck{Sent: []NoteAttempt{{Text: "hello", At: at.Add(time.Minute)}, {Text: "hello again", At: at.Add(2 * time.Minute)}}}
	if got := k.first(); !got.Equal(at.Add(time.Minute)) {
		t.Fatalf("first attempt at %s", got)
	}
	for _, tc := range []struct {
		name          string
		floor         NoteFloor
		noDate        bool // the server sent no Date header
		notes         []client.Note
		id            int64
		found, unsure bool
	}{
		{"created after the first attempt", NoteFloor{}, false, []client.Note{note(9, "hello\r\n", at.Add(time.Second)), note(5, "hello", at.Add(-time.Hour))}, 9, true, false},
		{"created at the first attempt", NoteFloor{}, false, []client.Note{note(9, " hello again", at)}, 9, true, false},
		{"a minute before: cannot tell", NoteFloor{}, false, []client.Note{note(9, "hello", at.Add(-time.Minute))}, 0, false, true},
		{"a second before: cannot tell", NoteFloor{}, false, []client.Note{note(9, "hello", at.Add(-time.Second))}, 0, false, true},
		{"a new one beside one it cannot tell", NoteFloor{}, false, []client.Note{note(10, "hello", at), note(9, "hello", at.Add(-time.Second))}, 10, true, false},
		{"only older ones", NoteFloor{}, false, []client.Note{note(5, "hello", at.Add(-time.Minute-time.Second))}, 0, false, false},
		{"another text", NoteFloor{}, false, []client.Note{note(9, "hello there", at)}, 0, false, false},
		{"the oldest new one", NoteFloor{}, false, []client.Note{note(12, "hello", at), note(10, "hello again", at)}, 10, true, false},
		{"no time, no floor", NoteFloor{}, false, []client.Note{note(9, "hello", time.Time{})}, 0, false, true},
		{"no Date header, no floor", NoteFloor{}, true, []client.Note{note(9, "hello", at.Add(time.Second))}, 0, false, true},
		{"no Date header, only another text", NoteFloor{}, true, []client.Note{note(9, "goodbye", at.Add(time.Second))}, 0, false, false},
		{"no Date header, above the floor", NoteFloor{ID: 8, Known: true}, true, []client.Note{note(9, "hello", at.Add(-time.Hour))}, 9, true, false},
		{"above the floor", NoteFloor{ID: 8, Known: true}, false, []client.Note{note(9, "hello", time.Time{}), note(8, "hello", at)}, 9, true, false},
		{"at the floor", NoteFloor{ID: 9, Known: true}, false, []client.Note{note(9, "hello", at)}, 0, false, false},
	} {
		k.Floor = tc.floor
		since := at
		if tc.noDate {
			since = time.Time{}
		}
		n, found, unsure := k.find(tc.notes, since, !tc.noDate)
		if found != tc.found || unsure != tc.unsure || (found && n.ID != tc.id) {
			t.Errorf("%s: found %v (#%d), unsure %v; want %v (#%d), %v", tc.name, found, n.ID, unsure, tc.found, tc.id, tc.unsure)
		}
	}
}
