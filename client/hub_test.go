package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hubServer answers every GET with a conversation list page and every PATCH with an away
// status.
func hubServer(t *testing.T) *recorder {
	t.Helper()
	return newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.Method == http.MethodPatch {
			writeJSON(w, http.StatusOK, `{"is_away": true}`)
			return
		}
		writeJSON(w, http.StatusOK, `{"count": 1, "next": null, "previous": null, "results": [{"id": 11, "status": "new"}]}`)
	})
}

func TestShareReadsSharesAnswersAndWritesAsEachOperator(t *testing.T) {
	rec := hubServer(t)
	hub, _ := newTestClient(t, rec.base(), func(c *Config) { c.CacheTTL = time.Minute; c.OperatorID = 3 })
	const org = 42
	shared := hub.ShareReads(0)
	a, b := shared.WithContext(org, 7), shared.WithContext(org, 9)

	if _, err := a.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	p, err := b.ListConversations(bg(), ConversationListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := rec.count(); n != 1 {
		t.Fatalf("the same GET from two sessions sharing reads sent %d requests, want 1 (the second from memory)", n)
	}
	if len(p.Results) != 1 || p.Results[0].ID != 11 {
		t.Fatalf("the answer from memory is %+v", p.Results)
	}
	get := rec.last(t)
	if v := get.Header.Get("Service-Operator-Id"); v != "" {
		t.Errorf("a shared read carries Service-Operator-Id %q, want none", v)
	}
	if v := get.Header.Get("Service-Organization-Id"); v != "42" {
		t.Errorf("a shared read carries Service-Organization-Id %q, want 42", v)
	}
	if a.OperatorID() != 7 || b.OperatorID() != 9 {
		t.Errorf("OperatorID is %d and %d, want 7 and 9", a.OperatorID(), b.OperatorID())
	}

	for _, cl := range []*Client{a, b} {
		if _, err := cl.SetOperatorAway(bg(), 7, true); err != nil {
			t.Fatal(err)
		}
	}
	reqs := rec.requests()
	if len(reqs) != 3 {
		t.Fatalf("the server saw %d requests, want 1 GET and 2 PATCHes", len(reqs))
	}
	for i, want := range []string{"7", "9"} {
		r := reqs[1+i]
		if r.Method != http.MethodPatch {
			t.Fatalf("request %d is a %s, want PATCH", 1+i, r.Method)
		}
		if v := r.Header.Get("Service-Operator-Id"); v != want {
			t.Errorf("PATCH %d carries Service-Operator-Id %q, want %s", i+1, v, want)
		}
	}
	// A write of any session clears the memory they share.
	if _, err := b.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := rec.count(); n != 4 {
		t.Fatalf("after a write the shared GET sent %d requests in all, want 4 (asked again)", n)
	}
}

func TestShareReadsWithAReaderSendsItOnReads(t *testing.T) {
	rec := hubServer(t)
	hub, _ := newTestClient(t, rec.base(), func(c *Config) { c.CacheTTL = time.Minute })
	a := hub.ShareReads(5).WithContext(1, 7)
	if _, err := a.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	if v := rec.last(t).Header.Get("Service-Operator-Id"); v != "5" {
		t.Fatalf("a read shared as operator 5 carries Service-Operator-Id %q", v)
	}
	// A client of its own operator 5 (not sharing) holds its answers apart.
	if _, err := hub.WithContext(1, 5).ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	// Held conversations are under the reader too: a list row makes HeldConversation answer
	// every session sharing reads.
	if _, ok := hub.ShareReads(5).WithContext(1, 9).HeldConversation(11, Version{}); !ok {
		t.Error("a conversation a shared read brought is not held for another session sharing it")
	}
	if _, ok := hub.WithContext(1, 7).HeldConversation(11, Version{}); ok {
		t.Error("a conversation a shared read brought is held for operator 7's own reads")
	}
}

// errViewer is the refusal of a gate that lets nothing through.
var errViewer = errors.New("a viewer cannot change anything")

func TestGateRefusesAWriteBeforeAnythingIsSentOrCounted(t *testing.T) {
	rec := hubServer(t)
	var events []Event
	var logged []RequestInfo
	hub, _ := newTestClient(t, rec.base(), func(c *Config) {
		c.CacheTTL = time.Minute
		c.OnEvent = func(e Event) { events = append(events, e) }
		c.OnRequest = func(r RequestInfo) { logged = append(logged, r) }
	})
	type asked struct {
		method, path string
		operator     int64
	}
	var gateSaw []asked
	viewer := hub.ShareReads(0).WithContext(42, 7).WithGate(func(method, path string, operator int64) error {
		gateSaw = append(gateSaw, asked{method, path, operator})
		return errViewer
	})
	if _, err := viewer.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatalf("a read through a gate: %v", err)
	}
	_, err := viewer.SetOperatorAway(bg(), 7, true)
	var refused *RefusedError
	if !errors.As(mustFail(t, err), &refused) {
		t.Fatalf("a refused write's error is %T (%v), want a *RefusedError", err, err)
	}
	const want = "PATCH /api/um/v3/operators/7/away/: not sent: a viewer cannot change anything"
	if err.Error() != want {
		t.Errorf("error text %q, want %q", err.Error(), want)
	}
	if !errors.Is(err, errViewer) {
		t.Error("the gate's own error is not reachable with errors.Is")
	}
	if errors.Is(err, ErrOutcomeUnknown) {
		t.Error("a refused write reads as one whose outcome is unknown")
	}
	if ProblemOf(err) != ProblemNone || IsPermission(err) {
		t.Errorf("a refused write reads as problem %v (permission %v)", ProblemOf(err), IsPermission(err))
	}
	if len(gateSaw) != 1 || gateSaw[0] != (asked{http.MethodPatch, v3 + "/operators/7/away/", 7}) {
		t.Errorf("the gate was asked %+v, want once about PATCH %s/operators/7/away/ as operator 7", gateSaw, v3)
	}
	if n := rec.count(); n != 1 {
		t.Fatalf("the server saw %d requests, want only the GET", n)
	}
	if tl := viewer.Tally(FamilyOperators); tl != (Tally{}) {
		t.Errorf("a refused write was counted: %+v", tl)
	}
	if len(events) != 0 {
		t.Errorf("a refused write reported events %+v", events)
	}
	if l := logged[len(logged)-1]; !l.Refused || l.Status != 0 || l.Operator != 7 || l.Method != http.MethodPatch {
		t.Errorf("the request log shows the refused write as %+v", l)
	}
	if l := logged[0]; l.Refused || l.Operator != 0 {
		t.Errorf("the request log shows the shared read as %+v (want operator 0)", l)
	}
	// Nothing changed: the memory still answers.
	if _, err := viewer.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := rec.count(); n != 1 {
		t.Fatalf("after a refused write the GET was sent again (%d requests): the memory was cleared", n)
	}
	// A bulk DELETE and a POST are refused the same way.
	if err := viewer.DeleteConversations(bg(), []int64{1}); !errors.As(err, &refused) {
		t.Errorf("a list DELETE through the gate: %v", err)
	}
	if _, err := viewer.CreateNote(bg(), NewNote{ContactIdentityID: 1, Body: "x"}); !errors.As(err, &refused) {
		t.Errorf("a POST through the gate: %v", err)
	}
	if n := rec.count(); n != 1 {
		t.Fatalf("refused writes reached the server: %d requests", n)
	}
}

