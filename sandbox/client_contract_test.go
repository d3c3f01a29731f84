package sandbox_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
)

// The typed client against the sandbox: the two halves of the contract must agree.

func newClient(t *testing.T, r *sandbox.Running, token string, operator int64) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: r.URL, Token: token, OperatorID: operator, MaxRetries: -1,
		AnalyticsPerMinute: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func collect[T any](t *testing.T, seq func(yield func(T, error) bool)) []T {
	t.Helper()
	var out []T
	for it, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, it)
	}
	return out
}

// contractCase is a server the client runs against in the contract tests: the sandbox's own
// answers (docs/api-notes.md) or variants of what the spec leaves open, which another server
// meeting the spec may give. Every contract test runs against every case.
type contractCase struct {
	name     string
	variants []sandbox.Variant
}

func (cc contractCase) has(v sandbox.Variant) bool { return slices.Contains(cc.variants, v) }

// slotShape is the slot variant of the case ("" for the default shape).
func (cc contractCase) slotShape() sandbox.Variant {
	for _, v := range []sandbox.Variant{sandbox.VariantSlotsUsedMax, sandbox.VariantSlotsList} {
		if cc.has(v) {
			return v
		}
	}
	return ""
}

// contractCases are the default, each variant alone, and all variants together (with the
// slots-list shape of the slots).
func contractCases() []contractCase {
	cases := []contractCase{{name: "default"}}
	var combined []sandbox.Variant
	for _, v := range sandbox.Variants() {
		cases = append(cases, contractCase{name: string(v.Name), variants: []sandbox.Variant{v.Name}})
		if v.Name != sandbox.VariantSlotsUsedMax {
			combined = append(combined, v.Name)
		}
	}
	return append(cases, contractCase{name: "combined", variants: combined})
}

// eachCase runs test against every contract case, each in a parallel subtest.
func eachCase(t *testing.T, test func(t *testing.T, cc contractCase)) {
	t.Helper()
	for _, cc := range contractCases() {
		t.Run(cc.name, func(t *testing.T) {
			t.Parallel()
			test(t, cc)
		})
	}
}

