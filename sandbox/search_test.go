package sandbox_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/parley-tui/parley/sandbox"
)

// plainContacts returns the contacts (at least n) of the default organization without notes
// and with conversations, so that tests can give them words of their own.
func plainContacts(t *testing.T, a *api, n int) []contact {
	t.Helper()
	allNotes, _, _ := walkOffset[note](a, "/api/um/v3/notes/?limit=100")
	hasNote := map[int64]bool{}
	for _, nt := range allNotes {
		hasNote[nt.ContactIdentityID] = true
	}
	var out []contact
	for _, c := range allContacts(a) {
		if hasNote[c.ID] || c.Name == nil || !isASCII(*c.Name) || c.ConversationCount == nil || *c.ConversationCount == 0 {
			continue
		}
		out = append(out, c)
	}
	if len(out) < n {
		t.Fatalf("only %d plain contacts", len(out))
	}
	return out
}

func searchContacts(t *testing.T, a *api, query string) ([]int64, int) {
	t.Helper()
	items, count, _ := walkOffset[contact](a, "/api/um/v3/contact_identities/?limit=100&search_query="+url.QueryEscape(query))
	return ids(items, contactID), count
}

func searchConversations(t *testing.T, a *api, query string) ([]int64, int) {
	t.Helper()
	items, count, _ := walkOffset[conversation](a, "/api/um/v3/conversations/?limit=100&search_query="+url.QueryEscape(query))
	return ids(items, convID), count
}

func indexOf(xs []int64, x int64) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

func TestContactSearchRanking(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{})
	a := newAPI(t, r)
	cs := plainContacts(t, a, 6)
	x, y, z, w, v, u := cs[0], cs[1], cs[2], cs[3], cs[4], cs[5]

	expectStatus(t, a.send("PATCH", "/api/um/v3/contact_identities/"+itoa(x.ID)+"/", map[string]any{"name": "Quokka Jones"}), 200, "patch name")
	expectStatus(t, a.send("POST", "/api/um/v3/notes/", map[string]any{"contact_identity_id": y.ID, "body": "Met the quokka fans at the fair."}), 201, "note y")
	expectStatus(t, a.send("POST", "/api/um/v3/notes/", map[string]any{"contact_identity_id": z.ID, "body": "She was running late again."}), 201, "note z")
	expectStatus(t, a.send("PATCH", "/api/um/v3/contact_identities/"+itoa(w.ID)+"/", map[string]any{"city": "Numbatville"}), 200, "patch city")
	expectStatus(t, a.send("POST", "/api/um/v3/notes/", map[string]any{"contact_identity_id": v.ID, "body": "wombat wombat wombat"}), 201, "note v")
	expectStatus(t, a.send("POST", "/api/um/v3/notes/", map[string]any{"contact_identity_id": u.ID, "body": "wombat"}), 201, "note u")

	// A (name) above B (notes).
	got, count := searchContacts(t, a, "quokka")
	if count != 2 || len(got) != 2 || got[0] != x.ID || got[1] != y.ID {
		t.Fatalf("quokka: %v (count %d), want [%d %d]", got, count, x.ID, y.ID)
	}
	// Prefix.
	if got, _ := searchContacts(t, a, "quok"); len(got) != 2 || got[0] != x.ID {
		t.Fatalf("prefix quok: %v", got)
	}
	// Case does not matter.
	if got, _ := searchContacts(t, a, "QUOKKA"); len(got) != 2 {
		t.Fatalf("QUOKKA: %v", got)
	}
	// Stemming: "runs" and "running" share the stem "run".
	if got, _ := searchContacts(t, a, "runs"); indexOf(got, z.ID) < 0 {
		t.Fatalf("runs does not find the note about running: %v", got)
	}
	// Keywords combine with OR; A matches (name, city) rank above the B match.
	got, _ = searchContacts(t, a, "quokka numbat")
	if len(got) != 3 || indexOf(got, y.ID) != 2 || indexOf(got, x.ID) < 0 || indexOf(got, w.ID) < 0 {
		t.Fatalf("quokka numbat: %v, want x=%d and w=%d before y=%d", got, x.ID, w.ID, y.ID)
	}
	// "+" separates keywords too.
	var p page[contact]
	a.mustGet("/api/um/v3/contact_identities/?search_query=quokka+numbat", &p)
	if *p.Count != 3 {
		t.Fatalf("quokka+numbat: count %d", *p.Count)
	}
	// More occurrences rank higher within the same field.
	if got, _ := searchContacts(t, a, "wombat"); len(got) != 2 || got[0] != v.ID || got[1] != u.ID {
		t.Fatalf("wombat: %v, want [%d %d]", got, v.ID, u.ID)
	}
	// Ordering is ignored with a search, even an invalid one.
	for _, o := range []string{"-name", "email", "bogus"} {
		var p page[contact]
		a.mustGet("/api/um/v3/contact_identities/?limit=100&search_query=quokka+numbat&ordering="+o, &p)
		if len(p.Results) != 3 || p.Results[2].ID != y.ID {
			t.Fatalf("ordering=%s changed the search order", o)
		}
	}
	// The index follows edits: the old name is gone, the new one found.
	expectStatus(t, a.send("PATCH", "/api/um/v3/contact_identities/"+itoa(x.ID)+"/", map[string]any{"name": "Platypus Jones"}), 200, "rename")
	if got, _ := searchContacts(t, a, "quokka"); len(got) != 1 || got[0] != y.ID {
		t.Fatalf("after rename quokka: %v", got)
	}
	if got, _ := searchContacts(t, a, "platypus"); len(got) != 1 || got[0] != x.ID {
		t.Fatalf("after rename platypus: %v", got)
	}
	// Deleting the note removes its words.
	allNotes, _, _ := walkOffset[note](a, "/api/um/v3/notes/?limit=100&contact_identity_id="+itoa(y.ID))
	for _, n := range allNotes {
		expectStatus(t, a.del("/api/um/v3/notes/"+itoa(n.ID)+"/"), 204, "delete note")
	}
	if got, _ := searchContacts(t, a, "quokka"); len(got) != 0 {
		t.Fatalf("after note delete quokka: %v", got)
	}
	// Country codes are searchable by name.
	if got, _ := searchContacts(t, a, "germany"); len(got) == 0 {
		t.Fatal("germany finds nobody")
	}
	// Filters and search combine.
	got, _ = searchContacts(t, a, "wombat")
	var f page[contact]
	a.mustGet("/api/um/v3/contact_identities/?search_query=wombat&id="+itoa(u.ID), &f)
	if *f.Count != 1 || f.Results[0].ID != u.ID || len(got) != 2 {
		t.Fatalf("search with id filter: %+v", f)
	}
}

