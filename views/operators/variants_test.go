package operators_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/views/operators"
	"github.com/parley-tui/parley/views/viewtest"
)

// rawGet decodes the sandbox's answer to path, as the server sent it, into out.
func rawGet(t *testing.T, e *env, path string, out any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.Sandbox.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Token "+e.Info.CustomerToken)
	resp, err := viewtest.Transport(t).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatalf("GET %s: %v: %s", path, err, body)
	}
}

// serverSlots is the slot use of operator id as the server states it in shape v, read
// without the client: the numbers the screen must show.
func serverSlots(t *testing.T, e *env, v sandbox.Variant, id int64) (used, total int) {
	t.Helper()
	path := fmt.Sprintf("/api/um/v3/operators/%d/", id)
	switch v {
	case sandbox.VariantSlotsUsedMax:
		var s struct{ Used, Max *int }
		rawGet(t, e, path+"slots/", &s)
		if s.Used == nil || s.Max == nil {
			t.Fatalf("operator %d: the slots answer is not {used, max}", id)
		}
		return *s.Used, *s.Max
	case sandbox.VariantSlotsList:
		var held []json.RawMessage
		rawGet(t, e, path+"slots/", &held)
		var op struct {
			MaxSlots *int `json:"max_slots"`
		}
		rawGet(t, e, path, &op)
		if op.MaxSlots == nil {
			t.Fatalf("operator %d has no max_slots", id)
		}
		return len(held), *op.MaxSlots
	}
	var s struct {
		CurrentSlots *int `json:"current_slots"`
		TotalSlots   *int `json:"total_slots"`
	}
	rawGet(t, e, path+"slots/", &s)
	if s.CurrentSlots == nil || s.TotalSlots == nil {
		t.Fatalf("operator %d: the slots answer is not {current_slots, total_slots}", id)
	}
	return *s.CurrentSlots, *s.TotalSlots
}

// TestSlotsShowWhatEveryServerSays: under each shape of the slots answer the rows show the
// slot use the server states ({"used", "max"}; a list of the occupied slots with the total
// on the operator as max_slots), and some operator uses a slot, so 0/0 cannot pass. Before,
// {"used", "max"} showed "slots 0/0" for everyone and a list "slots ?".
func TestSlotsShowWhatEveryServerSays(t *testing.T) {
	for _, v := range []sandbox.Variant{"", sandbox.VariantSlotsUsedMax, sandbox.VariantSlotsList} {
		t.Run(cmp.Or(string(v), "default"), func(t *testing.T) {
			opts := sandbox.Options{}
			if v != "" {
				opts.Variants = []sandbox.Variant{v}
			}
			e := newEnvWith(t, opts)
			l, m, _ := open(t, e, e.Client, 100, 24)
			view := l.H.View()
			busy := 0
			for _, r := range m.Rows() {
				used, total := serverSlots(t, e, v, r.ID)
				if used > 0 {
					busy++
				}
				want := fmt.Sprintf("slots %d/%d", used, total)
				if line := rowLine(t, view, r.Name); !strings.Contains(line, want) {
					t.Errorf("operator %d: the row does not say %q:\n%s", r.ID, want, line)
				}
			}
			if busy == 0 {
				t.Fatal("no operator uses a slot: the test cannot tell 0 from a reading")
			}
		})
	}
}

// partial is another server, made from the sandbox by leaving fields out of its answers:
// the operators list loses is_away and is_online of operator noStatus and gains fields
// parley does not read; the slots answers lose their total (usedOnly), their use (maxOnly)
// or both (neither), renamed {"used", "max"} as another server names them.
type partial struct {
	next                              http.RoundTripper
	noStatus, usedOnly, maxOnly, none int64
}

