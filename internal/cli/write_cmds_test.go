package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sandbox"
)

// These tests run every write command of the binary against a sandbox of their own,
// through a proxy that loses chosen requests (viewtest.Proxy), and read what the sandbox
// then holds with a client of their own.

// writeFixture is a sandbox, its request log, a proxy in front of it, the binary's
// environment on the proxy, and what the tests pick targets from.
type writeFixture struct {
	bin   string
	sb    *sandbox.Running
	log   *viewtest.RequestLog
	proxy *viewtest.Proxy
	env   []string
	c     *client.Client // the test's own, straight to the sandbox
	info  sandbox.Info

	convs                []client.Conversation
	contacts             []client.Contact
	ops                  []client.Operator
	owner, agent, bot    int64
	usedConvs, usedConts map[int64]bool
	awayBefore           map[int64]bool // an operator's away status before the run that writes it
}

func newWriteFixture(t *testing.T) *writeFixture { return newWriteFixtureOn(t, sandbox.Options{}) }

// newWriteFixtureOn is a fixture on a sandbox started with opts (and the fixture's log).
func newWriteFixtureOn(t *testing.T, opts sandbox.Options) *writeFixture {
	t.Helper()
	f := &writeFixture{bin: parleyBinary(t), log: &viewtest.RequestLog{}, usedConvs: map[int64]bool{}, usedConts: map[int64]bool{},
		awayBefore: map[int64]bool{}}
	opts.RequestLog = f.log
	f.sb = viewtest.Sandbox(t, opts)
	f.info = f.sb.Server.Info()
	f.proxy = viewtest.NewProxy(t, f.sb.URL)
	f.env = append(headlessEnv(t), "PARLEY_BASE_URL="+f.proxy.URL, "PARLEY_TOKEN="+f.info.CustomerToken)
	f.c = viewtest.Client(t, f.sb)
	for conv, err := range f.c.ConversationsAll(t.Context(), client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: client.MaxLimit}}) {
		if err != nil {
			t.Fatal(err)
		}
		f.convs = append(f.convs, conv)
	}
	p, err := f.c.ListContacts(t.Context(), client.ContactListOptions{ListOptions: client.ListOptions{Limit: client.MaxLimit}})
	if err != nil {
		t.Fatal(err)
	}
	f.contacts = p.Results
	if f.ops, err = f.c.AllOperators(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, o := range f.ops {
		switch {
		case o.Role == client.RoleOwner && f.owner == 0:
			f.owner = o.ID
		case o.Role == client.RoleBot && f.bot == 0:
			f.bot = o.ID
		}
	}
	f.agent = f.info.RestrictedOperatorID
	if f.owner == 0 || f.bot == 0 || f.agent == 0 || len(f.convs) < 40 || len(f.contacts) < 20 {
		t.Fatalf("the sandbox lacks what the tests need: owner %d, bot %d, agent %d, %d conversations, %d contacts",
			f.owner, f.bot, f.agent, len(f.convs), len(f.contacts))
	}
	return f
}

// conversation is a conversation no test used yet for which ok holds.
func (f *writeFixture) conversation(t *testing.T, ok func(client.Conversation) bool) int64 {
	t.Helper()
	for _, c := range f.convs {
		if !f.usedConvs[c.ID] && ok(c) {
			f.usedConvs[c.ID] = true
			return c.ID
		}
	}
	t.Fatal("no conversation left for the test")
	return 0
}

// contact is a contact no test used yet.
func (f *writeFixture) contact(t *testing.T) int64 {
	t.Helper()
	for _, c := range f.contacts {
		if !f.usedConts[c.ID] {
			f.usedConts[c.ID] = true
			return c.ID
		}
	}
	t.Fatal("no contact left for the test")
	return 0
}

