package cli

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sandbox/sandboxtest"
	"github.com/parley-tui/parley/sanitize"
)

func apiEnv(t *testing.T, sb *sandbox.Running) []string {
	return append(headlessEnv(t), "PARLEY_BASE_URL="+sb.URL, "PARLEY_TOKEN="+sb.Server.Info().CustomerToken)
}

func TestConversationsExportWalksEverything(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	sb := sandboxtest.Start(t, sandbox.Options{Size: sandbox.SizeMedium})
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken})
	if err != nil {
		t.Fatal(err)
	}
	page, err := c.ConversationsAllPage(t.Context(), client.AllConversationsOptions{CursorOptions: client.CursorOptions{Limit: 1}})
	if err != nil || page.Count == nil {
		t.Fatalf("count: %v", err)
	}
	total := *page.Count
	if total <= 100 {
		t.Fatalf("the sandbox has %d conversations; the walk must cross several pages", total)
	}
	r := runParley(t, bin, apiEnv(t, sb), "", "conversations", "export", "--page-size", "100")
	if r.err != nil {
		t.Fatalf("export: %v\n%s", r.err, r.stderr)
	}
	seen := map[int64]bool{}
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for sc.Scan() {
		var conv client.Conversation
		if err := json.Unmarshal(sc.Bytes(), &conv); err != nil {
			t.Fatalf("line is not a conversation: %v", err)
		}
		if seen[conv.ID] {
			t.Fatalf("conversation %d exported twice", conv.ID)
		}
		seen[conv.ID] = true
	}
	if len(seen) != total {
		t.Fatalf("exported %d conversations, the API counts %d", len(seen), total)
	}
	if strings.Contains(r.stderr, "\r") {
		t.Fatal("progress written to a stderr that is not a terminal")
	}

	// --max stops early; small pages still walk in id order.
	r = runParley(t, bin, apiEnv(t, sb), "", "conversations", "export", "--max", "5", "--page-size", "2")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if r.err != nil || len(lines) != 5 {
		t.Fatalf("--max 5: %v, %d lines\n%s", r.err, len(lines), r.stderr)
	}
	for i := 1; i < len(lines); i++ {
		var a, b client.Conversation
		if json.Unmarshal([]byte(lines[i-1]), &a) != nil || json.Unmarshal([]byte(lines[i]), &b) != nil || b.ID <= a.ID {
			t.Fatalf("--max 5: lines %d and %d are not conversations in id order", i-1, i)
		}
	}

	// Filters narrow the walk.
	r = runParley(t, bin, apiEnv(t, sb), "", "conversations", "export", "--status", "ended")
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var conv client.Conversation
		if err := json.Unmarshal([]byte(l), &conv); err != nil || conv.Status != client.StatusEnded {
			t.Fatalf("--status ended exported %q (%v)", l[:min(80, len(l))], err)
		}
	}
	// A status the spec does not list is sent with a warning (the sandbox has none such);
	// one that cannot be a status is refused.
	r = runParley(t, bin, apiEnv(t, sb), "", "conversations", "export", "--status", "open")
	if r.err != nil || strings.TrimSpace(r.stdout) != "" || !strings.Contains(r.stderr, `--status "open" is none of the values the API documents (new, pending or ended)`) {
		t.Fatalf("--status open: %v, stdout %q, stderr %q", r.err, r.stdout[:min(80, len(r.stdout))], r.stderr)
	}
	r = runParley(t, bin, apiEnv(t, sb), "", "conversations", "export", "--status", "ended;drop")
	if r.err == nil || !strings.Contains(r.stderr, "want one such as new, pending or ended") {
		t.Fatalf("a malformed status was accepted: %v %s", r.err, r.stderr)
	}
}

// The export passes each conversation on as the API sent it: unknown fields, the server's
// timestamp format and HTML characters stay as they are, and a pretty-printed answer still
// gives one line per conversation.
func TestConversationsExportVerbatim(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	const token = "test-token-export-verbatim"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != token || r.URL.Path != "/api/um/v3/conversations/all/" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("cursor") == "" {
			fmt.Fprintf(w, `{
  "count": 2,
  "next": "http://%s/api/um/v3/conversations/all/?cursor=1&limit=100&ordering=id",
  "previous": null,
  "results": [
    {
      "id": 1,
      "created_at": "2024-01-02T03:04:05Z",
      "custom": {"note": "<b>&</b>", "nested": [1, {"a": null}]},
      "field_from_the_future": true
    }
  ]
}`, r.Host)
			return
		}
		// A C1 control (CSI, U+009B) and a byte that is not UTF-8 in a name.
		fmt.Fprint(w, "{\"count\": 2, \"next\": null, \"previous\": null, \"results\": [{\"id\": 2, \"status\": \"ended\", \"name\": \"a\xc2\x9bb\xffc\"}]}")
	}))
	t.Cleanup(srv.Close)
	env := append(headlessEnv(t), "PARLEY_BASE_URL="+srv.URL, "PARLEY_TOKEN="+token)
	r := runParley(t, bin, env, "", "conversations", "export")
	if r.err != nil {
		t.Fatalf("export: %v\n%s", r.err, r.stderr)
	}
	want := `{"id":1,"created_at":"2024-01-02T03:04:05Z","custom":{"note":"<b>&</b>","nested":[1,{"a":null}]},"field_from_the_future":true}` + "\n" +
		`{"id":2,"status":"ended","name":"a\u009bb\ufffdc"}` + "\n" // invalid UTF-8 becomes U+FFFD; both escaped
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
	if strings.Contains(r.stdout+r.stderr, token) {
		t.Error("the output carries the token")
	}
}