// smallDB is the small data set seeded once per test binary: each contract server serves
// its own copy of it, instead of seeding the same data again.
var smallDB struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// smallCopy returns a copy of the seeded small data set in a temporary directory of t.
func smallCopy(t *testing.T) string {
	t.Helper()
	smallDB.once.Do(func() {
		if smallDB.dir, smallDB.err = os.MkdirTemp("", "parley-sandbox-small-"); smallDB.err != nil {
			return
		}
		smallDB.path = filepath.Join(smallDB.dir, "small.db")
		s, err := sandbox.Open(context.Background(), sandbox.Options{DBPath: smallDB.path, Size: sandbox.SizeSmall, Now: clock})
		if err != nil {
			smallDB.err = err
			return
		}
		smallDB.err = s.Close()
	})
	if smallDB.err != nil {
		t.Fatalf("seed the small data set: %v", smallDB.err)
	}
	b, err := os.ReadFile(smallDB.path)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "small.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// start serves a copy of the small data set with the case's variants and opts.
func (cc contractCase) start(t *testing.T, opts sandbox.Options) *sandbox.Running {
	t.Helper()
	opts.Variants = cc.variants
	opts.DBPath = smallCopy(t)
	r := start(t, opts)
	if !r.Server.Reused() {
		t.Fatal("the copy of the small data set was seeded again")
	}
	return r
}

// clientNotes walks every note of the client's organization.
func clientNotes(t *testing.T, c *client.Client) []client.Note {
	t.Helper()
	ctx := context.Background()
	p, err := c.ListNotes(ctx, client.NoteListOptions{ListOptions: client.ListOptions{Limit: client.MaxLimit}})
	if err != nil {
		t.Fatal(err)
	}
	var out []client.Note
	for {
		out = append(out, p.Results...)
		if p.Next == "" {
			return out
		}
		if p, err = client.FetchPage[client.Note](ctx, c, p.Next); err != nil {
			t.Fatal(err)
		}
	}
}

// clientPlainContacts is plainContacts through the client: contacts with a plain ASCII name,
// at least one conversation and no note, at least n of them.
func clientPlainContacts(t *testing.T, c *client.Client, n int) []client.Contact {
	t.Helper()
	hasNote := map[int64]bool{}
	for _, nt := range clientNotes(t, c) {
		hasNote[nt.ContactIdentityID] = true
	}
	var out []client.Contact
	for _, ct := range collect[client.Contact](t, c.ContactsAll(context.Background(), client.AllContactsOptions{CursorOptions: client.CursorOptions{Limit: 100}})) {
		if hasNote[ct.ID] || ct.Name == nil || !isASCII(*ct.Name) || ct.ConversationCount == nil || *ct.ConversationCount == 0 {
			continue
		}
		out = append(out, ct)
	}
	if len(out) < n {
		t.Fatalf("only %d plain contacts", len(out))
	}
	return out
}

func TestClientPagingWalks(t *testing.T) { eachCase(t, testClientPagingWalks) }

func testClientPagingWalks(t *testing.T, cc contractCase) {
	r := cc.start(t, sandbox.Options{PathPrefix: "/proxy/x"})
	info := r.Server.Info()
	c := newClient(t, r, info.CustomerToken, 0)
	ctx := context.Background()

	all := collect[client.Conversation](t, c.ConversationsAll(ctx, client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: 17}}))
	first, err := c.ConversationsAllPage(ctx, client.AllConversationsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if first.Count == nil || *first.Count != len(all) {
		t.Fatalf("/all/ walk found %d, count %v", len(all), first.Count)
	}
	// The offset walk through Next links (which carry the prefix) finds the same set.
	page, err := c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 9}})
	if err != nil {
		t.Fatal(err)
	}
	var walked []int64
	for {
		for _, cv := range page.Results {
			walked = append(walked, cv.ID)
		}
		if page.Next == "" {
			break
		}
		if !strings.Contains(page.Next, "/proxy/x/api/um/v3/") {
			t.Fatalf("next link without the prefix: %s", page.Next)
		}
		page, err = client.FetchPage[client.Conversation](ctx, c, page.Next)
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(walked) != page.Count || len(walked) != len(all) {
		t.Fatalf("offset walk %d, count %d, /all/ %d", len(walked), page.Count, len(all))
	}
	contacts := collect[client.Contact](t, c.ContactsAll(ctx, client.AllContactsOptions{CursorOptions: client.CursorOptions{Limit: 100}}))
	cp, err := c.ListContacts(ctx, client.ContactListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cp.Count != len(contacts) {
		t.Fatalf("contacts: walked %d, count %d", len(contacts), cp.Count)
	}
	// Messages of the long conversation, newest first, to the oldest.
	msgs := collect[client.Message](t, c.Messages(ctx, info.LongConversationID, client.MessageOptions{}))
	if len(msgs) < 1500 || !strings.HasPrefix(msgs[len(msgs)-1].Body, "Start of the long thread") {
		t.Fatalf("%d messages, oldest %q", len(msgs), msgs[len(msgs)-1].Body)
	}
	for i := 1; i < len(msgs); i++ {
		if msgs[i].SentAt.After(msgs[i-1].SentAt.Time) {
			t.Fatalf("messages not newest first at %d", i)
		}
	}
	// Going back with previous from the second page gives the first page again.
	p1, err := c.MessagesPage(ctx, info.LongConversationID, client.MessageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p2, err := client.FetchCursorPage[client.Message](ctx, c, p1.Next)
	if err != nil {
		t.Fatal(err)
	}
	back, err := client.FetchCursorPage[client.Message](ctx, c, p2.Previous)
	if err != nil {
		t.Fatal(err)
	}
	if back.Results[0].ID != p1.Results[0].ID || back.Previous != "" {
		t.Fatal("previous page differs from the first page")
	}
	// Operators, notes and navigation decode, as envelopes or bare arrays; their walks
	// find as many as the first page counts.
	ops := collect[client.Operator](t, c.Operators(ctx))
	op1, err := c.ListOperators(ctx, client.ListOptions{Limit: client.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) == 0 || len(ops) != op1.Count {
		t.Fatalf("%d operators walked, count %d", len(ops), op1.Count)
	}
	notes := clientNotes(t, c)
	np, err := c.ListNotes(ctx, client.NoteListOptions{ListOptions: client.ListOptions{Ordering: "-created_at"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) == 0 || np.Count != len(notes) {
		t.Fatalf("%d notes walked, count %d", len(notes), np.Count)
	}
	nav, err := c.ListNavigation(ctx, client.NavigationListOptions{ListOptions: client.ListOptions{Limit: client.MaxLimit}})
	if err != nil {
		t.Fatal(err)
	}
	if len(nav.Results) == 0 || nav.Count < len(nav.Results) {
		t.Fatalf("navigation: %d events, count %d", len(nav.Results), nav.Count)
	}
}

func TestClientFiltersAndOrderings(t *testing.T) { eachCase(t, testClientFiltersAndOrderings) }

func testClientFiltersAndOrderings(t *testing.T, cc contractCase) {
	r := cc.start(t, sandbox.Options{})
	info := r.Server.Info()
	c := newClient(t, r, info.CustomerToken, 0)
	ctx := context.Background()
	all := collect[client.Conversation](t, c.ConversationsAll(ctx, client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: 100}}))
	mid := all[len(all)/2]
	bound := mid.LastMessageSentAt.Time
	cases := []struct {
		name string
		f    client.ConversationFilter
		keep func(client.Conversation) bool
	}{
		{"status", client.ConversationFilter{Status: client.StatusPending}, func(x client.Conversation) bool { return x.Status == client.StatusPending }},
		{"contact", client.ConversationFilter{ContactIdentityID: mid.Contact.ID}, func(x client.Conversation) bool { return x.Contact.ID == mid.Contact.ID }},
		{"uuid", client.ConversationFilter{ContactUUID: mid.ConversationContactUUID}, func(x client.Conversation) bool {
			return x.ConversationContactUUID == mid.ConversationContactUUID
		}},
		{"id range", client.ConversationFilter{IDGreaterThan: all[3].ID, IDLessThan: mid.ID}, func(x client.Conversation) bool {
			return x.ID > all[3].ID && x.ID < mid.ID
		}},
		{"last activity from", client.ConversationFilter{LastActivityFromDate: bound}, func(x client.Conversation) bool {
			return !x.LastMessageSentAt.Before(bound)
		}},
		{"last activity to", client.ConversationFilter{LastActivityToDate: bound}, func(x client.Conversation) bool {
			return !x.LastMessageSentAt.After(bound)
		}},
		{"updated from", client.ConversationFilter{UpdatedAtFromDate: bound}, func(x client.Conversation) bool {
			return !x.UpdatedAt.Before(bound)
		}},
	}
	for _, tc := range cases {
		got := collect[client.Conversation](t, c.ConversationsAll(ctx, client.AllConversationsOptions{Filter: tc.f, CursorOptions: client.CursorOptions{Limit: 100}}))
		var want []int64
		for _, x := range all {
			if tc.keep(x) {
				want = append(want, x.ID)
			}
		}
		sameIDs(t, "client filter "+tc.name, ids(got, func(x client.Conversation) int64 { return x.ID }), want)
		p, err := c.ListConversations(ctx, client.ConversationListOptions{Filter: tc.f})
		if err != nil {
			t.Fatal(err)
		}
		if p.Count != len(want) {
			t.Fatalf("%s: list count %d, want %d", tc.name, p.Count, len(want))
		}
	}
	verified := true
	vs := collect[client.Contact](t, c.ContactsAll(ctx, client.AllContactsOptions{Filter: client.ContactFilter{Verified: &verified}}))
	for _, x := range vs {
		if !x.Verified {
			t.Fatalf("contact %d is not verified", x.ID)
		}
	}
	// Every ordering the client allows is accepted and applied.
	for _, o := range client.ConversationOrderings {
		p, err := c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 100, Ordering: o}})
		if err != nil {
			t.Fatalf("ordering %s: %v", o, err)
		}
		key := func(x client.Conversation) time.Time {
			switch strings.TrimPrefix(o, "-") {
			case "last_message_sent_at":
				return x.LastMessageSentAt.Time
			case "contact_last_update_at":
				return x.ContactLastUpdateAt.Time
			case "contact_first_message_sent_at":
				if x.ContactFirstMessageSentAt != nil {
					return x.ContactFirstMessageSentAt.Time
				}
			case "contact_last_message_sent_at":
				if x.ContactLastMessageSentAt != nil {
					return x.ContactLastMessageSentAt.Time
				}
			case "id":
				return time.Unix(x.ID, 0)
			}
			return time.Time{}
		}
		desc := strings.HasPrefix(o, "-")
		if !sort.SliceIsSorted(p.Results, func(i, j int) bool {
			if desc {
				return key(p.Results[i]).After(key(p.Results[j]))
			}
			return key(p.Results[i]).Before(key(p.Results[j]))
		}) {
			t.Fatalf("ordering %s not applied", o)
		}
	}
	for _, o := range client.ContactOrderings {
		if _, err := c.ListContacts(ctx, client.ContactListOptions{ListOptions: client.ListOptions{Ordering: o}}); err != nil {
			t.Fatalf("contact ordering %s: %v", o, err)
		}
	}
	for _, o := range client.OperatorOrderings {
		if _, err := c.ListOperators(ctx, client.ListOptions{Ordering: o}); err != nil {
			t.Fatalf("operator ordering %s: %v", o, err)
		}
	}
	for _, o := range client.NoteOrderings {
		if _, err := c.ListNotes(ctx, client.NoteListOptions{ListOptions: client.ListOptions{Ordering: o}}); err != nil {
			t.Fatalf("note ordering %s: %v", o, err)
		}
	}
	if _, err := c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Ordering: "name"}}); !errors.Is(err, client.ErrInvalidOrdering) {
		t.Fatalf("client-side ordering check: %v", err)
	}
}

