package sandbox_test

import (
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"
)

// filterCase checks that a filtered walk returns exactly the items a predicate selects from
// the full set.
type filterCase[T any] struct {
	name  string
	query string
	keep  func(T) bool
}

func checkFilters[T any](t *testing.T, a *api, base string, all []T, id func(T) int64, cases []filterCase[T]) {
	t.Helper()
	for _, tc := range cases {
		var want []int64
		for _, it := range all {
			if tc.keep(it) {
				want = append(want, id(it))
			}
		}
		if len(want) == 0 || len(want) == len(all) {
			t.Errorf("%s: the filter case selects %d of %d items; pick a sharper value", tc.name, len(want), len(all))
			continue
		}
		// The offset list, the /all/ walk and their counts all agree.
		items, count, _ := walkOffset[T](a, base+"?limit=100&"+tc.query)
		sameIDs(t, tc.name+" (list)", ids(items, id), want)
		if count != len(want) {
			t.Errorf("%s: count %d, want %d", tc.name, count, len(want))
		}
		allItems, c, _ := walkCursor[T](a, base+"all/?limit=100&"+tc.query)
		sameIDs(t, tc.name+" (/all/)", ids(allItems, id), want)
		if *c != len(want) {
			t.Errorf("%s: /all/ count %d, want %d", tc.name, *c, len(want))
		}
	}
}

func median(t *testing.T, vals []string) string {
	t.Helper()
	sort.Strings(vals)
	if len(vals) == 0 {
		t.Fatal("no values")
	}
	return vals[len(vals)/2]
}

func tsVals[T any](items []T, f func(T) *string) []string {
	var out []string
	for _, it := range items {
		if v := f(it); v != nil {
			out = append(out, *v)
		}
	}
	return out
}

func ge(t *testing.T, v *string, bound string) bool {
	return v != nil && !parseTS(t, *v).Before(parseTS(t, bound))
}

func le(t *testing.T, v *string, bound string) bool {
	return v != nil && !parseTS(t, *v).After(parseTS(t, bound))
}