// The time filters of conversations export take what the forms take (when.ParseValue):
// ISO 8601, dates, ages before now ("7d", "1h30m"), today, yesterday and now.
func TestExportFilterTimes(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"2026-03-01":                time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		"2026-03-01T08:30:00":       time.Date(2026, 3, 1, 8, 30, 0, 0, time.UTC),
		"2026-03-01 08:30":          time.Date(2026, 3, 1, 8, 30, 0, 0, time.UTC),
		"2026-03-01T08:30:00.5Z":    time.Date(2026, 3, 1, 8, 30, 0, 500_000_000, time.UTC),
		"2026-03-01T08:30:00+01:00": time.Date(2026, 3, 1, 7, 30, 0, 0, time.UTC),
		"7d":                        time.Date(2026, 3, 3, 12, 0, 0, 0, time.UTC),
		"0d":                        now,
		"1w":                        time.Date(2026, 3, 3, 12, 0, 0, 0, time.UTC),
		"12h":                       time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC),
		"90m":                       time.Date(2026, 3, 10, 10, 30, 0, 0, time.UTC),
		" 1h30m ":                   time.Date(2026, 3, 10, 10, 30, 0, 0, time.UTC),
		"yesterday":                 time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC),
	} {
		got, err := readDate("updated-from", in, now)
		if err != nil || !got.Time.Equal(want) {
			t.Errorf("readDate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "last week", "-7d", "7", "d", "-2h", "7days", "2026-13-01",
		"3000000h", "999999999999999999d", "2000000h", "1999-12-31", "2101-01-01"} {
		if got, err := readDate("updated-from", in, now); err == nil || !strings.HasPrefix(err.Error(), "--updated-from: ") {
			t.Errorf("readDate(%q) = %v, %v; want an error naming the flag", in, got, err)
		}
	}
	f := conversationFlags(t, "--updated-from", "7d", "--activity-to", "2026-03-09", "--first-message-to", "yesterday",
		"--last-message-to", "2026-03-09T10:00", "--status", "New", "--operator-id", "3")
	got, err := f.filter(now, func(s string) { t.Errorf("warning %q", s) })
	if err != nil {
		t.Fatal(err)
	}
	// A date in an upper bound is the whole day, as the API reads it; a time is that time.
	want := client.ConversationFilter{UpdatedAtFromDate: time.Date(2026, 3, 3, 12, 0, 0, 0, time.UTC),
		LastActivityToDate:        time.Date(2026, 3, 9, 23, 59, 59, 999_999_000, time.UTC),
		ContactFirstMessageToDate: time.Date(2026, 3, 9, 23, 59, 59, 999_999_000, time.UTC),
		ContactLastMessageToDate:  time.Date(2026, 3, 9, 10, 0, 0, 0, time.UTC),
		Status:                    "new", OperatorID: 3}
	if got != want {
		t.Errorf("filter = %+v, want %+v", got, want)
	}
	f = conversationFlags(t, "--first-message-from", "last week")
	if _, err := f.filter(now, func(string) {}); err == nil || !strings.Contains(err.Error(), "--first-message-from") {
		t.Errorf("a bad time names no flag: %v", err)
	}
}

// conversationFlags are the filter flags of conversations export, given args.
func conversationFlags(t testing.TB, args ...string) *filterFlags[client.ConversationFilter, client.Conversation] {
	t.Helper()
	f := newFilterFlags(client.Conversations)
	cmd := &cobra.Command{Use: "export"}
	f.register(cmd)
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return f
}

// The id flags take positive integer ids, the yes/no flag true, false or nothing (true),
// and each problem names its flag; the contact filters go into the search's query.
func TestFilterFlags(t *testing.T) {
	for _, args := range [][]string{{"--topic", "0"}, {"--topic", "-4"}, {"--widget", "x"}, {"--id-gt", "0x10"}} {
		f := newFilterFlags(client.Conversations)
		cmd := &cobra.Command{Use: "export"}
		f.register(cmd)
		cmd.SetFlagErrorFunc(flagError)
		err := cmd.ParseFlags(args)
		if err != nil {
			err = flagError(cmd, err)
		}
		if want := args[0] + " takes a positive integer id"; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %q", args, err, want)
		}
	}
	f := conversationFlags(t, "--id-gt", "500", "--id-lt", "400")
	if _, err := f.filter(time.Now(), func(string) {}); err == nil || err.Error() != "--id-gt: no id is greater than 500 and smaller than 400" {
		t.Errorf("an empty id range: %v", err)
	}
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	k := newFilterFlags(client.Contacts)
	cmd := &cobra.Command{Use: "search"}
	k.register(cmd)
	if err := cmd.ParseFlags([]string{"--verified", "--active-to", "2026-03-09", "--locale", "de_DE", "--id", "42"}); err != nil {
		t.Fatal(err)
	}
	got, err := k.filter(now, func(s string) { t.Errorf("warning %q", s) })
	if err != nil || got.Verified == nil || !*got.Verified || got.Locale != "de_DE" || got.ID != 42 ||
		!got.ToDateTime.Equal(time.Date(2026, 3, 9, 23, 59, 59, 999_999_000, time.UTC)) {
		t.Errorf("contact filter %+v, %v", got, err)
	}
	for args, want := range map[string]string{"--verified=maybe": "invalid value for --verified: it takes no value, or =true or =false", "--email=anna@": `--email: "anna@" is not an email address`} {
		k := newFilterFlags(client.Contacts)
		cmd := &cobra.Command{Use: "search"}
		k.register(cmd)
		err := cmd.ParseFlags([]string{args})
		if err != nil {
			err = flagError(cmd, err)
		} else {
			_, err = k.filter(now, func(string) {})
		}
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}

// The id flags read lists as the analytics screen does: commas, "+" and any white space
// separate ids.
func TestParseIDList(t *testing.T) {
	for in, want := range map[string][]int64{"1,2 3": {1, 2, 3}, "1+2": {1, 2}, "4\n5\r\n6": {4, 5, 6}, " 7\u00a08 ": {7, 8}, "": nil} {
		ids, err := parseIDList(in)
		if err != nil || !slices.Equal(ids, want) {
			t.Errorf("parseIDList(%q) = %v, %v; want %v", in, ids, err, want)
		}
	}
	for _, in := range []string{"0", "-1", "1.5", "x", "9223372036854775808"} {
		if ids, err := parseIDList(in); err == nil {
			t.Errorf("parseIDList(%q) = %v, want an error", in, ids)
		}
	}
}

// parseRange reads --from/--to as the analytics screen's custom range does.
func TestParseRange(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	day := func(d int) time.Time { return time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		from, to string
		f, t     time.Time
		withTime bool
	}{
		{"2026-03-01", "2026-03-02", day(1), day(2), false},
		{"2026-03-01T08:00:00", "2026-03-02", day(1).Add(8 * time.Hour), day(3).Add(-time.Second), true},
		{"7d", "today", day(3), day(10), false},
		{"yesterday", "now", day(9), now, true},
	} {
		f, to, wt, err := parseRange(c.from, c.to, now)
		if err != nil || !f.Equal(c.f) || !to.Equal(c.t) || wt != c.withTime {
			t.Errorf("parseRange(%q, %q) = %v, %v, %v, %v; want %v, %v, %v", c.from, c.to, f, to, wt, err, c.f, c.t, c.withTime)
		}
	}
	for _, c := range []struct{ from, to, want string }{
		{"2026-13-01", "2026-03-02", `--from: "2026-13-01" is not a date`},
		{"99999999999w", "today", `--from: "99999999999w" is too far back (before 2000)`},
		{"2026-03-01", "2101-01-01", `--to: "2101-01-01" is too far ahead (after 2100)`},
		{"2026-03-02", "2026-03-01", "the range ends (2026-03-01) before it starts (2026-03-02)"},
	} {
		if _, _, _, err := parseRange(c.from, c.to, now); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("parseRange(%q, %q): %v; want %q", c.from, c.to, err, c.want)
		}
	}
}

