package sandbox_test

import (
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/parley-tui/parley/sandbox"
)

func countOf(t *testing.T, a *api, path string) int {
	t.Helper()
	var p page[struct{}]
	a.mustGet(path, &p)
	return *p.Count
}

func TestBulkDeleteConversations(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{})
	a := newAPI(t, r)
	all := allConversations(a)
	var ended, ongoing []int64
	for _, c := range all {
		if c.Status == "ended" {
			ended = append(ended, c.ID)
		} else {
			ongoing = append(ongoing, c.ID)
		}
	}
	sort.Slice(ended, func(i, j int) bool { return ended[i] > ended[j] })
	if len(ended) < 40 || len(ongoing) < 3 {
		t.Fatalf("%d ended, %d ongoing", len(ended), len(ongoing))
	}
	total := len(all)

	// delete_ids wins over filters, search and limit; ongoing ones are never deleted.
	target := []int64{ended[5], ended[7], ongoing[0]}
	res := a.del("/api/um/v3/conversations/?status=pending&search_query=zzzz&limit=1&delete_ids=" +
		itoa(target[0]) + "," + itoa(target[1]) + "," + itoa(target[2]))
	expectStatus(t, res, http.StatusNoContent, "delete_ids")
	if len(res.body) != 0 {
		t.Fatalf("204 with a body: %q", res.body)
	}
	for _, id := range target[:2] {
		expectStatus(t, a.get("/api/um/v3/conversations/"+itoa(id)+"/"), 404, "deleted conversation")
		expectStatus(t, a.get("/api/um/v3/conversations/"+itoa(id)+"/messages/"), 404, "messages of deleted conversation")
	}
	expectStatus(t, a.get("/api/um/v3/conversations/"+itoa(ongoing[0])+"/"), 200, "ongoing conversation survives")
	total -= 2
	if n := countOf(t, a, "/api/um/v3/conversations/"); n != total {
		t.Fatalf("count %d, want %d", n, total)
	}
	// An empty delete_ids deletes nothing (never a filter-only delete by accident).
	expectStatus(t, a.del("/api/um/v3/conversations/?delete_ids="), 204, "empty delete_ids")
	if n := countOf(t, a, "/api/um/v3/conversations/"); n != total {
		t.Fatalf("empty delete_ids deleted something: %d", n)
	}
	// exclude_ids protects listed ids even in delete_ids.
	expectStatus(t, a.del("/api/um/v3/conversations/?delete_ids="+itoa(ended[9])+"&exclude_ids="+itoa(ended[9])), 204, "excluded")
	expectStatus(t, a.get("/api/um/v3/conversations/"+itoa(ended[9])+"/"), 200, "excluded survives")

	// Without delete_ids: 10 by default, newest ended first, ongoing untouched.
	expectStatus(t, a.del("/api/um/v3/conversations/"), 204, "default bulk delete")
	total -= 10
	if n := countOf(t, a, "/api/um/v3/conversations/"); n != total {
		t.Fatalf("default delete: count %d, want %d", n, total)
	}
	if n := countOf(t, a, "/api/um/v3/conversations/?status=new") + countOf(t, a, "/api/um/v3/conversations/?status=pending"); n != len(ongoing) {
		t.Fatalf("ongoing conversations deleted: %d left of %d", n, len(ongoing))
	}
	// limit is capped at 100.
	before := countOf(t, a, "/api/um/v3/conversations/?status=ended")
	expectStatus(t, a.del("/api/um/v3/conversations/?limit=500"), 204, "limit 500")
	after := countOf(t, a, "/api/um/v3/conversations/?status=ended")
	want := max(0, before-100)
	if after != want {
		t.Fatalf("limit=500 deleted %d, want min(100, %d)", before-after, before)
	}
	if n := countOf(t, a, "/api/um/v3/conversations/?status=new") + countOf(t, a, "/api/um/v3/conversations/?status=pending"); n != len(ongoing) {
		t.Fatal("ongoing conversations deleted by a big bulk delete")
	}
	// Filtered and searched deletes apply to that set only.
	var orgs sandbox.Info = a.info
	b := a.as("Service-Organization-Id", itoa(orgs.OrgIDs[1]))
	before2 := countOf(t, b, "/api/um/v3/conversations/")
	expectStatus(t, b.del("/api/um/v3/conversations/?limit=3&search_query=thanks"), 204, "searched delete")
	if n := countOf(t, b, "/api/um/v3/conversations/"); n != before2-3 {
		t.Fatalf("searched delete: %d left of %d", n, before2)
	}
	// Single DELETE of an ongoing conversation is refused; of an ended one it works.
	res = a.del("/api/um/v3/conversations/" + itoa(ongoing[1]) + "/")
	expectStatus(t, res, 400, "single delete of an ongoing conversation")
	res.detail(t)
	endedLeft, _, _ := walkOffset[conversation](a, "/api/um/v3/conversations/?status=ended&limit=1")
	if len(endedLeft) > 0 {
		id := endedLeft[0].ID
		expectStatus(t, a.del("/api/um/v3/conversations/"+itoa(id)+"/"), 204, "single delete")
		expectStatus(t, a.del("/api/um/v3/conversations/"+itoa(id)+"/"), 404, "second delete")
	}
}

