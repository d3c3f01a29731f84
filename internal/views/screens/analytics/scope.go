package analytics

import "slices"

// Organizations is the scope of what the screen shows: the organization filter (nil when
// there is none: the Analytics API then answers for every organization the token can read,
// analytics rule 2, whatever organization the rest of parley works in) and the
// organizations of the current query's data points, sorted (nil until they are fetched).
func (m *Model) Organizations() (filter, seen []int64) {
	filter = slices.Clone(m.filters.Orgs)
	if m.cur == nil {
		return filter, nil
	}
	for _, p := range m.cur.points {
		if !slices.Contains(seen, p.OrganizationID) {
			seen = append(seen, p.OrganizationID)
		}
	}
	slices.Sort(seen)
	return filter, seen
}