// contacts search passes the contacts on as the API sent them, in its rank order.
func TestContactsSearchVerbatim(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	const token = "test-token-search-verbatim"
	var gotQuery string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != token || r.URL.Path != "/api/um/v3/contact_identities/" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		gotQuery = r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"count": 7, "next": null, "previous": null, "results": [
			{"id": 30, "name": "Zoe <Z> & Co", "created_at": "2024-01-02T03:04:05Z", "city": "Berlin", "field_from_the_future": {"x": 1}},
			{"id": 4, "name": null, "city": "Berlin", "street": "x`+"\xc2\x85"+`y"}]}`)
	}))
	t.Cleanup(srv.Close)
	env := append(headlessEnv(t), "PARLEY_BASE_URL="+srv.URL, "PARLEY_TOKEN="+token)
	r := runParley(t, bin, env, "", "contacts", "search", "berlin", "--limit", "2")
	if r.err != nil {
		t.Fatalf("search: %v\n%s", r.err, r.stderr)
	}
	if q, _ := url.ParseQuery(gotQuery); q.Get("search_query") != "berlin" || q.Get("limit") != "2" || len(q) != 2 {
		t.Errorf("query %q", gotQuery)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, r.stdout)
	}
	want := []map[string]any{
		{"id": 30.0, "name": "Zoe <Z> & Co", "created_at": "2024-01-02T03:04:05Z", "city": "Berlin", "field_from_the_future": map[string]any{"x": 1.0}},
		{"id": 4.0, "name": nil, "city": "Berlin", "street": "x\u0085y"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("output %v\nwant %v", got, want)
	}
	if !strings.Contains(r.stdout, "Zoe <Z> & Co") {
		t.Errorf("HTML characters escaped: %s", r.stdout)
	}
	if strings.Contains(r.stdout, "\u0085") || !strings.Contains(r.stdout, `x\u0085y`) {
		t.Errorf("a C1 control reached the output raw: %q", r.stdout)
	}
	r = runParley(t, bin, env, "", "contacts", "search", "berlin", "--table")
	if r.err != nil || !strings.Contains(r.stdout, "Zoe <Z> & Co") || !strings.Contains(r.stdout, "2 shown of 7 matching") {
		t.Errorf("--table: %v\n%s", r.err, r.stdout)
	}
}

func TestContactsSearchRanked(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	sb := startTestSandbox(t)
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken})
	if err != nil {
		t.Fatal(err)
	}
	// Search for the city of some contact.
	var city string
	for ct, err := range c.ContactsAll(t.Context(), client.AllContactsOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		if cty := client.Str(ct.City); cty != "" && !strings.ContainsAny(cty, " \x1b") {
			city = cty
			break
		}
	}
	want, err := c.SearchContacts(t.Context(), city, 20)
	if err != nil {
		t.Fatal(err)
	}
	r := runParley(t, bin, apiEnv(t, sb), "", "contacts", "search", city)
	if r.err != nil {
		t.Fatalf("search: %v\n%s", r.err, r.stderr)
	}
	var got []client.Contact
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("output is not a JSON array of contacts: %v\n%s", err, r.stdout)
	}
	if len(got) == 0 || len(got) != len(want.Results) {
		t.Fatalf("%d results, the API ranks %d", len(got), len(want.Results))
	}
	for i := range got {
		if got[i].ID != want.Results[i].ID {
			t.Fatalf("result %d is contact %d, the API ranks %d there", i, got[i].ID, want.Results[i].ID)
		}
	}
	if !strings.EqualFold(client.Str(got[0].City), city) {
		t.Fatalf("the best match for %q lives in %q", city, client.Str(got[0].City))
	}
	r = runParley(t, bin, apiEnv(t, sb), "", "contacts", "search", "--table", city)
	if r.err != nil || !strings.Contains(r.stdout, "RANK") || !strings.Contains(r.stdout, city) {
		t.Fatalf("--table: %v\n%s", r.err, r.stdout)
	}
}

func TestAnalyticsExportSplitsLongRanges(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	sb := startTestSandbox(t)
	to := time.Now().UTC()
	from := to.AddDate(0, 0, -119)
	args := []string{"analytics", "export", "um_conversation_duration", "--from", from.Format(time.DateOnly), "--to", to.Format(time.DateOnly)}
	r := runParley(t, bin, apiEnv(t, sb), "", append(args, "--format", "json")...)
	if r.err != nil {
		t.Fatalf("export: %v\n%s", r.err, r.stderr)
	}
	var pts []client.DataPoint
	if err := json.Unmarshal([]byte(r.stdout), &pts); err != nil {
		t.Fatalf("json: %v", err)
	}
	if len(pts) == 0 {
		t.Fatal("no data points in 120 days")
	}
	for i := 1; i < len(pts); i++ {
		if pts[i].Time.Before(pts[i-1].Time.Time) {
			t.Fatalf("points not in time order at %d", i)
		}
	}
	r = runParley(t, bin, apiEnv(t, sb), "", append(args, "--format", "csv")...)
	rows, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	if err != nil || len(rows) != len(pts)+1 || rows[0][0] != "metric" {
		t.Fatalf("csv: %v, %d rows for %d points", err, len(rows), len(pts))
	}
	r = runParley(t, bin, apiEnv(t, sb), "", "analytics", "export", "um_nonsense", "--from", "2026-01-01", "--to", "2026-01-02")
	if r.err == nil || !strings.Contains(r.stderr, "unknown metric") {
		t.Fatalf("unknown metric accepted: %s", r.stderr)
	}
}

// A date-time range longer than 93 days starting mid-day: every window must stay within the
// 93 calendar days the API allows, or the server refuses it.
func TestAnalyticsExportSplitsLongDateTimeRanges(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	sb := startTestSandbox(t)
	now := time.Now().UTC()
	from := time.Date(now.Year(), now.Month(), now.Day(), 6, 30, 0, 0, time.UTC).AddDate(0, 0, -119)
	to := now.Truncate(time.Second)
	r := runParley(t, bin, apiEnv(t, sb), "", "analytics", "export", "um_conversation_duration",
		"--from", from.Format("2006-01-02T15:04:05"), "--to", to.Format("2006-01-02T15:04:05"), "--format", "json")
	if r.err != nil {
		t.Fatalf("export: %v\n%s", r.err, r.stderr)
	}
	var pts []client.DataPoint
	if err := json.Unmarshal([]byte(r.stdout), &pts); err != nil {
		t.Fatalf("json: %v", err)
	}
	if len(pts) == 0 {
		t.Fatal("no data points in 120 days")
	}
	for i, p := range pts {
		if p.Time.Before(from) || p.Time.After(to) {
			t.Fatalf("point %d at %v lies outside %v..%v", i, p.Time, from, to)
		}
		if i > 0 && p.Time.Before(pts[i-1].Time.Time) {
			t.Fatalf("points not in time order at %d", i)
		}
	}
}

// Errors go to stderr with a non-zero exit and the server's detail; stdout stays empty and
// no output carries the token.
func TestExportCommandErrors(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	sb := startTestSandbox(t)
	const badToken = "cust_not_a_real_token_0123456789"
	badEnv := append(headlessEnv(t), "PARLEY_BASE_URL="+sb.URL, "PARLEY_TOKEN="+badToken)
	for _, tc := range []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"export, bad token", badEnv, []string{"conversations", "export"}, "401 Invalid token."},
		{"search, bad token", badEnv, []string{"contacts", "search", "berlin"}, "401 Invalid token."},
		{"analytics, bad token", badEnv, []string{"analytics", "export", "um_conversation_duration", "--from", "2026-01-01", "--to", "2026-01-02"}, "401 Invalid token."},
		{"unknown operator", nil, []string{"--operator", "999999", "contacts", "search", "berlin"}, "400 Unknown operator 999999"},
		{"unknown metric", nil, []string{"analytics", "export", "um_nonsense", "--from", "2026-01-01", "--to", "2026-01-02"}, `unknown metric "um_nonsense"`},
		{"bad date", nil, []string{"analytics", "export", "um_conversation_duration", "--from", "2026-13-01", "--to", "2026-01-02"}, `--from: "2026-13-01" is not a date, a time or an age; use a date (2026-11-01)`},
		{"date before 2000", nil, []string{"analytics", "export", "um_conversation_duration", "--from", "1999-12-31", "--to", "2026-01-02"}, `--from: "1999-12-31" is too far back (before 2000)`},
		{"reversed dates", nil, []string{"analytics", "export", "um_conversation_duration", "--from", "2026-02-01", "--to", "2026-01-02"}, "the range ends (2026-01-02) before it starts (2026-02-01)"},
		{"bad filter time", nil, []string{"conversations", "export", "--updated-from", "last week"}, `--updated-from: "last week" is not a date, a time or an age`},
		{"filter age too long", nil, []string{"conversations", "export", "--updated-from", "3000000h"}, `--updated-from: "3000000h" is too far back (before 2000); use a date (2026-11-01), a date and time (2026-11-01 14:30), ISO 8601, or an age like 6h, 7d, 2w`},
		{"filter age overflowing", nil, []string{"conversations", "export", "--activity-from", "999999999999999999d"}, `--activity-from: "999999999999999999d" is too far back (before 2000)`},
		{"filter date after 2100", nil, []string{"conversations", "export", "--updated-to", "2101-01-01"}, `--updated-to: "2101-01-01" is too far ahead (after 2100)`},
		{"limit out of range", nil, []string{"contacts", "search", "berlin", "--limit", "101"}, "want 1..100"},
		{"page size zero", nil, []string{"conversations", "export", "--page-size", "0"}, "--page-size 0: want 1..100"},
		{"page size too large", nil, []string{"conversations", "export", "--page-size", "101"}, "--page-size 101: want 1..100"},
		{"negative max", nil, []string{"conversations", "export", "--max", "-1"}, "--max -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := tc.env
			if env == nil {
				env = apiEnv(t, sb)
			}
			r := runParley(t, bin, env, "", tc.args...)
			if r.err == nil {
				t.Fatalf("exit 0; stdout %q", r.stdout)
			}
			if !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr %q lacks %q", r.stderr, tc.want)
			}
			if r.stdout != "" {
				t.Errorf("stdout %q, want nothing", r.stdout)
			}
			for _, tok := range []string{badToken, sb.Server.Info().CustomerToken} {
				if strings.Contains(r.stdout+r.stderr, tok) {
					t.Errorf("the output carries a token: %s", r.stderr)
				}
			}
		})
	}
}

func TestDebugLogRecordsRequestsWithoutTheToken(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	sb := startTestSandbox(t)
	logPath := t.TempDir() + "/debug.log"
	r := runParley(t, bin, apiEnv(t, sb), "", "--debug", logPath, "contacts", "search", "berlin")
	if r.err != nil {
		t.Fatalf("search: %v\n%s", r.err, r.stderr)
	}
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	if !strings.Contains(log, "msg=request method=GET path=/api/um/v3/contact_identities/ family=contacts status=200") {
		t.Fatalf("the debug log lacks the request:\n%s", log)
	}
	if strings.Contains(log, sb.Server.Info().CustomerToken) {
		t.Fatal("the debug log contains the token")
	}
	if fi, err := os.Stat(logPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("debug log mode: %v %v", fi.Mode(), err)
	}
}

// A command waiting out a 429 says so on stderr, with the wait the server asked for, and
// then succeeds; the output on stdout is not touched by the notice.
func TestCommandsTellAboutRateLimitWaits(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	const token = "test-token-rate-limit-notice"
	var calls int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		w.Header().Set("Content-Type", "application/json")
		if calls == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"detail": "Request was throttled."}`)
			return
		}
		fmt.Fprint(w, `{"count": 1, "next": null, "previous": null, "results": [{"id": 30, "name": "Zoe"}]}`)
	}))
	t.Cleanup(srv.Close)
	env := append(headlessEnv(t), "PARLEY_BASE_URL="+srv.URL, "PARLEY_TOKEN="+token)
	r := runParley(t, bin, env, "", "contacts", "search", "zoe")
	if r.err != nil {
		t.Fatalf("search: %v\n%s", r.err, r.stderr)
	}
	want := "parley: rate-limited by the API (429); sending the contacts request again in 1s (retry 1)\n"
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q\nwant it to contain %q", r.stderr, want)
	}
	if calls != 2 || !strings.HasPrefix(strings.TrimSpace(r.stdout), "[") || strings.Contains(r.stdout, "parley:") {
		t.Errorf("%d calls; stdout %q", calls, r.stdout)
	}
	if strings.Contains(r.stderr, token) {
		t.Error("the token reached stderr")
	}
}

