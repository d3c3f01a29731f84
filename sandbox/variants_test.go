package sandbox_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/parley-tui/parley/sandbox"
)

func TestParseVariants(t *testing.T) {
	t.Parallel()
	got, err := sandbox.ParseVariants("capped-count, slots-list", "", "away-independent", "capped-count,")
	if err != nil {
		t.Fatal(err)
	}
	want := []sandbox.Variant{sandbox.VariantCappedCount, sandbox.VariantSlotsList, sandbox.VariantAwayIndependent}
	if !slices.Equal(got, want) {
		t.Fatalf("parsed %v, want %v", got, want)
	}
	if got, err := sandbox.ParseVariants(); err != nil || len(got) != 0 {
		t.Fatalf("no names: %v %v", got, err)
	}
	_, err = sandbox.ParseVariants("capped-count,slots")
	if err == nil || !strings.Contains(err.Error(), `"slots"`) {
		t.Fatalf("unknown name: %v", err)
	}
	for _, v := range sandbox.Variants() {
		if !strings.Contains(err.Error(), string(v.Name)) {
			t.Fatalf("the error does not list %s: %v", v.Name, err)
		}
		if v.Summary == "" || strings.Contains(v.Summary, "\n") {
			t.Fatalf("%s: summary %q is not one line", v.Name, v.Summary)
		}
	}
	if _, err := sandbox.ParseVariants("slots-used-max", "slots-list"); err == nil {
		t.Fatal("two slot shapes at once: no error")
	}
	// Options are checked the same way, before any database is opened.
	if _, err := sandbox.Open(context.Background(), sandbox.Options{Size: sandbox.SizeSmall, Variants: []sandbox.Variant{"nope"}}); err == nil ||
		!strings.Contains(err.Error(), "capped-count") {
		t.Fatalf("Open with an unknown variant: %v", err)
	}
}

// capped-count: offset lists report at most the cap as count; /all/ keeps the true count; a
// set smaller than the cap reports its size either way.
func TestVariantCappedCount(t *testing.T) {
	t.Parallel()
	const offsetCap = 20
	plain := newAPI(t, start(t, sandbox.Options{OffsetCap: offsetCap}))
	capped := newAPI(t, start(t, sandbox.Options{OffsetCap: offsetCap, Variants: []sandbox.Variant{sandbox.VariantCappedCount}}))
	for _, path := range []string{
		"/api/um/v3/conversations/",
		"/api/um/v3/conversations/?status=ended",
		"/api/um/v3/conversations/?search_query=order",
		"/api/um/v3/contact_identities/",
		"/api/um/v3/contact_identities/?verified=true",
		"/api/um/v3/contact_identities/?search_query=a+e+i+o+u",
		"/api/um/v3/conversations/?status=pending",
		"/api/um/v3/notes/",
		"/api/um/v3/operators/",
	} {
		var p, c page[struct{}]
		plain.mustGet(path, &p)
		capped.mustGet(path, &c)
		if *c.Count != min(*p.Count, offsetCap) {
			t.Fatalf("%s: capped count %d, true count %d, cap %d", path, *c.Count, *p.Count, offsetCap)
		}
		if (c.Next == nil) != (p.Next == nil) || len(c.Results) != len(p.Results) {
			t.Fatalf("%s: the variant changed the page: next %v/%v, %d/%d results", path, c.Next, p.Next, len(c.Results), len(p.Results))
		}
	}
	var p page[struct{}]
	plain.mustGet("/api/um/v3/conversations/?limit=1", &p)
	if *p.Count <= offsetCap {
		t.Fatalf("the small data set has %d conversations, not more than the cap of %d", *p.Count, offsetCap)
	}
	for _, res := range []string{"conversations", "contact_identities"} {
		var all page[struct{}]
		capped.mustGet("/api/um/v3/"+res+"/all/?limit=1", &all)
		var truth page[struct{}]
		plain.mustGet("/api/um/v3/"+res+"/all/?limit=1", &truth)
		if *all.Count != *truth.Count || *all.Count <= offsetCap {
			t.Fatalf("%s/all/: count %d under capped-count, %d without", res, *all.Count, *truth.Count)
		}
	}
}

