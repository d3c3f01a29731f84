package sandbox_test

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parley-tui/parley/sandbox"
)

func TestAuthentication(t *testing.T) {
	t.Parallel()
	a := shared(t)
	for _, tok := range []string{"", "nope", a.info.CustomerToken + "x"} {
		r := a.withToken(tok).get("/api/um/v3/conversations/")
		expectStatus(t, r, 401, "token "+tok)
		if d := r.detail(t); d != "Invalid token." {
			t.Fatalf("401 detail %q", d)
		}
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Fatalf("401 content type %q", ct)
		}
	}
	expectStatus(t, a.withToken("Token "+a.info.CustomerToken).get("/api/um/v3/operators/"), 200, "Token prefix")
	expectStatus(t, a.withToken("Bearer "+a.info.CustomerToken).get("/api/um/v3/operators/"), 200, "Bearer prefix")
	expectStatus(t, a.withToken("").get("/api/um/v1/analytics/um_conversation_rating/"), 401, "analytics without token")
}

func TestOrganizationContext(t *testing.T) {
	t.Parallel()
	a := shared(t)
	def, second := a.info.OrgIDs[0], a.info.OrgIDs[1]
	orgOf := func(c *api) int64 {
		var p page[conversation]
		c.mustGet("/api/um/v3/conversations/?limit=1", &p)
		return p.Results[0].OrganizationID
	}
	if got := orgOf(a); got != def {
		t.Fatalf("customer token default org %d, want %d", got, def)
	}
	if got := orgOf(a.as("Service-Organization-Id", itoa(second))); got != second {
		t.Fatalf("header selects %d, want %d", got, second)
	}
	for _, v := range []string{"999", "abc"} {
		if got := orgOf(a.as("Service-Organization-Id", v)); got != def {
			t.Fatalf("unknown org %s runs in %d, want default %d", v, got, def)
		}
	}
	org2 := a.withToken(a.info.OrgTokens[second])
	if got := orgOf(org2); got != second {
		t.Fatalf("org token runs in %d", got)
	}
	if got := orgOf(org2.as("Service-Organization-Id", itoa(def))); got != second {
		t.Fatal("an organization token must ignore Service-Organization-Id")
	}
	// Items of another organization are not found.
	var p page[conversation]
	org2.mustGet("/api/um/v3/conversations/?limit=1", &p)
	expectStatus(t, a.get("/api/um/v3/conversations/"+itoa(p.Results[0].ID)+"/"), 404, "other org's conversation")
	// Operator header.
	r := a.as("Service-Operator-Id", "abc").get("/api/um/v3/operators/")
	expectStatus(t, r, 400, "non-integer operator")
	r.detail(t)
	r = a.as("Service-Operator-Id", "1").get("/api/um/v3/operators/")
	expectStatus(t, r, 400, "unknown operator")
	r.detail(t)
	var ops page[operator]
	org2.mustGet("/api/um/v3/operators/", &ops)
	expectStatus(t, a.as("Service-Operator-Id", itoa(ops.Results[0].ID)).get("/api/um/v3/operators/"), 400, "operator of another org")
}

