package client

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// badBodies are 2xx answers no endpoint that expects a body may believe, with the text the
// error must carry (%d is the status).
var badBodies = []struct {
	name, ctype, body, want string
}{
	{"empty", "application/json", "", "the API answered %d with an empty body"},
	{"blank", "application/json", " \r\n\t", "the API answered %d with an empty body"},
	{"html", "text/html; charset=utf-8", "<!DOCTYPE html>\n<html><head><title>Sign in &ndash; Proxy</title></head><body><form></form></body></html>",
		"the API answered %d with an HTML page instead of JSON (title: Sign in – Proxy)"},
	{"html without title, sent as JSON", "application/json", "  <html><body>maintenance</body></html>", "the API answered %d with an HTML page instead of JSON"},
	{"truncated", "application/json", `{"id": 4711, "count": 1, "results": [{"id": 4711, "sta`, "the API answered %d with a body that is not valid JSON (it breaks off after 54 bytes)"},
	{"garbage", "application/json", "\x00\x17\xff garbage", "the API answered %d with a body that is not valid JSON"},
}

// TestEverySuccessBodyIsChecked: every endpoint whose answer carries a body refuses an empty,
// HTML or broken 2xx with a plain-words error, never success and never a JSON parser's text.
// Endpoints without a response body (the DELETEs) accept any 2xx body.
func TestEverySuccessBodyIsChecked(t *testing.T) {
	for _, tc := range endpointCases(t) {
		for _, b := range badBodies {
			t.Run(tc.name+"/"+b.name, func(t *testing.T) {
				rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
					w.Header().Set("Content-Type", b.ctype)
					w.WriteHeader(tc.status)
					_, _ = w.Write([]byte(b.body))
				})
				c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = -1 })
				err := tc.call(t, c)
				if tc.resp == "" {
					if err != nil {
						t.Fatalf("a %d with a %s body to an endpoint without a response body: %v", tc.status, b.name, err)
					}
					return
				}
				mustFail(t, err)
				want := fmt.Sprintf(b.want, tc.status)
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q\nlacks %q", err, want)
				}
				for _, raw := range []string{"invalid character", "unexpected end of JSON", "json:", "<html", "<title"} {
					if strings.Contains(err.Error(), raw) {
						t.Errorf("error %q carries %q", err, raw)
					}
				}
				if rec.count() != 1 {
					t.Errorf("%d requests, want 1", rec.count())
				}
			})
		}
	}
}