func TestBulkDeleteContacts(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{})
	a := newAPI(t, r)
	all := allContacts(a)
	total := len(all)
	ongoing := func(id int64) int {
		return countOf(t, a, "/api/um/v3/conversations/?status=new&contact_identity_id="+itoa(id)) +
			countOf(t, a, "/api/um/v3/conversations/?status=pending&contact_identity_id="+itoa(id))
	}
	// A contact with an ongoing conversation is never deleted: a list DELETE skips it
	// (its conversations would go with it), a single DELETE refuses with 400.
	var busy, victim, one contact
	for _, c := range all[len(all)/2:] {
		switch n := ongoing(c.ID); {
		case n > 0 && busy.ID == 0:
			busy = c
		case n == 0 && countOf(t, a, "/api/um/v3/conversations/?contact_identity_id="+itoa(c.ID)) > 0 && victim.ID == 0:
			victim = c
		case n == 0 && victim.ID != 0 && one.ID == 0:
			one = c
		}
	}
	if busy.ID == 0 || victim.ID == 0 || one.ID == 0 {
		t.Fatalf("no contacts to test with: busy %d, victim %d, one %d", busy.ID, victim.ID, one.ID)
	}
	expectStatus(t, a.del("/api/um/v3/contact_identities/?delete_ids="+itoa(busy.ID)), 204, "delete_ids of a busy contact")
	expectStatus(t, a.get("/api/um/v3/contact_identities/"+itoa(busy.ID)+"/"), 200, "the busy contact is kept")
	res := a.del("/api/um/v3/contact_identities/" + itoa(busy.ID) + "/")
	expectStatus(t, res, 400, "single delete of a busy contact")
	if d := res.detail(t); !strings.Contains(d, "ongoing") {
		t.Fatalf("detail: %s", d)
	}
	convs := countOf(t, a, "/api/um/v3/conversations/?contact_identity_id="+itoa(victim.ID))
	notesBefore := countOf(t, a, "/api/um/v3/notes/")
	expectStatus(t, a.send("POST", "/api/um/v3/notes/", map[string]any{"contact_identity_id": victim.ID, "body": "to be deleted"}), 201, "note")
	expectStatus(t, a.del("/api/um/v3/contact_identities/?name=nobody&delete_ids="+itoa(victim.ID)), 204, "delete_ids")
	expectStatus(t, a.get("/api/um/v3/contact_identities/"+itoa(victim.ID)+"/"), 404, "deleted contact")
	if n := countOf(t, a, "/api/um/v3/conversations/?contact_identity_id="+itoa(victim.ID)); n != 0 {
		t.Fatalf("%d conversations of the deleted contact remain (had %d)", n, convs)
	}
	if n := countOf(t, a, "/api/um/v3/notes/?contact_identity_id="+itoa(victim.ID)); n != 0 {
		t.Fatalf("%d notes of the deleted contact remain", n)
	}
	if n := countOf(t, a, "/api/um/v3/notes/"); n > notesBefore {
		t.Fatalf("notes: %d, before %d", n, notesBefore)
	}
	total--
	expectStatus(t, a.del("/api/um/v3/contact_identities/"), 204, "default")
	total -= 10
	if n := countOf(t, a, "/api/um/v3/contact_identities/"); n != total {
		t.Fatalf("contacts %d, want %d", n, total)
	}
	expectStatus(t, a.del("/api/um/v3/contact_identities/?limit=2&verified=true"), 204, "filtered")
	if n := countOf(t, a, "/api/um/v3/contact_identities/"); n != total-2 {
		t.Fatalf("filtered delete: %d, want %d", n, total-2)
	}
	total -= 2
	// A searched delete with no filter deletes from what the search finds only, and skips
	// the busy contact also when the search finds it.
	if busy.Name == nil || len(strings.Fields(*busy.Name)) == 0 {
		t.Fatal("the busy contact has no name to search for")
	}
	search := q("search_query", strings.Fields(*busy.Name)[0])
	found := countOf(t, a, "/api/um/v3/contact_identities/?"+search)
	expectStatus(t, a.del("/api/um/v3/contact_identities/?limit=1&"+search), 204, "searched")
	gone := found - countOf(t, a, "/api/um/v3/contact_identities/?"+search)
	if n := countOf(t, a, "/api/um/v3/contact_identities/"); gone > 1 || n != total-gone {
		t.Fatalf("searched delete: %d of %d found gone, %d contacts left of %d", gone, found, n, total)
	}
	if ongoing(busy.ID) == 0 || countOf(t, a, "/api/um/v3/contact_identities/?id="+itoa(busy.ID)) != 1 {
		t.Fatal("list DELETEs took the contact with ongoing conversations")
	}
	if countOf(t, a, "/api/um/v3/contact_identities/?id="+itoa(one.ID)) == 0 {
		// Taken by the list DELETEs: any other contact without ongoing conversations.
		one = contact{}
		for _, c := range allContacts(a) {
			if ongoing(c.ID) == 0 {
				one = c
				break
			}
		}
		if one.ID == 0 {
			t.Fatal("no contact without ongoing conversations is left")
		}
	}
	expectStatus(t, a.del("/api/um/v3/contact_identities/"+itoa(one.ID)+"/"), 204, "single")
	expectStatus(t, a.del("/api/um/v3/contact_identities/"+itoa(one.ID)+"/"), 404, "single again")
}

