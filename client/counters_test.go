package client

import (
	"net/http"
	"reflect"
	"regexp"
	"testing"
	"time"
)

// genericAPI answers every request as the API would: 204 to a DELETE, the created resource
// to a POST, one resource to a PUT or a single-resource path, a page otherwise.
func genericAPI(w http.ResponseWriter, r *http.Request, n int) {
	switch {
	case r.Method == http.MethodDelete:
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodPost:
		writeJSON(w, 201, `{"id": 1}`)
	case r.Method == http.MethodPut || singlePath.MatchString(r.URL.Path):
		writeJSON(w, 200, `{"id": 1, "operator_id": 1, "is_away": false}`)
	default:
		writeJSON(w, 200, `{"count": 0, "next": null, "previous": null, "results": []}`)
	}
}

// singlePath matches the path of one resource (or of its slots or away status).
var singlePath = regexp.MustCompile(`/[0-9]+/((slots|away)/)?$`)

func TestCountersPerFamilyAndOrganization(t *testing.T) {
	rec := newRecorder(t, genericAPI)
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.OrganizationID = 7 })
	calls := []struct {
		fam  Family
		call func(c *Client) error
	}{
		{FamilyConversations, func(c *Client) error { _, err := c.ListConversations(bg(), ConversationListOptions{}); return err }},
		{FamilyConversations, func(c *Client) error { _, err := c.ConversationsAllPage(bg(), AllConversationsOptions{}); return err }},
		{FamilyConversations, func(c *Client) error { _, err := c.GetConversation(bg(), 1); return err }},
		{FamilyConversations, func(c *Client) error { _, err := c.SetConversationTopics(bg(), 1, nil); return err }},
		{FamilyConversations, func(c *Client) error { return c.DeleteConversation(bg(), 1) }},
		{FamilyConversations, func(c *Client) error { return c.DeleteConversations(bg(), []int64{1}) }},
		{FamilyConversations, func(c *Client) error { _, err := c.MessagesPage(bg(), 1, MessageOptions{}); return err }},
		{FamilyContacts, func(c *Client) error { _, err := c.ListContacts(bg(), ContactListOptions{}); return err }},
		{FamilyContacts, func(c *Client) error { _, err := c.ContactsAllPage(bg(), AllContactsOptions{}); return err }},
		{FamilyContacts, func(c *Client) error { _, err := c.GetContact(bg(), 1); return err }},
		{FamilyContacts, func(c *Client) error { _, err := c.UpdateContact(bg(), 1, ContactUpdate{}); return err }},
		{FamilyContacts, func(c *Client) error {
			_, _, err := c.UpsertContact(bg(), IdentifierEmail, ContactUpdate{Email: ptr("a@b.c")})
			return err
		}},
		{FamilyContacts, func(c *Client) error { return c.DeleteContact(bg(), 1) }},
		{FamilyNavigation, func(c *Client) error { _, err := c.ListNavigation(bg(), NavigationListOptions{}); return err }},
		{FamilyOperators, func(c *Client) error { _, err := c.ListOperators(bg(), ListOptions{}); return err }},
		{FamilyOperators, func(c *Client) error { _, err := c.GetOperator(bg(), 1); return err }},
		{FamilyOperators, func(c *Client) error { _, err := c.UpdateOperator(bg(), 1, OperatorUpdate{}); return err }},
		{FamilyOperators, func(c *Client) error { return c.DeleteOperator(bg(), 1) }},
		{FamilyOperators, func(c *Client) error { _, err := c.OperatorSlots(bg(), 1); return err }},
		{FamilyOperators, func(c *Client) error { _, err := c.SetOperatorAway(bg(), 1, true); return err }},
		{FamilyNotes, func(c *Client) error { _, err := c.ListNotes(bg(), NoteListOptions{}); return err }},
		{FamilyNotes, func(c *Client) error { _, err := c.CreateNote(bg(), NewNote{}); return err }},
		{FamilyNotes, func(c *Client) error { _, err := c.GetNote(bg(), 1); return err }},
		{FamilyNotes, func(c *Client) error { return c.DeleteNote(bg(), 1) }},
		{"analytics:um_conversation_rating", func(c *Client) error {
			_, err := c.Analytics(bg(), AnalyticsQuery{Metric: MetricConversationRating})
			return err
		}},
		{"analytics:um_conversation_rating", func(c *Client) error {
			_, err := c.Analytics(bg(), AnalyticsQuery{Metric: MetricConversationRating})
			return err
		}},
		{"analytics:um_operator_status", func(c *Client) error {
			_, err := c.Analytics(bg(), AnalyticsQuery{Metric: MetricOperatorStatus})
			return err
		}},
	}
	want := map[Family]int{}
	for i, cl := range calls {
		if err := cl.call(c); err != nil {
			t.Fatalf("call %d (%s): %v", i, cl.fam, mustFail(t, err))
		}
		want[cl.fam]++
		if got := c.Usage(cl.fam); got != want[cl.fam] {
			t.Errorf("call %d: usage of %s = %d, want %d", i, cl.fam, got, want[cl.fam])
		}
	}
	if rec.count() != len(calls) {
		t.Fatalf("%d requests for %d calls", rec.count(), len(calls))
	}
	wantSnap := []CounterValue{
		{CounterKey{7, "analytics:um_conversation_rating"}, Tally{Answered: 2}},
		{CounterKey{7, "analytics:um_operator_status"}, Tally{Answered: 1}},
		{CounterKey{7, FamilyContacts}, Tally{Answered: 6}},
		{CounterKey{7, FamilyConversations}, Tally{Answered: 7}},
		{CounterKey{7, FamilyNavigation}, Tally{Answered: 1}},
		{CounterKey{7, FamilyNotes}, Tally{Answered: 4}},
		{CounterKey{7, FamilyOperators}, Tally{Answered: 6}},
	}
	if got := c.Counters().Snapshot(); !reflect.DeepEqual(got, wantSnap) {
		t.Errorf("snapshot = %v\nwant       %v", got, wantSnap)
	}

	// A sibling for another organization shares the counters and counts under its own org.
	d := c.WithContext(9, 3)
	if d.Counters() != c.Counters() {
		t.Fatal("WithContext does not share the counters")
	}
	if d.OrganizationID() != 9 || d.OperatorID() != 3 || c.OrganizationID() != 7 || c.OperatorID() != 0 {
		t.Errorf("contexts: d %d/%d, c %d/%d", d.OrganizationID(), d.OperatorID(), c.OrganizationID(), c.OperatorID())
	}
	if d.Usage(FamilyConversations) != 0 {
		t.Errorf("org 9 starts at %d", d.Usage(FamilyConversations))
	}
	if _, err := d.GetConversation(bg(), 1); err != nil {
		t.Fatal(err)
	}
	if _, err := d.OperatorSlots(bg(), 1); err != nil {
		t.Fatal(err)
	}
	if d.Usage(FamilyConversations) != 1 || c.Counters().Get(9, FamilyConversations) != 1 || c.Usage(FamilyConversations) != 7 ||
		c.Counters().Get(9, FamilyOperators) != 1 || c.Usage(FamilyOperators) != 6 {
		t.Errorf("after org 9 calls: org 9 conversations %d operators %d, org 7 conversations %d operators %d",
			d.Usage(FamilyConversations), d.Usage(FamilyOperators), c.Usage(FamilyConversations), c.Usage(FamilyOperators))
	}
	// Requests refused before sending count nothing.
	_, _ = d.ListConversations(bg(), ConversationListOptions{ListOptions: ListOptions{Ordering: "bogus"}})
	_ = d.DeleteContacts(bg(), nil)
	if d.Usage(FamilyConversations) != 1 || d.Usage(FamilyContacts) != 0 {
		t.Error("a refused request was counted")
	}
}