// TestSuccessShapesAreChecked: JSON that decodes but lacks what the endpoint promises.
func TestSuccessShapesAreChecked(t *testing.T) {
	page := func(items string) string {
		return `{"count": 1, "next": null, "previous": null, "results": [` + items + `]}`
	}
	cases := []struct {
		name   string
		status int
		body   string
		call   func(c *Client) error
		want   string
	}{
		{"created note without id", 201, `{"contact_identity_id": 88, "body": "x"}`,
			func(c *Client) error {
				_, err := c.CreateNote(bg(), NewNote{ContactIdentityID: 88, Body: "x"})
				return err
			},
			"the API answered 201 but the note it returned has no id"},
		{"created note with id 0", 201, `{"id": 0, "body": "x"}`,
			func(c *Client) error {
				_, err := c.CreateNote(bg(), NewNote{ContactIdentityID: 88, Body: "x"})
				return err
			},
			"the API answered 201 but the note it returned has no id"},
		{"JSON null for a note", 200, `null`,
			func(c *Client) error { _, err := c.GetNote(bg(), 5); return err },
			"the API answered 200 but the note it returned has no id"},
		{"updated conversation without id", 200, `{"topics": [{"id": 1, "text": "Billing"}]}`,
			func(c *Client) error { _, err := c.SetConversationTopics(bg(), 4711, []string{"Billing"}); return err },
			"the API answered 200 but the conversation it returned has no id"},
		{"updated contact without id", 200, `{}`,
			func(c *Client) error { _, err := c.UpdateContact(bg(), 88, ContactUpdate{Name: ptr("x")}); return err },
			"the API answered 200 but the contact it returned has no id"},
		{"upserted contact without id", 201, `{"email": "a@b.c"}`,
			func(c *Client) error {
				_, _, err := c.UpsertContact(bg(), IdentifierEmail, ContactUpdate{Email: ptr("a@b.c")})
				return err
			},
			"the API answered 201 but the contact it returned has no id"},
		{"updated operator without id", 200, `{"name": "x"}`,
			func(c *Client) error { _, err := c.UpdateOperator(bg(), 3, OperatorUpdate{Name: ptr("x")}); return err },
			"the API answered 200 but the operator it returned has no id"},
		{"single conversation without id", 200, `{"status": "new"}`,
			func(c *Client) error { _, err := c.GetConversation(bg(), 4711); return err },
			"the API answered 200 but the conversation it returned has no id"},
		{"list without results", 200, `{"count": 3, "next": null, "previous": null}`,
			func(c *Client) error { _, err := c.ListConversations(bg(), ConversationListOptions{}); return err },
			"the API answered 200 but the list it returned has no results"},
		{"raw contact list without results", 200, `{"count": 0}`,
			func(c *Client) error { _, err := c.SearchContactsJSON(bg(), "zoe", ContactFilter{}, 20); return err },
			"the API answered 200 but the list it returned has no results"},
		{"list item without id", 200, page(`{"id": 1}, {"status": "new"}`),
			func(c *Client) error { _, err := c.ListConversations(bg(), ConversationListOptions{}); return err },
			"the API answered 200 but conversation 2 of the 2 it returned has no id"},
		{"contact list item without id", 200, page(`{"name": "Zoe"}`),
			func(c *Client) error { _, err := c.SearchContacts(bg(), "zoe", 20); return err },
			"the API answered 200 but contact 1 of the 1 it returned has no id"},
		{"cursor page without results", 200, `{"next": null, "previous": null}`,
			func(c *Client) error { _, err := c.MessagesPage(bg(), 4711, MessageOptions{}); return err },
			"the API answered 200 but the list it returned has no results"},
		{"message without id", 200, `{"next": null, "previous": null, "results": [{"body": "hi"}]}`,
			func(c *Client) error { _, err := c.MessagesPage(bg(), 4711, MessageOptions{}); return err },
			"the API answered 200 but message 1 of the 1 it returned has no id"},
		{"analytics without results", 200, `{"next": null}`,
			func(c *Client) error {
				_, err := c.Analytics(bg(), AnalyticsQuery{Metric: MetricConversationDuration})
				return err
			},
			"the API answered 200 but the list it returned has no results"},
		{"array for a single resource", 200, `[{"id": 4711}]`,
			func(c *Client) error { _, err := c.GetConversation(bg(), 4711); return err },
			"the API answered 200 with JSON of another shape (an array where an object belongs)"},
		{"string for a number", 200, `{"id": "4711"}`,
			func(c *Client) error { _, err := c.GetConversation(bg(), 4711); return err },
			"the API answered 200 with JSON of another shape (id is a string where a number belongs)"},
		{"object for the results", 200, `{"count": 1, "results": {"id": 1}}`,
			func(c *Client) error { _, err := c.ListOperators(bg(), ListOptions{}); return err },
			"the API answered 200 with JSON of another shape (results is an object where an array belongs)"},
		{"bad timestamp", 200, `{"id": 501, "created_at": "yesterday"}`,
			func(c *Client) error { _, err := c.GetNote(bg(), 501); return err },
			`the API answered 200 with JSON of another shape (timestamp "yesterday" is not ISO 8601)`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, tc.status, tc.body) })
			c, _ := newTestClient(t, rec.base(), nil)
			err := mustFail(t, tc.call(c))
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q\nlacks %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "Go value") || strings.Contains(err.Error(), "json:") {
				t.Errorf("error %q speaks the decoder's language", err)
			}
		})
	}
}