// conv reads conversation id from the sandbox.
func (f *writeFixture) conv(t *testing.T, id int64) *client.Conversation {
	t.Helper()
	c, err := f.c.GetConversation(client.Fresh(t.Context()), id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// run runs the binary with args on the proxy, env added to the fixture's.
func (f *writeFixture) run(t *testing.T, env []string, args ...string) (cliResult, int) {
	t.Helper()
	r := runParley(t, f.bin, append(slices.Clone(f.env), env...), "", args...)
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(r.err, &ee):
		code = ee.ExitCode()
	case r.err != nil:
		t.Fatalf("parley %v: %v", args, r.err)
	}
	return r, code
}

// writes counts the requests of method to path in the sandbox's log.
func (f *writeFixture) writes(method, path string) int {
	n := 0
	for _, l := range f.log.Lines() {
		if l.Method == method && l.Path == path {
			n++
		}
	}
	return n
}

// writeCase is one write command as the tests drive it.
type writeCase struct {
	name string
	// target is a new target of the command: a conversation, contact or operator the write
	// changes (its state now is not what the write asks for).
	target func(t *testing.T, f *writeFixture) int64
	// args is the command line writing target; n tells the runs of one test apart (a note's
	// text, a city).
	args func(f *writeFixture, target int64, n int) []string
	// write is the request of the write, a path on the sandbox; check the path of the read
	// that checks a lost answer ("": not read back).
	write func(target int64) (method, path string)
	check func(target int64) string
	// shows reports whether the sandbox shows the write of run n.
	shows func(t *testing.T, f *writeFixture, target int64, n int) bool
	// refused is the operator whose write of target the API refuses (403).
	refused func(f *writeFixture, target int64) int64
	// id are the fields of the JSON result that may name the target (the first it has).
	id []string
	// said is what a write that is done says on stderr ("": nothing).
	said string
}

// conversationCase is a conversation action: pick finds a conversation it changes, shows
// whether one shows the change.
func conversationCase(name string, pick func(f *writeFixture, c client.Conversation) bool, args func(f *writeFixture, id string) []string,
	shows func(f *writeFixture, c *client.Conversation) bool) writeCase {
	return writeCase{name: name,
		target: func(t *testing.T, f *writeFixture) int64 {
			return f.conversation(t, func(c client.Conversation) bool { return pick(f, c) })
		},
		args:    func(f *writeFixture, id int64, _ int) []string { return args(f, itoa(id)) },
		write:   conversationPatch,
		check:   conversationPath,
		shows:   func(t *testing.T, f *writeFixture, id int64, _ int) bool { return shows(f, f.conv(t, id)) },
		refused: func(f *writeFixture, _ int64) int64 { return f.bot },
		id:      []string{"id"},
	}
}

var billingReturns = []string{"Billing", "Returns"}

var writeCases = []writeCase{
	conversationCase("conversations take",
		func(f *writeFixture, c client.Conversation) bool { return !assignedTo(c, f.owner) },
		func(_ *writeFixture, id string) []string { return []string{"conversations", "take", id} },
		func(f *writeFixture, c *client.Conversation) bool { return assignedTo(*c, f.owner) }),
	conversationCase("conversations assign",
		func(f *writeFixture, c client.Conversation) bool { return !assignedTo(c, f.agent) },
		func(f *writeFixture, id string) []string {
			return []string{"conversations", "assign", id, "--assignee", itoa(f.agent)}
		},
		func(f *writeFixture, c *client.Conversation) bool { return assignedTo(*c, f.agent) }),
	conversationCase("conversations unassign",
		func(_ *writeFixture, c client.Conversation) bool { return c.OperatorAssignedTo != nil },
		func(_ *writeFixture, id string) []string { return []string{"conversations", "unassign", id} },
		func(_ *writeFixture, c *client.Conversation) bool { return c.OperatorAssignedTo == nil }),
	conversationCase("conversations end",
		func(_ *writeFixture, c client.Conversation) bool { return c.Status != client.StatusEnded },
		func(_ *writeFixture, id string) []string { return []string{"conversations", "end", id} },
		func(_ *writeFixture, c *client.Conversation) bool { return c.Status == client.StatusEnded }),
	conversationCase("conversations reopen",
		func(_ *writeFixture, c client.Conversation) bool { return c.Status == client.StatusEnded },
		func(_ *writeFixture, id string) []string { return []string{"conversations", "reopen", id} },
		func(_ *writeFixture, c *client.Conversation) bool { return c.Status == writes.ReopenStatus }),
	conversationCase("conversations read",
		func(_ *writeFixture, c client.Conversation) bool { return !c.MarkedReadOperator },
		func(_ *writeFixture, id string) []string { return []string{"conversations", "read", id} },
		func(_ *writeFixture, c *client.Conversation) bool { return c.MarkedReadOperator }),
	conversationCase("conversations topics",
		func(_ *writeFixture, c client.Conversation) bool { return !writes.SameTopics(c.Topics, billingReturns) },
		func(_ *writeFixture, id string) []string {
			return []string{"conversations", "topics", id, "--set", "billing, Returns"}
		},
		func(_ *writeFixture, c *client.Conversation) bool { return writes.SameTopics(c.Topics, billingReturns) }),
	{
		name:   "notes add",
		target: func(t *testing.T, f *writeFixture) int64 { return f.contact(t) },
		args: func(_ *writeFixture, id int64, n int) []string {
			return []string{"notes", "add", itoa(id), "Called", "back,", "run", itoa(int64(n))}
		},
		write: func(int64) (string, string) { return "POST", "/api/um/v3/notes/" },
		check: func(int64) string { return "/api/um/v3/notes/" },
		shows: func(t *testing.T, f *writeFixture, id int64, n int) bool {
			p, err := f.c.ListNotes(client.Fresh(t.Context()), client.NoteListOptions{ContactIdentityID: id, ListOptions: client.ListOptions{Limit: client.MaxLimit}})
			if err != nil {
				t.Fatal(err)
			}
			return slices.ContainsFunc(p.Results, func(x client.Note) bool { return x.Body == "Called back, run "+itoa(int64(n)) })
		},
		refused: func(f *writeFixture, _ int64) int64 { return f.bot },
		id:      []string{"contact_identity_id"},
	},
	{
		name: "operators away",
		target: func(t *testing.T, f *writeFixture) int64 {
			// The same operator each time, an admin: the tests toggle it back and forth.
			for _, o := range f.ops {
				if o.Role == "admin" {
					return o.ID
				}
			}
			t.Fatal("no admin in the organization")
			return 0
		},
		args: func(f *writeFixture, id int64, _ int) []string {
			return []string{"operators", "away", awayFlag(f, id), itoa(id)}
		},
		write: func(id int64) (string, string) { return "PATCH", "/api/um/v3/operators/" + itoa(id) + "/away/" },
		check: func(id int64) string { return "/api/um/v3/operators/" + itoa(id) + "/" },
		shows: func(t *testing.T, f *writeFixture, id int64, _ int) bool {
			return f.awayBefore[id] != f.away(t, id)
		},
		// An agent may set itself away, not another operator.
		refused: func(f *writeFixture, _ int64) int64 { return f.agent },
		// The answer of the away PATCH, or the operator a check read.
		id: []string{"operator_id", "id"},
	},
	{
		name:   "contacts update",
		target: func(t *testing.T, f *writeFixture) int64 { return f.contact(t) },
		args: func(_ *writeFixture, id int64, n int) []string {
			return []string{"contacts", "update", itoa(id), "--city", "Run " + itoa(int64(n)), "--country", "de"}
		},
		write: func(id int64) (string, string) { return "PATCH", "/api/um/v3/contact_identities/" + itoa(id) + "/" },
		check: func(id int64) string { return "/api/um/v3/contact_identities/" + itoa(id) + "/" },
		shows: func(t *testing.T, f *writeFixture, id int64, n int) bool {
			ct, err := f.c.GetContact(client.Fresh(t.Context()), id)
			if err != nil {
				t.Fatal(err)
			}
			return client.Str(ct.City) == "Run "+itoa(int64(n)) && client.Str(ct.Country) == "DE"
		},
		refused: func(f *writeFixture, _ int64) int64 { return f.bot },
		id:      []string{"id"},
	},
	{
		name:   "contacts upsert",
		target: func(*testing.T, *writeFixture) int64 { return 0 },
		args: func(_ *writeFixture, _ int64, n int) []string {
			return []string{"contacts", "upsert", "--email", "run" + itoa(int64(n)) + "@upsert.example", "--name", "Run " + itoa(int64(n))}
		},
		write: func(int64) (string, string) { return "PUT", "/api/um/v3/contact_identities/" },
		check: func(int64) string { return "" },
		shows: func(t *testing.T, f *writeFixture, _ int64, n int) bool {
			p, err := f.c.ListContacts(client.Fresh(t.Context()), client.ContactListOptions{Filter: client.ContactFilter{Email: "run" + itoa(int64(n)) + "@upsert.example"}})
			if err != nil {
				t.Fatal(err)
			}
			return len(p.Results) == 1 && client.Str(p.Results[0].Name) == "Run "+itoa(int64(n))
		},
		refused: func(f *writeFixture, _ int64) int64 { return f.bot },
		id:      []string{"email"},
		said:    "parley: created contact ",
	},
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func conversationPatch(id int64) (string, string) { return "PATCH", conversationPath(id) }
func conversationPath(id int64) string            { return "/api/um/v3/conversations/" + itoa(id) + "/" }

func assignedTo(c client.Conversation, op int64) bool {
	return c.OperatorAssignedTo != nil && *c.OperatorAssignedTo == op
}

// Every write command, each in every way it can end: done, refused by the API (403),
// refused by read-only, described by --dry-run, and with its answer lost: found by the
// check, not there, and not known (the check's read lost too).
func TestWriteCommands(t *testing.T) {
	f := newWriteFixture(t)
	config := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(config, []byte("readonly: true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, wc := range writeCases {
		t.Run(wc.name, func(t *testing.T) {
			// start begins a run on a new target, noting the sandbox's state before it.
			start := func(t *testing.T) *caseRun {
				n++
				r := &caseRun{t: t, f: f, wc: wc, id: wc.target(t, f), n: n}
				if wc.name == "operators away" {
					f.awayBefore[r.id] = f.away(t, r.id)
				}
				r.method, r.path = wc.write(r.id)
				r.before = f.writes(r.method, r.path)
				return r
			}
			t.Run("done", func(t *testing.T) {
				r := start(t)
				out, code := r.run(nil)
				if code != 0 || !strings.HasPrefix(out.stderr, wc.said) || wc.said == "" && out.stderr != "" {
					t.Fatalf("exit %d\nstderr: %s", code, out.stderr)
				}
				r.wrote(1, true)
				r.result(out.stdout)
			})
			t.Run("permission refused", func(t *testing.T) {
				r := start(t)
				out, code := r.run([]string{"PARLEY_OPERATOR_ID=" + itoa(wc.refused(f, r.id))})
				if code != 1 || out.stdout != "" || !strings.Contains(out.stderr, "You lack permission: operator ") {
					t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.stdout, out.stderr)
				}
				r.wrote(1, false) // sent, and refused
			})
			for _, ro := range []struct {
				name string
				env  []string
				flag []string
			}{
				{"read-only by flag", nil, []string{"--readonly"}},
				{"read-only by the config file", []string{"PARLEY_CONFIG=" + config}, nil},
			} {
				t.Run(ro.name, func(t *testing.T) {
					r := start(t)
					requests := len(f.log.Lines())
					out, code := r.run(ro.env, ro.flag...)
					if code != 1 || out.stdout != "" || !strings.Contains(out.stderr, "parley runs read-only") || !strings.Contains(out.stderr, "nothing was sent") {
						t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.stdout, out.stderr)
					}
					if got := len(f.log.Lines()); got != requests {
						t.Errorf("read-only sent %d requests", got-requests)
					}
					r.wrote(0, false)
				})
			}
			t.Run("dry run", func(t *testing.T) {
				r := start(t)
				out, code := r.run([]string{"PARLEY_OPERATOR_ID=" + itoa(f.owner)}, "--dry-run")
				var d client.DryRequest
				if code != 0 || json.Unmarshal([]byte(out.stdout), &d) != nil {
					t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.stdout, out.stderr)
				}
				if d.Method != r.method || !strings.HasPrefix(d.Path, r.path) || len(d.Body) == 0 ||
					d.Headers["Service-Operator-Id"] != itoa(f.owner) || strings.Contains(out.stdout, f.info.CustomerToken) {
					t.Errorf("described %+v, want %s %s with a body, acting as %d", d, r.method, r.path, f.owner)
				}
				r.wrote(0, false)
			})
			t.Run("answer lost, found", func(t *testing.T) {
				if wc.check(0) == "" {
					t.Skip("not read back")
				}
				r := start(t)
				f.proxy.Lose(r.method, r.path, viewtest.DropAnswer, 1)
				out, code := r.run(nil)
				if code != 0 || !strings.Contains(out.stderr, "(confirmed after the connection dropped)") {
					t.Fatalf("exit %d\nstderr: %s", code, out.stderr)
				}
				r.wrote(1, true)
				r.result(out.stdout)
			})
			t.Run("answer lost, not there", func(t *testing.T) {
				if wc.check(0) == "" {
					t.Skip("not read back")
				}
				r := start(t)
				f.proxy.Lose(r.method, r.path, viewtest.DropRequest, 1)
				out, code := r.run(nil)
				if code != 1 || out.stdout != "" || !strings.Contains(out.stderr, "Not saved: the connection was lost before the server answered, and ") {
					t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out.stdout, out.stderr)
				}
				r.wrote(0, false)
			})
			t.Run("answer lost, not known", func(t *testing.T) {
				r := start(t)
				f.proxy.Lose(r.method, r.path, viewtest.EmptyAnswer, 1)
				want := "Could not confirm "
				if check := wc.check(r.id); check != "" {
					f.proxy.Lose("GET", check, viewtest.EmptyInstead, 1)
				} else {
					want = "The change may have been made: check before sending it again."
				}
				out, code := r.run(nil)
				if code != exitUnknown || out.stdout != "" || !strings.Contains(out.stderr, want) {
					t.Fatalf("exit %d\nstdout: %s\nstderr: %s\nwant %q", code, out.stdout, out.stderr, want)
				}
				r.wrote(1, true) // it was carried out; nobody could tell
			})
			f.proxy.Heal()
		})
	}
}

