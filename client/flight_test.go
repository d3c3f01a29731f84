package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/waitfor"
)

const twoRows = `{"count": 2, "next": null, "previous": null, "results": [{"id": 11, "status": "new"}, {"id": 12, "status": "pending"}]}`

func TestIdenticalGETsInFlightAreSentOnce(t *testing.T) {
	release := make(chan struct{})
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		<-release
		writeJSON(w, http.StatusOK, twoRows)
	})
	var mu sync.Mutex
	var infos []RequestInfo
	hub, _ := newTestClient(t, rec.base(), func(c *Config) {
		c.CacheTTL = time.Minute
		c.OnRequest = func(r RequestInfo) { mu.Lock(); infos = append(infos, r); mu.Unlock() }
	})
	shared := hub.ShareReads(0)
	// Plain, a poll, a Fresh read that takes an answer a second old: one GET in flight
	// answers all (a Fresh one without Within sends its own:
	// TestAFreshGETDoesNotJoinOneInFlight).
	ctxs := []context.Context{bg(), Poll(bg()), Within(Fresh(bg()), time.Second), Within(Fresh(Poll(bg())), time.Second), bg()}
	callers := len(ctxs)
	pages := make([]*Page[Conversation], callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i, ctx := range ctxs {
		session := shared.WithContext(1, int64(7+i)) // each session writes as its own operator
		wg.Add(1)
		go func() {
			defer wg.Done()
			pages[i], errs[i] = session.ListConversations(ctx, ConversationListOptions{ListOptions: ListOptions{Limit: 100}})
		}()
	}
	// Another organization's identical URL is another request.
	var otherOrg error
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, otherOrg = shared.WithContext(2, 7).ListConversations(bg(), ConversationListOptions{ListOptions: ListOptions{Limit: 100}})
	}()
	waitfor.True(t, "two requests sent and the other callers waiting", func() bool {
		return rec.count() == 2 && hub.flights.waiting() == callers-1
	})
	close(release)
	wg.Wait()
	if otherOrg != nil {
		t.Fatal(otherOrg)
	}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("caller %d: %v", i, err)
		}
		if len(pages[i].Results) != 2 || pages[i].Results[1].ID != 12 {
			t.Fatalf("caller %d got %+v", i, pages[i].Results)
		}
	}
	if n := rec.count(); n != 2 {
		t.Fatalf("%d identical GETs in flight (and one of another organization) sent %d requests, want 2", callers, n)
	}
	// Each caller has its own copy: changing one's rows leaves the others' alone.
	pages[0].Results[0].Status = "changed"
	for i := 1; i < callers; i++ {
		if pages[i].Results[0].Status != StatusNew {
			t.Fatalf("caller %d sees caller 0's change: the answer's rows are shared", i)
		}
	}
	if tl := hub.WithContext(1, 0).Tally(FamilyConversations); tl != (Tally{Answered: 1}) {
		t.Errorf("organization 1 counted %+v, want the one request", tl)
	}
	mu.Lock()
	sent, joined := 0, 0
	for _, r := range infos {
		switch {
		case r.Joined:
			joined++
		case !r.Cached:
			sent++
		}
	}
	mu.Unlock()
	if sent != 2 || joined != callers-1 {
		t.Errorf("the request log shows %d sent and %d joined, want 2 and %d", sent, joined, callers-1)
	}
	// The sender kept the answer: the next plain GET is answered from memory, a copy again.
	p, err := shared.WithContext(1, 9).ListConversations(bg(), ConversationListOptions{ListOptions: ListOptions{Limit: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if rec.count() != 2 || p.Results[0].Status != StatusNew {
		t.Errorf("after the flight: %d requests, first row %q", rec.count(), p.Results[0].Status)
	}
}

func TestCancelledSenderDoesNotFailTheCallersWaiting(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			<-r.Context().Done() // never answered: its sender gives up
			return
		}
		writeJSON(w, http.StatusOK, twoRows)
	})
	var mu sync.Mutex
	var events []Event
	hub, _ := newTestClient(t, rec.base(), func(c *Config) {
		c.OnEvent = func(e Event) { mu.Lock(); events = append(events, e); mu.Unlock() }
	})
	opts := ConversationListOptions{ListOptions: ListOptions{Limit: 100}}
	senderCtx, cancelSender := context.WithCancel(bg())
	defer cancelSender()
	senderErr := make(chan error, 1)
	go func() {
		_, err := hub.ListConversations(senderCtx, opts)
		senderErr <- err
	}()
	waitfor.True(t, "the first request to reach the server", func() bool { return rec.count() == 1 })

	type result struct {
		p   *Page[Conversation]
		err error
	}
	waiter := make(chan result, 1)
	go func() {
		p, err := hub.ListConversations(bg(), opts)
		waiter <- result{p, err}
	}()
	// A caller whose own context ends stops waiting, and nobody else does.
	quitterCtx, quit := context.WithCancel(bg())
	quitter := make(chan error, 1)
	go func() {
		_, err := hub.ListConversations(quitterCtx, opts)
		quitter <- err
	}()
	waitfor.True(t, "two callers waiting for the first", func() bool { return hub.flights.waiting() == 2 })
	quit()
	if err := <-quitter; !errors.Is(err, context.Canceled) {
		t.Fatalf("a waiting caller whose context ended: %v", err)
	} else if text, ok := NetworkProblem(err); !ok || !strings.Contains(text, "cancelled") {
		t.Errorf("its problem reads %q", text)
	}

	cancelSender()
	if err := <-senderErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled sender got %v", err)
	}
	res := <-waiter
	if res.err != nil {
		t.Fatalf("a caller waiting for a sender that gave up failed: %v", res.err)
	}
	if len(res.p.Results) != 2 {
		t.Fatalf("it got %+v", res.p.Results)
	}
	if n := rec.count(); n != 2 {
		t.Errorf("the server saw %d requests, want 2 (the one given up, the one asked again)", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 0 {
		t.Errorf("a cancelled sender reported %+v", events)
	}
}

func TestWithinAnswersFreshReadsFromRecentMemory(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch r.URL.Path {
		case "/prefix" + v3 + "/conversations/":
			writeJSON(w, http.StatusOK, twoRows)
		case "/prefix" + v3 + "/conversations/5/messages/":
			writeJSON(w, http.StatusOK, `{"next": null, "previous": null, "results": [{"id": "5.1.1", "body": "hi"}]}`)
		case "/prefix" + v3 + "/conversations/5/":
			writeJSON(w, http.StatusOK, `{"id": 5, "status": "new", "conversation_part_set": []}`)
		case "/prefix" + v3 + "/contact_identities/8/":
			writeJSON(w, http.StatusOK, `{"id": 8, "name": "Ann"}`)
		default:
			writeJSON(w, http.StatusNotFound, `{"detail": "no"}`)
		}
	})
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) {
		cfg.CacheTTL = time.Minute
		cfg.Now = func() time.Time { return now }
	})
	sent := func(path string) int {
		n := 0
		for _, r := range rec.requests() {
			if r.Path == "/prefix"+v3+path {
				n++
			}
		}
		return n
	}
	reads := []struct {
		name, path string
		read       func(ctx context.Context) error
	}{
		{"a list page", "/conversations/", func(ctx context.Context) error {
			_, err := c.ListConversations(ctx, ConversationListOptions{})
			return err
		}},
		{"a thread", "/conversations/5/messages/", func(ctx context.Context) error {
			_, err := c.LatestMessages(ctx, 5, Version{}, 10)
			return err
		}},
		{"a conversation's parts", "/conversations/5/", func(ctx context.Context) error {
			_, err := c.ConversationWithParts(ctx, 5, Version{})
			return err
		}},
		{"a contact", "/contact_identities/8/", func(ctx context.Context) error {
			_, err := c.GetContact(ctx, 8)
			return err
		}},
	}
	for _, rd := range reads {
		step := func(ctx context.Context, want int, what string) {
			t.Helper()
			if err := rd.read(ctx); err != nil {
				t.Fatalf("%s, %s: %v", rd.name, what, err)
			}
			if n := sent(rd.path); n != want {
				t.Fatalf("%s, %s: %d requests in all, want %d", rd.name, what, n, want)
			}
		}
		step(bg(), 1, "first read")
		now = now.Add(10 * time.Second)
		step(Fresh(bg()), 2, "Fresh without Within")
		now = now.Add(10 * time.Second) // the answer held is 10 s old
		step(Within(Fresh(Poll(bg())), 15*time.Second), 2, "a Fresh poll within 15 s")
		step(Within(Fresh(bg()), 10*time.Second), 2, "Fresh within 10 s, the answer exactly that old")
		step(Within(Fresh(bg()), 5*time.Second), 3, "Fresh within 5 s")
		step(Within(Fresh(bg()), 0), 4, "Fresh within 0 (no allowance)")
		now = now.Add(2 * time.Minute) // past the time-to-live: nothing held answers
		step(Within(Fresh(bg()), time.Hour), 5, "Fresh within an hour, past the time-to-live")
	}
}

