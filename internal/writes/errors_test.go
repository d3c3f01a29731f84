package writes_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/writes"
)

func TestPermissionTextSaysItOnce(t *testing.T) {
	denied := func(detail string) error {
		return fmt.Errorf("update operator 7: %w", &client.Error{Method: "PATCH", Path: "/operators/7/", Status: 403, Detail: detail})
	}
	for _, tc := range []struct{ detail, want string }{
		{`You do not have permission to perform this action: operator 2006 with role "agent" may not change operators of other operators.`,
			`You lack permission: operator 2006 with role "agent" may not change operators of other operators.`},
		{"You do not have permission to perform this action.", "You lack permission for this action."},
		{"you do not have permission to perform this action - bots may not edit", "You lack permission: bots may not edit"},
		{"Only owners may do that.", "You lack permission: Only owners may do that."},
		{"You do not have permission to perform this action: \x1b]0;x\x07", "You lack permission: ␛]0;x␇"},
	} {
		if got := writes.ErrorText(denied(tc.detail)); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.detail, got, tc.want)
		}
	}
	// Other errors keep their wording.
	if got := writes.ErrorText(&client.Error{Status: 404, Detail: "No contact."}); got != "Not found: No contact." {
		t.Errorf("404: %q", got)
	}
	// A 404 whose detail only says "Not found." is not said twice.
	for _, d := range []string{"Not found.", "not found"} {
		if got := writes.ErrorText(&client.Error{Status: 404, Detail: d}); got != "Not found: the server has nothing by that id." {
			t.Errorf("404 %q: %q", d, got)
		}
	}
	if got := writes.ErrorText(fmt.Errorf("x: %w", context.DeadlineExceeded)); got != "The API did not answer in time." {
		t.Errorf("timeout: %q", got)
	}
}

// A server that cannot be reached is named with the reason, not the method and whole URL.
func TestErrorTextNamesAnUnreachableHost(t *testing.T) {
	c, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9/base", Token: "secret-token-xyz", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = c.GetConversation(ctx, 1)
	if err == nil {
		t.Fatal("no error from a closed port")
	}
	got := writes.ErrorText(err)
	if got != "Cannot connect to 127.0.0.1:9 (connection refused); nothing was sent." {
		t.Fatalf("ErrorText = %q", got)
	}
}

// serveOnce accepts connections on a loopback port and hands each to handle.
func serveOnce(t *testing.T, handle func(net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go handle(c)
		}
	}()
	return "http://" + ln.Addr().String()
}

// readRequest reads one whole request from c.
func readRequest(c net.Conn) {
	req, err := http.ReadRequest(bufio.NewReader(c))
	if err == nil {
		_, _ = io.Copy(io.Discard, req.Body)
	}
}

// A write's error says what happened to it — refused, lost after it was sent, no answer in
// time, an answer that cannot be believed — and, when it may have been carried out, that it
// may have been.
func TestErrorTextSaysWhetherAWriteMayHaveHappened(t *testing.T) {
	hold := make(chan struct{})
	t.Cleanup(func() { close(hold) })
	servers := map[string]string{
		"refused": "http://127.0.0.1:9",
		"lost": serveOnce(t, func(c net.Conn) {
			readRequest(c)
			_ = c.Close()
		}),
		"silent": serveOnce(t, func(c net.Conn) {
			readRequest(c)
			<-hold
			_ = c.Close()
		}),
		"empty": serveOnce(t, func(c net.Conn) {
			readRequest(c)
			_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			_ = c.Close()
		}),
	}
	host := func(name string) string { return strings.TrimPrefix(servers[name], "http://") }
	const may = " The change may have been made: check before sending it again."
	for _, tc := range []struct{ server, want string }{
		{"refused", "Cannot connect to 127.0.0.1:9 (connection refused); nothing was sent."},
		{"lost", "The connection to " + host("lost") + " was lost after the request was sent; the answer did not arrive." + may},
		{"silent", "No answer within 300ms after the request was sent." + may},
		{"empty", "The API answered 200 with an empty body." + may},
	} {
		c, err := client.New(client.Config{BaseURL: servers[tc.server], Token: "token-0123456789", MaxRetries: -1, Timeout: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.CreateNote(context.Background(), client.NewNote{ContactIdentityID: 1, Body: "x"})
		if err == nil {
			t.Fatalf("%s: no error", tc.server)
		}
		if got := writes.ErrorText(fmt.Errorf("create note: %w", err)); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.server, got, tc.want)
		}
	}
}