// caseRun is one run of a write case on a target: the write's method and path, and how
// many of those the sandbox had seen before.
type caseRun struct {
	t            *testing.T
	f            *writeFixture
	wc           writeCase
	id           int64
	n            int
	method, path string
	before       int
}

// run runs the case's command line with more arguments, env added to the fixture's.
func (r *caseRun) run(env []string, more ...string) (cliResult, int) {
	r.t.Helper()
	return r.f.run(r.t, env, append(r.wc.args(r.f, r.id, r.n), more...)...)
}

// wrote checks that the run's write reached the sandbox n times, and whether the sandbox
// shows it.
func (r *caseRun) wrote(n int, shown bool) {
	r.t.Helper()
	if got := r.f.writes(r.method, r.path) - r.before; got != n {
		r.t.Errorf("%d writes reached the sandbox, want %d", got, n)
	}
	if got := r.wc.shows(r.t, r.f, r.id, r.n); got != shown {
		r.t.Errorf("the sandbox shows the write: %v, want %v", got, shown)
	}
}

// result checks a write's JSON result: one object, the resource as the server has it.
func (r *caseRun) result(stdout string) {
	t, wc, id, n := r.t, r.wc, r.id, r.n
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal([]byte(stdout), &obj); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	for _, k := range wc.id {
		switch v := obj[k].(type) {
		case nil:
			continue
		case float64:
			if int64(v) != id {
				t.Errorf("the result's %s is %v, want %d", k, v, id)
			}
		case string:
			if !strings.HasPrefix(v, "run"+itoa(int64(n))+"@") {
				t.Errorf("the result's %s is %q", k, v)
			}
		}
		return
	}
	t.Errorf("the result has none of %q:\n%s", wc.id, stdout)
}