// TestAFreshGETDoesNotJoinOneInFlight: a Fresh GET (the user's r) sends its own request
// while an identical one hangs in flight, and is answered without waiting for it; a plain
// GET asked after it joins the Fresh one.
func TestAFreshGETDoesNotJoinOneInFlight(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			<-hang // the first request hangs, as on a broken connection
		}
		writeJSON(w, http.StatusOK, twoRows)
	})
	c, _ := newTestClient(t, rec.base(), func(c *Config) { c.CacheTTL = time.Minute })
	opts := ConversationListOptions{ListOptions: ListOptions{Limit: 100}}
	go func() { _, _ = c.ListConversations(t.Context(), opts) }()
	waitfor.True(t, "the first GET sent", func() bool { return rec.count() == 1 })
	// Within the client's 5 s timeout of the hanging one: joining it would end in this
	// context's deadline, not in an answer.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	p, err := c.ListConversations(Fresh(ctx), opts)
	if err != nil || len(p.Results) != 2 {
		t.Fatalf("the Fresh GET beside a hanging one: %v, %v", p, err)
	}
	if n := rec.count(); n != 2 {
		t.Fatalf("%d requests, want the hanging one and the Fresh one's own", n)
	}
}

// Each GET's RequestInfo says what the memory did: a read it could not answer is sent
// (not Bypassed), one it holds is Cached, and a Fresh read that does not ask it is sent
// Bypassed; a Fresh read that takes an answer a minute old (Within) asks it.
func TestRequestInfoSaysWhetherTheMemoryWasAsked(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, http.StatusOK, twoRows) })
	var infos []RequestInfo
	c, _ := newTestClient(t, rec.base(), func(c *Config) {
		c.CacheTTL = time.Minute
		c.OnRequest = func(r RequestInfo) { infos = append(infos, r) }
	})
	list := func(ctx context.Context) {
		t.Helper()
		if _, err := c.ListConversations(ctx, ConversationListOptions{ListOptions: ListOptions{Limit: 100}}); err != nil {
			t.Fatal(err)
		}
	}
	list(bg())
	list(bg())
	list(Fresh(bg()))
	list(Fresh(Poll(bg())))
	list(Within(Fresh(bg()), time.Minute))
	type seen struct{ cached, bypassed bool }
	want := []seen{{false, false}, {true, false}, {false, true}, {false, true}, {true, false}}
	if len(infos) != len(want) {
		t.Fatalf("%d request infos, want %d: %+v", len(infos), len(want), infos)
	}
	for i, w := range want {
		if got := (seen{infos[i].Cached, infos[i].Bypassed}); got != w {
			t.Errorf("read %d: cached %v, bypassed %v; want %+v", i, got.cached, got.bypassed, w)
		}
	}
	if n := rec.count(); n != 3 {
		t.Errorf("%d requests sent, want 3", n)
	}
}