func TestClientSearchRanking(t *testing.T) { eachCase(t, testClientSearchRanking) }

func testClientSearchRanking(t *testing.T, cc contractCase) {
	r := cc.start(t, sandbox.Options{})
	info := r.Server.Info()
	c := newClient(t, r, info.CustomerToken, 0)
	ctx := context.Background()
	cs := clientPlainContacts(t, c, 2)
	name := "Okapi Lindqvist"
	if _, err := c.UpdateContact(ctx, cs[0].ID, client.ContactUpdate{Name: &name}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateNote(ctx, client.NewNote{ContactIdentityID: cs[1].ID, Body: "Asked about an okapi plush toy."}); err != nil {
		t.Fatal(err)
	}
	p, err := c.SearchContacts(ctx, "okapi", 10)
	if err != nil {
		t.Fatal(err)
	}
	if p.Count != 2 || p.Results[0].ID != cs[0].ID || p.Results[1].ID != cs[1].ID {
		t.Fatalf("okapi: %d results, want name match %d before note match %d", p.Count, cs[0].ID, cs[1].ID)
	}
	convs, err := c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Search: "okap"}})
	if err != nil {
		t.Fatal(err)
	}
	if convs.Count != *cs[0].ConversationCount {
		t.Fatalf("conversation search: %d, contact has %d conversations", convs.Count, *cs[0].ConversationCount)
	}
	// Upsert by email through the client.
	email := "okapi.fan@example.org"
	ct, created, err := c.UpsertContact(ctx, client.IdentifierEmail, client.ContactUpdate{Email: &email, Name: &name})
	if err != nil || !created {
		t.Fatalf("upsert create: %v created=%v", err, created)
	}
	city := "Kinshasa"
	ct2, created, err := c.UpsertContact(ctx, client.IdentifierEmail, client.ContactUpdate{Email: &email, City: &city})
	if err != nil || created || ct2.ID != ct.ID || client.Str(ct2.City) != city {
		t.Fatalf("upsert update: %v created=%v", err, created)
	}
	// Topics and away through the client.
	conv, err := c.SetConversationTopics(ctx, convs.Results[0].ID, []string{"Okapi questions"})
	if err != nil || len(conv.Topics) != 1 || conv.Topics[0].Text != "Okapi questions" {
		t.Fatalf("topics: %v %+v", err, conv)
	}
	away, err := c.SetOperatorAway(ctx, info.OwnerOperatorID, true)
	if err != nil || away.IsAway != client.Some(true) {
		t.Fatalf("away: %v %+v", err, away)
	}
	op, err := c.GetOperator(ctx, info.OwnerOperatorID)
	if err != nil || op.IsAway != client.Some(true) {
		t.Fatalf("operator after away: %v %+v", err, op)
	}
}