func TestCountersRollOverAtUTCMidnight(t *testing.T) {
	clock := newFakeClock(time.Date(2024, 3, 1, 23, 59, 58, 0, time.UTC))
	rec := newRecorder(t, genericAPI)
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.Now = clock.Now })
	for range 2 {
		if _, err := c.GetContact(bg(), 1); err != nil {
			t.Fatal(err)
		}
	}
	if c.Usage(FamilyContacts) != 2 {
		t.Fatalf("usage %d, want 2", c.Usage(FamilyContacts))
	}
	// 08:59:59 in Tokyo on March 2 is still March 1 in UTC: no rollover.
	clock.Set(time.Date(2024, 3, 2, 8, 59, 59, 0, tokyo))
	if c.Usage(FamilyContacts) != 2 {
		t.Errorf("usage %d before UTC midnight, want 2", c.Usage(FamilyContacts))
	}
	clock.Set(time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC))
	if c.Usage(FamilyContacts) != 0 || len(c.Counters().Snapshot()) != 0 {
		t.Errorf("after midnight: usage %d, snapshot %v", c.Usage(FamilyContacts), c.Counters().Snapshot())
	}
	if _, err := c.GetContact(bg(), 1); err != nil {
		t.Fatal(err)
	}
	if c.Usage(FamilyContacts) != 1 {
		t.Errorf("usage %d on the new day, want 1", c.Usage(FamilyContacts))
	}
	// 23:00 in New York on March 2 is March 3 in UTC.
	clock.Set(time.Date(2024, 3, 2, 23, 0, 0, 0, time.FixedZone("EST", -5*3600)))
	if c.Usage(FamilyContacts) != 0 {
		t.Errorf("usage %d on the next UTC day", c.Usage(FamilyContacts))
	}
}

