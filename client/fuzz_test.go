package client

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
	"unicode/utf8"
)

// The fuzz targets' seed corpus is the testdata fixtures (plus the files under
// testdata/fuzz/<Target>/), so plain `go test` runs them as regression tests.

func seed(f *testing.F, names ...string) {
	for _, n := range names {
		f.Add(readFixture(f, n))
	}
}

// roundTrip decodes data into a T and checks that what the client would encode again decodes
// to the same value: encode(decode(encode(v))) == encode(v). Undecodable input is fine; a panic
// or an encoding the client cannot read back is not.
func roundTrip[T any](t *testing.T, data []byte) {
	t.Helper()
	var v T
	if json.Unmarshal(data, &v) != nil {
		return
	}
	b1, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("decoded value does not encode: %v", err)
	}
	var v2 T
	if err := json.Unmarshal(b1, &v2); err != nil {
		t.Fatalf("the client cannot read its own encoding %s: %v", b1, err)
	}
	b2, err := json.Marshal(v2)
	if err != nil {
		t.Fatalf("second encoding: %v", err)
	}
	if !bytes.Equal(b1, b2) {
		t.Fatalf("round trip changed the value:\n%s\n%s", b1, b2)
	}
}

func FuzzDecodeConversation(f *testing.F) {
	seed(f, "conversation.json")
	f.Add([]byte(`{"id": 1, "custom": null, "contact_first_message_sent_at": "", "topics": null, "last_message": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip[Conversation](t, data)
		var c Conversation
		if json.Unmarshal(data, &c) == nil {
			_ = c.Ongoing()
			if c.LastMessage != nil {
				_ = c.LastMessage.State.Label()
			}
		}
	})
}

func FuzzDecodeMessage(f *testing.F) {
	seed(f, "message.json")
	f.Add([]byte(`{"id": "1.2.3", "state": {"type": 9, "message": ""}, "sender": {"type": "bot"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip[Message](t, data)
		var m Message
		if json.Unmarshal(data, &m) == nil {
			_ = m.FromOperator()
			if m.State.Message != "" && m.State.Label() != m.State.Message {
				t.Fatalf("label %q ignores the server's %q", m.State.Label(), m.State.Message)
			}
		}
	})
}

func FuzzDecodeContact(f *testing.F) {
	seed(f, "contact.json")
	f.Fuzz(func(t *testing.T, data []byte) { roundTrip[Contact](t, data) })
}

func FuzzDecodeNote(f *testing.F) {
	seed(f, "note.json")
	f.Fuzz(func(t *testing.T, data []byte) { roundTrip[Note](t, data) })
}

func FuzzDecodeOperator(f *testing.F) {
	seed(f, "operator.json", "slots.json", "away.json")
	// Other servers' shapes: slots under other names or as a list, the away answer as the
	// whole operator, statuses null or missing.
	for _, s := range []string{`{"used": 1, "max": 5}`, `[{"conversation_id": 7, "reserved_at": "2024-03-01T10:00:00Z"}]`,
		`{"slots": [1, 2], "capacity": 4}`, `{"id": 3, "is_away": true, "is_online": null, "max_slots": 6, "team": {}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip[Operator](t, data)
		roundTrip[Slots](t, data)
		roundTrip[AwayStatus](t, data)
	})
}

func FuzzDecodeNavigationEvent(f *testing.F) {
	seed(f, "navigation_event.json")
	f.Fuzz(func(t *testing.T, data []byte) { roundTrip[NavigationEvent](t, data) })
}

func FuzzDecodeDataPoint(f *testing.F) {
	seed(f, "datapoint.json", "datapoint_missed_opportunity.json")
	f.Add([]byte(`{"um_widget_id": 5, "time": "2024-01-01T00:00:00"}`))
	f.Add([]byte(`{"results": [{"um_widget_id": null, "time": null, "value": null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip[DataPoint](t, data)
		roundTrip[struct {
			Results []DataPoint `json:"results"`
		}](t, data)
		var env struct {
			Results []DataPoint `json:"results"`
		}
		if json.Unmarshal(data, &env) == nil {
			SortDataPoints(env.Results)
			for i := 1; i < len(env.Results); i++ {
				if env.Results[i].Time.Before(env.Results[i-1].Time.Time) {
					t.Fatalf("points out of order after SortDataPoints")
				}
			}
		}
	})
}

func FuzzDecodePage(f *testing.F) {
	seed(f, "page_contacts.json", "page_empty.json", "page_operators_bare.json", "cursor_messages.json")
	f.Add([]byte(`[]`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"count": 3, "next": "http://h/x?cursor=2", "results": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip[Page[Contact]](t, data)
		roundTrip[Page[Operator]](t, data)
		roundTrip[Page[Note]](t, data)
		roundTrip[CursorPage[Message]](t, data)
		roundTrip[CursorPage[Conversation]](t, data)
		var p Page[Operator]
		if json.Unmarshal(data, &p) == nil && p.Results == nil {
			t.Fatalf("decoded page has nil results")
		}
		var cp CursorPage[Message]
		if json.Unmarshal(data, &cp) == nil && cp.Results == nil {
			t.Fatalf("decoded cursor page has nil results")
		}
	})
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{
		"2024-03-01T10:15:30Z", "2024-03-01T10:15:30.123456Z", "2024-03-01T10:15:30", "2024-03-01T12:15:30+02:00",
		"2024-03-01T12:15:30+0200", "2024-03-01 10:15:30", "2024-03-01T10:15", "2024-03-01", "2024-03-01T10:15:30.5-05:00",
		"0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "", "null",
		// Zone offsets that leave the four-digit years in UTC: they used to parse and then
		// encode as "-0001-…" or "10000-…", which the client could not read back.
		"0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "0000-01-01 00:30:00+0100",
		"2024-03-01T10:15:30+24:00",
	} {
		f.Add(s)
	}
	// Every timestamp in the fixtures.
	for _, name := range []string{"conversation.json", "message.json", "contact.json", "note.json", "operator.json", "away.json", "datapoint.json"} {
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				for _, e := range x {
					walk(e)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			case string:
				if _, err := ParseTime(x); err == nil {
					f.Add(x)
				}
			}
		}
		var v any
		if err := json.Unmarshal(readFixture(f, name), &v); err != nil {
			f.Fatal(err)
		}
		walk(v)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, err := ParseTime(s)
		if err != nil {
			return
		}
		if tm.Location() != time.UTC {
			t.Fatalf("ParseTime(%q) is in %v, not UTC", s, tm.Location())
		}
		// What the client prints it reads back.
		again, err := ParseTime(tm.Format(time.RFC3339Nano))
		if err != nil || !again.Equal(tm) {
			t.Fatalf("ParseTime(%q) = %v; its RFC 3339 form reads back as %v, %v", s, tm, again, err)
		}
		b, err := json.Marshal(Time{tm})
		if err != nil {
			t.Fatalf("marshal %v: %v", tm, err)
		}
		var back Time
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("ParseTime(%q) = %v encodes as %s, which does not decode: %v", s, tm, b, err)
		}
		if !back.Equal(tm.Truncate(time.Microsecond)) {
			t.Fatalf("ParseTime(%q) = %v encodes as %s, decodes as %v", s, tm, b, back.Time)
		}
		if f := formatFilterTime(tm); !utf8.ValidString(f) {
			t.Fatalf("filter form %q", f)
		}
		if _, err := ParseTime(formatFilterTime(tm)); err != nil {
			t.Fatalf("filter form %q of %q does not parse: %v", formatFilterTime(tm), s, err)
		}
	})
}