func TestPermissions(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{})
	a := newAPI(t, r)
	agentID := a.info.RestrictedOperatorID
	agent := a.as("Service-Operator-Id", itoa(agentID))
	var ops page[operator]
	a.mustGet("/api/um/v3/operators/", &ops)
	var bot, admin operator
	for _, o := range ops.Results {
		switch o.Role {
		case "bot":
			bot = o
		case "admin":
			admin = o
		}
	}
	if bot.ID == 0 || admin.ID == 0 {
		t.Fatalf("operators: %+v", ops.Results)
	}
	botc := a.as("Service-Operator-Id", itoa(bot.ID))
	convs := allConversations(a)
	conv := convs[5]
	var endedConv conversation
	for _, c := range convs {
		if c.Status == "ended" {
			endedConv = c
		}
	}
	contacts := allContacts(a)
	forbidden := func(c *api, method, path string, body any) {
		t.Helper()
		var res resp
		if body == nil {
			res = c.do(method, path, nil, "")
		} else {
			res = c.send(method, path, body)
		}
		expectStatus(t, res, 403, method+" "+path)
		if d := res.detail(t); !strings.Contains(d, "permission") {
			t.Fatalf("403 detail %q", d)
		}
	}
	// The agent reads, edits conversations, contacts and notes, toggles its own away status.
	expectStatus(t, agent.get("/api/um/v3/conversations/"), 200, "agent reads")
	expectStatus(t, agent.send("PATCH", "/api/um/v3/conversations/"+itoa(conv.ID)+"/", map[string]any{"topics": []string{"Billing"}}), 200, "agent edits conversation")
	expectStatus(t, agent.send("PATCH", "/api/um/v3/contact_identities/"+itoa(contacts[3].ID)+"/", map[string]any{"company": "X"}), 200, "agent edits contact")
	expectStatus(t, agent.send("POST", "/api/um/v3/notes/", map[string]any{"contact_identity_id": contacts[3].ID, "body": "hi"}), 201, "agent writes note")
	expectStatus(t, agent.send("PATCH", "/api/um/v3/operators/"+itoa(agentID)+"/away/", map[string]any{"is_away": true}), 200, "agent own away")
	expectStatus(t, agent.send("PATCH", "/api/um/v3/operators/"+itoa(agentID)+"/", map[string]any{"display_name": "Me"}), 200, "agent edits itself")
	// …but deletes nothing and changes no other operator.
	forbidden(agent, "DELETE", "/api/um/v3/conversations/"+itoa(endedConv.ID)+"/", nil)
	forbidden(agent, "DELETE", "/api/um/v3/conversations/?delete_ids="+itoa(endedConv.ID), nil)
	forbidden(agent, "DELETE", "/api/um/v3/contact_identities/"+itoa(contacts[3].ID)+"/", nil)
	forbidden(agent, "DELETE", "/api/um/v3/contact_identities/", nil)
	forbidden(agent, "DELETE", "/api/um/v3/operators/"+itoa(admin.ID)+"/", nil)
	forbidden(agent, "PATCH", "/api/um/v3/operators/"+itoa(admin.ID)+"/", map[string]any{"name": "x"})
	forbidden(agent, "PATCH", "/api/um/v3/operators/"+itoa(admin.ID)+"/away/", map[string]any{"is_away": true})
	// The detail names the operator, its role and what it may not do.
	for path, want := range map[string]string{
		"/api/um/v3/operators/" + itoa(admin.ID) + "/":         `operator ` + itoa(agentID) + ` with role "agent" may not change other operators.`,
		"/api/um/v3/operators/" + itoa(admin.ID) + "/away/":    `operator ` + itoa(agentID) + ` with role "agent" may not change the away status of other operators.`,
		"/api/um/v3/conversations/" + itoa(endedConv.ID) + "/": `operator ` + itoa(agentID) + ` with role "agent" may not delete.`,
	} {
		method, body := "PATCH", any(map[string]any{"is_away": true})
		if strings.HasPrefix(path, "/api/um/v3/conversations/") {
			method, body = "DELETE", nil
		}
		res := agent.do(method, path, body, "application/json")
		if d := res.detail(t); !strings.HasSuffix(d, want) {
			t.Errorf("%s %s: detail %q, want …%q", method, path, d, want)
		}
	}
	var notes page[note]
	a.mustGet("/api/um/v3/notes/?limit=1", &notes)
	forbidden(agent, "DELETE", "/api/um/v3/notes/"+itoa(notes.Results[0].ID)+"/", nil)
	// The same requests as the owner succeed.
	expectStatus(t, a.send("PATCH", "/api/um/v3/operators/"+itoa(admin.ID)+"/away/", map[string]any{"is_away": true}), 200, "owner toggles away")
	expectStatus(t, a.del("/api/um/v3/conversations/"+itoa(endedConv.ID)+"/"), 204, "owner deletes")
	// The bot only reads.
	expectStatus(t, botc.get("/api/um/v3/contact_identities/"), 200, "bot reads")
	forbidden(botc, "PATCH", "/api/um/v3/conversations/"+itoa(conv.ID)+"/", map[string]any{"status": "ended"})
	forbidden(botc, "POST", "/api/um/v3/notes/", map[string]any{"contact_identity_id": contacts[3].ID, "body": "x"})
	forbidden(botc, "PUT", "/api/um/v3/contact_identities/?identifier=email", map[string]any{"email": "a@b.c"})
	forbidden(botc, "PATCH", "/api/um/v3/operators/"+itoa(bot.ID)+"/away/", map[string]any{"is_away": true})
	// write_permission reflects the acting operator.
	var c conversation
	var raw map[string]any
	botc.get("/api/um/v3/conversations/"+itoa(conv.ID)+"/").json(t, &raw)
	if raw["write_permission"] != false || raw["read_permission"] != true {
		t.Fatalf("bot permissions: %v %v", raw["read_permission"], raw["write_permission"])
	}
	a.mustGet("/api/um/v3/conversations/"+itoa(conv.ID)+"/", &c)
}

