package client

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/parley-tui/parley/internal/when"
)

// checkDeclaration checks that a list's declaration is whole: each parameter names one
// field of the filter and every field has one parameter, with the words every place that
// derives from it needs, and a stored value reads back as the API's.
func checkDeclaration[F, R any](t *testing.T, r Resource[F, R], samples map[Kind]string) {
	t.Helper()
	var zero F
	fields := reflect.TypeOf(zero).NumField()
	if len(r.Params) != fields {
		t.Errorf("%d parameters for the %d fields of %T", len(r.Params), fields, zero)
	}
	seen, flags, covered := map[string]bool{}, map[string]bool{}, map[int]string{}
	for _, p := range r.Params {
		accessors := 0
		for _, set := range []bool{p.Text != nil, p.ID != nil, p.Date != nil, p.Bool != nil} {
			if set {
				accessors++
			}
		}
		if accessors != 1 {
			t.Errorf("%s: %d fields, want one", p.Name, accessors)
			continue
		}
		if seen[p.Name] || flags[p.Flag] {
			t.Errorf("%s (--%s) declared twice", p.Name, p.Flag)
		}
		seen[p.Name], flags[p.Flag] = true, true
		if p.Label == "" || p.Group == "" || p.Flag == "" || p.Usage == "" || (p.Short == "") != (p.Name == r.Status) {
			t.Errorf("%s: words missing: %+v", p.Name, p)
		}
		if p.Short != "" && strings.Count(p.Short, "%") != 1 {
			t.Errorf("%s: the header's form %q takes not one value", p.Name, p.Short)
		}
		k := p.Kind()
		picks := p.Names != "" || len(p.Choices) > 0
		if picks != (p.Any != "") || p.Names != "" && k != KindID || (k == KindBool) != (p.Bool != nil) ||
			k == KindBool && len(p.Choices) != 2 || p.Upper && k != KindDate || p.Check != nil && k != KindText {
			t.Errorf("%s: the kind %d does not go with %+v", p.Name, k, p)
		}
		sample := samples[k]
		switch {
		case k == KindEnum || k == KindBool:
			sample = p.Choices[0].Value
		case p.Hint != "":
			sample = p.Hint // a placeholder is a good value
		}
		var f F
		if p.IsSet(f) {
			t.Errorf("%s is set in the zero filter", p.Name)
		}
		if err := p.Parse(&f, sample); err != nil {
			t.Errorf("%s: %q: %v", p.Name, sample, err)
			continue
		}
		if got := p.Value(f); got != sample || !p.IsSet(f) {
			t.Errorf("%s: %q reads back as %q", p.Name, sample, got)
		}
		v := reflect.ValueOf(f)
		for i := range fields {
			if !v.Field(i).IsZero() {
				if other, ok := covered[i]; ok {
					t.Errorf("%s and %s set the same field", other, p.Name)
				}
				covered[i] = p.Name
			}
		}
		if q := r.Values(f); len(q) != 1 || q.Get(p.Name) != sample {
			t.Errorf("%s alone encodes as %v", p.Name, q)
		}
		p.Clear(&f)
		if !r.IsZero(f) {
			t.Errorf("%s: Clear leaves %+v", p.Name, f)
		}
	}
	if len(covered) != fields {
		t.Errorf("%d fields of %T have a parameter, want %d", len(covered), zero, fields)
	}
	if _, ok := r.Param(r.Status); r.Status != "" && !ok {
		t.Errorf("the status parameter %q is not declared", r.Status)
	}
	values := map[string]bool{}
	for _, o := range r.Orderings {
		if values[o.Value] || o.Words == "" {
			t.Errorf("ordering %q: twice or without words", o.Value)
		}
		values[o.Value] = true
	}
	if r.Default != "" && !values[r.Default] {
		t.Errorf("the default ordering %q is not declared", r.Default)
	}
	if r.Shown != "" && !values[r.Shown] {
		t.Errorf("the shown ordering %q is not declared", r.Shown)
	}
}

func TestDeclarations(t *testing.T) {
	samples := map[Kind]string{KindText: "de_DE", KindID: "42", KindDate: "2026-03-01T09:30:00.000000Z"}
	checkDeclaration(t, Conversations, samples)
	checkDeclaration(t, Contacts, samples)
}