// away reads whether operator id is away.
func (f *writeFixture) away(t *testing.T, id int64) bool {
	t.Helper()
	op, err := f.c.GetOperator(client.Fresh(t.Context()), id)
	if err != nil || !op.IsAway.Known {
		t.Fatalf("operator %d: %v", id, err)
	}
	return op.IsAway.V
}

// awayFlag asks for the other away status than operator id had before the run.
func awayFlag(f *writeFixture, id int64) string {
	if f.awayBefore[id] {
		return "--off"
	}
	return "--on"
}

// Several ids: one request each, the array of those written, each failure on stderr, and
// exit 1 when one failed.
func TestWriteCommandOfSeveralIDs(t *testing.T) {
	f := newWriteFixture(t)
	a := f.conversation(t, func(c client.Conversation) bool { return c.Status != client.StatusEnded })
	b := f.conversation(t, func(c client.Conversation) bool { return c.Status != client.StatusEnded })
	const missing = 999_999_999
	r, code := f.run(t, nil, "conversations", "end", itoa(a), itoa(missing), itoa(b), itoa(a))
	var got []client.Conversation
	if code != 1 || json.Unmarshal([]byte(r.stdout), &got) != nil {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, r.stdout, r.stderr)
	}
	if len(got) != 2 || got[0].ID != a || got[1].ID != b || got[0].Status != client.StatusEnded || got[1].Status != client.StatusEnded {
		t.Fatalf("results %+v", got)
	}
	want := fmt.Sprintf("parley: conversation %d: Not found: ", missing)
	if !strings.Contains(r.stderr, want) || !strings.HasSuffix(r.stderr, "parley: 1 of 3 writes failed\n") {
		t.Fatalf("stderr:\n%s\nwant %q and the count", r.stderr, want)
	}
	for _, id := range []int64{a, b} {
		if n := f.writes(conversationPatch(id)); n != 1 {
			t.Errorf("conversation %d: %d PATCHes, want 1 (each id once)", id, n)
		}
	}
	// All done: exit 0 and an array.
	c := f.conversation(t, func(c client.Conversation) bool { return c.Status != client.StatusEnded })
	r, code = f.run(t, nil, "conversations", "end", itoa(c), itoa(a))
	if code != 0 || json.Unmarshal([]byte(r.stdout), &got) != nil || len(got) != 2 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, r.stdout, r.stderr)
	}
	// A lost answer among them: the others are still sent, and the exit status says unknown.
	d := f.conversation(t, func(c client.Conversation) bool { return c.Status != client.StatusEnded })
	e := f.conversation(t, func(c client.Conversation) bool { return c.Status != client.StatusEnded })
	f.proxy.Lose("PATCH", conversationPath(d), viewtest.EmptyAnswer, 1)
	f.proxy.Lose("GET", conversationPath(d), viewtest.EmptyInstead, 1)
	r, code = f.run(t, nil, "conversations", "end", itoa(d), itoa(e))
	if code != exitUnknown || json.Unmarshal([]byte(r.stdout), &got) != nil || len(got) != 1 || got[0].ID != e ||
		!strings.HasSuffix(r.stderr, "parley: 1 of 2 writes not confirmed: look before sending them again\n") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, r.stdout, r.stderr)
	}
}

