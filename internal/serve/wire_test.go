package serve

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/parley-tui/parley/client"
)

// Every write of a session goes out as the session's operator through the role's gate, and
// each one, sent or refused, is a line of the audit log; a refused write sends nothing.
func TestSessionWritesPassTheGateAndTheAuditLog(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	ms := threeUsers(t, api)
	auditBuf := &syncBuffer{}
	th := startHub(t, api, ms, func(o *Options) { o.Audit = NewAudit(auditBuf, api.info.CustomerToken) })
	users := th.currentUsers()
	user := func(name string) User {
		for _, u := range users.List {
			if u.Name == name {
				return u
			}
		}
		t.Fatalf("no user %s", name)
		return User{}
	}
	clara, sam, vic := user("Clara"), user("Sam"), user("Vic")
	ctx := context.Background()
	conv := api.info.HostileConversationID
	sent := func() int { return api.log.count(t, func(r logged) bool { return r.Method != "GET" }) }

	// A viewer's write is refused before anything is sent.
	before := sent()
	_, err := th.sessionClient(vic).SetConversationTopics(ctx, conv, []string{"Billing"})
	var re *client.RefusedError
	if !errors.As(err, &re) || re.Reason != "a viewer cannot change anything" {
		t.Fatalf("viewer's write: %v", err)
	}
	if n := sent() - before; n != 0 {
		t.Errorf("the viewer's refused write sent %d requests", n)
	}

	// An agent writes as their own operator, and cannot act as another.
	agent := th.sessionClient(clara)
	if _, err := agent.SetConversationTopics(ctx, conv, []string{"Billing"}); err != nil {
		t.Fatalf("agent's own write: %v", err)
	}
	if _, err := agent.SetOperatorAway(ctx, clara.Operator, true); err != nil {
		t.Fatalf("agent's own away: %v", err)
	}
	before = sent()
	if _, err := agent.WithContext(clara.Org, sam.Operator).SetConversationTopics(ctx, conv, []string{"Other"}); !errors.As(err, &re) {
		t.Errorf("agent acting as operator %d: %v", sam.Operator, err)
	}
	if _, err := agent.SetOperatorAway(ctx, sam.Operator, true); !errors.As(err, &re) {
		t.Errorf("agent setting operator %d away: %v", sam.Operator, err)
	}
	if n := sent() - before; n != 0 {
		t.Errorf("the agent's refused writes sent %d requests", n)
	}

	// A supervisor acts as any operator of the organization.
	if _, err := th.sessionClient(sam).WithContext(sam.Org, clara.Operator).SetOperatorAway(ctx, clara.Operator, false); err != nil {
		t.Errorf("supervisor acting as operator %d: %v", clara.Operator, err)
	}

	lines := strings.Split(strings.TrimSpace(auditBuf.String()), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d audit lines, want 6:\n%s", len(lines), auditBuf.String())
	}
	type line struct {
		User     string `json:"user"`
		Operator int64  `json:"operator"`
		Method   string `json:"method"`
		Path     string `json:"path"`
		Status   int    `json:"status"`
		Refused  bool   `json:"refused"`
		Reason   string `json:"reason"`
	}
	want := []line{
		{"Vic", 0, "PATCH", "/api/um/v3/conversations/%d/", 0, true, "a viewer cannot change anything"},
		{"Clara", clara.Operator, "PATCH", "/api/um/v3/conversations/%d/", 200, false, ""},
		{"Clara", clara.Operator, "PATCH", "/api/um/v3/operators/%d/away/", 200, false, ""},
		{"Clara", sam.Operator, "PATCH", "/api/um/v3/conversations/%d/", 0, true, "an agent acts only as their own operator"},
		{"Clara", clara.Operator, "PATCH", "/api/um/v3/operators/%d/away/", 0, true, "an agent sets only their own away status"},
		{"Sam", clara.Operator, "PATCH", "/api/um/v3/operators/%d/away/", 200, false, ""},
	}
	for i, l := range lines {
		var got line
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatalf("audit line %q: %v", l, err)
		}
		w := want[i]
		if got.User != w.User || got.Operator != w.Operator || got.Method != w.Method || got.Refused != w.Refused ||
			got.Status != w.Status || !strings.HasPrefix(got.Reason, w.Reason) ||
			!strings.HasPrefix(got.Path, strings.Split(w.Path, "%d")[0]) {
			t.Errorf("audit line %d: %s\nwant %+v", i+1, l, w)
		}
	}
	if strings.Contains(auditBuf.String(), api.info.CustomerToken) {
		t.Error("the token is in the audit log")
	}
}