func TestPatchConversation(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{})
	a := newAPI(t, r)
	all := allConversations(a)
	c := all[len(all)/3]
	path := "/api/um/v3/conversations/" + itoa(c.ID) + "/"

	res := a.send("PATCH", path, map[string]any{"update": map[string]any{"topics": []string{"x"}}})
	expectStatus(t, res, 400, "update wrapper")
	if d := res.detail(t); !strings.Contains(d, "update") {
		t.Fatalf("detail: %s", d)
	}

	var got conversation
	res = a.send("PATCH", path, map[string]any{"topics": []string{"Shipping", "  Brand new topic ", "brand NEW topic"}})
	expectStatus(t, res, 200, "topics")
	res.json(t, &got)
	if len(got.Topics) != 2 {
		t.Fatalf("topics: %+v", got.Topics)
	}
	var created topic
	texts := map[string]bool{}
	for _, tp := range got.Topics {
		texts[tp.Text] = true
		if tp.Text == "Brand new topic" {
			created = tp
		}
		if tp.OrganizationID != a.info.DefaultOrgID {
			t.Fatalf("topic organization %d", tp.OrganizationID)
		}
	}
	if !texts["Shipping"] || created.ID == 0 {
		t.Fatalf("topics %v", texts)
	}
	if got.ConversationPartSet == nil {
		t.Fatal("PATCH response lacks conversation_part_set")
	}
	// The new topic is reused (case-insensitively) and filterable.
	other := all[len(all)/3+1]
	res = a.send("PATCH", "/api/um/v3/conversations/"+itoa(other.ID)+"/", map[string]any{"topics": []string{"BRAND NEW TOPIC"}})
	expectStatus(t, res, 200, "topics reuse")
	var got2 conversation
	res.json(t, &got2)
	if len(got2.Topics) != 1 || got2.Topics[0].ID != created.ID {
		t.Fatalf("topic not reused: %+v", got2.Topics)
	}
	if n := countOf(t, a, "/api/um/v3/conversations/?topics="+itoa(created.ID)); n != 2 {
		t.Fatalf("topic filter: %d", n)
	}
	// Other writable fields; updated_at moves to now; unknown fields are ignored.
	res = a.send("PATCH", path, map[string]any{"status": "pending", "operator_assigned_to": a.info.RestrictedOperatorID,
		"marked_read_operator": true, "id": 1, "whatever": "x"})
	expectStatus(t, res, 200, "status")
	res.json(t, &got)
	if got.Status != "pending" || got.OperatorAssignedTo == nil || *got.OperatorAssignedTo != a.info.RestrictedOperatorID ||
		!got.MarkedReadOperator || got.ID != c.ID || got.UpdatedAt != "2026-11-20T10:15:30.123456Z" {
		t.Fatalf("patched: %+v", got)
	}
	res = a.send("PATCH", path, map[string]any{"topics": []string{}, "operator_assigned_to": nil})
	expectStatus(t, res, 200, "clear")
	res.json(t, &got)
	if len(got.Topics) != 0 || got.OperatorAssignedTo != nil {
		t.Fatalf("cleared: %+v", got)
	}
	for _, bad := range []any{
		map[string]any{"topics": "Shipping"},
		map[string]any{"topics": []any{1}},
		map[string]any{"topics": []string{" "}},
		map[string]any{"status": "open"},
		map[string]any{"operator_assigned_to": 1},
		map[string]any{"marked_read_operator": "yes"},
		map[string]any{"marked_read_operator": nil},
		[]any{1},
		"null",
		"{",
		`{"status":"new"} trailing`,
	} {
		r := a.send("PATCH", path, bad)
		expectStatus(t, r, 400, "bad body")
		r.detail(t)
	}
	expectStatus(t, a.send("PATCH", "/api/um/v3/conversations/1/", map[string]any{}), 404, "unknown")
	expectStatus(t, a.send("PATCH", path+"?exclude_ids="+itoa(c.ID), map[string]any{"status": "new"}), 404, "excluded")
}