func TestFamilyOf(t *testing.T) {
	for path, want := range map[string]Family{
		"/api/um/v3/conversations/":                          FamilyConversations,
		"/prefix/api/um/v3/conversations/5/messages/":        FamilyConversations,
		"/api/um/v3/contact_identities/all/":                 FamilyContacts,
		"/a/b/api/um/v3/navigation/":                         FamilyNavigation,
		"/api/um/v3/operators/3/away/":                       FamilyOperators,
		"/api/um/v3/notes/1/":                                FamilyNotes,
		"/api/um/v1/analytics/um_conversation_duration/":     "analytics:um_conversation_duration",
		"/prefix/api/um/analytics/um_missed_opportunity/":    "analytics:um_missed_opportunity",
		"/api/um/v1/analytics/":                              FamilyOther,
		"/api/um/v3/":                                        FamilyOther,
		"/api/um/v3/webhooks/":                               FamilyOther,
		"/somewhere/else/":                                   FamilyOther,
		"/api/um/gateway/api/um/v3/notes/":                   FamilyNotes,
		"/api/um/api/um/v1/analytics/um_conversation_topic/": "analytics:um_conversation_topic",
	} {
		if got := familyOf(path); got != want {
			t.Errorf("familyOf(%q) = %q, want %q", path, got, want)
		}
	}
	f := familyOf("/api/um/v1/analytics/um_operator_status/")
	if !f.IsAnalytics() || f.Metric() != MetricOperatorStatus || FamilyContacts.IsAnalytics() || FamilyContacts.Metric() != "" {
		t.Errorf("analytics family helpers: %q %v %q", f, f.IsAnalytics(), f.Metric())
	}
}

// TestBasePathContainingAPIPrefix: a base URL whose own path contains /api/um/ still counts
// families right, and analytics requests still pass the limiter.
func TestBasePathContainingAPIPrefix(t *testing.T) {
	rec := newRecorder(t, genericAPI)
	c, _ := newTestClient(t, rec.srv.URL+"/api/um/", func(cfg *Config) { cfg.AnalyticsPerMinute = 3 })
	if _, err := c.Analytics(bg(), AnalyticsQuery{Metric: MetricContactCountry}); err != nil {
		t.Fatal(mustFail(t, err))
	}
	if got := rec.last(t).Path; got != "/api/um/api/um/v1/analytics/um_contact_country/" {
		t.Errorf("path %q", got)
	}
	if c.Usage("analytics:um_contact_country") != 1 || c.AnalyticsFree(MetricContactCountry) != 2 {
		t.Errorf("usage %d, free %d; want 1 and 2", c.Usage("analytics:um_contact_country"), c.AnalyticsFree(MetricContactCountry))
	}
	if _, err := c.GetNote(bg(), 1); err != nil {
		t.Fatal(err)
	}
	if c.Usage(FamilyNotes) != 1 {
		t.Errorf("notes usage %d", c.Usage(FamilyNotes))
	}
}