func (p *partial) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := p.next.RoundTrip(r)
	if err != nil || r.Method != http.MethodGet || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	switch path := r.URL.Path; {
	case strings.HasSuffix(path, "/operators/"):
		var page struct {
			Count    int              `json:"count"`
			Next     *string          `json:"next"`
			Previous *string          `json:"previous"`
			Results  []map[string]any `json:"results"`
		}
		if err := json.Unmarshal(body, &page); err != nil {
			return nil, err
		}
		for _, op := range page.Results {
			if id, _ := op["id"].(float64); int64(id) == p.noStatus {
				delete(op, "is_away")
				delete(op, "is_online")
				op["team"] = map[string]any{"name": "night\x1b[2J \u202eshift"}
				op["presence"] = "busy"
			}
		}
		body, _ = json.Marshal(page)
	case strings.HasSuffix(path, "/slots/"):
		var s struct {
			CurrentSlots int `json:"current_slots"`
			TotalSlots   int `json:"total_slots"`
		}
		if err := json.Unmarshal(body, &s); err != nil {
			return nil, err
		}
		out := map[string]any{"used": s.CurrentSlots, "max": s.TotalSlots}
		id, _ := strconv.ParseInt(strings.Split(strings.TrimPrefix(path, "/api/um/v3/operators/"), "/")[0], 10, 64)
		switch id {
		case p.usedOnly:
			delete(out, "max")
		case p.maxOnly:
			delete(out, "used")
		case p.none:
			out = map[string]any{"pool": "default"}
		}
		body, _ = json.Marshal(out)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}

// TestAbsentValuesShowADash: what a server does not send shows as "—", never as a zero or
// false it did not say: an operator without is_away and is_online has neither status, a
// slots answer without a total shows "3/—", one without the use "—/5", one with neither
// "—". The fields parley does not read show in the detail (p), sanitized. Before, the
// operator showed "available" and "offline" and the slots "n/0", "0/n" and "0/0".
func TestAbsentValuesShowADash(t *testing.T) {
	p := &partial{}
	e := &env{Env: viewtest.NewEnv(t, sandbox.Options{}, func(next http.RoundTripper) http.RoundTripper {
		p.next = next
		return p
	})}
	owner := e.Info.OwnerOperatorID // the client has sent nothing yet
	p.noStatus, p.usedOnly, p.maxOnly, p.none = owner+1, owner, owner+2, owner+3
	l, m, _ := open(t, e, e.Client, 100, 24)
	view := l.H.View()
	byID := map[int64]operators.Row{}
	for _, r := range m.Rows() {
		byID[r.ID] = r
	}
	used, total := serverSlots(t, e, "", owner)
	_, total2 := serverSlots(t, e, "", owner+2)
	for _, tc := range []struct {
		id   int64
		want string
	}{
		{owner, fmt.Sprintf("slots %d/—", used)},
		{owner + 2, fmt.Sprintf("slots —/%d", total2)},
		{owner + 3, "slots —"},
	} {
		if line := rowLine(t, view, byID[tc.id].Name); !strings.Contains(line, tc.want) {
			t.Errorf("operator %d: the row does not say %q:\n%s", tc.id, tc.want, line)
		}
	}
	if total == 0 {
		t.Fatal("the owner has no slots: the test cannot tell")
	}
	r := byID[owner+1]
	if r.IsAway.Known || r.IsOnline.Known {
		t.Fatalf("operator %d: away %+v online %+v, the server sent neither", r.ID, r.IsAway, r.IsOnline)
	}
	line := strings.Join(strings.Fields(rowLine(t, view, r.Name)), " ")
	if !strings.HasPrefix(line, "│ — — "+r.Name) || strings.Contains(line, "available") || strings.Contains(line, "offline") {
		t.Fatalf("operator %d: the row claims a status the server did not send:\n%s", r.ID, line)
	}

	// The detail of that operator: what the row leaves out, and what parley does not read.
	moveTo(t, l, m, r.ID)
	l.Key("p")
	l.Until("the detail", func() bool { return m.DetailShown() && !m.Busy() })
	v := l.H.View()
	viewtest.CheckSize(t, v, 100, 24, "the screen with the detail")
	for _, want := range []string{"Operator " + r.Label(), "Email         " + r.Email, "Also sent",
		`presence="busy"`, `team={"name":"night\u001b[2J shift"}`} {
		if !strings.Contains(v, want) {
			t.Errorf("the detail lacks %q:\n%s", want, v)
		}
	}
	if strings.ContainsAny(v, "\x1b\u202e") {
		t.Fatal("a control character from the server reached the screen")
	}
	moveTo(t, l, m, owner+3)
	l.Until("the slots answer's fields", func() bool { return strings.Contains(l.H.View(), `slots: pool="default"`) })
	if !m.DetailShown() || rowIndex(t, m, owner+3) < 0 {
		t.Fatal("the detail closed")
	}
}