// What a check after a lost answer found reads as one sentence.
func TestErrorTextOfACheckedWrite(t *testing.T) {
	lost := &client.TransportError{Method: "POST", Host: "api:443", Sent: true, Err: io.EOF}
	timeout := &client.TransportError{Method: "POST", Host: "api:443", Sent: true, Limit: 30 * time.Second, Err: context.DeadlineExceeded}
	bad := &client.BadResponseError{Status: 201, Reason: "the API answered 201 with an empty body"}
	gateway := &client.Error{Status: 502, Detail: "upstream \x1b[31mgone"}
	for _, tc := range []struct {
		err         error
		long, short string
	}{
		{lost, "the connection was lost before the server answered", "the connection dropped"},
		{timeout, "no answer came within 30s", "no answer came in time"},
		{bad, "the API answered 201 with an empty body", "an unreadable answer"},
		{gateway, "the API answered 502 Bad Gateway (upstream ␛[31mgone)", "a 502 answer"},
	} {
		if got := writes.LostAnswer(tc.err); got != tc.long {
			t.Errorf("LostAnswer(%v) = %q, want %q", tc.err, got, tc.long)
		}
		if got := writes.Confirmed(tc.err); got != " (confirmed after "+tc.short+")" {
			t.Errorf("Confirmed(%v) = %q", tc.err, got)
		}
	}
	notDone := &writes.NotDoneError{Cause: lost, Done: "deleted", Found: "note #4 is still there"}
	if got := writes.ErrorText(fmt.Errorf("delete note 4: %w", notDone)); got != "Not deleted: the connection was lost before the server answered, and note #4 is still there." {
		t.Errorf("not done: %q", got)
	}
	if errors.Is(notDone, client.ErrOutcomeUnknown) {
		t.Error("a write found not done still counts as unknown")
	}
	unchecked := &writes.UncheckedError{Cause: timeout, Check: &client.TransportError{Host: "api:443", Err: io.EOF},
		What: "whether the topics were saved", Advice: "look before sending again"}
	if got := writes.ErrorText(unchecked); got != "Could not confirm whether the topics were saved (no answer came within 30s; reading it back: cannot connect); look before sending again." {
		t.Errorf("unchecked: %q", got)
	}
	if !errors.Is(unchecked, context.DeadlineExceeded) {
		t.Error("an unchecked write does not keep its cause")
	}
}

// TestDailyLimitSaysUntilWhen: a 429 of the daily limit says which family, until when in
// local time, and that what is shown stays; a burst 429 stays a rate limit.
func TestDailyLimitSaysUntilWhen(t *testing.T) {
	until := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	daily := fmt.Errorf("conversations: %w", &client.Error{Method: "GET", Path: "/api/um/v3/conversations/", Status: 429,
		Detail: "Daily request limit of 60 reached for conversations; it resets at 00:00 UTC.", RetryAfter: 8 * time.Hour,
		Daily: true, Until: until})
	want := "Daily limit of conversations requests reached: the API takes them again at " + until.Local().Format("Mon 15:04") +
		" (local time). What is shown stays."
	if got := writes.ErrorText(daily); got != want {
		t.Errorf("daily limit:\n got %q\nwant %q", got, want)
	}
	burst := &client.Error{Method: "GET", Path: "/api/um/v3/conversations/", Status: 429, Detail: "Request was throttled.", RetryAfter: 2 * time.Second}
	if got := writes.ErrorText(burst); !strings.HasPrefix(got, "Rate-limited by the API: Request was throttled.") {
		t.Errorf("burst: %q", got)
	}
}