// TestCountersResolveTheAnsweringOrganization: requests without the organization header
// and requests naming the token's default organization count against one organization, as
// the API counts them, once the caller knows which organization answers.
func TestCountersResolveTheAnsweringOrganization(t *testing.T) {
	clock := newFakeClock(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))
	rec := newRecorder(t, genericAPI)
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.Now = clock.Now })
	named := c.WithContext(1001, 0)
	unknown := c.WithContext(1002, 0)
	list := func(c *Client, n int) {
		t.Helper()
		for range n {
			if _, err := c.ListConversations(bg(), ConversationListOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	list(c, 3)
	list(named, 2)
	list(unknown, 1)
	if c.Usage(FamilyConversations) != 3 || named.Usage(FamilyConversations) != 2 {
		t.Fatalf("before anything is known: default %d, 1001 %d; want 3 and 2",
			c.Usage(FamilyConversations), named.Usage(FamilyConversations))
	}
	cs := c.Counters()
	cs.Resolve(0, 1001)    // the default organization is 1001
	cs.Resolve(1002, 1001) // 1002 is not available: the API answered for 1001
	cs.Resolve(1003, 0)    // nothing known: ignored
	for name, cl := range map[string]*Client{"no header": c, "1001": named, "1002": unknown} {
		if got := cl.Usage(FamilyConversations); got != 6 {
			t.Errorf("%s: usage %d, want 6 (one organization)", name, got)
		}
	}
	list(c, 1)
	list(named, 1)
	if c.Usage(FamilyConversations) != 8 || named.Usage(FamilyConversations) != 8 {
		t.Errorf("after two more: %d and %d, want 8 for both", c.Usage(FamilyConversations), named.Usage(FamilyConversations))
	}
	if got, want := cs.Snapshot(), []CounterValue{{CounterKey{1001, FamilyConversations}, Tally{Answered: 8}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("snapshot %v, want %v", got, want)
	}
	if cs.Effective(0) != 1001 || cs.Effective(1002) != 1001 || cs.Effective(1003) != 1003 {
		t.Errorf("effective: %d %d %d", cs.Effective(0), cs.Effective(1002), cs.Effective(1003))
	}
	cs.Resolve(1001, 0) // no answer undoes a known one, and no cycle forms
	cs.Resolve(1001, 1002)
	if cs.Effective(0) != 1001 || c.Usage(FamilyConversations) != 8 {
		t.Errorf("after a contradicting word: effective %d, usage %d", cs.Effective(0), c.Usage(FamilyConversations))
	}
	// What is known about the token outlives the day.
	clock.Advance(24 * time.Hour)
	list(c, 1)
	if named.Usage(FamilyConversations) != 1 {
		t.Errorf("next day: 1001 usage %d, want 1", named.Usage(FamilyConversations))
	}
}

// TestCountersShareAStore: two clients (two parley processes) on one store count into the
// same counters; what one stored under "no organization header" before it learnt the
// answering organization counts for that organization once it knows.
func TestCountersShareAStore(t *testing.T) {
	clock := newFakeClock(time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC))
	rec := newRecorder(t, genericAPI)
	store := &memoryStore{}
	a, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.Now, cfg.Store = clock.Now, store })
	b, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.Now, cfg.Store, cfg.OrganizationID = clock.Now, store, 1001 })
	list := func(c *Client, n int) {
		t.Helper()
		for range n {
			if _, err := c.ListConversations(bg(), ConversationListOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	list(a, 2)
	list(b, 3)
	if a.Usage(FamilyConversations) != 2 || b.Usage(FamilyConversations) != 3 {
		t.Fatalf("before anything is known: %d and %d, want 2 and 3", a.Usage(FamilyConversations), b.Usage(FamilyConversations))
	}
	a.Counters().Resolve(0, 1001)
	list(a, 1) // stored under 1001 now
	if got := a.Usage(FamilyConversations); got != 6 {
		t.Errorf("a, knowing its organization: %d, want 6", got)
	}
	if got := b.Usage(FamilyConversations); got != 4 {
		t.Errorf("b: %d, want 4 (its 3 and a's request stored under 1001)", got)
	}
	if got, want := a.Counters().Snapshot(), []CounterValue{{CounterKey{1001, FamilyConversations}, Tally{Answered: 6}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("snapshot %v, want %v", got, want)
	}
	// An answer of yesterday that arrives after midnight does not bring yesterday back.
	clock.Advance(24 * time.Hour)
	list(b, 1)
	store.Add("2024-03-01", CounterKey{1001, FamilyConversations}, Tally{Answered: 1})
	if got := b.Tally(FamilyConversations); got != (Tally{Answered: 1}) {
		t.Errorf("next day: %+v", got)
	}
}
