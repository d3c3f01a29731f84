package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestBadResponseErrorIsTyped: a 2xx that cannot be believed is a *BadResponseError naming
// the request, the status and the reason; Detail gives the reason alone.
func TestBadResponseErrorIsTyped(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, ``) })
	c, _ := newTestClient(t, rec.base(), nil)
	_, err := c.GetConversation(bg(), 4711)
	mustFail(t, err)
	var bre *BadResponseError
	if !errors.As(err, &bre) {
		t.Fatalf("%T %v is not a *BadResponseError", err, err)
	}
	want := BadResponseError{Method: "GET", Path: "/prefix/api/um/v3/conversations/4711/", Status: 200, Reason: "the API answered 200 with an empty body"}
	if bre.Method != want.Method || bre.Path != want.Path || bre.Status != want.Status || bre.Reason != want.Reason {
		t.Errorf("error = %+v, want %+v", *bre, want)
	}
	if err.Error() != "GET /prefix/api/um/v3/conversations/4711/: the API answered 200 with an empty body" {
		t.Errorf("text %q", err)
	}
	if Detail(err) != want.Reason {
		t.Errorf("Detail = %q", Detail(err))
	}
	var apiErr *Error
	if errors.As(err, &apiErr) || statusOf(err) != 0 || errors.Is(err, ErrOutcomeUnknown) {
		t.Errorf("a bad answer to a read passes for an API error or an unknown outcome: %v", err)
	}
	if _, ok := NetworkProblem(err); ok {
		t.Error("a bad answer is a network problem")
	}

	// The JSON decoder's error stays reachable for a debug log.
	rec.setRespond(func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 200, `{"id": "x"}`) })
	_, err = c.GetConversation(bg(), 4711)
	if !errors.As(err, &bre) || bre.Err == nil || !strings.Contains(bre.Err.Error(), "cannot unmarshal") {
		t.Errorf("err = %#v", err)
	}
}

// writeCalls are the writes of the API, each sent once against the server under test.
var writeCalls = map[string]func(c *Client) error{
	"POST note": func(c *Client) error {
		_, err := c.CreateNote(bg(), NewNote{ContactIdentityID: 88, Body: "x"})
		return err
	},
	"PATCH topics": func(c *Client) error {
		_, err := c.SetConversationTopics(bg(), 4711, []string{"Billing"})
		return err
	},
	"PATCH away": func(c *Client) error { _, err := c.SetOperatorAway(bg(), 3, true); return err },
	"PUT contact": func(c *Client) error {
		_, _, err := c.UpsertContact(bg(), IdentifierEmail, ContactUpdate{Email: ptr("a@b.c")})
		return err
	},
	"DELETE note":   func(c *Client) error { return c.DeleteNote(bg(), 501) },
	"DELETE by ids": func(c *Client) error { return c.DeleteContacts(bg(), []int64{1, 2}) },
	"DELETE by query": func(c *Client) error {
		return c.BulkDeleteConversations(bg(), BulkDelete[ConversationFilter]{Search: "spam"})
	},
}

// TestOutcomeUnknown: ErrOutcomeUnknown marks exactly the writes that may have been carried out
// although the client cannot tell; the precise cause stays reachable.
func TestOutcomeUnknown(t *testing.T) {
	hangUpAll := func(w http.ResponseWriter, r *http.Request, n int) { hangUp(t, w) }
	status := func(code int, body string) func(w http.ResponseWriter, r *http.Request, n int) {
		return func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, code, body) }
	}
	cases := []struct {
		name    string
		respond func(w http.ResponseWriter, r *http.Request, n int)
		writes  []string // nil: all
		unknown bool
		cause   func(err error) bool
	}{
		{"connection lost after sending", hangUpAll, nil, true, func(err error) bool {
			var te *TransportError
			return errors.As(err, &te) && te.Sent
		}},
		{"timeout after sending", func(w http.ResponseWriter, r *http.Request, n int) { <-r.Context().Done() }, nil, true, func(err error) bool {
			var ne net.Error
			return errors.As(err, &ne) && ne.Timeout()
		}},
		{"empty 200", status(200, ``), []string{"POST note", "PATCH topics", "PATCH away", "PUT contact"}, true, isBadResponse},
		{"HTML 200", status(200, `<html><title>ok</title></html>`), []string{"POST note", "PATCH topics", "PUT contact"}, true, isBadResponse},
		{"created note without id", status(201, `{"body": "x"}`), []string{"POST note"}, true, isBadResponse},
		{"proxy 502", status(502, ``), nil, true, func(err error) bool { return statusOf(err) == 502 }},
		{"server 500", status(500, `{"detail": "boom"}`), nil, true, func(err error) bool { return statusOf(err) == 500 }},
		{"400", status(400, `{"detail": "no"}`), nil, false, IsValidation},
		{"403", status(403, `{"detail": "no"}`), nil, false, IsPermission},
		{"404", status(404, `{"detail": "Not found."}`), nil, false, IsNotFound},
		{"429", func(w http.ResponseWriter, r *http.Request, n int) {
			w.Header().Set("Retry-After", "3600")
			writeJSON(w, 429, `{"detail": "limit"}`)
		}, nil, false, IsRateLimited},
		{"success", func(w http.ResponseWriter, r *http.Request, n int) {
			if r.Method == http.MethodDelete {
				w.WriteHeader(204)
				return
			}
			writeJSON(w, 200, `{"id": 1, "is_away": true}`)
		}, nil, false, func(err error) bool { return err == nil }},
	}
	for _, tc := range cases {
		names := tc.writes
		if names == nil {
			for n := range writeCalls {
				names = append(names, n)
			}
		}
		for _, name := range names {
			t.Run(tc.name+"/"+name, func(t *testing.T) {
				rec := newRecorder(t, tc.respond)
				c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.Timeout = 300 * time.Millisecond; cfg.MaxRetries = 2 })
				err := writeCalls[name](c)
				if got := errors.Is(err, ErrOutcomeUnknown); got != tc.unknown {
					t.Errorf("errors.Is(%v, ErrOutcomeUnknown) = %v, want %v", err, got, tc.unknown)
				}
				if !tc.cause(err) {
					t.Errorf("the cause is not reachable in %#v", err)
				}
				checkNoToken(t, err)
			})
		}
	}

	// Nothing was sent: never unknown, even after every retry.
	addr := closedAddr(t)
	for name, write := range writeCalls {
		c, _ := newTestClient(t, "http://"+addr+"/prefix", func(cfg *Config) { cfg.MaxRetries = 2 })
		err := write(c)
		var te *TransportError
		if err == nil || errors.Is(err, ErrOutcomeUnknown) || !errors.As(err, &te) || te.Sent {
			t.Errorf("%s to a closed port: %#v", name, err)
		}
		var op *net.OpError
		if !errors.As(err, &op) {
			t.Errorf("%s: the net error is not reachable: %#v", name, err)
		}
	}

	// Reads are never unknown.
	for name, respond := range map[string]func(w http.ResponseWriter, r *http.Request, n int){
		"hang-up": hangUpAll, "empty": status(200, ``), "502": status(502, ``),
	} {
		rec := newRecorder(t, respond)
		c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = 1 })
		if _, err := c.GetNote(bg(), 1); err == nil || errors.Is(err, ErrOutcomeUnknown) {
			t.Errorf("GET, %s: %v", name, err)
		}
	}
}