func TestConversationFilters(t *testing.T) {
	t.Parallel()
	a := shared(t)
	all := allConversations(a)
	if len(all) < 50 {
		t.Fatalf("only %d conversations", len(all))
	}
	// Pick values that split the set.
	byContact := map[int64]int{}
	byUUID := map[string]int{}
	byOp := map[int64]int{}
	byTopic := map[int64]int{}
	for _, c := range all {
		byContact[c.Contact.ID]++
		byUUID[c.ConversationContactUUID]++
		if c.OperatorAssignedTo != nil {
			byOp[*c.OperatorAssignedTo]++
		}
		for _, tp := range c.Topics {
			byTopic[tp.ID]++
		}
	}
	maxKey := func(m map[int64]int) int64 {
		var best int64
		for k, v := range m {
			if v > m[best] || (v == m[best] && k < best) {
				best = k
			}
		}
		return best
	}
	contactID, opID, topicID := maxKey(byContact), maxKey(byOp), maxKey(byTopic)
	var uuid string
	for u, n := range byUUID {
		if n > byUUID[uuid] || (n == byUUID[uuid] && u < uuid) {
			uuid = u
		}
	}
	mid := all[len(all)/2].ID
	firstMid := median(t, tsVals(all, func(c conversation) *string { return c.ContactFirstMessageSentAt }))
	lastMid := median(t, tsVals(all, func(c conversation) *string { return c.ContactLastMessageSentAt }))
	updMid := median(t, tsVals(all, func(c conversation) *string { return &c.UpdatedAt }))
	actMid := median(t, tsVals(all, func(c conversation) *string { return &c.LastMessageSentAt }))
	day := parseTS(t, actMid).UTC().Format("2006-01-02")
	nextDay := parseTS(t, day+"T00:00:00Z").Add(24 * time.Hour)

	cases := []filterCase[conversation]{
		{"contact_uuid", q("contact_uuid", uuid), func(c conversation) bool { return c.ConversationContactUUID == uuid }},
		{"operator_id", q("operator_id", itoa(opID)), func(c conversation) bool { return c.OperatorAssignedTo != nil && *c.OperatorAssignedTo == opID }},
		{"status", q("status", "pending"), func(c conversation) bool { return c.Status == "pending" }},
		{"topics", q("topics", itoa(topicID)), func(c conversation) bool {
			for _, tp := range c.Topics {
				if tp.ID == topicID {
					return true
				}
			}
			return false
		}},
		{"contact_first_message_to_date", q("contact_first_message_to_date", firstMid), func(c conversation) bool { return le(t, c.ContactFirstMessageSentAt, firstMid) }},
		{"contact_first_message_from_date", q("contact_first_message_from_date", firstMid), func(c conversation) bool { return ge(t, c.ContactFirstMessageSentAt, firstMid) }},
		{"contact_last_message_to_date", q("contact_last_message_to_date", lastMid), func(c conversation) bool { return le(t, c.ContactLastMessageSentAt, lastMid) }},
		{"contact_last_message_from_date", q("contact_last_message_from_date", lastMid), func(c conversation) bool { return ge(t, c.ContactLastMessageSentAt, lastMid) }},
		{"updated_at_to_date", q("updated_at_to_date", updMid), func(c conversation) bool { return le(t, &c.UpdatedAt, updMid) }},
		{"updated_at_from_date", q("updated_at_from_date", updMid), func(c conversation) bool { return ge(t, &c.UpdatedAt, updMid) }},
		{"id__gt", q("id__gt", itoa(mid)), func(c conversation) bool { return c.ID > mid }},
		{"id__lt", q("id__lt", itoa(mid)), func(c conversation) bool { return c.ID < mid }},
		{"contact_identity_id", q("contact_identity_id", itoa(contactID)), func(c conversation) bool { return c.Contact.ID == contactID }},
		{"last_activity_to_date", q("last_activity_to_date", actMid), func(c conversation) bool { return le(t, &c.LastMessageSentAt, actMid) }},
		{"last_activity_from_date", q("last_activity_from_date", actMid), func(c conversation) bool { return ge(t, &c.LastMessageSentAt, actMid) }},
		{"last_activity_to_date (date only: whole day)", q("last_activity_to_date", day), func(c conversation) bool {
			return parseTS(t, c.LastMessageSentAt).Before(nextDay)
		}},
		{"combined with AND", q("status", "ended", "operator_id", itoa(opID), "id__gt", itoa(mid)), func(c conversation) bool {
			return c.Status == "ended" && c.OperatorAssignedTo != nil && *c.OperatorAssignedTo == opID && c.ID > mid
		}},
		{"exclude_ids", q("exclude_ids", itoa(all[0].ID)+","+itoa(all[1].ID)), func(c conversation) bool {
			return c.ID != all[0].ID && c.ID != all[1].ID
		}},
	}
	checkFilters(t, a, "/api/um/v3/conversations/", all, convID, cases)

	// um_widget_id: conversations conducted at least partly via the widget.
	widget := all[0].UmWidget.ID
	var items []conversation
	items, count, _ := walkOffset[conversation](a, "/api/um/v3/conversations/?limit=100&um_widget_id="+itoa(widget))
	primary := 0
	for _, c := range all {
		if c.UmWidget.ID == widget {
			primary++
		}
	}
	if count != len(items) || count < primary {
		t.Fatalf("um_widget_id: %d items, count %d, %d conversations have it as their widget", len(items), count, primary)
	}
	var alias page[conversation]
	a.mustGet("/api/um/v3/conversations/?limit=1&chat_widget_id="+itoa(widget), &alias)
	if *alias.Count != count {
		t.Fatalf("chat_widget_id gives %d, um_widget_id %d", *alias.Count, count)
	}

	// Nothing matches: count 0 and no links.
	var none page[conversation]
	a.mustGet("/api/um/v3/conversations/?status=ended&status=&id__gt=999999999", &none)
	if *none.Count != 0 || none.Next != nil || none.Previous != nil || len(none.Results) != 0 {
		t.Fatalf("empty result: %+v", none)
	}
}

func TestTimestampFilterFormats(t *testing.T) {
	t.Parallel()
	a := shared(t)
	bound := "2026-11-20T08:00:00Z"
	var ref page[conversation]
	a.mustGet("/api/um/v3/conversations/?last_activity_from_date="+url.QueryEscape(bound), &ref)
	if *ref.Count == 0 {
		t.Fatal("no recent conversations")
	}
	for _, v := range []string{
		"2026-11-20T08:00:00",
		"2026-11-20T08:00:00.000000Z",
		"2026-11-20T08:00:00.000Z",
		"2026-11-20T10:00:00+02:00",
		"2026-11-20T03:00:00-05:00",
		"2026-11-20T08:00",
	} {
		var p page[conversation]
		a.mustGet("/api/um/v3/conversations/?last_activity_from_date="+url.QueryEscape(v), &p)
		if *p.Count != *ref.Count {
			t.Errorf("%s: count %d, want %d", v, *p.Count, *ref.Count)
		}
	}
	// A "+" zone sent unencoded arrives as a space and still works.
	var p page[conversation]
	a.mustGet("/api/um/v3/conversations/?last_activity_from_date=2026-11-20T10:00:00+02:00", &p)
	if *p.Count != *ref.Count {
		t.Errorf("unencoded +02:00: count %d, want %d", *p.Count, *ref.Count)
	}
	// A date alone is midnight UTC for a lower bound.
	var d page[conversation]
	a.mustGet("/api/um/v3/conversations/?last_activity_from_date=2026-11-20", &d)
	if *d.Count < *ref.Count {
		t.Errorf("date-only lower bound: %d < %d", *d.Count, *ref.Count)
	}
	for _, bad := range []string{"yesterday", "2026-13-01", "2026-11-20T25:00:00", "20261120"} {
		r := a.get("/api/um/v3/conversations/?updated_at_from_date=" + url.QueryEscape(bad))
		expectStatus(t, r, 400, "bad timestamp "+bad)
		r.detail(t)
	}
}