func TestConversationSearchRanking(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{})
	a := newAPI(t, r)
	// Conversations whose messages mention the word: C-weighted matches only.
	msgHits, count := searchConversations(t, a, "waterproof")
	if count == 0 || len(msgHits) != count {
		t.Fatalf("waterproof: %d hits, count %d; the seed must mention it in messages", len(msgHits), count)
	}
	inHits := map[int64]bool{}
	for _, id := range msgHits {
		inHits[id] = true
	}
	// A contact none of whose conversations mention it gets it in the city (A weight).
	var x contact
	for _, c := range plainContacts(t, a, 1) {
		convs, _, _ := walkOffset[conversation](a, "/api/um/v3/conversations/?limit=100&contact_identity_id="+itoa(c.ID))
		clean := len(convs) > 0
		for _, cv := range convs {
			if inHits[cv.ID] {
				clean = false
			}
		}
		if clean {
			x = c
			break
		}
	}
	if x.ID == 0 {
		t.Fatal("no contact without the word")
	}
	expectStatus(t, a.send("PATCH", "/api/um/v3/contact_identities/"+itoa(x.ID)+"/", map[string]any{"city": "Waterproofton"}), 200, "patch city")
	xConvs, _, _ := walkOffset[conversation](a, "/api/um/v3/conversations/?limit=100&contact_identity_id="+itoa(x.ID))
	got, count := searchConversations(t, a, "waterproof")
	if count != len(msgHits)+len(xConvs) {
		t.Fatalf("count %d, want %d + %d", count, len(msgHits), len(xConvs))
	}
	for i := range xConvs {
		if got[i] == 0 || inHits[got[i]] {
			t.Fatalf("rank %d is %d, a message-only match above the contact-city match: %v", i, got[i], got)
		}
	}
	// The contact's name is A-weighted too, and OR combines with a message word.
	expectStatus(t, a.send("PATCH", "/api/um/v3/contact_identities/"+itoa(x.ID)+"/", map[string]any{"name": "Zanzibar Quill"}), 200, "patch name")
	got, _ = searchConversations(t, a, "zanzibar")
	if len(got) != len(xConvs) {
		t.Fatalf("zanzibar: %v, want the %d conversations of contact %d", got, len(xConvs), x.ID)
	}
	got, _ = searchConversations(t, a, "zanz waterproof")
	if len(got) != len(msgHits)+len(xConvs) || inHits[got[0]] {
		t.Fatalf("zanz waterproof: %v", got)
	}
	// Stemmed: "deliveries" finds "delivery"/"delivered" in messages.
	if got, _ := searchConversations(t, a, "deliveries"); len(got) == 0 {
		t.Fatal("deliveries finds nothing")
	}
	// Search with a filter.
	var p page[conversation]
	a.mustGet("/api/um/v3/conversations/?search_query=waterproof&status=pending", &p)
	for _, c := range p.Results {
		if c.Status != "pending" {
			t.Fatalf("status filter ignored with search: %d is %s", c.ID, c.Status)
		}
	}
}