func TestOperatorPatchAndAway(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{})
	a := newAPI(t, r)
	ops, _, _ := walkOffset[operator](a, "/api/um/v3/operators/")
	var target operator
	for _, o := range ops {
		if o.Role == "admin" {
			target = o
			break
		}
	}
	path := "/api/um/v3/operators/" + itoa(target.ID) + "/"
	// PATCH never changes the away status.
	var got operator
	res := a.send("PATCH", path, map[string]any{"name": "Renamed Person", "is_away": !target.IsAway})
	expectStatus(t, res, 200, "operator patch")
	res.json(t, &got)
	if got.Name != "Renamed Person" || got.IsAway != target.IsAway {
		t.Fatalf("operator patch: %+v (was away %v)", got, target.IsAway)
	}
	// /away/ does.
	var away struct {
		OperatorID int64  `json:"operator_id"`
		IsAway     bool   `json:"is_away"`
		ChangedAt  string `json:"changed_at"`
	}
	res = a.send("PATCH", path+"away/", map[string]any{"is_away": !target.IsAway})
	expectStatus(t, res, 200, "away")
	res.json(t, &away)
	if away.OperatorID != target.ID || away.IsAway == target.IsAway || away.ChangedAt == "" {
		t.Fatalf("away: %+v", away)
	}
	a.mustGet(path, &got)
	if got.IsAway == target.IsAway {
		t.Fatal("away status not stored")
	}
	for _, bad := range []any{map[string]any{}, map[string]any{"is_away": "yes"}, map[string]any{"is_away": nil}} {
		expectStatus(t, a.send("PATCH", path+"away/", bad), 400, "bad away body")
	}
	expectStatus(t, a.get(path+"away/"), 405, "GET away")
	for _, bad := range []any{map[string]any{"email": "no-at"}, map[string]any{"locale": "english"}, map[string]any{"name": ""}} {
		expectStatus(t, a.send("PATCH", path, bad), 400, "bad operator body")
	}
	// Slots.
	var slots struct {
		OperatorID   int64 `json:"operator_id"`
		CurrentSlots int   `json:"current_slots"`
		TotalSlots   int   `json:"total_slots"`
	}
	a.mustGet(path+"slots/", &slots)
	if slots.OperatorID != target.ID || slots.TotalSlots <= 0 || slots.CurrentSlots < 0 || slots.CurrentSlots > slots.TotalSlots {
		t.Fatalf("slots: %+v", slots)
	}
	// Delete: the owner cannot be deleted, others can.
	expectStatus(t, a.del("/api/um/v3/operators/"+itoa(a.info.OwnerOperatorID)+"/"), 400, "delete owner")
	expectStatus(t, a.del(path), 204, "delete operator")
	expectStatus(t, a.get(path), 404, "deleted operator")
	expectStatus(t, a.get(path+"slots/"), 404, "slots of deleted operator")
}