// rawSlots reads an operator's slot use in the shape the server answers: used and max.
func rawSlots(t *testing.T, a *api, v sandbox.Variant, id int64) (used, total int, held []int64) {
	t.Helper()
	r := a.get("/api/um/v3/operators/" + itoa(id) + "/slots/")
	expectStatus(t, r, 200, "slots")
	switch v {
	case sandbox.VariantSlotsUsedMax:
		var s map[string]json.RawMessage
		r.json(t, &s)
		if len(s) != 2 {
			t.Fatalf("slots-used-max: %s", r.body)
		}
		var u struct{ Used, Max *int }
		r.json(t, &u)
		if u.Used == nil || u.Max == nil {
			t.Fatalf("slots-used-max: %s", r.body)
		}
		return *u.Used, *u.Max, nil
	case sandbox.VariantSlotsList:
		var list []struct {
			ConversationID int64  `json:"conversation_id"`
			ReservedAt     string `json:"reserved_at"`
		}
		r.json(t, &list)
		var op struct {
			MaxSlots *int `json:"max_slots"`
		}
		a.mustGet("/api/um/v3/operators/"+itoa(id)+"/", &op)
		if op.MaxSlots == nil {
			t.Fatalf("slots-list: operator %d without max_slots", id)
		}
		for _, s := range list {
			parseTS(t, s.ReservedAt)
			held = append(held, s.ConversationID)
		}
		return len(list), *op.MaxSlots, held
	}
	var s struct {
		OperatorID   int64 `json:"operator_id"`
		CurrentSlots *int  `json:"current_slots"`
		TotalSlots   *int  `json:"total_slots"`
	}
	r.json(t, &s)
	if s.OperatorID != id || s.CurrentSlots == nil || s.TotalSlots == nil {
		t.Fatalf("slots: %s", r.body)
	}
	var op map[string]json.RawMessage
	a.mustGet("/api/um/v3/operators/"+itoa(id)+"/", &op)
	if _, ok := op["max_slots"]; ok {
		t.Fatalf("the operator record has max_slots without the slots-list variant: %v", op)
	}
	return *s.CurrentSlots, *s.TotalSlots, nil
}

// The slot shapes tell the same slot use: the operator's conversations in status new, at most
// its slots; slots-list names those conversations.
func TestVariantSlotShapes(t *testing.T) {
	t.Parallel()
	shapes := []sandbox.Variant{"", sandbox.VariantSlotsUsedMax, sandbox.VariantSlotsList}
	apis := make([]*api, len(shapes))
	for i, v := range shapes {
		var vs []sandbox.Variant
		if v != "" {
			vs = []sandbox.Variant{v}
		}
		apis[i] = newAPI(t, start(t, sandbox.Options{Variants: vs}))
	}
	var p page[operator]
	apis[0].mustGet("/api/um/v3/operators/?limit=100", &p)
	convs := allConversations(apis[0])
	busy := 0
	for _, op := range p.Results {
		var live []int64
		for _, c := range convs {
			if c.OperatorAssignedTo != nil && *c.OperatorAssignedTo == op.ID && c.Status == "new" {
				live = append(live, c.ID)
			}
		}
		used0, max0, _ := rawSlots(t, apis[0], "", op.ID)
		if used0 != min(len(live), max0) || max0 <= 0 {
			t.Fatalf("operator %d: %d of %d slots used, %d new conversations", op.ID, used0, max0, len(live))
		}
		if used0 > 0 {
			busy++
		}
		for i, v := range shapes[1:] {
			used, total, held := rawSlots(t, apis[i+1], v, op.ID)
			if used != used0 || total != max0 {
				t.Fatalf("operator %d: %s says %d of %d, the default shape %d of %d", op.ID, v, used, total, used0, max0)
			}
			for _, id := range held {
				if !slices.Contains(live, id) {
					t.Fatalf("operator %d: slot of conversation %d, which is not a new conversation of it (%v)", op.ID, id, live)
				}
			}
		}
	}
	if busy == 0 {
		t.Fatal("no operator uses a slot: the shapes were compared on zeros only")
	}
}

// onlineOperator is a human operator that is online and not away.
func onlineOperator(t *testing.T, a *api) int64 {
	t.Helper()
	var p page[struct {
		ID       int64 `json:"id"`
		IsBot    bool  `json:"is_bot"`
		IsAway   bool  `json:"is_away"`
		IsOnline bool  `json:"is_online"`
	}]
	a.mustGet("/api/um/v3/operators/?limit=100", &p)
	for _, op := range p.Results {
		if op.IsOnline && !op.IsAway && !op.IsBot {
			return op.ID
		}
	}
	t.Fatal("no human operator is online and not away")
	return 0
}