func TestClientErrorHelpers(t *testing.T) { eachCase(t, testClientErrorHelpers) }

func testClientErrorHelpers(t *testing.T, cc contractCase) {
	r := cc.start(t, sandbox.Options{DailyLimit: 30})
	info := r.Server.Info()
	ctx := context.Background()
	c := newClient(t, r, info.CustomerToken, 0)

	_, err := c.GetConversation(ctx, 1)
	if !client.IsNotFound(err) || client.Detail(err) != "Not found." {
		t.Fatalf("not found: %v", err)
	}
	bad := newClient(t, r, "wrong", 0)
	if _, err := bad.ListOperators(ctx, client.ListOptions{}); !client.IsAuth(err) {
		t.Fatalf("auth: %v", err)
	}
	agent := newClient(t, r, info.CustomerToken, info.RestrictedOperatorID)
	all := collect[client.Conversation](t, c.ConversationsAll(ctx, client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: 100}}))
	var ended int64
	for _, x := range all {
		if !x.Ongoing() {
			ended = x.ID
		}
	}
	err = agent.DeleteConversation(ctx, ended)
	if !client.IsPermission(err) || !strings.Contains(client.Detail(err), "permission") {
		t.Fatalf("permission: %v", err)
	}
	if err := c.DeleteConversations(ctx, []int64{ended}); err != nil {
		t.Fatalf("owner delete: %v", err)
	}
	if _, err := c.GetConversation(ctx, ended); !client.IsNotFound(err) {
		t.Fatalf("deleted conversation: %v", err)
	}
	badEmail := "no-at-sign"
	_, err = c.UpdateContact(ctx, all[0].Contact.ID, client.ContactUpdate{Email: &badEmail})
	// The field and the message, from {"detail": …} or from {"email": […]}.
	if d := client.Detail(err); !client.IsValidation(err) || !strings.Contains(d, "email") || !strings.Contains(d, "is not a valid email address") {
		t.Fatalf("validation: %v", err)
	}
	// The daily limit: the operators family runs out, the error carries Retry-After.
	var last error
	for i := 0; i < 40 && last == nil; i++ {
		_, last = c.GetOperator(ctx, info.OwnerOperatorID)
	}
	var apiErr *client.Error
	if !client.IsRateLimited(last) || !errors.As(last, &apiErr) || apiErr.RetryAfter < time.Second {
		t.Fatalf("rate limited: %v", last)
	}
}

func TestClientAnalyticsWindows(t *testing.T) { eachCase(t, testClientAnalyticsWindows) }