func TestPutContactByIdentifier(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{})
	a := newAPI(t, r)
	before := countOf(t, a, "/api/um/v3/contact_identities/")
	var c contact
	res := a.send("PUT", "/api/um/v3/contact_identities/?identifier=email", map[string]any{
		"email": "new.person@example.org", "name": "New Person", "city": "Lisbon", "country": "pt", "locale": "pt_PT",
	})
	expectStatus(t, res, 201, "PUT creates")
	res.json(t, &c)
	if c.ID == 0 || c.Name == nil || *c.Name != "New Person" || c.Country == nil || *c.Country != "PT" || c.Locale != "pt_PT" {
		t.Fatalf("created: %+v", c)
	}
	if c.ContactUUIDs == nil || *c.ConversationCount != 0 {
		t.Fatalf("created contact lacks contact fields: %+v", c)
	}
	if n := countOf(t, a, "/api/um/v3/contact_identities/"); n != before+1 {
		t.Fatalf("count %d, want %d", n, before+1)
	}
	// Same email, other case: updates.
	var u contact
	res = a.send("PUT", "/api/um/v3/contact_identities/?identifier=email", map[string]any{"email": "NEW.PERSON@example.org", "city": "Porto"})
	expectStatus(t, res, 200, "PUT updates")
	res.json(t, &u)
	if u.ID != c.ID || u.City == nil || *u.City != "Porto" || *u.Name != "New Person" {
		t.Fatalf("updated: %+v", u)
	}
	if n := countOf(t, a, "/api/um/v3/contact_identities/"); n != before+1 {
		t.Fatalf("count after update %d", n)
	}
	// Searchable at once.
	if got, _ := searchContacts(t, a, "porto"); indexOf(got, c.ID) < 0 {
		t.Fatalf("porto: %v", got)
	}
	// By external id, mobile and phone number: created, then updated.
	for _, tc := range []struct{ field, value string }{
		{"external_customer_id", "EXT-1"}, {"mobile_number", "+351 912 345 678"}, {"phone_number", "+351 21 123 4567"},
	} {
		var first, again contact
		res = a.send("PUT", "/api/um/v3/contact_identities/?identifier="+tc.field, map[string]any{tc.field: tc.value, "name": "By " + tc.field})
		expectStatus(t, res, 201, "by "+tc.field)
		res.json(t, &first)
		res = a.send("PUT", "/api/um/v3/contact_identities/?identifier="+tc.field, map[string]any{tc.field: tc.value, "city": "Braga"})
		expectStatus(t, res, 200, "again by "+tc.field)
		res.json(t, &again)
		if again.ID != first.ID || again.City == nil || *again.City != "Braga" || *again.Name != "By "+tc.field {
			t.Fatalf("by %s: created %+v, then updated %+v", tc.field, first, again)
		}
	}
	for _, tc := range []struct {
		q    string
		body any
	}{
		{"", map[string]any{"email": "a@b.c"}},
		{"?identifier=name", map[string]any{"name": "x"}},
		{"?identifier=id", map[string]any{"id": c.ID, "company": "Acme"}}, // an id is no contact data
		{"?identifier=phone_number", map[string]any{"name": "x"}},
		{"?identifier=email", map[string]any{"name": "x"}},
		{"?identifier=email", map[string]any{"email": "not-an-email"}},
		{"?identifier=email", map[string]any{"email": "a@b.c", "locale": "en-US"}},
		{"?identifier=email", map[string]any{"email": "a@b.c", "url_twitter": "ftp://x"}},
		{"?identifier=email", map[string]any{"update": map[string]any{"email": "a@b.c"}}},
	} {
		r := a.send("PUT", "/api/um/v3/contact_identities/"+tc.q, tc.body)
		expectStatus(t, r, 400, "bad PUT "+tc.q)
		r.detail(t)
	}
	// PATCH on a contact: email change resets verification.
	var verified contact
	for _, x := range allContacts(a) {
		if x.EmailVerified && x.Email != nil {
			verified = x
			break
		}
	}
	res = a.send("PATCH", "/api/um/v3/contact_identities/"+itoa(verified.ID)+"/", map[string]any{"email": "changed@example.com"})
	expectStatus(t, res, 200, "patch email")
	res.json(t, &u)
	if u.EmailVerified || *u.Email != "changed@example.com" {
		t.Fatalf("email change: %+v", u)
	}
	// Its conversations carry the new contact data and a fresh contact_last_update_at.
	var convs page[conversation]
	a.mustGet("/api/um/v3/conversations/?contact_identity_id="+itoa(verified.ID), &convs)
	for _, cv := range convs.Results {
		if cv.Contact.Email == nil || *cv.Contact.Email != "changed@example.com" || cv.ContactLastUpdateAt != "2026-11-20T10:15:30.123456Z" {
			t.Fatalf("conversation %d: %+v", cv.ID, cv.Contact)
		}
	}
}