// topics --add and --remove read the conversation first and send what it has with the
// changes, spelled as the API has them; when nothing changes, nothing is sent.
func TestTopicsAddAndRemove(t *testing.T) {
	f := newWriteFixture(t)
	id := f.conversation(t, func(c client.Conversation) bool { return len(c.Topics) > 0 })
	have := f.conv(t, id).Topics
	first := have[0].Text
	r, code := f.run(t, nil, "conversations", "topics", itoa(id), "--add", " Brand new topic ", "--remove", strings.ToUpper(first))
	if code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, r.stderr)
	}
	var want []string
	for _, tp := range have[1:] {
		want = append(want, tp.Text)
	}
	want = append(want, "Brand new topic")
	if now := f.conv(t, id).Topics; !writes.SameTopics(now, want) {
		t.Fatalf("topics %+v, want %q", now, want)
	}
	patches := f.writes(conversationPatch(id))
	r, code = f.run(t, nil, "conversations", "topics", itoa(id), "--add", "brand NEW topic")
	if code != 0 || f.writes(conversationPatch(id)) != patches || !strings.Contains(r.stderr, "it has these topics already; nothing was sent") {
		t.Fatalf("exit %d, %d PATCHes\nstderr: %s", code, f.writes(conversationPatch(id))-patches, r.stderr)
	}
	var conv client.Conversation
	if json.Unmarshal([]byte(r.stdout), &conv) != nil || conv.ID != id {
		t.Fatalf("stdout: %s", r.stdout)
	}
	// What is refused before anything is sent.
	requests := len(f.log.Lines())
	for _, args := range [][]string{
		{"conversations", "topics", itoa(id)},
		{"conversations", "topics", itoa(id), "--set", "a", "--add", "b"},
		{"conversations", "topics", itoa(id), "--set", strings.Repeat("x", writes.MaxTopic+1)},
	} {
		if r, code := f.run(t, nil, args...); code != 1 || r.stdout != "" {
			t.Errorf("%v: exit %d\nstdout: %s", args, code, r.stdout)
		}
	}
	if got := len(f.log.Lines()); got != requests {
		t.Errorf("refused command lines sent %d requests", got-requests)
	}
}