func testClientAnalyticsWindows(t *testing.T, cc contractCase) {
	r := cc.start(t, sandbox.Options{AnalyticsPerMinute: 1 << 30})
	c := newClient(t, r, r.Server.Info().CustomerToken, 0)
	ctx := context.Background()
	q := client.AnalyticsQuery{
		Metric: client.MetricOperatorSlotUsage,
		From:   fixedNow.AddDate(0, 0, -119),
		To:     fixedNow,
	}
	if q.Requests() != 2 {
		t.Fatalf("a 120-day range takes %d requests", q.Requests())
	}
	pts, err := c.Analytics(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	days := map[string]bool{}
	for _, p := range pts {
		days[p.Time.UTC().Format("2006-01-02")] = true
	}
	if len(days) < 110 {
		t.Fatalf("slot usage covers %d of 120 days", len(days))
	}
	if !slices.IsSortedFunc(pts, func(x, y client.DataPoint) int { return x.Time.Compare(y.Time.Time) }) {
		t.Fatal("points not in time order")
	}
	bots, err := c.Analytics(ctx, client.AnalyticsQuery{Metric: client.MetricOperatorResponseTime, From: fixedNow.AddDate(0, 0, -6), To: fixedNow, OperatorMode: client.OperatorModeBot})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range bots {
		if !p.IsChatbotMetric {
			t.Fatal("bot mode returned a human point")
		}
	}
	missed, err := c.Analytics(ctx, client.AnalyticsQuery{Metric: client.MetricMissedOpportunity, From: fixedNow.AddDate(0, 0, -30), To: fixedNow})
	if err != nil || len(missed) == 0 {
		t.Fatalf("missed opportunities: %v (%d)", err, len(missed))
	}
}

// The list DELETE rules through the client: default 10 of the filtered set, at most 100,
// search order, ongoing conversations never, delete_ids over everything else.
func TestClientBulkDeleteRules(t *testing.T) { eachCase(t, testClientBulkDeleteRules) }

func testClientBulkDeleteRules(t *testing.T, cc contractCase) {
	r := cc.start(t, sandbox.Options{})
	info := r.Server.Info()
	c := newClient(t, r, info.CustomerToken, 0)
	ctx := context.Background()
	countOf := func(f client.ConversationFilter) int {
		t.Helper()
		p, err := c.ListConversations(ctx, client.ConversationListOptions{Filter: f, ListOptions: client.ListOptions{Limit: 1}})
		if err != nil {
			t.Fatal(err)
		}
		return p.Count
	}
	ended := client.ConversationFilter{Status: client.StatusEnded}
	ongoing := countOf(client.ConversationFilter{Status: client.StatusNew}) + countOf(client.ConversationFilter{Status: client.StatusPending})
	before := countOf(ended)
	if before < 30 || ongoing == 0 {
		t.Fatalf("%d ended and %d ongoing conversations", before, ongoing)
	}

	// Search order: the two best-ranked ended matches go first.
	ranked, err := c.ListConversations(ctx, client.ConversationListOptions{Filter: ended, ListOptions: client.ListOptions{Limit: 100, Search: "order"}})
	if err != nil || len(ranked.Results) < 3 {
		t.Fatalf("search: %v (%d)", err, len(ranked.Results))
	}
	if err := c.BulkDeleteConversations(ctx, client.BulkDelete[client.ConversationFilter]{Filter: ended, Search: "order", Limit: 2}); err != nil {
		t.Fatal(err)
	}
	for i, cv := range ranked.Results[:3] {
		_, err := c.GetConversation(ctx, cv.ID)
		if gone := client.IsNotFound(err); gone != (i < 2) {
			t.Fatalf("search delete: rank %d (%d) gone=%v (%v)", i, cv.ID, gone, err)
		}
	}
	before -= 2

	// Default 10 of the filtered set.
	if err := c.BulkDeleteConversations(ctx, client.BulkDelete[client.ConversationFilter]{Filter: ended}); err != nil {
		t.Fatal(err)
	}
	if n := countOf(ended); n != before-10 {
		t.Fatalf("default list DELETE: %d ended left of %d, want 10 fewer", n, before)
	}
	before -= 10

	// Ongoing conversations are never deleted, whatever selects them.
	all := collect[client.Conversation](t, c.ConversationsAll(ctx, client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: 100}}))
	var ongoingIDs, endedIDs []int64
	for _, x := range all {
		if x.Ongoing() {
			ongoingIDs = append(ongoingIDs, x.ID)
		} else {
			endedIDs = append(endedIDs, x.ID)
		}
	}
	for _, st := range []string{client.StatusNew, client.StatusPending} {
		if err := c.BulkDeleteConversations(ctx, client.BulkDelete[client.ConversationFilter]{Filter: client.ConversationFilter{Status: st}, Limit: 100}); err != nil {
			t.Fatal(err)
		}
	}
	// delete_ids wins over filters, search and limit; its ongoing ids stay too.
	pick := append(append([]int64{}, ongoingIDs[:2]...), endedIDs[:3]...)
	if err := c.BulkDeleteConversations(ctx, client.BulkDelete[client.ConversationFilter]{DeleteIDs: pick,
		Filter: client.ConversationFilter{IDGreaterThan: 1 << 40}, Search: "nothingmatchesthis", Limit: 1}); err != nil {
		t.Fatal(err)
	}
	for _, id := range pick {
		_, err := c.GetConversation(ctx, id)
		if gone := client.IsNotFound(err); gone != slices.Contains(endedIDs, id) {
			t.Fatalf("delete_ids: conversation %d gone=%v (%v)", id, gone, err)
		}
	}
	before -= 3
	if n := countOf(client.ConversationFilter{Status: client.StatusNew}) + countOf(client.ConversationFilter{Status: client.StatusPending}); n != ongoing {
		t.Fatalf("ongoing conversations: %d, want %d", n, ongoing)
	}

	// At most 100.
	if err := c.BulkDeleteConversations(ctx, client.BulkDelete[client.ConversationFilter]{Filter: ended, Limit: 100}); err != nil {
		t.Fatal(err)
	}
	if n := countOf(ended); n != max(0, before-100) {
		t.Fatalf("limit 100: %d ended left of %d", n, before)
	}

	// Contacts: default 10 of the filtered set.
	unverified := false
	cf := client.ContactFilter{Verified: &unverified}
	cp, err := c.ListContacts(ctx, client.ContactListOptions{Filter: cf})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.BulkDeleteContacts(ctx, client.BulkDelete[client.ContactFilter]{Filter: cf}); err != nil {
		t.Fatal(err)
	}
	cp2, err := c.ListContacts(ctx, client.ContactListOptions{Filter: cf})
	if err != nil || cp2.Count != cp.Count-min(10, cp.Count) {
		t.Fatalf("contacts: %d unverified left of %d (%v)", cp2.Count, cp.Count, err)
	}
}