// TestSuccessReadTolerantly: shapes the spec leaves open, or that the API may send, stay
// accepted.
func TestSuccessReadTolerantly(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		call   func(t *testing.T, c *Client) error
	}{
		{"operators as a bare array", 200, `[{"id": 1, "name": "Ann"}, {"id": 2}]`, func(t *testing.T, c *Client) error {
			p, err := c.ListOperators(bg(), ListOptions{})
			if err == nil && len(p.Results) != 2 {
				t.Errorf("page = %+v", p)
			}
			return err
		}},
		{"empty bare array", 200, `[]`, func(t *testing.T, c *Client) error {
			p, err := c.ListNotes(bg(), NoteListOptions{})
			if err == nil && (p.Results == nil || len(p.Results) != 0) {
				t.Errorf("page = %+v", p)
			}
			return err
		}},
		{"navigation events without ids", 200, `{"count": 1, "results": [{"url": "https://shop.example.com/"}]}`, func(t *testing.T, c *Client) error {
			_, err := c.ListNavigation(bg(), NavigationListOptions{})
			return err
		}},
		{"results null", 200, `{"count": 0, "next": null, "previous": null, "results": null}`, func(t *testing.T, c *Client) error {
			p, err := c.ListContacts(bg(), ContactListOptions{})
			if err == nil && (p.Results == nil || len(p.Results) != 0) {
				t.Errorf("page = %+v", p)
			}
			return err
		}},
		{"messages with results only", 200, `{"results": []}`, func(t *testing.T, c *Client) error {
			_, err := c.MessagesPage(bg(), 4711, MessageOptions{})
			return err
		}},
		{"note with nothing but an id", 201, `{"id": 502}`, func(t *testing.T, c *Client) error {
			n, err := c.CreateNote(bg(), NewNote{ContactIdentityID: 88, Body: "x"})
			if err == nil && n.ID != 502 {
				t.Errorf("note = %+v", n)
			}
			return err
		}},
		{"away without operator id", 200, `{"is_away": true}`, func(t *testing.T, c *Client) error {
			_, err := c.SetOperatorAway(bg(), 3, true)
			return err
		}},
		{"slots with extra fields", 200, `{"operator_id": 3, "current_slots": 1, "total_slots": 2, "new": [1]}`, func(t *testing.T, c *Client) error {
			_, err := c.OperatorSlots(bg(), 3)
			return err
		}},
		{"note delete answered 200 with a body", 200, `{"deleted": true}`, func(t *testing.T, c *Client) error {
			return c.DeleteNote(bg(), 501)
		}},
		{"note delete answered 200 without a body", 200, ``, func(t *testing.T, c *Client) error {
			return c.DeleteNote(bg(), 501)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { writeJSON(w, tc.status, tc.body) })
			c, _ := newTestClient(t, rec.base(), nil)
			if err := tc.call(t, c); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestBadSuccessIsNotCached: an answer that fails its checks never enters the response cache,
// so the next identical request asks the server again instead of repeating the failure.
func TestBadSuccessIsNotCached(t *testing.T) {
	for _, b := range []struct{ name, body string }{
		{"truncated", `{"id": 4711, "sta`},
		{"html", `<html><head><title>502</title></head></html>`},
		{"empty", ``},
		{"no id", `{"status": "new"}`},
	} {
		t.Run(b.name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if n == 0 {
					writeJSON(w, 200, b.body)
					return
				}
				writeJSON(w, 200, `{"id": 4711, "status": "new"}`)
			})
			c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.CacheTTL = 2 * time.Minute })
			if _, err := c.GetConversation(bg(), 4711); err == nil {
				t.Fatal("the bad answer was taken")
			}
			conv, err := c.GetConversation(bg(), 4711)
			if err != nil {
				t.Fatalf("the second request failed again: %v", err)
			}
			if conv.ID != 4711 || rec.count() != 2 {
				t.Fatalf("conversation %d after %d requests, want 4711 after 2", conv.ID, rec.count())
			}
			// The good answer is cached.
			if _, err := c.GetConversation(bg(), 4711); err != nil || rec.count() != 2 {
				t.Fatalf("a good answer was not cached: %v, %d requests", err, rec.count())
			}
		})
	}
	// A list: an empty body must not become a cached "0 conversations".
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			writeJSON(w, 200, ``)
			return
		}
		writeJSON(w, 200, `{"count": 1, "next": null, "previous": null, "results": [{"id": 9}]}`)
	})
	c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.CacheTTL = 2 * time.Minute })
	if p, err := c.ListConversations(bg(), ConversationListOptions{}); err == nil {
		t.Fatalf("an empty body became a page: %+v", p)
	}
	p, err := c.ListConversations(bg(), ConversationListOptions{})
	if err != nil || p.Count != 1 || rec.count() != 2 {
		t.Fatalf("page %+v, err %v after %d requests", p, err, rec.count())
	}
}

