package client

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// serve answers every request with status and body.
func serve(t *testing.T, status int, body string) *Client {
	t.Helper()
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, status, body) })
	c, _ := newTestClient(t, rec.base(), nil)
	return c
}

func unknown[T any]() Opt[T] { return Opt[T]{} }

// sameExtra compares extra fields as "key=value" (none and nil alike).
func sameExtra(got, want []string) bool {
	return len(got) == 0 && len(want) == 0 || reflect.DeepEqual(got, want)
}

// TestSlotsInEveryShape: the slots answer in each shape a server may give, through HTTP:
// what it says is read, under whichever name, and what it does not say stays unknown
// (the screen shows "—"), never 0. Before, every shape but the sandbox's read as 0 of 0,
// and an array failed to decode.
func TestSlotsInEveryShape(t *testing.T) {
	for _, tc := range []struct {
		name, body  string
		used, total Opt[int]
		held        int
		extra       []string
	}{
		{"sandbox", `{"operator_id": 3, "current_slots": 2, "total_slots": 5}`, Some(2), Some(5), 0, nil},
		{"used and max", `{"used": 3, "max": 50}`, Some(3), Some(50), 0, nil},
		{"current and total", `{"current": 0, "total": 4}`, Some(0), Some(4), 0, nil},
		{"used only", `{"used": 3}`, Some(3), unknown[int](), 0, nil},
		{"max only", `{"operator_id": 3, "max": 50}`, unknown[int](), Some(50), 0, nil},
		{"nothing known", `{"operator_id": 3}`, unknown[int](), unknown[int](), 0, nil},
		{"nulls", `{"current_slots": null, "total_slots": null}`, Opt[int]{Null: true}, Opt[int]{Null: true}, 0, nil},
		{"empty object", `{}`, unknown[int](), unknown[int](), 0, nil},
		{"list of occupied slots", `[{"conversation_id": 700123, "reserved_at": "2024-03-01T10:00:00Z"}, {"conversation_id": 700124}]`,
			Some(2), unknown[int](), 2, nil},
		{"empty list", `[]`, Some(0), unknown[int](), 0, nil},
		{"list under slots, with a max", `{"slots": [{"conversation_id": 1}], "max_slots": 6}`, Some(1), Some(6), 1, nil},
		{"a count beside its list", `{"used": 2, "results": [1, 2, 3]}`, Some(2), unknown[int](), 3, nil},
		{"other fields kept", `{"used": 1, "max": "many", "shift": "early"}`, Some(1), unknown[int](), 0,
			[]string{`max="many"`, `shift="early"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := serve(t, 200, tc.body).OperatorSlots(bg(), 3)
			if err != nil {
				t.Fatal(err)
			}
			if s.OperatorID != 3 || s.CurrentSlots != tc.used || s.TotalSlots != tc.total || len(s.Held) != tc.held {
				t.Fatalf("slots %+v, want used %+v total %+v and %d held", s, tc.used, tc.total, tc.held)
			}
			if got := s.Extra.Pairs(); !sameExtra(got, tc.extra) {
				t.Fatalf("extra %q, want %q", got, tc.extra)
			}
		})
	}
}

// TestSlotTotalFromTheOperator: an answer without a total takes the operator record's
// max_slots (the slots-list shape), and an answer's own total wins over it; without
// either the total stays unknown.
func TestSlotTotalFromTheOperator(t *testing.T) {
	var op Operator
	if err := op.UnmarshalJSON([]byte(`{"id": 3, "max_slots": 6}`)); err != nil {
		t.Fatal(err)
	}
	if op.MaxSlots != Some(6) || len(op.Extra) != 0 {
		t.Fatalf("operator %+v: max_slots not read", op)
	}
	if got := (Slots{CurrentSlots: Some(2)}).Total(op.MaxSlots); got != Some(6) {
		t.Errorf("total from the operator = %+v", got)
	}
	if got := (Slots{TotalSlots: Some(5)}).Total(op.MaxSlots); got != Some(5) {
		t.Errorf("the answer's own total = %+v", got)
	}
	if got := (Slots{}).Total(Opt[int]{}); got.Known {
		t.Errorf("no total anywhere = %+v", got)
	}
}

// TestOperatorStatusAsSent: an operator's away, online and bot flags are known only when
// the server sent them (null or missing is unknown, false is false), under their
// alternative names too, and the fields parley does not read are kept, sorted. Before, a
// missing is_online read as offline.
func TestOperatorStatusAsSent(t *testing.T) {
	for _, tc := range []struct {
		name, body          string
		away, online, isBot Opt[bool]
		extra               []string
	}{
		{"all sent", `{"id": 3, "is_away": true, "is_online": false, "is_bot": false}`, Some(true), Some(false), Some(false), nil},
		{"none sent", `{"id": 3, "name": "Max"}`, unknown[bool](), unknown[bool](), unknown[bool](), nil},
		{"nulls", `{"id": 3, "is_away": null, "is_online": null}`, Opt[bool]{Null: true}, Opt[bool]{Null: true}, unknown[bool](), nil},
		{"other names", `{"id": 3, "away": false, "online": true}`, Some(false), Some(true), unknown[bool](), nil},
		{"unknown fields", `{"id": 3, "is_online": true, "team": {"id": 4}, "shift": "early"}`, unknown[bool](), Some(true), unknown[bool](),
			[]string{`shift="early"`, `team={"id":4}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op, err := serve(t, 200, tc.body).GetOperator(bg(), 3)
			if err != nil {
				t.Fatal(err)
			}
			if op.IsAway != tc.away || op.IsOnline != tc.online || op.IsBot != tc.isBot {
				t.Fatalf("away %+v online %+v bot %+v, want %+v %+v %+v", op.IsAway, op.IsOnline, op.IsBot, tc.away, tc.online, tc.isBot)
			}
			if got := op.Extra.Pairs(); !sameExtra(got, tc.extra) {
				t.Fatalf("extra %q, want %q", got, tc.extra)
			}
		})
	}
	// A bare list and an envelope alike.
	p, err := serve(t, 200, `[{"id": 1, "is_online": true}, {"id": 2}]`).ListOperators(bg(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Results[0].IsOnline != Some(true) || p.Results[1].IsOnline.Known {
		t.Fatalf("listed: %+v", p.Results)
	}
	// A value of another type is refused with the field named, as for every field.
	_, err = serve(t, 200, `{"id": 3, "is_online": "yes"}`).GetOperator(bg(), 3)
	if want := "is_online is a string where true or false belongs"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one saying %q", err, want)
	}
}

// TestAwayAnswerInEveryShape: the away PATCH's answer says the away status, and the online
// status, only as far as the server sent them; an answer that is the whole operator is
// read as the operator. Before, an answer without is_online said nothing of it (and the
// screen inferred offline), and a whole operator's fields were dropped.
func TestAwayAnswerInEveryShape(t *testing.T) {
	for _, tc := range []struct {
		name, body   string
		id           int64
		away, online Opt[bool]
		operator     bool
		extra        []string
	}{
		{"sandbox", `{"operator_id": 3, "is_away": true, "changed_at": "2024-03-04T07:30:00Z"}`, 3, Some(true), unknown[bool](), false, nil},
		{"whole operator", `{"id": 3, "name": "Max", "is_away": true, "is_online": true, "max_slots": 6}`, 3, Some(true), Some(true), true, nil},
		{"with online", `{"operator_id": 3, "is_away": false, "is_online": false}`, 3, Some(false), Some(false), false, nil},
		{"nothing", `{}`, 3, unknown[bool](), unknown[bool](), false, nil},
		{"other fields", `{"away": true, "since": "now"}`, 3, Some(true), unknown[bool](), false, []string{`since="now"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := serve(t, 200, tc.body).SetOperatorAway(bg(), 3, true)
			if err != nil {
				t.Fatal(err)
			}
			if st.OperatorID != tc.id || st.IsAway != tc.away || st.IsOnline != tc.online || (st.Operator != nil) != tc.operator {
				t.Fatalf("away answer %+v, want id %d away %+v online %+v operator %v", st, tc.id, tc.away, tc.online, tc.operator)
			}
			if tc.operator && (st.Operator.Name != "Max" || st.Operator.MaxSlots != Some(6)) {
				t.Fatalf("operator %+v", st.Operator)
			}
			if got := st.Extra.Pairs(); !sameExtra(got, tc.extra) {
				t.Fatalf("extra %q, want %q", got, tc.extra)
			}
		})
	}
	// An operator record without its id is refused, as every operator without one is.
	_, err := serve(t, 200, `{"id": 0, "is_away": true}`).SetOperatorAway(bg(), 3, true)
	if want := "the operator it returned has no id"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one saying %q", err, want)
	}
}

// TestNoteAndNavigationAsSent: a note's author is the operator, the organization (null)
// or unknown (not sent), its time zero when not sent; the fields neither type reads are
// kept. Before, a note without operator_id read as written by the organization.
func TestNoteAndNavigationAsSent(t *testing.T) {
	n, err := serve(t, 200, `{"id": 5, "body": "x", "pinned": true}`).GetNote(bg(), 5)
	if err != nil {
		t.Fatal(err)
	}
	if n.OperatorID.Known || n.OperatorID.Null || !n.CreatedAt.IsZero() || !reflect.DeepEqual(n.Extra.Pairs(), []string{"pinned=true"}) {
		t.Fatalf("note without author: %+v", n)
	}
	n, err = serve(t, 200, `{"id": 5, "operator_id": null}`).GetNote(bg(), 5)
	if err != nil || !n.OperatorID.Null || n.OperatorID.Known {
		t.Fatalf("note by the organization: %+v %v", n, err)
	}
	n, err = serve(t, 200, `{"id": 5, "operator_id": 7}`).GetNote(bg(), 5)
	if err != nil || n.OperatorID != Some(int64(7)) {
		t.Fatalf("note by operator 7: %+v %v", n, err)
	}
	p, err := serve(t, 200, `[{"id": 9, "url": "https://x.example/", "duration_ms": 1200}]`).ListNavigation(bg(), NavigationListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e := p.Results[0]; e.URL != "https://x.example/" || !reflect.DeepEqual(e.Extra.Pairs(), []string{"duration_ms=1200"}) {
		t.Fatalf("navigation event %+v", e)
	}
}