// Search ranking through the client: the contact's city (A) above a conversation whose
// messages repeat the word (C), the hostile conversation's 10,000-character line.
func TestClientSearchFieldOutranksOccurrences(t *testing.T) {
	eachCase(t, testClientSearchFieldOutranksOccurrences)
}

func testClientSearchFieldOutranksOccurrences(t *testing.T, cc contractCase) {
	r := cc.start(t, sandbox.Options{})
	info := r.Server.Info()
	c := newClient(t, r, info.CustomerToken, 0)
	ctx := context.Background()
	hits, err := c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 100, Search: "dull"}})
	if err != nil || hits.Count == 0 || hits.Results[0].ID != info.HostileConversationID {
		t.Fatalf("dull: %v %+v", err, hits)
	}
	hit := map[int64]bool{}
	for _, x := range hits.Results {
		hit[x.ID] = true
	}
	all := collect[client.Conversation](t, c.ConversationsAll(ctx, client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: 100}}))
	var x client.Conversation
	for _, cv := range all {
		if !hit[cv.ID] && cv.Contact.ID != hits.Results[0].Contact.ID {
			x = cv
			break
		}
	}
	city := "Dull"
	if _, err := c.UpdateContact(ctx, x.Contact.ID, client.ContactUpdate{City: &city}); err != nil {
		t.Fatal(err)
	}
	got, err := c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: 100, Search: "dull"}})
	if err != nil {
		t.Fatal(err)
	}
	mine, err := c.ListConversations(ctx, client.ConversationListOptions{Filter: client.ConversationFilter{ContactIdentityID: x.Contact.ID}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Count != hits.Count+mine.Count {
		t.Fatalf("dull: count %d, want %d + %d", got.Count, hits.Count, mine.Count)
	}
	for i := 0; i < mine.Count; i++ {
		if hit[got.Results[i].ID] {
			t.Fatalf("dull: rank %d is the message-only match %d, above the city match of contact %d", i, got.Results[i].ID, x.Contact.ID)
		}
	}
}

func TestClientExcludeIDsOnCursorEndpoints(t *testing.T) {
	eachCase(t, testClientExcludeIDsOnCursorEndpoints)
}

func testClientExcludeIDsOnCursorEndpoints(t *testing.T, cc contractCase) {
	r := cc.start(t, sandbox.Options{})
	info := r.Server.Info()
	c := newClient(t, r, info.CustomerToken, 0)
	ctx := context.Background()

	first, err := c.ConversationsAllPage(ctx, client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: 3}})
	if err != nil {
		t.Fatal(err)
	}
	skip := []int64{first.Results[0].ID, first.Results[2].ID}
	less, err := c.ConversationsAllPage(ctx, client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: 3}, ExcludeIDs: skip})
	if err != nil {
		t.Fatal(err)
	}
	if *less.Count != *first.Count-2 || less.Results[0].ID != first.Results[1].ID {
		t.Fatalf("conversations/all without %v: count %d (was %d), first %d", skip, *less.Count, *first.Count, less.Results[0].ID)
	}

	contacts, err := c.ContactsAllPage(ctx, client.AllContactsOptions{CursorOptions: client.CursorOptions{Limit: 2}})
	if err != nil {
		t.Fatal(err)
	}
	fewer, err := c.ContactsAllPage(ctx, client.AllContactsOptions{CursorOptions: client.CursorOptions{Limit: 2}, ExcludeIDs: []int64{contacts.Results[0].ID}})
	if err != nil {
		t.Fatal(err)
	}
	if *fewer.Count != *contacts.Count-1 || fewer.Results[0].ID != contacts.Results[1].ID {
		t.Fatalf("contact_identities/all without %d: count %d (was %d), first %d", contacts.Results[0].ID, *fewer.Count, *contacts.Count, fewer.Results[0].ID)
	}

	newest, err := c.MessagesPage(ctx, info.LongConversationID, client.MessageOptions{CursorOptions: client.CursorOptions{Limit: 3}})
	if err != nil {
		t.Fatal(err)
	}
	without, err := c.MessagesPage(ctx, info.LongConversationID, client.MessageOptions{
		CursorOptions: client.CursorOptions{Limit: 3}, ExcludeIDs: []string{newest.Results[0].ID},
	})
	if err != nil {
		t.Fatal(err)
	}
	if without.Results[0].ID != newest.Results[1].ID || without.Results[1].ID != newest.Results[2].ID {
		t.Fatalf("messages without %s: %s, %s", newest.Results[0].ID, without.Results[0].ID, without.Results[1].ID)
	}
}