func TestNotFoundMethodAndMediaType(t *testing.T) {
	t.Parallel()
	a := newAPI(t, start(t, sandbox.Options{})) // it writes (marked_read_operator): not on the shared sandbox
	for _, p := range []string{
		"/api/um/v3/conversations/1/",
		"/api/um/v3/conversations/abc/",
		"/api/um/v3/contact_identities/99999999999999999999/",
		"/api/um/v3/notes/1/",
		"/api/um/v3/operators/1/",
		"/api/um/v3/operators/1/slots/",
		"/api/um/v3/unknown/",
		"/api/um/v2/conversations/",
		"/api/um/v1/analytics/um_not_a_metric/",
		"/api/um/analytics/um_not_a_metric/",
		"/elsewhere",
	} {
		r := a.get(p)
		expectStatus(t, r, 404, p)
		if d := r.detail(t); d != "Not found." {
			t.Fatalf("%s: detail %q", p, d)
		}
	}
	r := a.send("POST", "/api/um/v3/conversations/", map[string]any{})
	expectStatus(t, r, 405, "POST conversations")
	r.detail(t)
	if r.header.Get("Allow") == "" {
		t.Fatal("405 without Allow")
	}
	expectStatus(t, a.send("POST", "/api/um/v1/analytics/um_conversation_rating/", map[string]any{}), 405, "POST analytics")
	expectStatus(t, a.del("/api/um/v3/navigation/"), 405, "DELETE navigation")
	// 415 without JSON content type, for POST, PATCH and PUT; parameters are fine.
	c := allConversations(a)[0]
	for _, tc := range []struct{ method, path string }{
		{"POST", "/api/um/v3/notes/"},
		{"PATCH", "/api/um/v3/conversations/" + itoa(c.ID) + "/"},
		{"PUT", "/api/um/v3/contact_identities/?identifier=email"},
		{"PATCH", "/api/um/v3/operators/" + itoa(a.info.OwnerOperatorID) + "/away/"},
	} {
		for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded"} {
			r := a.do(tc.method, tc.path, `{"x":1}`, ct)
			expectStatus(t, r, 415, tc.method+" "+tc.path+" "+ct)
			r.detail(t)
		}
	}
	r = a.do("PATCH", "/api/um/v3/conversations/"+itoa(c.ID)+"/", `{"marked_read_operator": true}`, "application/json; charset=utf-8")
	expectStatus(t, r, 200, "charset parameter")
	r = a.do("PATCH", "/api/um/v3/conversations/"+itoa(c.ID)+"/", `{"marked_read_operator": tru`, "application/json")
	expectStatus(t, r, 400, "invalid JSON")
	r.detail(t)
}

