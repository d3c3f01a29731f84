package savedviews_test

import (
	"strings"
	"testing"
	"time"

	sv "github.com/parley-tui/parley/views/savedviews"
)

// A saved view's filters are read into a filter's fields, each by its kind; an unknown
// filter or a bad value is an error naming it, and the values are read without the blanks
// around them.
func TestParamsReadEveryKindAndNameWhatIsWrong(t *testing.T) {
	var (
		id   int64
		text string
		from time.Time
		yes  *bool
	)
	p := sv.Params{"operator": sv.ID(&id), "topic": sv.Text(&text), "from": sv.Date(&from), "unread": sv.Bool(&yes)}
	if err := p.Apply(map[string]string{"operator": " 2003 ", "topic": "Billing", "from": "2026-03-01", "unread": "TRUE"}); err != nil {
		t.Fatal(err)
	}
	if id != 2003 || text != "Billing" || !from.Equal(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) || yes == nil || !*yes {
		t.Fatalf("read %d %q %v %v", id, text, from, yes)
	}
	if err := p.Apply(map[string]string{"from": "2026-03-01T09:30:00+02:00", "unread": "false"}); err != nil ||
		!from.Equal(time.Date(2026, 3, 1, 7, 30, 0, 0, time.UTC)) || *yes {
		t.Fatalf("read %v %v (%v)", from, *yes, err)
	}
	for values, want := range map[[2]string]string{
		{"colour", "red"}:                    `unknown filter "colour"`,
		{"operator", "0"}:                    `filter operator: "0" is not a positive integer id`,
		{"operator", "-4"}:                   `filter operator: "-4" is not a positive integer id`,
		{"operator", "99999999999999999999"}: "filter operator:",
		{"from", "yesterday"}:                `filter from: "yesterday" is not a date`,
		{"unread", "yes"}:                    `filter unread: "yes" is not true or false`,
	} {
		err := p.Apply(map[string]string{values[0]: values[1]})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s=%s: %v, want %q", values[0], values[1], err, want)
		}
	}
}

// Flat keeps each filter's first value, leaves out the keys it is told to and empty
// values, and is nil when nothing is left.
func TestFlatKeepsTheFirstValueOfEachFilter(t *testing.T) {
	got := sv.Flat(map[string][]string{"topic": {"Billing", "Sales"}, "status": {"new"}, "empty": nil}, "status")
	if len(got) != 1 || got["topic"] != "Billing" {
		t.Fatalf("Flat gave %v", got)
	}
	if got := sv.Flat(map[string][]string{"status": {"new"}}, "status"); got != nil {
		t.Fatalf("Flat of nothing left gave %v", got)
	}
}