func TestContactFilters(t *testing.T) {
	t.Parallel()
	a := shared(t)
	all := allContacts(a)
	if len(all) < 20 {
		t.Fatalf("only %d contacts", len(all))
	}
	var withEmail, withName contact
	locales := map[string]int{}
	for _, c := range all {
		if c.Email != nil && withEmail.ID == 0 {
			withEmail = c
		}
		if c.Name != nil && c.ID != withEmail.ID && withName.ID == 0 && !strings.ContainsAny(*c.Name, "\x1b\u202e") {
			withName = c
		}
		locales[c.Locale]++
	}
	locale := ""
	for l, n := range locales {
		if n > locales[locale] || (n == locales[locale] && l < locale) {
			locale = l
		}
	}
	active := func(c contact, first bool) string {
		if first && c.FirstMessageSentAt != nil {
			return *c.FirstMessageSentAt
		}
		if !first && c.LastMessageSentAt != nil {
			return *c.LastMessageSentAt
		}
		return c.CreatedAt
	}
	var firsts, lasts []string
	for _, c := range all {
		firsts = append(firsts, active(c, true))
		lasts = append(lasts, active(c, false))
	}
	toBound, fromBound := median(t, firsts), median(t, lasts)
	upper := strings.ToUpper(*withEmail.Email)
	cases := []filterCase[contact]{
		{"id", q("id", itoa(all[3].ID)), func(c contact) bool { return c.ID == all[3].ID }},
		{"email (case-insensitive)", q("email", upper), func(c contact) bool {
			return c.Email != nil && strings.EqualFold(*c.Email, upper)
		}},
		{"name", q("name", *withName.Name), func(c contact) bool { return c.Name != nil && strings.EqualFold(*c.Name, *withName.Name) }},
		{"to_date_time", q("to_date_time", toBound), func(c contact) bool { s := active(c, true); return le(t, &s, toBound) }},
		{"from_date_time", q("from_date_time", fromBound), func(c contact) bool { s := active(c, false); return ge(t, &s, fromBound) }},
		{"verified=true", q("verified", "true"), func(c contact) bool { return c.Verified }},
		{"verified=false", q("verified", "false"), func(c contact) bool { return !c.Verified }},
		{"locale", q("locale", locale), func(c contact) bool { return c.Locale == locale }},
		{"combined with AND", q("verified", "true", "locale", locale), func(c contact) bool { return c.Verified && c.Locale == locale }},
	}
	checkFilters(t, a, "/api/um/v3/contact_identities/", all, contactID, cases)
	for _, c := range all {
		if c.Verified != (c.EmailVerified || c.MobileVerified) {
			t.Fatalf("contact %d: verified %v, email %v, mobile %v", c.ID, c.Verified, c.EmailVerified, c.MobileVerified)
		}
		if c.ContactUUIDs == nil || c.ConversationCount == nil {
			t.Fatalf("contact %d lacks contact_uuids or conversation_count", c.ID)
		}
	}
	for _, bad := range []string{"verified=maybe", "id=abc", "to_date_time=soon"} {
		r := a.get("/api/um/v3/contact_identities/?" + bad)
		expectStatus(t, r, 400, bad)
		r.detail(t)
	}
}