func TestSearchQuerySyntaxIsSanitized(t *testing.T) {
	t.Parallel()
	a := shared(t)
	for _, s := range []string{
		`"`, `"unbalanced`, `*`, `a*b`, `NEAR(a b)`, `a AND`, `OR OR`, `NOT`, `(`, `)`, `^start`, `name:foo`,
		`-`, `--`, `{name}`, `col:*`, `'; DROP TABLE contacts; --`, "\x00", "\x1b[2J", `""""`, `a"b"c`,
		"\u202e", "😀", "中文", strings.Repeat("x ", 500), `+`, `%`, `\`, `a+b-c`, "\xff\xfe", "ab\xffcd",
	} {
		for _, res := range []string{"conversations", "contact_identities"} {
			r := a.get("/api/um/v3/" + res + "/?search_query=" + url.QueryEscape(s))
			expectStatus(t, r, 200, res+" search "+s)
		}
	}
	// Keywords without letters or digits match nothing.
	var p page[contact]
	a.mustGet("/api/um/v3/contact_identities/?search_query="+url.QueryEscape("*** ---"), &p)
	if *p.Count != 0 {
		t.Fatalf("punctuation-only search: count %d", *p.Count)
	}
	// A blank search_query is no search.
	var all, blank page[contact]
	a.mustGet("/api/um/v3/contact_identities/", &all)
	a.mustGet("/api/um/v3/contact_identities/?search_query=%20", &blank)
	if *all.Count != *blank.Count {
		t.Fatalf("blank search: %d, without: %d", *blank.Count, *all.Count)
	}
	// Links carry the search.
	a.mustGet("/api/um/v3/contact_identities/?limit=1&search_query=a", &p)
	if p.Next == nil || !strings.Contains(*p.Next, "search_query=a") {
		t.Fatalf("next link without search_query: %v", p.Next)
	}
}

// The field decides first: one occurrence in an A-weighted field outranks any number of
// occurrences in a lower-weighted one. The seeded hostile conversation repeats "dull" in a
// 10,000-character message line more than 200 times (C weight).
func TestSearchFieldOutranksOccurrences(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{})
	a := newAPI(t, r)
	hostile := a.info.HostileConversationID
	hits, _ := searchConversations(t, a, "dull")
	if indexOf(hits, hostile) < 0 {
		t.Fatalf("dull: %v does not contain the hostile conversation %d", hits, hostile)
	}
	inHits := map[int64]bool{}
	for _, id := range hits {
		inHits[id] = true
	}
	cs := plainContacts(t, a, 3)
	var x contact
	var xConvs []conversation
	for _, c := range cs {
		convs, _, _ := walkOffset[conversation](a, "/api/um/v3/conversations/?limit=100&contact_identity_id="+itoa(c.ID))
		clean := len(convs) > 0
		for _, cv := range convs {
			clean = clean && !inHits[cv.ID]
		}
		if clean {
			x, xConvs = c, convs
			break
		}
	}
	if x.ID == 0 {
		t.Fatal("no plain contact whose conversations do not mention dull")
	}
	expectStatus(t, a.send("PATCH", "/api/um/v3/contact_identities/"+itoa(x.ID)+"/", map[string]any{"city": "Dull"}), 200, "patch city")
	got, count := searchConversations(t, a, "dull")
	if count != len(hits)+len(xConvs) {
		t.Fatalf("dull: count %d, want %d + %d", count, len(hits), len(xConvs))
	}
	for i := range xConvs {
		if inHits[got[i]] {
			t.Fatalf("dull: rank %d is conversation %d, a message-only match above the city match: %v", i, got[i], got)
		}
	}
	// Also when the keywords differ: the message-only match of one keyword stays below the
	// city match of the other.
	got, _ = searchConversations(t, a, "dull boy")
	for i := range xConvs {
		if inHits[got[i]] {
			t.Fatalf("dull boy: rank %d is conversation %d, a message-only match above the city match: %v", i, got[i], got)
		}
	}

	// Contacts: a street (A) outranks a note (B) repeating the word.
	var others []contact
	for _, c := range cs {
		if c.ID != x.ID {
			others = append(others, c)
		}
	}
	y, z := others[0], others[1]
	expectStatus(t, a.send("POST", "/api/um/v3/notes/", map[string]any{"contact_identity_id": y.ID,
		"body": strings.Repeat("aardwolf ", 60)}), 201, "note y")
	expectStatus(t, a.send("PATCH", "/api/um/v3/contact_identities/"+itoa(z.ID)+"/", map[string]any{"street": "Aardwolf Lane 3"}), 200, "patch street")
	got, count = searchContacts(t, a, "aardwolf")
	if count != 2 || got[0] != z.ID || got[1] != y.ID {
		t.Fatalf("aardwolf: %v (count %d), want the street match %d before the note match %d", got, count, z.ID, y.ID)
	}
}
