package cli

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/sandbox"
	"github.com/parley-tui/parley/sandbox/sandboxtest"
)

// lockedBuffer is a request log the sandbox writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// queries are the query strings of the requests logged since the buffer was emptied; it is
// emptied.
func (l *lockedBuffer) take(t *testing.T) []url.Values {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []url.Values
	for _, line := range strings.Split(strings.TrimSpace(l.b.String()), "\n") {
		if line == "" {
			continue
		}
		var r struct{ Query string }
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("request log line %q: %v", line, err)
		}
		q, err := url.ParseQuery(r.Query)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, q)
	}
	l.b.Reset()
	return out
}

// timeFlagName is what a flag that takes a time is called.
var timeFlagName = regexp.MustCompile(`(^|-)(from|to|since|until|before|after|date|day|time)$`)

// analyticsRuns counts the analytics runs of the test.
var analyticsRuns atomic.Int64

// dateFlagRuns says, per command, how to run it with one of its time flags set: the other
// flags it needs (the other end of a range), and the query parameter the flag becomes.
var dateFlagRuns = map[string]func(flag, value string) (args []string, param string){
	"parley conversations export": func(flag, value string) ([]string, string) {
		params := map[string]string{
			"first-message-from": "contact_first_message_from_date", "first-message-to": "contact_first_message_to_date",
			"last-message-from": "contact_last_message_from_date", "last-message-to": "contact_last_message_to_date",
			"updated-from": "updated_at_from_date", "updated-to": "updated_at_to_date",
			"activity-from": "last_activity_from_date", "activity-to": "last_activity_to_date",
		}
		return []string{"conversations", "export", "--max", "1", "--page-size", "1", "--" + flag, value}, params[flag]
	},
	"parley contacts search": func(flag, value string) ([]string, string) {
		params := map[string]string{"active-from": "from_date_time", "active-to": "to_date_time"}
		return []string{"contacts", "search", "a", "--limit", "1", "--" + flag, value}, params[flag]
	},
	"parley analytics export": func(flag, value string) ([]string, string) {
		// A metric of its own per run: the API allows 10 requests a minute per metric.
		metric := string(client.Metrics[analyticsRuns.Add(1)%int64(len(client.Metrics))].Metric)
		if flag == "from" {
			return []string{"analytics", "export", metric, "--from", value, "--to", "now"}, "event_date_from"
		}
		return []string{"analytics", "export", metric, "--from", "60d", "--" + flag, value}, "event_date_" + flag
	},
}

// Every time flag of every command takes the same forms — a date, ISO 8601 and an age
// (and today/yesterday/now) — through one parser, and refuses anything else naming the
// flag. Each flag is run against the sandbox with each form, and the request carries it.
func TestEveryDateFlagTakesEveryForm(t *testing.T) {
	t.Parallel() // it runs the binary: waits for other processes
	bin := parleyBinary(t)
	log := &lockedBuffer{}
	sb := sandboxtest.Start(t, sandbox.Options{Size: sandbox.SizeSmall, RequestLog: log, BurstRate: -1})
	env := apiEnv(t, sb)

	now := time.Now().UTC()
	day := now.AddDate(0, 0, -20)
	forms := []struct{ name, value, sent string }{
		{"date", day.Format(time.DateOnly), day.Format(time.DateOnly)},
		{"ISO 8601", day.Format("2006-01-02") + "T08:30:00Z", day.Format("2006-01-02") + "T08:30:00"},
		{"ISO 8601 with a zone", day.Format("2006-01-02") + "T10:30:00+02:00", day.Format("2006-01-02") + "T08:30:00"},
		{"age in days", "20d", day.Format(time.DateOnly)},
		{"age in hours", "480h", day.Format(time.DateOnly)},
		{"yesterday", "yesterday", now.AddDate(0, 0, -1).Format(time.DateOnly)},
	}
	var found []string
	eachCmd(newRootCmd("test"), func(cmd *cobra.Command) {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !isDateFlag(f) {
				if timeFlagName.MatchString(f.Name) {
					t.Errorf("%s --%s looks like a time flag but was not registered with dateVar", cmd.CommandPath(), f.Name)
				}
				return
			}
			found = append(found, cmd.CommandPath()+" --"+f.Name)
			run, ok := dateFlagRuns[cmd.CommandPath()]
			if !ok {
				t.Errorf("%s --%s: the test does not know how to run %s", cmd.CommandPath(), f.Name, cmd.CommandPath())
				return
			}
			if !strings.Contains(f.Usage, dateForms) {
				t.Errorf("%s --%s: the help does not say what it takes: %q", cmd.CommandPath(), f.Name, f.Usage)
			}
			for _, form := range forms {
				args, param := run(f.Name, form.value)
				log.take(t)
				r := runParley(t, bin, env, "", args...)
				if r.err != nil {
					t.Errorf("%s --%s %s (%s): %v\n%s", cmd.CommandPath(), f.Name, form.value, form.name, r.err, r.stderr)
					continue
				}
				qs := log.take(t)
				if len(qs) == 0 || !slices.ContainsFunc(qs, func(q url.Values) bool { return strings.HasPrefix(q.Get(param), form.sent) }) {
					t.Errorf("%s --%s %s (%s): no request has %s=%s…: %v", cmd.CommandPath(), f.Name, form.value, form.name, param, form.sent, qs)
				}
			}
			for _, bad := range []string{"last week"} {
				args, _ := run(f.Name, bad)
				r := runParley(t, bin, env, "", args...)
				if want := "parley: --" + f.Name + `: "` + bad + `" is not a date, a time or an age; use ` + "a date (2026-11-01)"; r.err == nil || !strings.HasPrefix(r.stderr, want) {
					t.Errorf("%s --%s %q: %v, stderr %q; want it to start with %q", cmd.CommandPath(), f.Name, bad, r.err, r.stderr, want)
				}
			}
		})
	})
	want := []string{"parley analytics export --from", "parley analytics export --to",
		"parley contacts search --active-from", "parley contacts search --active-to",
		"parley conversations export --activity-from", "parley conversations export --activity-to",
		"parley conversations export --first-message-from", "parley conversations export --first-message-to",
		"parley conversations export --last-message-from", "parley conversations export --last-message-to",
		"parley conversations export --updated-from", "parley conversations export --updated-to"}
	slices.Sort(found)
	if !slices.Equal(found, want) {
		t.Errorf("time flags %q, want %q", found, want)
	}
}