// away-independent: away leaves is_online as it was, and the away PATCH answers the whole
// operator; without the variant away marks the operator offline and the answer is the
// away status.
func TestVariantAwayIndependent(t *testing.T) {
	t.Parallel()
	type opState struct {
		ID         int64   `json:"id"`
		OperatorID *int64  `json:"operator_id"`
		Name       string  `json:"name"`
		IsAway     bool    `json:"is_away"`
		IsOnline   *bool   `json:"is_online"`
		ChangedAt  *string `json:"changed_at"`
	}
	for _, independent := range []bool{false, true} {
		var vs []sandbox.Variant
		if independent {
			vs = []sandbox.Variant{sandbox.VariantAwayIndependent}
		}
		a := newAPI(t, start(t, sandbox.Options{Variants: vs}))
		id := onlineOperator(t, a)
		path := "/api/um/v3/operators/" + itoa(id) + "/"
		for _, away := range []bool{true, false} {
			res := a.send("PATCH", path+"away/", map[string]any{"is_away": away})
			expectStatus(t, res, 200, "away")
			var got opState
			res.json(t, &got)
			if independent {
				if got.ID != id || got.Name == "" || got.IsAway != away || got.IsOnline == nil || !*got.IsOnline || got.OperatorID != nil {
					t.Fatalf("away-independent, away=%v: answer %s, want the whole operator, online", away, res.body)
				}
			} else if got.OperatorID == nil || *got.OperatorID != id || got.IsAway != away || got.ChangedAt == nil || got.IsOnline != nil {
				t.Fatalf("away=%v: answer %s, want the away status", away, res.body)
			}
			var op opState
			a.mustGet(path, &op)
			if op.IsAway != away || *op.IsOnline != independent {
				t.Fatalf("independent=%v, away=%v: the operator is away=%v online=%v", independent, away, op.IsAway, *op.IsOnline)
			}
		}
	}
}

// bare-lists: notes, navigation and operators answer a bare array of every item the
// envelope lists, in the same order, with filters, ordering and exclude_ids applied and
// limit and offset not read.
func TestVariantBareLists(t *testing.T) {
	t.Parallel()
	env := newAPI(t, start(t, sandbox.Options{}))
	bare := newAPI(t, start(t, sandbox.Options{Variants: []sandbox.Variant{sandbox.VariantBareLists}}))
	type item struct {
		ID int64 `json:"id"`
	}
	var ns page[note]
	env.mustGet("/api/um/v3/notes/?limit=1", &ns)
	var navs page[item]
	env.mustGet("/api/um/v3/navigation/?limit=1", &navs)
	for _, path := range []string{
		"/api/um/v3/notes/",
		"/api/um/v3/notes/?ordering=created_at&limit=3&offset=2",
		"/api/um/v3/notes/?contact_identity_id=" + itoa(ns.Results[0].ContactIdentityID),
		"/api/um/v3/navigation/?ordering=id",
		"/api/um/v3/navigation/?exclude_ids=" + itoa(navs.Results[0].ID),
		"/api/um/v3/operators/?ordering=name",
		"/api/um/v3/operators/",
	} {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		// The envelope's walk from the start, whatever limit and offset the path has.
		walkPath := strings.NewReplacer("&limit=3&offset=2", "").Replace(path) + sep + "limit=100"
		want, count, _ := walkOffset[item](env, walkPath)
		r := bare.get(path)
		expectStatus(t, r, 200, path)
		var got []item
		r.json(t, &got)
		if len(got) != count || len(got) == 0 {
			t.Fatalf("%s: %d items in the array, the envelope counts %d", path, len(got), count)
		}
		for i := range got {
			if got[i].ID != want[i].ID {
				t.Fatalf("%s: item %d is %d, the envelope has %d", path, i, got[i].ID, want[i].ID)
			}
		}
	}
	if *navs.Count <= 100 {
		t.Fatalf("navigation has %d events: the array was never longer than a page", *navs.Count)
	}
	// An empty match is an empty array, not null; conversations and contacts keep the envelope.
	r := bare.get("/api/um/v3/notes/?contact_identity_id=1")
	expectStatus(t, r, 200, "no notes")
	if strings.TrimSpace(string(r.body)) != "[]" {
		t.Fatalf("no notes: %s", r.body)
	}
	var convs page[item]
	bare.mustGet("/api/um/v3/conversations/?limit=2", &convs)
	if convs.Count == nil || len(convs.Results) != 2 {
		t.Fatalf("conversations under bare-lists: %+v", convs)
	}
}