func TestWaitNoticeWording(t *testing.T) {
	for _, c := range []struct {
		e    client.Event
		want string
	}{
		{client.Event{Kind: client.EventRetry, Family: client.FamilyConversations, Status: 503, Attempt: 2, Delay: 1500 * time.Millisecond},
			"the API answered 503; sending the conversations request again in 2s (retry 2)"},
		{client.Event{Kind: client.EventRetry, Family: client.FamilyNotes, Attempt: 1, Delay: 250 * time.Millisecond, Err: fmt.Errorf("dial tcp: connection refused\x1b[2J")},
			"request failed (dial tcp: connection refused␛[2J); sending the notes request again in 250ms (retry 1)"},
		{client.Event{Kind: client.EventQueued, Family: client.Family("analytics:" + string(client.MetricConversationDuration)), Delay: 41*time.Second + 300*time.Millisecond},
			"analytics limit of 10 requests per minute for um_conversation_duration reached; waiting 41s"},
	} {
		if got := waitNotice(c.e); got != c.want {
			t.Errorf("waitNotice(%+v)\n got %q\nwant %q", c.e, got, c.want)
		}
	}
}

// TestWaitNoticesOnlyForWaits: a command says on stderr why it waits (a retry, the
// analytics queue), never for a failure (the command's error says it) or for the answer
// that ended a trouble.
func TestWaitNoticesOnlyForWaits(t *testing.T) {
	var b strings.Builder
	notice := waitNotices(&b)
	notice(client.Event{Kind: client.EventFailed, Family: client.FamilyConversations, Status: 503, Problem: client.ProblemServer})
	notice(client.Event{Kind: client.EventAnswered, Family: client.FamilyConversations, Status: 200})
	if b.String() != "" {
		t.Fatalf("notices for no wait: %q", b.String())
	}
	notice(client.Event{Kind: client.EventRetry, Family: client.FamilyConversations, Status: 503, Attempt: 1, Delay: time.Second})
	if !strings.Contains(b.String(), "sending the conversations request again in 1s") {
		t.Fatalf("no notice for a retry: %q", b.String())
	}
}

