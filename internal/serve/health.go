package serve

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parley-tui/parley/client"
)

// pollOutcome is how an organization's last shared poll went.
type pollOutcome struct {
	at  time.Time // local time of its answer or failure
	err error
}

// answered reports whether the API answered the poll: it did unless the poll met no
// answer, a server error, a refusal of the hub's token or an answer that could not be
// believed. A rate limit (429) is an answer: the budget's metrics tell that apart.
func (o pollOutcome) answered() bool {
	switch client.ProblemOf(o.err) {
	case client.ProblemRateLimited, client.ProblemDailyLimit:
		return true
	}
	return o.err == nil
}

// Health reports whether the hub is healthy, and why (or why not), in words:
//
//   - it serves: Serve has started and Shutdown has not;
//   - the API answered the last shared poll of every organization that has sessions (with
//     no session connected, no poller runs: the last poll of any organization decides,
//     and before the first poll the hub is healthy: its start checked the users file
//     against the API).
//
// It never asks the API itself: a scrape costs no request of the day's budget.
func (h *Hub) Health() (ok bool, why string) {
	h.mu.Lock()
	serving, closing := h.serving, h.closing
	var orgs []int64
	for org, p := range h.pollers {
		if _, polled := h.polled[org]; polled && p.state().running {
			orgs = append(orgs, org)
		}
	}
	if len(orgs) == 0 {
		var latest time.Time
		for org, o := range h.polled {
			if len(orgs) == 0 || o.at.After(latest) {
				orgs, latest = []int64{org}, o.at
			}
		}
	}
	outcomes := make(map[int64]pollOutcome, len(orgs))
	for _, org := range orgs {
		outcomes[org] = h.polled[org]
	}
	h.mu.Unlock()
	switch {
	case closing:
		return false, "the hub is shutting down"
	case !serving:
		return false, "the hub is not serving yet"
	case len(orgs) == 0:
		return true, "serving; no shared poll yet"
	}
	slices.Sort(orgs)
	var bad []string
	for _, org := range orgs {
		if o := outcomes[org]; !o.answered() {
			bad = append(bad, fmt.Sprintf("organization %d: the last poll at %s failed: %v",
				org, o.at.UTC().Format(time.RFC3339), o.err))
		}
	}
	if len(bad) > 0 {
		return false, strings.Join(bad, "; ")
	}
	return true, fmt.Sprintf("serving; the API answered the last poll of organization %s", joinIDs(orgs))
}

// pollersNow are the organizations' pollers now.
func (h *Hub) pollersNow() map[int64]*poller {
	h.mu.Lock()
	defer h.mu.Unlock()
	return maps.Clone(h.pollers)
}

// joinIDs is "2, 1002".
func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ", ")
}