// A note whose answer was lost is found by the server's clock, whatever the local one says:
// with this machine's clock 17 days ahead of the server's and 17 days behind, the note the
// lost POST made is confirmed, and a note of the same text the server stamped an hour
// before is not taken for it.
func TestNotesAddLostAnswerByTheServersClock(t *testing.T) {
	for _, skew := range viewtest.Skews {
		t.Run(fmt.Sprintf("local clock %+d days off", skew/(24*time.Hour)), func(t *testing.T) {
			server := viewtest.NewMovingClock(time.Now().Add(-skew))
			f := newWriteFixtureOn(t, sandbox.Options{Now: server.Now})
			id := f.contact(t)
			var old []int64
			for _, text := range []string{"Seen before: confirmed", "Seen before: not saved"} {
				n, err := f.c.CreateNote(t.Context(), client.NewNote{ContactIdentityID: id, Body: text})
				if err != nil {
					t.Fatal(err)
				}
				old = append(old, n.ID)
			}
			server.Add(time.Hour)
			posts := f.writes("POST", "/api/um/v3/notes/")
			f.proxy.Lose("POST", "/api/um/v3/notes/", viewtest.DropAnswer, 1)
			r, code := f.run(t, nil, "notes", "add", itoa(id), "Seen before: confirmed")
			var n client.Note
			if code != 0 || !strings.Contains(r.stderr, "saved (confirmed after the connection dropped)") || json.Unmarshal([]byte(r.stdout), &n) != nil {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, r.stdout, r.stderr)
			}
			if n.ID <= old[1] || n.Body != "Seen before: confirmed" {
				t.Errorf("confirmed note %d (%q), not the one the lost POST made after %d", n.ID, n.Body, old[1])
			}
			f.proxy.Lose("POST", "/api/um/v3/notes/", viewtest.DropRequest, 1)
			r, code = f.run(t, nil, "notes", "add", itoa(id), "Seen before: not saved")
			if code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "Not saved: the connection was lost before the server answered, and the note is not on the server.") {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, r.stdout, r.stderr)
			}
			if got := f.writes("POST", "/api/um/v3/notes/") - posts; got != 1 {
				t.Errorf("%d POSTs reached the sandbox, want 1 (the first, whose answer was lost)", got)
			}
		})
	}
}