// field-errors: a 400 carries the message under the field it names (or non_field_errors)
// and no detail; other errors keep detail, the permission error as the spec has it.
func TestVariantFieldErrors(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{Variants: []sandbox.Variant{sandbox.VariantFieldErrors}})
	a := newAPI(t, r)
	cs := allContacts(a)
	fieldOf := func(res resp, what string) map[string][]string {
		t.Helper()
		expectStatus(t, res, 400, what)
		var m map[string][]string
		res.json(t, &m)
		if _, ok := m["detail"]; ok || len(m) != 1 {
			t.Fatalf("%s: %s", what, res.body)
		}
		return m
	}
	m := fieldOf(a.send("PATCH", "/api/um/v3/contact_identities/"+itoa(cs[0].ID)+"/", map[string]any{"email": "no-at-sign"}), "bad email")
	if len(m["email"]) != 1 || !strings.Contains(m["email"][0], "is not a valid email address") {
		t.Fatalf("bad email: %v", m)
	}
	m = fieldOf(a.get("/api/um/v3/conversations/?limit=x"), "bad limit")
	if len(m["limit"]) != 1 || !strings.Contains(m["limit"][0], "not an integer") {
		t.Fatalf("bad limit: %v", m)
	}
	m = fieldOf(a.get("/api/um/v3/conversations/?ordering=name"), "bad ordering")
	if len(m["non_field_errors"]) != 1 || !strings.HasPrefix(m["non_field_errors"][0], "Invalid ordering") {
		t.Fatalf("bad ordering: %v", m)
	}
	if d := a.get("/api/um/v3/conversations/1/").detail(t); d != "Not found." {
		t.Fatalf("404: %q", d)
	}
	agent := a.as("Service-Operator-Id", itoa(r.Server.Info().RestrictedOperatorID))
	res := agent.del("/api/um/v3/notes/" + itoa(firstNote(t, a)) + "/")
	expectStatus(t, res, 403, "agent deletes a note")
	if d := res.detail(t); !strings.Contains(d, "permission") {
		t.Fatalf("403: %q", d)
	}
}

func firstNote(t *testing.T, a *api) int64 {
	t.Helper()
	var p page[note]
	a.mustGet("/api/um/v3/notes/?limit=1", &p)
	if len(p.Results) == 0 {
		t.Fatal("no notes")
	}
	return p.Results[0].ID
}

// read-only-fields: a conversation PATCH takes topics only; each of the other fields a
// client may send is refused with a 400 naming it, and nothing of the request is applied.
func TestVariantReadOnlyFields(t *testing.T) {
	t.Parallel()
	r := start(t, sandbox.Options{Variants: []sandbox.Variant{sandbox.VariantReadOnlyFields}})
	a := newAPI(t, r)
	c := allConversations(a)[0]
	path := "/api/um/v3/conversations/" + itoa(c.ID) + "/"
	for field, value := range map[string]any{
		"status":               "ended",
		"operator_assigned_to": a.info.RestrictedOperatorID,
		"marked_read_operator": !c.MarkedReadOperator,
	} {
		res := a.send("PATCH", path, map[string]any{"topics": []string{"Refused with it"}, field: value})
		expectStatus(t, res, 400, field)
		if d := res.detail(t); d != field+": this field is read-only." {
			t.Fatalf("%s: detail %q", field, d)
		}
	}
	var after conversation
	a.mustGet(path, &after)
	if after.Status != c.Status || after.MarkedReadOperator != c.MarkedReadOperator || len(after.Topics) != len(c.Topics) ||
		(after.OperatorAssignedTo == nil) != (c.OperatorAssignedTo == nil) {
		t.Fatalf("a refused PATCH changed the conversation: before %+v, after %+v", c, after)
	}
	res := a.send("PATCH", path, map[string]any{"topics": []string{"Taken"}})
	expectStatus(t, res, 200, "topics")
	res.json(t, &after)
	if len(after.Topics) != 1 || after.Topics[0].Text != "Taken" {
		t.Fatalf("topics under read-only-fields: %+v", after.Topics)
	}
}