// The server's detail text in a command's error is untrusted: it reaches stderr with its
// escape sequences made inert.
func TestCommandErrorsAreSafeForTheTerminal(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"detail": "bad \u001b]0;pwned\u0007 query \u001b[2J\u009b31m"}`)
	}))
	t.Cleanup(srv.Close)
	env := append(headlessEnv(t), "PARLEY_BASE_URL="+srv.URL, "PARLEY_TOKEN=test-token-hostile-detail")
	r := runParley(t, bin, env, "", "contacts", "search", "x")
	if r.err == nil {
		t.Fatal("a 400 did not fail the command")
	}
	if strings.ContainsAny(r.stderr, "\x1b\x07\u009b") {
		t.Fatalf("control characters from the server reached stderr: %q", r.stderr)
	}
	if !strings.Contains(r.stderr, "bad ␛]0;pwned␇ query") {
		t.Fatalf("the detail is not shown: %q", r.stderr)
	}
}

// A server that cannot be reached is named in plain words, in the retry notices and in
// the final error.
func TestCommandErrorForAnUnreachableAPI(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.Listener.Addr().String()
	srv.Close() // nothing listens there now
	env := append(headlessEnv(t), "PARLEY_BASE_URL=http://"+addr, "PARLEY_TOKEN=test-token-unreachable")
	r := runParley(t, bin, env, "", "contacts", "search", "x")
	last := strings.TrimSpace(r.stderr)
	if i := strings.LastIndex(last, "\n"); i >= 0 {
		last = last[i+1:]
	}
	if r.err == nil || last != "parley: cannot connect to "+addr+" (connection refused); nothing was sent" {
		t.Fatalf("err %v, stderr %q", r.err, r.stderr)
	}
	if !strings.Contains(r.stderr, "parley: cannot connect to "+addr+" (connection refused); nothing was sent; sending the contacts request again") {
		t.Fatalf("no retry notice: %q", r.stderr)
	}
}

// Analytics exports keep API text inert on a terminal too: JSON writes C1 controls as
// \u escapes (the same JSON value), and the data survive unchanged.
func TestAnalyticsExportJSONIsTerminalSafe(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"results": [{"um_widget_id": [3], "organization_id": 1, "operator_id": 7, "operator_group_id": null,
			"time": "2026-11-02T10:00:00", "value": null, "value_str": "a\u009b31mb\u001b]0;x\u0007c\u202e\u2066\u200b\u2060\ufeff\u2028\u007f\udb40\udc41", "is_chatbot_metric": false}]}`)
	}))
	t.Cleanup(srv.Close)
	env := append(headlessEnv(t), "PARLEY_BASE_URL="+srv.URL, "PARLEY_TOKEN=test-token-analytics-safe")
	r := runParley(t, bin, env, "", "analytics", "export", "um_operator_status", "--from", "2026-11-02", "--to", "2026-11-02", "--format", "json")
	if r.err != nil {
		t.Fatalf("export: %v\n%s", r.err, r.stderr)
	}
	if strings.ContainsAny(r.stdout, "\x1b\x07\u009b"+invisible) {
		t.Fatalf("raw control characters in the JSON: %q", r.stdout)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || len(got) != 1 {
		t.Fatalf("not the JSON array: %v\n%s", err, r.stdout)
	}
	if got[0]["value_str"] != "a\u009b31mb\x1b]0;x\x07c\u202e\u2066\u200b\u2060\ufeff\u2028\x7f\U000E0041" {
		t.Fatalf("value_str changed: %q", got[0]["value_str"])
	}
	// The time as the API wrote it, as in the CSV.
	if got[0]["time"] != "2026-11-02T10:00:00" || strings.Count(r.stdout, `"time"`) != 1 {
		t.Fatalf("time %q in %s", got[0]["time"], r.stdout)
	}
}