func TestNotesCRUD(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{})
	a := newAPI(t, r)
	cs := allContacts(a)
	cid := cs[0].ID
	var n note
	res := a.send("POST", "/api/um/v3/notes/", map[string]any{"contact_identity_id": cid, "body": "Called back, all good."})
	expectStatus(t, res, 201, "create")
	res.json(t, &n)
	if n.ID == 0 || n.ContactIdentityID != cid || n.Body != "Called back, all good." || n.OperatorID == nil || *n.OperatorID != a.info.OwnerOperatorID {
		t.Fatalf("created note: %+v", n)
	}
	var g note
	a.mustGet("/api/um/v3/notes/"+itoa(n.ID)+"/", &g)
	if !reflect.DeepEqual(g, n) {
		t.Fatalf("get: %+v, want %+v", g, n)
	}
	list, count, _ := walkOffset[note](a, "/api/um/v3/notes/?contact_identity_id="+itoa(cid))
	if count != len(list) || list[0].ID != n.ID {
		t.Fatalf("list: %+v", list)
	}
	// With the organization token and no operator header, the author is null.
	org := a.withToken(a.info.OrgTokens[a.info.DefaultOrgID])
	res = org.send("POST", "/api/um/v3/notes/", map[string]any{"contact_identity_id": cid, "body": "From the org token"})
	expectStatus(t, res, 201, "create with org token")
	var n2 note
	res.json(t, &n2)
	if n2.OperatorID != nil {
		t.Fatalf("author %v, want null", *n2.OperatorID)
	}
	// Acting operator is recorded.
	res = a.as("Service-Operator-Id", itoa(a.info.RestrictedOperatorID)).send("POST", "/api/um/v3/notes/", map[string]any{"contact_identity_id": cid, "body": "agent note"})
	expectStatus(t, res, 201, "agent creates")
	var n3 note
	res.json(t, &n3)
	if n3.OperatorID == nil || *n3.OperatorID != a.info.RestrictedOperatorID {
		t.Fatalf("agent note author: %v", n3.OperatorID)
	}
	for _, bad := range []any{
		map[string]any{"body": "x"},
		map[string]any{"contact_identity_id": cid},
		map[string]any{"contact_identity_id": cid, "body": "  "},
		map[string]any{"contact_identity_id": 1, "body": "unknown contact"},
		map[string]any{"contact_identity_id": "x", "body": "x"},
	} {
		r := a.send("POST", "/api/um/v3/notes/", bad)
		expectStatus(t, r, 400, "bad note")
		r.detail(t)
	}
	expectStatus(t, a.get("/api/um/v3/notes/"+itoa(n.ID)+"/?exclude_ids="+itoa(n.ID)), 404, "excluded note")
	expectStatus(t, a.del("/api/um/v3/notes/"+itoa(n.ID)+"/"), 204, "delete")
	expectStatus(t, a.get("/api/um/v3/notes/"+itoa(n.ID)+"/"), 404, "deleted")
	expectStatus(t, a.del("/api/um/v3/notes/"+itoa(n.ID)+"/"), 404, "deleted twice")
}