// A note comes from stdin with "-"; an empty note, an overlong note and a bad contact id
// are refused before anything is sent.
func TestNotesAddText(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	f := newWriteFixture(t)
	id := f.contact(t)
	r := runParley(t, f.bin, f.env, "  line one\nline two\n\n", "notes", "add", itoa(id), "-")
	var n client.Note
	if r.err != nil || json.Unmarshal([]byte(r.stdout), &n) != nil || n.Body != "line one\nline two" || n.ContactIdentityID != id {
		t.Fatalf("%v\nstdout: %s\nstderr: %s", r.err, r.stdout, r.stderr)
	}
	requests := len(f.log.Lines())
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"   \n", []string{"notes", "add", itoa(id), "-"}, "the note is empty"},
		{"", []string{"notes", "add", itoa(id), strings.Repeat("x", writes.MaxNoteBody+1)}, "at most 5000 are sent"},
		{"", []string{"notes", "add", "cust_pasted_token", "text"}, "argument 1 is not a contact id"},
		{"", []string{"notes", "add", itoa(id)}, "missing TEXT"},
	} {
		r := runParley(t, f.bin, f.env, c.stdin, c.args...)
		if r.err == nil || r.stdout != "" || !strings.Contains(r.stderr, c.want) || strings.Contains(r.stderr, "cust_pasted_token") {
			t.Errorf("%v: %v\nstdout: %s\nstderr: %s\nwant %q", c.args[3:], r.err, r.stdout, r.stderr, c.want)
		}
	}
	if got := len(f.log.Lines()); got != requests {
		t.Errorf("refused notes sent %d requests", got-requests)
	}
}