func isBadResponse(err error) bool {
	var bre *BadResponseError
	return errors.As(err, &bre)
}

// TestOutcomeUnknownAcrossRetries: an idempotent write whose sent attempt lost its answer
// stays unknown when the later attempts fail, whatever they fail with, unless the server's
// last word refuses the request itself.
func TestOutcomeUnknownAcrossRetries(t *testing.T) {
	cases := []struct {
		name    string
		later   func(w http.ResponseWriter, r *http.Request)
		unknown bool
	}{
		{"then 503s", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 503, `{"detail": "busy"}`) }, true},
		{"then a long 429", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "7200")
			writeJSON(w, 429, `{"detail": "daily limit"}`)
		}, true},
		{"then 400", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 400, `{"detail": "email: invalid"}`) }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if n == 0 {
					hangUp(t, w)
					return
				}
				tc.later(w, r)
			})
			c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = 2 })
			_, _, err := c.UpsertContact(bg(), IdentifierEmail, ContactUpdate{Email: ptr("a@b.c")})
			mustFail(t, err)
			if got := errors.Is(err, ErrOutcomeUnknown); got != tc.unknown {
				t.Errorf("unknown = %v, want %v: %v", got, tc.unknown, err)
			}
			if rec.count() < 2 {
				t.Errorf("%d requests", rec.count())
			}
		})
	}
	// An attempt refused at the door after a lost one: still unknown.
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { hangUp(t, w) })
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = 1 })
	c.sleep = func(ctx context.Context, d time.Duration) error { rec.srv.Close(); return nil }
	err := c.DeleteNote(bg(), 501)
	var te *TransportError
	if !errors.Is(err, ErrOutcomeUnknown) || !errors.As(err, &te) || te.Sent {
		t.Errorf("lost, then refused: %#v", err)
	}
}

// TestUnknownWriteClearsTheCache: a write that may have been carried out clears the response
// cache like a successful one, so no read shows the state from before it.
func TestUnknownWriteClearsTheCache(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.Method == http.MethodPatch {
			hangUp(t, w)
			return
		}
		writeJSON(w, 200, `{"id": 4711, "status": "new"}`)
	})
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.CacheTTL = time.Minute })
	if _, err := c.GetConversation(bg(), 4711); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetConversationTopics(bg(), 4711, []string{"x"}); !errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("err = %v", err)
	}
	if _, err := c.GetConversation(bg(), 4711); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 3 {
		t.Fatalf("%d requests: the read after an unknown write came from the cache", rec.count())
	}
}

// TestOutcomeUnknownText: the error says the change may have been made, after the cause.
func TestOutcomeUnknownText(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, 201, ``) })
	c, _ := newTestClient(t, rec.base(), nil)
	_, err := c.CreateNote(bg(), NewNote{ContactIdentityID: 88, Body: "x"})
	want := "POST /prefix/api/um/v3/notes/: the API answered 201 with an empty body; " + ErrOutcomeUnknown.Error()
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
	if Detail(err) != "the API answered 201 with an empty body" {
		t.Errorf("Detail = %q", Detail(err))
	}
}