func TestExcludeIDsOnSingleEndpoints(t *testing.T) {
	t.Parallel()
	a := shared(t)
	c := allConversations(a)[0]
	ct := allContacts(a)[0]
	for _, p := range []string{
		"/api/um/v3/conversations/" + itoa(c.ID) + "/?exclude_ids=" + itoa(c.ID),
		"/api/um/v3/contact_identities/" + itoa(ct.ID) + "/?exclude_ids=5," + itoa(ct.ID),
		"/api/um/v3/operators/" + itoa(a.info.OwnerOperatorID) + "/?exclude_ids=" + itoa(a.info.OwnerOperatorID),
		"/api/um/v3/operators/" + itoa(a.info.OwnerOperatorID) + "/slots/?exclude_ids=" + itoa(a.info.OwnerOperatorID),
	} {
		expectStatus(t, a.get(p), 404, p)
	}
	expectStatus(t, a.del("/api/um/v3/contact_identities/"+itoa(ct.ID)+"/?exclude_ids="+itoa(ct.ID)), 404, "excluded delete")
	expectStatus(t, a.get("/api/um/v3/contact_identities/"+itoa(ct.ID)+"/"), 200, "still there")
	// On messages, exclude_ids lists message ids.
	var p page[message]
	a.mustGet("/api/um/v3/conversations/"+itoa(c.ID)+"/messages/", &p)
	var q2 page[message]
	a.mustGet("/api/um/v3/conversations/"+itoa(c.ID)+"/messages/?exclude_ids="+p.Results[0].ID, &q2)
	if len(q2.Results) != len(p.Results)-1 || q2.Results[0].ID == p.Results[0].ID {
		t.Fatalf("excluded message still listed")
	}
	expectStatus(t, a.get("/api/um/v3/conversations/"+itoa(c.ID)+"/messages/?exclude_ids=12"), 400, "integer exclude on messages")
}

// The id of a deleted note or contact is never handed out again, also when it was the
// newest: a retried DELETE must not hit a resource created in between.
func TestDeletedIDsAreNotReused(t *testing.T) {
	t.Parallel()
	a := newAPI(t, start(t, sandbox.Options{}))
	id := func(r resp) int64 {
		t.Helper()
		var v struct{ ID int64 }
		r.json(t, &v)
		return v.ID
	}
	c1 := a.send(http.MethodPut, "/api/um/v3/contact_identities/?identifier=email", `{"email": "reuse@example.com", "name": "Reuse"}`)
	expectStatus(t, c1, 201, "create contact")
	contact := id(c1)
	n1 := a.send(http.MethodPost, "/api/um/v3/notes/", fmt.Sprintf(`{"contact_identity_id": %d, "body": "first"}`, contact))
	expectStatus(t, n1, 201, "create note")
	note := id(n1)
	expectStatus(t, a.del(fmt.Sprintf("/api/um/v3/notes/%d/", note)), 204, "delete note")
	n2 := a.send(http.MethodPost, "/api/um/v3/notes/", fmt.Sprintf(`{"contact_identity_id": %d, "body": "second"}`, contact))
	expectStatus(t, n2, 201, "create note again")
	if got := id(n2); got <= note {
		t.Fatalf("the new note got id %d, the deleted one had %d", got, note)
	}
	expectStatus(t, a.del(fmt.Sprintf("/api/um/v3/contact_identities/%d/", contact)), 204, "delete contact")
	c2 := a.send(http.MethodPut, "/api/um/v3/contact_identities/?identifier=email", `{"email": "reuse2@example.com", "name": "Reuse"}`)
	expectStatus(t, c2, 201, "create contact again")
	if got := id(c2); got <= contact {
		t.Fatalf("the new contact got id %d, the deleted one had %d", got, contact)
	}
	n3 := a.send(http.MethodPost, "/api/um/v3/notes/", fmt.Sprintf(`{"contact_identity_id": %d, "body": "third"}`, id(c2)))
	expectStatus(t, n3, 201, "create a note of the new contact")
	if got := id(n3); got <= id(n2) {
		t.Fatalf("a note after the contact's notes were deleted got id %d; the deleted one had %d", got, id(n2))
	}
}