func TestGatesChainAndDerivedClientsKeepThem(t *testing.T) {
	rec := hubServer(t)
	hub, _ := newTestClient(t, rec.base(), nil)
	var order []string
	gate := func(name string, refuse bool) WriteGate {
		return func(method, path string, operator int64) error {
			order = append(order, name)
			if refuse {
				return fmt.Errorf("%s says no", name)
			}
			return nil
		}
	}
	first := hub.WithGate(gate("first", false))
	second := first.WithContext(1, 7).ShareReads(0).WithGate(gate("second", true))
	if _, err := first.SetOperatorAway(bg(), 7, true); err != nil {
		t.Fatalf("a write its only gate lets through: %v", err)
	}
	if n := rec.count(); n != 1 {
		t.Fatalf("a write the gate let through sent %d requests", n)
	}
	order = nil
	_, err := second.WithContext(1, 9).SetOperatorAway(bg(), 9, true)
	if err == nil || !strings.HasSuffix(err.Error(), ": not sent: second says no") {
		t.Fatalf("a write the second gate refuses: %v", err)
	}
	if strings.Join(order, ",") != "first,second" {
		t.Errorf("gates asked in order %v, want first,second", order)
	}
	if n := rec.count(); n != 1 {
		t.Fatalf("a refused write reached the server: %d requests", n)
	}
	// Deriving from first again did not hand second's gate to first.
	order = nil
	if _, err := first.WithGate(nil).SetOperatorAway(bg(), 7, false); err != nil {
		t.Fatalf("first's writes after second was derived: %v", err)
	}
	if strings.Join(order, ",") != "first" {
		t.Errorf("first's write asked %v", order)
	}
}