// An -o that cannot be written fails at once, naming the file, before any request: the
// analytics requests count against a tight per-minute limit.
func TestExportOutputFailsBeforeAnyRequest(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"count": 0, "next": null, "previous": null, "results": []}`)
	}))
	t.Cleanup(srv.Close)
	env := append(headlessEnv(t), "PARLEY_BASE_URL="+srv.URL, "PARLEY_TOKEN=test-token-output-first")
	dir := t.TempDir()
	for _, tc := range []struct {
		name, path, want string
	}{
		{"missing directory", filepath.Join(dir, "missing", "x.csv"), "no such file or directory"},
		{"a directory", dir, "is a directory"},
	} {
		for _, args := range [][]string{
			{"analytics", "export", "um_conversation_duration", "--from", "2026-01-01", "--to", "2026-05-30", "-o", tc.path},
			{"conversations", "export", "-o", tc.path},
		} {
			r := runParley(t, bin, env, "", args...)
			if r.err == nil || !strings.Contains(r.stderr, "--output") || !strings.Contains(r.stderr, tc.path) || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("%s, %s: %v, stderr %q; want an error naming the file with %q", args[0], tc.name, r.err, r.stderr, tc.want)
			}
			if n := requests.Swap(0); n != 0 {
				t.Errorf("%s, %s: %d requests before the output failed", args[0], tc.name, n)
			}
		}
	}
}

// Export files hold API data: -o writes them 0600 (also over a file that was 0644), with
// the same content as stdout gets.
func TestExportFilesArePrivate(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	sb := startTestSandbox(t)
	dir := t.TempDir()
	check := func(path, stdout string, args ...string) {
		t.Helper()
		r := runParley(t, bin, apiEnv(t, sb), "", append(args, "-o", path)...)
		if r.err != nil || r.stdout != "" || !strings.Contains(r.stderr, "wrote ") {
			t.Fatalf("%v -o: %v, stdout %q, stderr %q", args, r.err, r.stdout, r.stderr)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("%v -o: mode %v, want 0600", args, perm)
		}
		if b, err := os.ReadFile(path); err != nil || string(b) != stdout {
			t.Errorf("%v -o: the file differs from stdout (%v)", args, err)
		}
	}
	for _, args := range [][]string{
		{"analytics", "export", "um_conversation_duration", "--from", "2026-01-01", "--to", "2026-03-01"},
		{"analytics", "export", "um_conversation_duration", "--from", "2026-01-01", "--to", "2026-03-01", "--format", "json"},
		{"conversations", "export", "--max", "30"},
	} {
		r := runParley(t, bin, apiEnv(t, sb), "", args...)
		if r.err != nil || r.stdout == "" {
			t.Fatalf("%v: %v\n%s", args, r.err, r.stderr)
		}
		path := filepath.Join(dir, args[0]+".out")
		check(path, r.stdout, args...)
		if err := os.Chmod(path, 0o644); err != nil {
			t.Fatal(err)
		}
		check(path, r.stdout, args...) // over a file that was 0644
	}
}

// An export that fails after it began leaves no half-written file: the file that was there
// stays as it was, and nothing else is left in its directory.
func TestFailedExportLeavesNoPartialFile(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/api/um/v3/conversations/all/" || r.URL.Query().Get("cursor") != "" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"detail": "No such page."}`)
			return
		}
		fmt.Fprintf(w, `{"count": 3, "next": "http://%s/api/um/v3/conversations/all/?cursor=2&limit=100&ordering=id",
			"previous": null, "results": [{"id": 1}, {"id": 2}]}`, r.Host)
	}))
	t.Cleanup(srv.Close)
	env := append(headlessEnv(t), "PARLEY_BASE_URL="+srv.URL, "PARLEY_TOKEN=test-token-partial")
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept.jsonl")
	if err := os.WriteFile(kept, []byte("the last good export\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		args []string
		want string
	}{
		{kept, []string{"conversations", "export"}, "after 2 (" + kept + " not written)"},
		{filepath.Join(dir, "new.jsonl"), []string{"conversations", "export"}, "not written"},
		{filepath.Join(dir, "new.csv"), []string{"analytics", "export", "um_conversation_duration", "--from", "2026-01-01", "--to", "2026-01-02"}, "No such page."},
	} {
		r := runParley(t, bin, env, "", append(tc.args, "-o", tc.path)...)
		if r.err == nil || !strings.Contains(r.stderr, tc.want) {
			t.Fatalf("%v -o %s: %v, stderr %q; want a failure with %q", tc.args, tc.path, r.err, r.stderr, tc.want)
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 1 || entries[0].Name() != "kept.jsonl" {
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Fatalf("%v -o %s left %v in the directory", tc.args, tc.path, names)
		}
		if b, _ := os.ReadFile(kept); string(b) != "the last good export\n" {
			t.Fatalf("%v -o %s: the earlier file now holds %q", tc.args, tc.path, b)
		}
	}
}

// Ctrl-C during an export to a file ends it without a file: the temporary one is removed
// and a file that was there stays as it was.
func TestInterruptedExportLeavesNoFile(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	arrived := make(chan struct{}, 4)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("cursor") == "" && strings.HasSuffix(r.URL.Path, "/conversations/all/") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"count": 3, "next": "http://%s/api/um/v3/conversations/all/?cursor=2&limit=100&ordering=id",
				"previous": null, "results": [{"id": 1}, {"id": 2}]}`, r.Host)
			return
		}
		arrived <- struct{}{}
		select { // the page the export waits for when it is interrupted
		case <-release:
		case <-r.Context().Done():
		}
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	env := append(headlessEnv(t), "PARLEY_BASE_URL="+srv.URL, "PARLEY_TOKEN=test-token-interrupt")
	dir := t.TempDir()
	kept := filepath.Join(dir, "kept.out")
	if err := os.WriteFile(kept, []byte("the last good export\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"conversations", "export", "-o", kept},
		{"analytics", "export", "um_conversation_duration", "--from", "2026-01-01", "--to", "2026-01-02", "-o", kept},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-arrived:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%v: no request arrived; stderr: %s", args[:2], stderr.String())
		}
		// The temporary file exists while the export runs.
		if entries, _ := os.ReadDir(dir); len(entries) != 2 {
			t.Errorf("%v: %d entries in the directory while the export runs, want the old file and the temporary one", args[:2], len(entries))
		}
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err == nil {
				t.Fatalf("%v: an interrupted export exited 0", args[:2])
			}
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("%v: the export did not end on an interrupt", args[:2])
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 1 || entries[0].Name() != "kept.out" {
			t.Fatalf("%v: the interrupt left %d entries in the directory (stderr %q)", args[:2], len(entries), stderr.String())
		}
		if b, _ := os.ReadFile(kept); string(b) != "the last good export\n" {
			t.Fatalf("%v: the earlier file now holds %q", args[:2], b)
		}
	}
}

// invisible lists characters a terminal hides or acts on that no JSON output of parley
// writes raw: bidi controls, zero-width and other format characters, tags, Hangul fillers,
// line and paragraph separators, DEL.
const invisible = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c" +
	"\u200b\u200c\u200d\u2060\ufeff\u00ad\u115f\u1160\u3164\uffa0\U000E0001\U000E0041\U000E007F" +
	"\u2028\u2029\x7f"

// checkEscaped fails when out holds a raw character of invisible or anything else that
// sanitize.JSON would still escape.
func checkEscaped(t *testing.T, what, out string) {
	t.Helper()
	if i := strings.IndexAny(out, invisible); i >= 0 {
		t.Fatalf("%s: a raw %q at %d: %q", what, []rune(out[i:])[0], i, out[max(0, i-40):min(len(out), i+40)])
	}
	if string(sanitize.JSON([]byte(out))) != out {
		t.Fatalf("%s: characters left to escape: %q", what, out)
	}
}

// decodeNumbers reads JSON with numbers as written.
func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %q: %v", b[:min(len(b), 200)], err)
	}
	return v
}

// The JSON of contacts search and conversations export, run against the sandbox, writes
// every invisible or reordering character escaped and decodes to what the API sent;
// --table shows the same contact with those characters removed (the separators become
// spaces, DEL a control picture).
func TestJSONOutputEscapesInvisibleText(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	sb := startTestSandbox(t)
	ctx := t.Context()
	c, err := client.New(client.Config{BaseURL: sb.URL, Token: sb.Server.Info().CustomerToken})
	if err != nil {
		t.Fatal(err)
	}
	var id int64
	for ct, err := range c.ContactsAll(ctx, client.AllContactsOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		id = ct.ID
		break
	}
	name := "Zebedee\u200c \x1b]0;pwned\x07" + invisible + " Quux"
	city := "Ber\u202elin\u2028\U000E0001"
	if _, err := c.UpdateContact(ctx, id, client.ContactUpdate{Name: &name, City: &city}); err != nil {
		t.Fatal(err)
	}
	// What the API sends, for comparison.
	apiJSON := func(path string) any {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, sb.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", sb.Server.Info().CustomerToken)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		if _, err := b.ReadFrom(resp.Body); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
		}
		return decodeNumbers(t, b.Bytes())
	}

	r := runParley(t, bin, apiEnv(t, sb), "", "contacts", "search", "zebedee")
	if r.err != nil {
		t.Fatalf("search: %v\n%s", r.err, r.stderr)
	}
	checkEscaped(t, "contacts search", r.stdout)
	results, _ := decodeNumbers(t, []byte(r.stdout)).([]any)
	want := apiJSON(fmt.Sprintf("/api/um/v3/contact_identities/%d/", id))
	if len(results) == 0 || !reflect.DeepEqual(results[0], want) {
		t.Fatalf("contacts search gave %v, the API has %v", results, want)
	}
	if got := want.(map[string]any)["name"]; got != name {
		t.Fatalf("the sandbox keeps the name as %q, not %q", got, name)
	}

	r = runParley(t, bin, apiEnv(t, sb), "", "contacts", "search", "zebedee", "--table")
	if r.err != nil || !strings.Contains(r.stdout, "Zebedee ␛]0;pwned␇  ␡ Quux") {
		t.Fatalf("--table: %v\n%q", r.err, r.stdout)
	}
	if ch, at, ok := sanitize.Leak(r.stdout); ok {
		t.Fatalf("--table: %U at %d: %q", ch, at, r.stdout)
	}

	hostile := sb.Server.Info().HostileConversationID
	r = runParley(t, bin, apiEnv(t, sb), "", "conversations", "export", "--page-size", "100")
	if r.err != nil {
		t.Fatalf("export: %v\n%s", r.err, r.stderr)
	}
	checkEscaped(t, "conversations export", r.stdout)
	found := false
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		conv, _ := decodeNumbers(t, []byte(line)).(map[string]any)
		if conv["id"] != json.Number(fmt.Sprint(hostile)) {
			continue
		}
		found = true
		page, _ := apiJSON(fmt.Sprintf("/api/um/v3/conversations/all/?ordering=id&limit=1&id__gt=%d", hostile-1)).(map[string]any)
		if want, _ := page["results"].([]any); len(want) != 1 || !reflect.DeepEqual(conv, want[0]) {
			t.Fatalf("the export has\n%v\nthe API\n%v", conv, want)
		}
		if !strings.Contains(line, `"Zebedee\u200c \u001b]0;pwned\u0007\u202a`) {
			t.Fatalf("the hostile name is not written escaped: %s", line)
		}
	}
	if !found {
		t.Fatalf("conversation %d is not in the export", hostile)
	}
}

