package sandbox_test

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/parley-tui/parley/sandbox"
)

var determinismPaths = []string{
	"/api/um/v3/conversations/?limit=100",
	"/api/um/v3/conversations/?limit=100&offset=100",
	"/api/um/v3/contact_identities/?limit=100",
	"/api/um/v3/contact_identities/?search_query=an+berlin",
	"/api/um/v3/conversations/?search_query=order+thanks&limit=50",
	"/api/um/v3/notes/?limit=100",
	"/api/um/v3/navigation/?limit=100",
	"/api/um/v3/operators/",
	"/api/um/v1/analytics/um_operator_slot_usage/?event_date_from=2026-10-01&event_date_to=2026-11-20",
	"/api/um/v1/analytics/um_conversation_rating/?event_date_from=2026-10-01&event_date_to=2026-11-20",
}

func bodies(t *testing.T, a *api) [][]byte {
	t.Helper()
	var out [][]byte
	paths := append([]string(nil), determinismPaths...)
	paths = append(paths,
		"/api/um/v3/conversations/"+itoa(a.info.LongConversationID)+"/",
		"/api/um/v3/conversations/"+itoa(a.info.LongConversationID)+"/messages/",
		"/api/um/v3/conversations/"+itoa(a.info.HostileConversationID)+"/messages/",
	)
	for _, p := range paths {
		r := a.get(p)
		expectStatus(t, r, 200, p)
		out = append(out, bytes.ReplaceAll(r.body, []byte(a.base), []byte("BASE")))
	}
	return out
}

func TestDeterministicSeed(t *testing.T) {
	t.Parallel()
	a := newAPI(t, startSeeded(t, sandbox.Options{Seed: 7}))
	b := newAPI(t, startSeeded(t, sandbox.Options{Seed: 7}))
	if a.info.LongConversationID != b.info.LongConversationID || a.info.HostileConversationID != b.info.HostileConversationID ||
		a.info.RestrictedOperatorID != b.info.RestrictedOperatorID {
		t.Fatalf("infos differ: %+v / %+v", a.info, b.info)
	}
	// The data is the seed's; the tokens are each database's own (TestNewDatabasesGetTheirOwnTokens).
	if a.info.CustomerToken == b.info.CustomerToken {
		t.Fatal("two new databases of one seed share the customer token")
	}
	ba, bb := bodies(t, a), bodies(t, b)
	for i := range ba {
		if !bytes.Equal(ba[i], bb[i]) {
			t.Fatalf("response %d differs between two servers with the same seed and clock", i)
		}
	}
	c := newAPI(t, start(t, sandbox.Options{Seed: 8}))
	if bytes.Equal(bodies(t, c)[0], ba[0]) {
		t.Fatal("another seed gives the same data")
	}
}

func TestSeededDataLooksRight(t *testing.T) {
	t.Parallel()
	a := shared(t)
	if len(a.info.OrgIDs) != 2 || a.info.DefaultOrgID != a.info.OrgIDs[0] || len(a.info.OrgTokens) != 2 {
		t.Fatalf("info: %+v", a.info)
	}
	// Exactly one agent across the organizations, the restricted operator.
	agents := 0
	for _, org := range a.info.OrgIDs {
		ops, _, _ := walkOffset[operator](a.withToken(a.info.OrgTokens[org]), "/api/um/v3/operators/?limit=100")
		for _, o := range ops {
			if o.Role == "agent" {
				agents++
				if o.ID != a.info.RestrictedOperatorID {
					t.Fatalf("agent %d is not the restricted operator %d", o.ID, a.info.RestrictedOperatorID)
				}
			}
			if o.Role == "owner" && org == a.info.DefaultOrgID && o.ID != a.info.OwnerOperatorID {
				t.Fatalf("owner %d, info says %d", o.ID, a.info.OwnerOperatorID)
			}
		}
	}
	if agents != 1 {
		t.Fatalf("%d agents", agents)
	}
	statuses := map[string]int{}
	unread := 0
	for _, c := range allConversations(a) {
		statuses[c.Status]++
		if !c.MarkedReadOperator {
			unread++
		}
		if c.LastMessage == nil {
			t.Fatalf("conversation %d without last_message", c.ID)
		}
		if c.ConversationPartSet != nil {
			t.Fatal("lists must not carry conversation_part_set")
		}
	}
	if statuses["new"] == 0 || statuses["pending"] == 0 || statuses["ended"] == 0 || unread == 0 {
		t.Fatalf("statuses %v, unread %d", statuses, unread)
	}
	// The hostile conversation carries escape sequences in the contact name and messages.
	var h conversation
	a.mustGet("/api/um/v3/conversations/"+itoa(a.info.HostileConversationID)+"/", &h)
	if h.Contact.Name == nil || !bytes.Contains([]byte(*h.Contact.Name), []byte("\x1b]0;pwned\x07")) {
		t.Fatalf("hostile name %v", h.Contact.Name)
	}
	msgs, _, _ := walkCursor[message](a, "/api/um/v3/conversations/"+itoa(a.info.HostileConversationID)+"/messages/")
	var joined []byte
	empty, long := false, false
	for _, m := range msgs {
		joined = append(joined, m.Body...)
		empty = empty || m.Body == ""
		long = long || len(m.Body) == 10000
	}
	for _, want := range []string{"\x1b[2J", "\x1b]52;", "\x1b]8;;", "\u009b", "\u202e", "\u200d", "👩‍💻", "🏳️‍🌈", "\x1bP", "مرحبا", "שלום", "订单",
		"\u200c", "\U000E0001\U000E0068", "\u115f\u1160\u3164\uffa0", "\u061c"} {
		if !bytes.Contains(joined, []byte(want)) {
			t.Fatalf("hostile messages lack %q", want)
		}
	}
	if !empty || !long {
		t.Fatalf("hostile messages: empty %v, 10,000-character line %v", empty, long)
	}
}

