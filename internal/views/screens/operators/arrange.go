package operators

import (
	"cmp"
	"slices"
	"strings"

	"github.com/parley-tui/parley/client"
)

// Show is the availability filter `s` cycles through: which operators the list shows.
type Show int

// The filters, in the order `s` cycles through them.
const (
	ShowAll       Show = iota
	ShowAvailable      // the server said is_away false
	ShowAway           // the server said is_away true
	ShowOnline         // the server said is_online true
	ShowUnknown        // the server did not say whether it is away
	showCount
)

// String names the filter as the header shows it.
func (s Show) String() string {
	switch s {
	case ShowAvailable:
		return "available"
	case ShowAway:
		return "away"
	case ShowOnline:
		return "online"
	case ShowUnknown:
		return "unknown"
	}
	return "all"
}

// Says names the filter in a person's words, as the header shows it where there is room
// ("all statuses", "only available", "only status unknown"); String is its short word.
func (s Show) Says() string {
	switch s {
	case ShowAll:
		return "all statuses"
	case ShowUnknown:
		return "only status unknown"
	}
	return "only " + s.String()
}

// Keeps reports whether the filter shows r: only from what the server sent, so an operator
// whose away status it did not send is neither available nor away.
func (s Show) Keeps(r Row) bool {
	switch s {
	case ShowAvailable:
		return r.IsAway.Known && !r.IsAway.V
	case ShowAway:
		return r.IsAway.Known && r.IsAway.V
	case ShowOnline:
		return r.IsOnline.Known && r.IsOnline.V
	case ShowUnknown:
		return !r.IsAway.Known
	}
	return true
}

// Sort is the order `o` cycles through.
type Sort int

// The orders, in the order `o` cycles through them.
const (
	SortName         Sort = iota // by name, then id
	SortAvailability             // available, away, unknown; each by name
	SortSlots                    // most slots used first; slots not known yet last
	sortCount
)

// String names the order as the header shows it.
func (s Sort) String() string {
	switch s {
	case SortAvailability:
		return "availability"
	case SortSlots:
		return "slots used"
	}
	return "name"
}

// Counts are the operators by the statuses the server sent: Unknown are those whose away
// status it did not send (never counted as available), Online those it said are online.
type Counts struct {
	All, Available, Away, Unknown, Online int
}

// CountOf counts rows.
func CountOf(rows []Row) Counts {
	c := Counts{All: len(rows)}
	for _, r := range rows {
		switch {
		case !r.IsAway.Known:
			c.Unknown++
		case r.IsAway.V:
			c.Away++
		default:
			c.Available++
		}
		if r.IsOnline.Known && r.IsOnline.V {
			c.Online++
		}
	}
	return c
}

// availabilityRank orders available before away before unknown.
func availabilityRank(r Row) int {
	switch {
	case !r.IsAway.Known:
		return 2
	case r.IsAway.V:
		return 1
	}
	return 0
}

// sortName is how an operator sorts by name: the name, else the display name, without case.
func sortName(r Row) string { return strings.ToLower(cmp.Or(r.Name, r.DisplayName)) }

// NameHas reports whether the operator's name or display name holds text, whatever the
// case ("" holds in every name).
func NameHas(r Row, text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	return strings.Contains(strings.ToLower(r.Name), t) || strings.Contains(strings.ToLower(r.DisplayName), t)
}

// arranged is every operator the filter and the name keep, in the order asked; used gives
// an operator's slot use when it is known.
func arranged(all []Row, show Show, name string, by Sort, used func(id int64) (client.Opt[int], bool)) []Row {
	out := make([]Row, 0, len(all))
	for _, r := range all {
		if show.Keeps(r) && NameHas(r, name) {
			out = append(out, r)
		}
	}
	byName := func(a, b Row) int { return cmp.Or(cmp.Compare(sortName(a), sortName(b)), cmp.Compare(a.ID, b.ID)) }
	switch by {
	case SortAvailability:
		slices.SortStableFunc(out, func(a, b Row) int {
			return cmp.Or(cmp.Compare(availabilityRank(a), availabilityRank(b)), byName(a, b))
		})
	case SortSlots:
		slots := func(r Row) int {
			if u, ok := used(r.ID); ok && u.Known {
				return u.V
			}
			return -1 // not known (yet): last
		}
		slices.SortStableFunc(out, func(a, b Row) int { return cmp.Or(cmp.Compare(slots(b), slots(a)), byName(a, b)) })
	default:
		slices.SortStableFunc(out, byName)
	}
	return out
}