// The client at the offset cap (lowered to 20 here; the real one on the large data set is
// TestClientLargeOffsetCap): conversations and contacts, with and without a filter or a
// search, walked by next links from the first page, end at the cap with every page full;
// count is the number of matches, or the cap under capped-count; /all/ counts every match.
func TestClientOffsetCap(t *testing.T) { eachCase(t, testClientOffsetCap) }

func testClientOffsetCap(t *testing.T, cc contractCase) {
	const offsetCap = 20
	r := cc.start(t, sandbox.Options{OffsetCap: offsetCap})
	c := newClient(t, r, r.Server.Info().CustomerToken, 0)
	ctx := context.Background()
	verified := true
	// walk follows next links from a first page and returns the ids and the first count.
	walk := func(first func() (*client.Page[int64], error), next func(string) (*client.Page[int64], error)) ([]int64, int) {
		t.Helper()
		p, err := first()
		if err != nil {
			t.Fatal(err)
		}
		count := p.Count
		var got []int64
		for {
			if len(p.Results) == 0 {
				t.Fatalf("a page without results after %d (count %d)", len(got), count)
			}
			got = append(got, p.Results...)
			if p.Next == "" {
				return got, count
			}
			if p, err = next(p.Next); err != nil {
				t.Fatal(err)
			}
		}
	}
	convIDs := func(p *client.Page[client.Conversation], err error) (*client.Page[int64], error) {
		if err != nil {
			return nil, err
		}
		return &client.Page[int64]{Count: p.Count, Next: p.Next, Results: ids(p.Results, func(x client.Conversation) int64 { return x.ID })}, nil
	}
	contactIDs := func(p *client.Page[client.Contact], err error) (*client.Page[int64], error) {
		if err != nil {
			return nil, err
		}
		return &client.Page[int64]{Count: p.Count, Next: p.Next, Results: ids(p.Results, func(x client.Contact) int64 { return x.ID })}, nil
	}
	nextConv := func(link string) (*client.Page[int64], error) {
		return convIDs(client.FetchPage[client.Conversation](ctx, c, link))
	}
	nextContact := func(link string) (*client.Page[int64], error) {
		return contactIDs(client.FetchPage[client.Contact](ctx, c, link))
	}
	ended := client.ConversationFilter{Status: client.StatusEnded}
	verifiedOnly := client.ContactFilter{Verified: &verified}
	convAll, err := c.ConversationsAllPage(ctx, client.AllConversationsOptions{})
	convs := allCount(t, convAll, err)
	endedAll, err := c.ConversationsAllPage(ctx, client.AllConversationsOptions{Filter: ended})
	endedConvs := allCount(t, endedAll, err)
	contactAll, err := c.ContactsAllPage(ctx, client.AllContactsOptions{})
	contacts := allCount(t, contactAll, err)
	verifiedAll, err := c.ContactsAllPage(ctx, client.AllContactsOptions{Filter: verifiedOnly})
	verifiedContacts := allCount(t, verifiedAll, err)
	for _, tc := range []struct {
		name  string
		total int // matches by /all/; 0 for a search (no /all/ search)
		first func(limit int) (*client.Page[int64], error)
		next  func(string) (*client.Page[int64], error)
	}{
		{"conversations", convs, func(limit int) (*client.Page[int64], error) {
			return convIDs(c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: limit}}))
		}, nextConv},
		{"ended conversations", endedConvs, func(limit int) (*client.Page[int64], error) {
			return convIDs(c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: limit}, Filter: ended}))
		}, nextConv},
		{"conversation search", 0, func(limit int) (*client.Page[int64], error) {
			return convIDs(c.ListConversations(ctx, client.ConversationListOptions{ListOptions: client.ListOptions{Limit: limit, Search: "order"}}))
		}, nextConv},
		{"contacts", contacts, func(limit int) (*client.Page[int64], error) {
			return contactIDs(c.ListContacts(ctx, client.ContactListOptions{ListOptions: client.ListOptions{Limit: limit}}))
		}, nextContact},
		{"verified contacts", verifiedContacts, func(limit int) (*client.Page[int64], error) {
			return contactIDs(c.ListContacts(ctx, client.ContactListOptions{ListOptions: client.ListOptions{Limit: limit}, Filter: verifiedOnly}))
		}, nextContact},
		{"contact search", 0, func(limit int) (*client.Page[int64], error) {
			return contactIDs(c.ListContacts(ctx, client.ContactListOptions{ListOptions: client.ListOptions{Limit: limit, Search: "a e i o u"}}))
		}, nextContact},
	} {
		for _, limit := range []int{7, 10, offsetCap} {
			got, count := walk(func() (*client.Page[int64], error) { return tc.first(limit) }, tc.next)
			if len(got) != offsetCap {
				t.Fatalf("%s, limit %d: walked %d, want the cap of %d", tc.name, limit, len(got), offsetCap)
			}
			seen := map[int64]bool{}
			for _, id := range got {
				if seen[id] {
					t.Fatalf("%s, limit %d: id %d twice", tc.name, limit, id)
				}
				seen[id] = true
			}
			switch {
			case cc.has(sandbox.VariantCappedCount):
				if count != offsetCap {
					t.Fatalf("%s: count %d under capped-count, want the cap of %d", tc.name, count, offsetCap)
				}
			case tc.total > 0 && count != tc.total:
				t.Fatalf("%s: count %d, /all/ counts %d", tc.name, count, tc.total)
			case count <= offsetCap:
				t.Fatalf("%s: count %d, not above the cap of %d: the cap is not reached", tc.name, count, offsetCap)
			}
			if tc.total > 0 && tc.total <= offsetCap {
				t.Fatalf("%s: %d matches, not above the cap of %d", tc.name, tc.total, offsetCap)
			}
		}
	}
}