func TestPathPrefix(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{PathPrefix: "/proxy/x/"})
	if !strings.HasSuffix(r.URL, "/proxy/x") {
		t.Fatalf("URL %s", r.URL)
	}
	a := newAPI(t, r)
	var p page[conversation]
	a.mustGet("/api/um/v3/conversations/?limit=2", &p)
	if p.Next == nil || !strings.HasPrefix(*p.Next, r.URL+"/api/um/v3/conversations/?") {
		t.Fatalf("next link %v lacks the prefix %s", p.Next, r.URL)
	}
	var p2 page[conversation]
	a.mustGet(*p.Next, &p2)
	if p2.Previous == nil || !strings.HasPrefix(*p2.Previous, r.URL+"/") {
		t.Fatalf("previous %v", p2.Previous)
	}
	var m page[message]
	a.mustGet("/api/um/v3/conversations/"+itoa(a.info.LongConversationID)+"/messages/", &m)
	if !strings.HasPrefix(*m.Next, r.URL+"/") {
		t.Fatalf("messages next %s", *m.Next)
	}
	// Without the prefix nothing is served.
	plain := strings.TrimSuffix(r.URL, "/proxy/x")
	b := a.as()
	b.base = plain
	expectStatus(t, b.get("/api/um/v3/conversations/"), 404, "without prefix")
	// Forwarded host and scheme shape the links.
	var fp page[conversation]
	a.as("X-Forwarded-Host", "demo.example", "X-Forwarded-Proto", "https").mustGet("/api/um/v3/conversations/?limit=2", &fp)
	if !strings.HasPrefix(*fp.Next, "https://demo.example/proxy/x/api/um/v3/conversations/?") {
		t.Fatalf("forwarded next %s", *fp.Next)
	}
	// A proxy that strips its own prefix names it in X-Forwarded-Prefix; links put it back.
	host := strings.TrimPrefix(plain, "http://")
	a.as("X-Forwarded-Prefix", "/edge/").mustGet("/api/um/v3/conversations/?limit=2", &fp)
	if want := "http://" + host + "/edge/proxy/x/api/um/v3/conversations/?"; !strings.HasPrefix(*fp.Next, want) {
		t.Fatalf("next behind a stripping proxy %s, want %s…", *fp.Next, want)
	}
	var mp page[message]
	a.as("X-Forwarded-Prefix", "/edge").mustGet("/api/um/v3/conversations/"+itoa(a.info.LongConversationID)+"/messages/", &mp)
	if !strings.HasPrefix(*mp.Next, "http://"+host+"/edge/proxy/x/api/um/v3/conversations/") {
		t.Fatalf("messages next behind a stripping proxy %s", *mp.Next)
	}
	// A prefix that is not a plain path is ignored.
	for _, bad := range []string{"//evil.example", "edge", "/a?b", "/a b", `/a\b`} {
		a.as("X-Forwarded-Prefix", bad).mustGet("/api/um/v3/conversations/?limit=2", &fp)
		if !strings.HasPrefix(*fp.Next, r.URL+"/api/um/v3/conversations/?") {
			t.Fatalf("prefix %q gave next %s", bad, *fp.Next)
		}
	}
}

func retryAfter(t *testing.T, r resp) int {
	t.Helper()
	v := r.header.Get("Retry-After")
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("Retry-After %q", v)
	}
	return n
}

func TestDailyLimit(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{DailyLimit: 3})
	a := newAPI(t, r)
	for i := 0; i < 3; i++ {
		expectStatus(t, a.get("/api/um/v3/conversations/?limit=1"), 200, "within the limit")
	}
	res := a.get("/api/um/v3/conversations/" + itoa(a.info.LongConversationID) + "/messages/")
	expectStatus(t, res, 429, "messages share the conversations counter")
	res.detail(t)
	secs := retryAfter(t, res)
	midnight := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	if want := int(midnight.Sub(fixedNow).Seconds()) + 1; secs != want && secs != want-1 {
		t.Fatalf("Retry-After %d, want about %d (until midnight UTC)", secs, want)
	}
	// Other families and other organizations have their own counters.
	expectStatus(t, a.get("/api/um/v3/contact_identities/?limit=1"), 200, "contacts counter")
	expectStatus(t, a.get("/api/um/v3/notes/?limit=1"), 200, "notes counter")
	expectStatus(t, a.as("Service-Organization-Id", itoa(a.info.OrgIDs[1])).get("/api/um/v3/conversations/?limit=1"), 200, "other org")
	// Every method of the family counts: the operators family.
	for i := 0; i < 3; i++ {
		expectStatus(t, a.get("/api/um/v3/operators/"+itoa(a.info.OwnerOperatorID)+"/slots/"), 200, "slots")
	}
	expectStatus(t, a.send("PATCH", "/api/um/v3/operators/"+itoa(a.info.OwnerOperatorID)+"/away/", map[string]any{"is_away": true}), 429, "away counts with operators")
}