func TestRefusedWriteNeitherReportsNorEndsATrouble(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			writeJSON(w, http.StatusServiceUnavailable, `{"detail": "down"}`)
			return
		}
		writeJSON(w, http.StatusOK, `{"count": 0, "next": null, "previous": null, "results": []}`)
	})
	var events []Event
	hub, _ := newTestClient(t, rec.base(), func(c *Config) { c.OnEvent = func(e Event) { events = append(events, e) } })
	viewer := hub.WithGate(func(string, string, int64) error { return errViewer })
	if _, err := viewer.ListConversations(Poll(bg()), ConversationListOptions{}); err == nil {
		t.Fatal("the 503 was not an error")
	}
	if len(events) != 1 || events[0].Kind != EventFailed || events[0].Problem != ProblemServer {
		t.Fatalf("the 503 reported %+v, want one EventFailed of a server error", events)
	}
	if _, err := viewer.SetOperatorAway(bg(), 7, true); err == nil {
		t.Fatal("the gate let the write through")
	}
	if len(events) != 1 {
		t.Fatalf("the refused write reported %+v", events[1:])
	}
	if _, err := viewer.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 || events[1].Kind != EventAnswered {
		t.Fatalf("the first answer after the trouble reported %+v, want EventAnswered (the refused write ended nothing)", events[1:])
	}
}