func TestMalformedQueryValuesAre400(t *testing.T) {
	t.Parallel()
	a := shared(t)
	for _, p := range []string{
		"/api/um/v3/conversations/?limit=ten",
		"/api/um/v3/conversations/?offset=-1",
		"/api/um/v3/conversations/?offset=x",
		"/api/um/v3/conversations/?operator_id=abc",
		"/api/um/v3/conversations/?topics=shipping",
		"/api/um/v3/conversations/?id__gt=1e5",
		"/api/um/v3/conversations/?contact_identity_id=%20x",
		"/api/um/v3/conversations/?exclude_ids=1,a",
		"/api/um/v3/conversations/?um_widget_id=w",
		"/api/um/v3/conversations/?ordering=status",
		"/api/um/v3/contact_identities/?ordering=id",
		"/api/um/v3/contact_identities/?ordering=-city",
		"/api/um/v3/notes/?contact_identity_id=x",
		"/api/um/v3/notes/?ordering=body",
		"/api/um/v3/navigation/?ordering=url",
		"/api/um/v3/navigation/?conversation_id=x",
		"/api/um/v3/operators/?ordering=email",
		"/api/um/v3/operators/?exclude_ids=x",
		"/api/um/v3/conversations/?%zz=1",
		"/api/um/v3/conversations/?offset=-99999999999999999999999",
		"/api/um/v3/conversations/?limit=1.5",
		"/api/um/v3/conversations/?operator_id=99999999999999999999",
		"/api/um/v3/conversations/?id__lt=0x10",
		"/api/um/v3/conversations/?contact_first_message_to_date=2026-02-30",
		"/api/um/v3/conversations/?contact_first_message_from_date=tomorrow",
		"/api/um/v3/conversations/?contact_last_message_to_date=0",
		"/api/um/v3/conversations/?contact_last_message_from_date=2026-11-20T10:00:00%2B25:00",
		"/api/um/v3/conversations/?updated_at_to_date=99999-01-01",
		"/api/um/v3/conversations/?last_activity_to_date=2026-11-20T24:01:00",
		"/api/um/v3/conversations/?last_activity_from_date=-0001-01-01",
		"/api/um/v3/conversations/?exclude_ids=1;2",
		"/api/um/v3/conversations/all/?cursor=x",
		"/api/um/v3/conversations/all/?cursor=-",
		"/api/um/v3/conversations/all/?cursor=--5",
		"/api/um/v3/conversations/all/?cursor=1.5",
		"/api/um/v3/conversations/all/?cursor=99999999999999999999",
		"/api/um/v3/conversations/all/?ordering=-id",
		"/api/um/v3/conversations/all/?status=new&limit=x",
		"/api/um/v3/contact_identities/all/?cursor=abc",
		"/api/um/v3/contact_identities/?verified=maybe",
		"/api/um/v3/contact_identities/?id=1.0",
		"/api/um/v3/contact_identities/?to_date_time=never",
		"/api/um/v3/contact_identities/?from_date_time=2026-99-01",
		"/api/um/v3/contact_identities/?offset=-3",
		"/api/um/v3/conversations/" + itoa(a.info.LongConversationID) + "/messages/?cursor=abc",
		"/api/um/v3/conversations/" + itoa(a.info.LongConversationID) + "/messages/?cursor=1.2",
		"/api/um/v3/conversations/" + itoa(a.info.LongConversationID) + "/messages/?cursor=-",
		"/api/um/v3/conversations/" + itoa(a.info.LongConversationID) + "/messages/?cursor=1.1.1",
		"/api/um/v3/conversations/" + itoa(a.info.LongConversationID) + "/messages/?ordering=sent_at",
		"/api/um/v3/conversations/" + itoa(a.info.LongConversationID) + "/messages/?limit=many",
		"/api/um/v3/conversations/" + itoa(a.info.LongConversationID) + "/messages/?exclude_ids=7",
		"/api/um/v1/analytics/um_conversation_rating/?event_date=2026-02-30",
		"/api/um/v1/analytics/um_conversation_rating/?event_date_from=x&event_date_to=2026-11-01",
		"/api/um/v1/analytics/um_conversation_rating/?organization_id=1.5",
		"/api/um/v1/analytics/um_conversation_rating/?operator_mode=human+bot",
		// A single-valued parameter given twice: which one would count?
		"/api/um/v3/conversations/?status=new&status=ended",
		"/api/um/v3/conversations/?limit=5&limit=7",
		"/api/um/v3/contact_identities/?search_query=a&search_query=b",
		"/api/um/v1/analytics/um_conversation_rating/?event_date=2026-11-01&event_date=2026-11-02",
	} {
		r := a.get(p)
		expectStatus(t, r, 400, p)
		r.detail(t)
	}
	// Empty values are absent values, and the id-list parameters may repeat.
	for _, p := range []string{
		"/api/um/v3/conversations/?operator_id=&status=&limit=&offset=&ordering=&exclude_ids=&search_query=",
		"/api/um/v3/conversations/all/?cursor=&limit=",
		"/api/um/v3/contact_identities/?verified=&id=&to_date_time=",
		"/api/um/v3/conversations/?exclude_ids=1&exclude_ids=2,3&search_query=a",
		"/api/um/v1/analytics/um_conversation_rating/?organization_id=1001&organization_id=1002&operator_id=2001&operator_id=2002",
	} {
		expectStatus(t, a.get(p), 200, p)
	}
}