func TestDailyLimitResetsAtMidnight(t *testing.T) {
	t.Parallel()
	clk := &settableClock{now: fixedNow}
	r := start(t, sandbox.Options{DailyLimit: 2, Now: clk.Now})
	a := newAPI(t, r)
	expectStatus(t, a.get("/api/um/v3/navigation/"), 200, "1")
	expectStatus(t, a.get("/api/um/v3/navigation/"), 200, "2")
	expectStatus(t, a.get("/api/um/v3/navigation/"), 429, "3")
	clk.Set(time.Date(2026, 11, 21, 0, 0, 1, 0, time.UTC))
	expectStatus(t, a.get("/api/um/v3/navigation/"), 200, "after midnight")
}

func TestBurstThrottling(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{BurstRate: 0.5, Burst: 3})
	a := newAPI(t, r)
	for i := 0; i < 3; i++ {
		expectStatus(t, a.get("/api/um/v3/operators/"), 200, "burst")
	}
	res := a.get("/api/um/v3/operators/")
	expectStatus(t, res, 429, "throttled")
	res.detail(t)
	if n := retryAfter(t, res); n > 2 {
		t.Fatalf("Retry-After %d", n)
	}
	// Another token has its own bucket.
	expectStatus(t, a.withToken(a.info.OrgTokens[a.info.DefaultOrgID]).get("/api/um/v3/operators/"), 200, "other token")
}

func TestAnalyticsPerMinuteLimit(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{AnalyticsPerMinute: 2})
	a := newAPI(t, r)
	expectStatus(t, a.get("/api/um/v1/analytics/um_conversation_rating/"), 200, "1")
	expectStatus(t, a.get("/api/um/analytics/um_conversation_rating/"), 200, "2 (unversioned shares the counter)")
	res := a.get("/api/um/v1/analytics/um_conversation_rating/")
	expectStatus(t, res, 429, "3")
	res.detail(t)
	if n := retryAfter(t, res); n > 60 {
		t.Fatalf("Retry-After %d", n)
	}
	expectStatus(t, a.get("/api/um/v1/analytics/um_conversation_feedback/"), 200, "other metric")
	expectStatus(t, a.as("Service-Organization-Id", itoa(a.info.OrgIDs[1])).get("/api/um/v1/analytics/um_conversation_rating/"), 200, "other org")
}

func TestRequestLog(t *testing.T) {
	t.Parallel()
	var buf syncBuffer
	r := start(t, sandbox.Options{RequestLog: &buf})
	a := newAPI(t, r)
	a.get("/api/um/v3/operators/?limit=2")
	a.withToken("bad").get("/api/um/v3/operators/")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("log lines: %q", buf.String())
	}
	for _, want := range []string{`"method":"GET"`, `"path":"/api/um/v3/operators/"`, `"query":"limit=2"`, `"status":200`, `"duration_ms":`, `"time":"`} {
		if !strings.Contains(lines[0], want) {
			t.Fatalf("log line %s lacks %s", lines[0], want)
		}
	}
	if !strings.Contains(lines[1], `"status":401`) {
		t.Fatalf("second line %s", lines[1])
	}
	if strings.Contains(buf.String(), a.info.CustomerToken) {
		t.Fatal("the log contains the token")
	}
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// settableClock is a clock a test can move.
type settableClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *settableClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *settableClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}