// The --table columns line up on a terminal whatever the names: wide (CJK) characters take
// two cells, combining marks none, and invisible characters are gone before measuring.
func TestContactTableColumnsLineUpInCells(t *testing.T) {
	names := []string{"Anna", "王小明", "Zoë\u0301e", "Eve\u202e\u200b\u3164", "👍 Ok", "می\u200cخواهم"}
	var results []json.RawMessage
	for i, n := range names {
		b, err := json.Marshal(map[string]any{"id": i + 1, "name": n, "email": fmt.Sprintf("c%d@example.com", i), "city": "Berlin"})
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, b)
	}
	var out bytes.Buffer
	if err := writeContactTable(&out, &client.Page[json.RawMessage]{Count: len(names), Results: results}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	at := -1
	for _, l := range lines[:len(names)+1] {
		i := strings.Index(l, "EMAIL")
		if i < 0 {
			i = strings.Index(l, "@example.com")
			i = strings.LastIndex(l[:i], " ") + 1
		}
		col := ansi.StringWidth(l[:i])
		if at >= 0 && col != at {
			t.Fatalf("the email column starts at cell %d here, %d above:\n%s", col, at, out.String())
		}
		at = col
	}
	if r, _, bad := sanitize.Leak(out.String()); bad {
		t.Fatalf("a raw %U in the table", r)
	}
}