// closedAddr is a local address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestNetworkProblemSaysWhetherTheRequestWasSent: a refused connection, a connection lost after
// the request went out, an answer that broke off and timeouts before and after sending are
// told apart.
func TestNetworkProblemSaysWhetherTheRequestWasSent(t *testing.T) {
	createNote := func(c *Client) error {
		_, err := c.CreateNote(bg(), NewNote{ContactIdentityID: 88, Body: "call back"})
		return err
	}
	t.Run("refused", func(t *testing.T) {
		addr := closedAddr(t)
		c, _ := newTestClient(t, "http://"+addr+"/prefix", nil)
		err := mustFail(t, createNote(c))
		want := "cannot connect to " + addr + " (connection refused); nothing was sent"
		if got, ok := NetworkProblem(err); !ok || got != want {
			t.Errorf("NetworkProblem = %q, %v; want %q", got, ok, want)
		}
	})
	t.Run("lost after sending", func(t *testing.T) {
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { hangUp(t, w) })
		c, _ := newTestClient(t, rec.base(), nil)
		err := mustFail(t, createNote(c))
		want := "the connection to " + rec.srv.Listener.Addr().String() + " was lost after the request was sent; the answer did not arrive"
		if got, ok := NetworkProblem(err); !ok || got != want {
			t.Errorf("NetworkProblem = %q, %v; want %q", got, ok, want)
		}
		if rec.count() != 1 {
			t.Errorf("%d requests", rec.count())
		}
	})
	t.Run("answer broke off", func(t *testing.T) {
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
			w.Header().Set("Content-Length", "500")
			w.WriteHeader(201)
			_, _ = w.Write([]byte(`{"id": 50`))
			w.(http.Flusher).Flush()
			hangUp(t, w)
		})
		c, _ := newTestClient(t, rec.base(), nil)
		err := mustFail(t, createNote(c))
		want := "the connection to " + rec.srv.Listener.Addr().String() + " was lost after the request was sent; the answer did not arrive"
		if got, ok := NetworkProblem(err); !ok || got != want {
			t.Errorf("NetworkProblem = %q, %v; want %q", got, ok, want)
		}
	})
	t.Run("timeout after sending", func(t *testing.T) {
		rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) { <-r.Context().Done() })
		c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.Timeout = 300 * time.Millisecond })
		err := mustFail(t, createNote(c))
		want := "no answer within 300ms after the request was sent"
		if got, ok := NetworkProblem(err); !ok || got != want {
			t.Errorf("NetworkProblem = %q, %v; want %q", got, ok, want)
		}
	})
	t.Run("timeout before sending", func(t *testing.T) {
		addr := closedAddr(t)
		never := &http.Transport{DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
			<-ctx.Done() // a connection that is never made
			return nil, ctx.Err()
		}}
		c, _ := newTestClient(t, "http://"+addr+"/prefix", func(cfg *Config) {
			cfg.Timeout = 300 * time.Millisecond
			cfg.HTTPClient = &http.Client{Transport: never}
		})
		err := mustFail(t, createNote(c))
		want := "cannot connect to " + addr + " within 300ms; nothing was sent"
		if got, ok := NetworkProblem(err); !ok || got != want {
			t.Errorf("NetworkProblem = %q, %v; want %q", got, ok, want)
		}
	})
	t.Run("unknown host", func(t *testing.T) {
		c, _ := newTestClient(t, "http://parley-no-such-host.invalid/prefix", func(cfg *Config) { cfg.MaxRetries = -1 })
		_, err := c.GetConversation(bg(), 1)
		mustFail(t, err)
		got, ok := NetworkProblem(err)
		if !ok || !strings.HasPrefix(got, "cannot find the host parley-no-such-host.invalid (") || !strings.HasSuffix(got, "); nothing was sent") {
			t.Errorf("NetworkProblem = %q, %v", got, ok)
		}
	})
	if got, ok := NetworkProblem(fmt.Errorf("x: %w", &Error{Status: 500})); ok {
		t.Errorf("an API answer is a network problem: %q", got)
	}
}

// TestHTMLErrorPageBecomesAShortDetail: a proxy's HTML error page is named by status and title,
// never shown as markup, and the token stays out of it.
func TestHTMLErrorPageBecomesAShortDetail(t *testing.T) {
	cases := []struct {
		name, ctype, body string
		status            int
		want              string
	}{
		{"proxy 502", "text/html", "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
			502, "the server answered 502 Bad Gateway with an HTML page (title: 502 Bad Gateway)"},
		{"entities, controls, token", "text/html", "<!doctype html><HTML><HEAD><TITLE>\n  Upstream &amp; \x1b[2J&#27;]0;x&#7; " + testToken + " &lt;b&gt;\n</TITLE></HEAD></HTML>",
			503, "the server answered 503 Service Unavailable with an HTML page (title: Upstream & [2J]0;x [redacted] <b>)"},
		{"no title, no content type", "", "<html><body><h1>Gateway Timeout</h1></body></html>",
			504, "the server answered 504 Gateway Timeout with an HTML page"},
		{"long title", "text/html", "<title>" + strings.Repeat("Very long title ", 20) + "</title>",
			500, "the server answered 500 Internal Server Error with an HTML page (title: Very long title Very long title Very long title Very long…)"},
		// Bytes whose lower case is longer or shorter (invalid UTF-8, İ) before the title: the
		// title is found where it is in the page, not where it is in a lowered copy.
		{"invalid UTF-8 and İ before the title", "text/html", "<html>\xff\xfe\xc1İİİ<head><title>Service Down</title></head></html>",
			503, "the server answered 503 Service Unavailable with an HTML page (title: Service Down)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request, n int) {
				if tc.ctype != "" {
					w.Header().Set("Content-Type", tc.ctype)
				}
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			})
			c, _ := newTestClient(t, rec.base(), func(cfg *Config) { cfg.MaxRetries = -1 })
			_, err := c.GetConversation(bg(), 1)
			mustFail(t, err)
			if statusOf(err) != tc.status {
				t.Errorf("status %d", statusOf(err))
			}
			if got := Detail(err); got != tc.want {
				t.Errorf("Detail = %q\n want %q", got, tc.want)
			}
			if strings.ContainsAny(Detail(err), "\x1b\x07") || strings.Contains(err.Error(), "<html") {
				t.Errorf("markup or controls in %q", err)
			}
		})
	}
}