// Every new database gets tokens of its own from crypto/rand, whatever its seed: two files
// seeded alike have different tokens, and a file that is reused keeps its tokens.
func TestNewDatabasesGetTheirOwnTokens(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	open := func(name string) sandbox.Info {
		t.Helper()
		s, err := sandbox.Open(ctx, sandbox.Options{DBPath: filepath.Join(dir, name), Size: sandbox.SizeSmall, Seed: 3, Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		info := s.Info()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		return info
	}
	tokens := func(i sandbox.Info) []string {
		out := []string{i.CustomerToken}
		for _, id := range i.OrgIDs {
			out = append(out, i.OrgTokens[id])
		}
		return out
	}
	wellFormed := regexp.MustCompile(`^(cust_[0-9a-f]{40}|org_[0-9]+_[0-9a-f]{32})$`)
	first, second := tokens(open("a.db")), tokens(open("b.db"))
	if len(first) != 3 || len(second) != 3 {
		t.Fatalf("tokens %v and %v, want a customer token and two organization tokens each", first, second)
	}
	seen := map[string]bool{}
	for _, tok := range append(append([]string(nil), first...), second...) {
		if !wellFormed.MatchString(tok) {
			t.Fatalf("token %q is not a prefix and hex digits", tok)
		}
		if seen[tok] {
			t.Fatalf("token %q appears twice across two new databases of one seed", tok)
		}
		seen[tok] = true
	}
	if again := tokens(open("a.db")); !slices.Equal(again, first) {
		t.Fatalf("the reused database changed its tokens: %v, then %v", first, again)
	}
}

func TestReuseDatabaseFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "sandbox.db")
	opts := sandbox.Options{DBPath: path, Size: sandbox.SizeSmall, Seed: 3, Now: clock, BurstRate: -1}
	ctx := context.Background()
	s1, err := sandbox.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	if s1.Reused() {
		t.Fatal("a new file cannot be reused")
	}
	info1 := s1.Info()
	// A change made through the API survives a restart: the data is not seeded again.
	r := httptest.NewServer(s1)
	a := apiFor(t, r.URL, info1)
	expectStatus(t, a.send("PATCH", "/api/um/v3/contact_identities/"+itoa(allContacts(a)[0].ID)+"/", map[string]any{"city": "Reuseville"}), 200, "patch")
	r.Close()
	if err := s1.Close(); err != nil {
		t.Fatal(err)
	}

	begin := time.Now()
	s2, err := sandbox.Open(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	reopen := time.Since(begin)
	t.Logf("second start took %v", reopen)
	if !s2.Reused() {
		t.Fatal("the seeded file was not reused")
	}
	if s2.Info().CustomerToken != info1.CustomerToken {
		t.Fatal("tokens changed on reuse")
	}
	r2 := httptest.NewServer(s2)
	b := apiFor(t, r2.URL, s2.Info())
	if got, _ := searchContacts(t, b, "reuseville"); len(got) != 1 {
		t.Fatalf("the edit did not survive the restart: %v", got)
	}
	r2.Close()
	if err := s2.Close(); err != nil {
		t.Fatal(err)
	}

	// Another seed reseeds the file.
	opts3 := opts
	opts3.Seed = 4
	s3, err := sandbox.Open(ctx, opts3)
	if err != nil {
		t.Fatal(err)
	}
	if s3.Reused() || s3.Info().CustomerToken == info1.CustomerToken {
		t.Fatal("a different seed reused the file")
	}
	if err := s3.Close(); err != nil {
		t.Fatal(err)
	}
	// Eight days later the file is seeded anew.
	opts4 := opts3
	opts4.Now = func() time.Time { return fixedNow.Add(8 * 24 * time.Hour) }
	s4, err := sandbox.Open(ctx, opts4)
	if err != nil {
		t.Fatal(err)
	}
	if s4.Reused() {
		t.Fatal("a file seeded 8 days ago was reused")
	}
	if err := s4.Close(); err != nil {
		t.Fatal(err)
	}
	// Six days later it is reused.
	opts5 := opts4
	opts5.Now = func() time.Time { return fixedNow.Add(14 * 24 * time.Hour) }
	s5, err := sandbox.Open(ctx, opts5)
	if err != nil {
		t.Fatal(err)
	}
	if !s5.Reused() {
		t.Fatal("a file seeded 6 days ago was not reused")
	}
	if err := s5.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

func TestDamagedDatabaseFileIsReplaced(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "broken.db")
	if err := os.WriteFile(path, bytes.Repeat([]byte("this is not a database "), 400), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := sandbox.Open(context.Background(), sandbox.Options{DBPath: path, Size: sandbox.SizeSmall, Now: clock})
	if err != nil {
		t.Fatalf("open over a damaged file: %v", err)
	}
	defer s.Close()
	if s.Reused() || s.Info().CustomerToken == "" {
		t.Fatal("the damaged file was not seeded anew")
	}
}