// contacts update checks values as the edit form does, clears a field with an empty value
// and refuses to clear the locale; upsert sends values only.
func TestContactWritesCheckValues(t *testing.T) {
	f := newWriteFixture(t)
	id := f.contact(t)
	requests := len(f.log.Lines())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"contacts", "update", itoa(id), "--email", "anna"}, `--email: "anna" is not an email address`},
		{[]string{"contacts", "update", itoa(id), "--country", "Germany"}, "--country: "},
		{[]string{"contacts", "update", itoa(id), "--locale", "de-DE"}, "--locale: "},
		{[]string{"contacts", "update", itoa(id), "--url-twitter", "javascript:alert(1)"}, "--url-twitter: "},
		{[]string{"contacts", "update", itoa(id), "--locale", ""}, "--locale: locale: a contact always has one"},
		{[]string{"contacts", "update", itoa(id)}, "nothing to change"},
		{[]string{"contacts", "upsert", "--name", "Anna"}, "missing --email"},
		{[]string{"contacts", "upsert", "--email", "a@b.example", "--city", ""}, "--city: empty; an upsert sends values only"},
		{[]string{"contacts", "upsert", "--identifier", "id", "--email", "a@b.example"}, "--identifier: want one of email, "},
	} {
		r, code := f.run(t, nil, c.args...)
		if code != 1 || r.stdout != "" || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d\nstdout: %s\nstderr: %s\nwant %q", c.args, code, r.stdout, r.stderr, c.want)
		}
	}
	if got := len(f.log.Lines()); got != requests {
		t.Errorf("refused contact writes sent %d requests", got-requests)
	}
	r, code := f.run(t, nil, "contacts", "update", itoa(id), "--company", "", "--contact-by-phone=false", "--dry-run")
	var d client.DryRequest
	var body bytes.Buffer
	if code != 0 || json.Unmarshal([]byte(r.stdout), &d) != nil || json.Compact(&body, d.Body) != nil ||
		body.String() != `{"company":null,"contact_by_phone":false}` {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, r.stdout, r.stderr)
	}
	r, code = f.run(t, nil, "contacts", "update", itoa(id), "--company", "", "--contact-by-phone=false")
	ct, err := f.c.GetContact(client.Fresh(t.Context()), id)
	if code != 0 || err != nil || client.Str(ct.Company) != "" || ct.ContactByPhone {
		t.Fatalf("exit %d, %v: company %q, by phone %v\nstderr: %s", code, err, client.Str(ct.Company), ct.ContactByPhone, r.stderr)
	}
}

// A write's JSON result is written as every command's JSON is: the invisible and reordering
// characters of what the server returned escaped, decoding to the same text.
func TestWriteResultsEscapeInvisibleText(t *testing.T) {
	f := newWriteFixture(t)
	id := f.contact(t)
	text := "Zebedee\u200c \x1b]0;pwned\x07" + invisible + " Quux"
	r, code := f.run(t, nil, "notes", "add", itoa(id), text)
	checkEscaped(t, "notes add", r.stdout)
	var n client.Note
	if code != 0 || json.Unmarshal([]byte(r.stdout), &n) != nil || n.Body != strings.TrimSpace(text) {
		t.Fatalf("exit %d, body %q\nstdout: %s\nstderr: %s", code, n.Body, r.stdout, r.stderr)
	}
	r, code = f.run(t, nil, "contacts", "update", itoa(id), "--name", text)
	checkEscaped(t, "contacts update", r.stdout)
	var ct client.Contact
	if code != 0 || json.Unmarshal([]byte(r.stdout), &ct) != nil || client.Str(ct.Name) != strings.TrimSpace(text) {
		t.Fatalf("exit %d, name %q\nstdout: %s\nstderr: %s", code, client.Str(ct.Name), r.stdout, r.stderr)
	}
}