// Stored values (saved views, the config file) are read strictly, each kind with its own
// message; a text is checked by its parameter's check.
func TestParamParseRefuses(t *testing.T) {
	for _, tc := range []struct {
		param, value, want string
	}{
		{"topics", "four", `"four" is not a positive integer id`},
		{"topics", "0", `"0" is not a positive integer id`},
		{"topics", "-3", `"-3" is not a positive integer id`},
		{"status", "fresh", `"fresh" is not new, pending or ended`},
		{"updated_at_from_date", "7d", `"7d" is not a date or a time`},
		{"updated_at_from_date", "1999-12-31", `is too far back (before 2000)`},
	} {
		p, _ := Conversations.Param(tc.param)
		var f ConversationFilter
		if err := p.Parse(&f, tc.value); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s=%q: %v, want %q", tc.param, tc.value, err, tc.want)
		}
	}
	for _, tc := range []struct {
		param, value, want string
	}{
		{"verified", "yes", `"yes" is not true or false`},
		{"email", "anna@", `is not an email address`},
		{"locale", "german", `the locale has the form ll_CC`},
	} {
		p, _ := Contacts.Param(tc.param)
		var f ContactFilter
		if err := p.Parse(&f, tc.value); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s=%q: %v, want %q", tc.param, tc.value, err, tc.want)
		}
	}
	var f ContactFilter
	p, _ := Contacts.Param("verified")
	if err := p.Parse(&f, " FALSE "); err != nil || f.Verified == nil || *f.Verified {
		t.Errorf("verified FALSE: %v, %v", f.Verified, err)
	}
}

// The words of the orderings, short and in a person's words: the server's default named as
// the ordering it is, an unknown one as sent.
func TestOrderingWords(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Conversations.OrderingWords(""), "id↓"},
		{Conversations.OrderingWords("-last_message_sent_at"), "last msg↓"},
		{Conversations.OrderingWords("sideways"), "sideways"},
		{Contacts.OrderingWords(""), "newest"},
		{Contacts.OrderingWords("-email"), "email Z→A"},
		{Conversations.OrderingSays(""), "newest first"},
		{Conversations.OrderingSays("-last_message_sent_at"), "by last message, newest first"},
		{Conversations.OrderingSays("sideways"), "sideways"},
		{Contacts.OrderingSays(""), "newest first"},
		{Contacts.OrderingSays("name"), "by name, A to Z"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
	if o := Contacts.OrderingValues(); len(o) != 6 || o[0] != "-created_at" {
		t.Errorf("contact orderings %q", o)
	}
}

// Every timestamp the client reads from the API is read the same by package when, typed or
// stored, when it falls in the years a typed time may.
func FuzzWhenReadsAPITimes(f *testing.F) {
	for _, s := range []string{"2026-11-01", "2026-11-01 14:30", "2026-11-01T14:30", "2026-11-01t14:30:00z",
		"2026-11-01T08:30:00.5Z", "2026-11-01T08:30:00+01:00", "2026-11-01T08:30:00+0100", "2026-11-01T08:30:00+01",
		"2026-11-01 08:30:00", "1999-12-31", "2000-01-01", "2100-12-31T23:59:59.999999999Z", "2101-01-01",
		"2000-01-01T00:30:00+01:00", "2026-02-30", "2026-11-01T25:00", "7d", "today", ""} {
		f.Add(s)
	}
	earliest := time.Date(when.FirstYear, 1, 1, 0, 0, 0, 0, time.UTC)
	beyond := time.Date(when.LastYear+1, 1, 1, 0, 0, 0, 0, time.UTC)
	now := time.Date(2026, 11, 20, 15, 4, 5, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		ct, err := ParseTime(s)
		if err != nil || ct.Before(earliest) || !ct.Before(beyond) {
			return
		}
		if v, err := when.Parse(s, now); err != nil || !v.Equal(ct) {
			t.Fatalf("%q: ParseTime gives %v, when.Parse %v, %v", s, ct, v, err)
		}
		if v, err := when.ParseStamp(s); err != nil || !v.Equal(ct) {
			t.Fatalf("%q: ParseTime gives %v, when.ParseStamp %v, %v", s, ct, v, err)
		}
	})
}