func TestWriteHookSeesEachWritesOutcomeOnce(t *testing.T) {
	var puts atomic.Int32
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch {
		case r.Method == http.MethodPut && puts.Add(1) == 1:
			writeJSON(w, http.StatusServiceUnavailable, `{"detail": "busy"}`)
		case r.Method == http.MethodPut:
			writeJSON(w, http.StatusOK, `{"id": 3}`)
		case r.Method == http.MethodPatch && strings.Contains(r.URL.Path, "/operators/9/"):
			writeJSON(w, http.StatusBadRequest, `{"detail": "bad token `+testToken+`"}`)
		case r.Method == http.MethodPatch:
			writeJSON(w, http.StatusOK, `{"is_away": true}`)
		default:
			writeJSON(w, http.StatusOK, `{"count": 0, "next": null, "previous": null, "results": []}`)
		}
	})
	hub, _ := newTestClient(t, rec.base(), nil)
	var mu sync.Mutex
	var seen, other []RequestInfo
	session := hub.ShareReads(0).WithContext(0, 7).
		WithWriteHook(func(r RequestInfo) { mu.Lock(); seen = append(seen, r); mu.Unlock() }).
		WithGate(func(method, path string, _ int64) error {
			if method == http.MethodDelete {
				return errViewer
			}
			return nil
		}).
		WithWriteHook(func(r RequestInfo) { mu.Lock(); other = append(other, r); mu.Unlock() })

	if _, err := session.ListConversations(bg(), ConversationListOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := session.SetOperatorAway(bg(), 7, true); err != nil {
		t.Fatal(err)
	}
	email := "ann@example.com"
	if _, _, err := session.UpsertContact(bg(), IdentifierEmail, ContactUpdate{Email: &email}); err != nil {
		t.Fatalf("PUT retried after a 503: %v", err)
	}
	if _, err := session.SetOperatorAway(bg(), 9, true); err == nil {
		t.Fatal("the 400 was not an error")
	}
	if err := session.DeleteNote(bg(), 5); err == nil {
		t.Fatal("the gate let a DELETE through")
	}
	type got struct {
		Method  string
		Status  int
		Attempt int
		Refused bool
		Failed  bool
	}
	want := []got{
		{http.MethodPatch, 200, 0, false, false},
		{http.MethodPut, 200, 1, false, false},
		{http.MethodPatch, 400, 0, false, true},
		{http.MethodDelete, 0, 0, true, true},
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != len(want) {
		t.Fatalf("the hook saw %d outcomes, want %d (one per write, none for the GET): %+v", len(seen), len(want), seen)
	}
	if len(other) != len(want) {
		t.Fatalf("the second hook saw %d outcomes, want %d", len(other), len(want))
	}
	for i, r := range seen {
		g := got{r.Method, r.Status, r.Attempt, r.Refused, r.Err != nil}
		if g != want[i] {
			t.Errorf("outcome %d: %+v, want %+v", i, g, want[i])
		}
		if r.Operator != 7 {
			t.Errorf("outcome %d: operator %d, want 7", i, r.Operator)
		}
		if !strings.HasPrefix(r.Path, "/prefix"+v3+"/") || r.Family == "" {
			t.Errorf("outcome %d: path %q family %q", i, r.Path, r.Family)
		}
		if s := fmt.Sprintf("%+v %v", r, r.Err); strings.Contains(s, testToken) {
			t.Errorf("outcome %d carries the token: %s", i, s)
		}
	}
	var refused *RefusedError
	if !errors.As(seen[3].Err, &refused) {
		t.Errorf("the refused DELETE's outcome has error %v", seen[3].Err)
	}
}

// ShareWithin: a read of the operator list, an operator's slots or the navigation is
// answered by what any client sharing the reader fetched within the window of its kind,
// whatever its context asks (a poll within 5 s, Fresh within a shorter time), but not a
// user's own refresh (Fresh without Within); a slots answer is kept for its window although
// that is longer than the time-to-live. Other reads keep their own rules.
func TestShareWithinAnswersSharedReadsInsideTheirWindow(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/slots/"):
			writeJSON(w, http.StatusOK, `{"operator_id": 7, "current_slots": 1, "max_slots": 4}`)
		case strings.Contains(r.URL.Path, "/operators/"):
			writeJSON(w, http.StatusOK, `{"count": 1, "next": null, "previous": null, "results": [{"id": 7, "name": "Ann"}]}`)
		case strings.Contains(r.URL.Path, "/navigation/"):
			writeJSON(w, http.StatusOK, `{"count": 0, "next": null, "previous": null, "results": []}`)
		default:
			writeJSON(w, http.StatusOK, twoRows)
		}
	})
	now := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	hub, _ := newTestClient(t, rec.base(), func(c *Config) { c.CacheTTL = 2 * time.Minute; c.Now = func() time.Time { return now } })
	shared := hub.ShareReads(0).WithContext(42, 0).ShareWithin(ShareWindows{Operators: 30 * time.Second, Slots: 5 * time.Minute,
		Navigation: 30 * time.Second})
	a, b := shared.WithContext(42, 7), shared.WithContext(42, 9)
	count := func(part string) int {
		n := 0
		for _, r := range rec.requests() {
			if strings.Contains(r.Path, part) {
				n++
			}
		}
		return n
	}
	poll := func() context.Context { return Within(Fresh(Poll(bg())), 5*time.Second) }
	reads := []struct {
		name, path string
		window     time.Duration
		read       func(c *Client, ctx context.Context) error
	}{
		{"the operator list", "/operators/?", 30 * time.Second, func(c *Client, ctx context.Context) error {
			_, err := c.AllOperators(ctx)
			return err
		}},
		{"an operator's slots", "/slots/", 5 * time.Minute, func(c *Client, ctx context.Context) error {
			_, err := c.OperatorSlots(ctx, 7)
			return err
		}},
		{"the navigation", "/navigation/", 30 * time.Second, func(c *Client, ctx context.Context) error {
			_, err := c.ListNavigation(ctx, NavigationListOptions{})
			return err
		}},
	}
	for _, rd := range reads {
		part := strings.TrimSuffix(rd.path, "?")
		step := func(c *Client, ctx context.Context, want int, what string) {
			t.Helper()
			if err := rd.read(c, ctx); err != nil {
				t.Fatalf("%s, %s: %v", rd.name, what, err)
			}
			if n := count(part); n != want {
				t.Fatalf("%s, %s: %d requests, want %d", rd.name, what, n, want)
			}
		}
		base := count(part)
		step(a, poll(), base+1, "a's poll")
		now = now.Add(rd.window - time.Second)
		step(b, poll(), base+1, "b's poll inside the window")
		step(b, Within(Fresh(bg()), time.Second), base+1, "b's Fresh read within a second, inside the window")
		step(b, bg(), base+1, "b's plain read inside the window")
		step(b, Fresh(bg()), base+2, "b's own refresh")
		now = now.Add(rd.window + time.Second)
		step(a, poll(), base+3, "a's poll past the window")
	}
	// Without the windows a poll takes what is at most 5 s old.
	plain := hub.ShareReads(0).WithContext(42, 0)
	before := count("/slots/")
	now = now.Add(time.Hour)
	for range 2 {
		if _, err := plain.OperatorSlots(Within(Fresh(Poll(bg())), 5*time.Second), 7); err != nil {
			t.Fatal(err)
		}
		now = now.Add(10 * time.Second)
	}
	if n := count("/slots/") - before; n != 2 {
		t.Errorf("two polls of the slots 10 s apart without a window sent %d requests, want 2", n)
	}
}