// allCount is the count of an /all/ page.
func allCount[T any](t *testing.T, p *client.CursorPage[T], err error) int {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if p.Count == nil {
		t.Fatal("an /all/ page without count")
	}
	return *p.Count
}

// Operators through the client: away and online as the server keeps them, and the slot use
// the server reports, in each shape.
func TestClientOperatorAwayAndSlots(t *testing.T) { eachCase(t, testClientOperatorAwayAndSlots) }

func testClientOperatorAwayAndSlots(t *testing.T, cc contractCase) {
	r := cc.start(t, sandbox.Options{})
	info := r.Server.Info()
	c := newClient(t, r, info.CustomerToken, 0)
	a := newAPI(t, r)
	ctx := context.Background()
	var online int64
	ops := collect[client.Operator](t, c.Operators(ctx))
	for _, op := range ops {
		if op.IsOnline == client.Some(true) && op.IsAway == client.Some(false) && op.IsBot == client.Some(false) {
			online = op.ID
			break
		}
	}
	if online == 0 {
		t.Fatal("no human operator is online and not away")
	}
	for _, away := range []bool{true, false} {
		st, err := c.SetOperatorAway(ctx, online, away)
		if err != nil {
			t.Fatal(err)
		}
		if st.OperatorID != online || st.IsAway != client.Some(away) {
			t.Fatalf("away=%v: the client read %+v", away, st)
		}
		// The answer states the online status only when the server sends the operator.
		if independent := cc.has(sandbox.VariantAwayIndependent); st.IsOnline.Known != independent ||
			(independent && (st.IsOnline != client.Some(true) || st.Operator == nil || st.Operator.ID != online)) {
			t.Fatalf("away=%v: the client read online %+v and operator %v from the answer", away, st.IsOnline, st.Operator)
		}
		op, err := c.GetOperator(ctx, online)
		if err != nil {
			t.Fatal(err)
		}
		// Away marks the operator offline (and back does not bring it online), unless the
		// server keeps the two apart.
		if wantOnline := cc.has(sandbox.VariantAwayIndependent); op.IsAway != client.Some(away) || op.IsOnline != client.Some(wantOnline) {
			t.Fatalf("away=%v: operator away=%v online=%v, want online=%v", away, op.IsAway, op.IsOnline, wantOnline)
		}
	}

	live := map[int64]int{} // new conversations per operator
	for cv := range slices.Values(collect[client.Conversation](t, c.ConversationsAll(ctx, client.AllConversationsOptions{
		CursorOptions: client.CursorOptions{Limit: client.MaxLimit}, Filter: client.ConversationFilter{Status: client.StatusNew}}))) {
		if cv.OperatorAssignedTo != nil {
			live[*cv.OperatorAssignedTo]++
		}
	}
	type slotUse struct{ used, total int }
	want := map[int64]slotUse{}
	busy := 0
	for _, op := range ops {
		used, total, _ := rawSlots(t, a, cc.slotShape(), op.ID)
		if used != min(live[op.ID], total) || total <= 0 {
			t.Fatalf("operator %d: %d of %d slots, %d new conversations", op.ID, used, total, live[op.ID])
		}
		if used > 0 {
			busy++
		}
		want[op.ID] = slotUse{used, total}
	}
	if busy == 0 {
		t.Fatal("no operator uses a slot")
	}
	t.Run("client reads the slots", func(t *testing.T) {
		for _, op := range ops {
			s, err := c.OperatorSlots(ctx, op.ID)
			if err != nil {
				t.Fatalf("operator %d: %v", op.ID, err)
			}
			// The total is the slots answer's, else the operator record's max_slots (the
			// slots-list shape keeps it there); both must be known, as the server gives both.
			used, total := s.CurrentSlots, s.Total(op.MaxSlots)
			if !used.Known || !total.Known {
				t.Fatalf("operator %d: the client read used %+v and total %+v, the server gives both", op.ID, used, total)
			}
			if got := (slotUse{used.V, total.V}); got != want[op.ID] {
				t.Fatalf("operator %d: the client read %d of %d slots, the server says %d of %d", op.ID, got.used, got.total, want[op.ID].used, want[op.ID].total)
			}
		}
	})
}
