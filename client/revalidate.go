package client

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// A conversation list answer (a page of a filtered, ordered or searched list) carries no
// version of its own. Held in the memory past its time-to-live, it is not fetched again
// but revalidated: one changed-only read asks whether any conversation the query could list
// changed since the answer was fetched (updated_at_from_date, the spec's "last update of
// any data after"), and when none did, the answer held is current and answers again, for
// another time-to-live. Only when something changed is the page fetched again; an answer
// fetched so (its revalidation found a change) is fetched again directly the next time it
// ages, so that a query whose conversations change all the time costs at most half a
// request more than fetching alone.

// RevalidateOverlap is how far before the server's time of a held answer a revalidation
// asks for changes (as the conversation list's refresh and the hub's poll overlap).
const RevalidateOverlap = 2 * time.Minute

// paging are the query parameters of a page, not of the set it is a page of.
var paging = []string{"limit", "offset", "cursor", "ordering"}

type revalidationKey struct{}

// revalidating marks ctx as a revalidation's: its answer is not kept (it answers one
// question), and its RequestInfo says Revalidation.
func revalidating(ctx context.Context) context.Context {
	return context.WithValue(ctx, revalidationKey{}, true)
}

func isRevalidation(ctx context.Context) bool { v, _ := ctx.Value(revalidationKey{}).(bool); return v }

// revalidated reports a GET whose answer is revalidated when it ages: a page of the
// conversation list or of /conversations/all/ with a search or a filter, which does not ask
// for changes itself (a refresh's or a poll's updated_at_from_date answers once and ages
// out). The whole organization's list is fetched again instead: any new conversation
// changes it, so a revalidation of it would mostly cost a request more.
func revalidated(u *url.URL) bool {
	path := u.Path
	if i := strings.LastIndex(path, v3+"/"); i >= 0 {
		path = path[i:]
	}
	if path != v3+"/conversations/" && path != v3+"/conversations/all/" {
		return false
	}
	q := u.Query()
	if q.Has(UpdatedFrom) {
		return false
	}
	for k := range q {
		if !slices.Contains(paging, k) && k != "exclude_ids" {
			return true // a search or a filter narrows it
		}
	}
	return false
}

// revalidate asks whether a held conversation list answer a (under akey, of the GET of u)
// is still current: the conversations of its query, without its paging and the filters a
// change can leave (Param.Leavable), updated since a.reached less RevalidateOverlap, one
// at most. None: the answer is current, and the memory holds it as fetched now (true).
// One: something it may list changed (false: fetch it again). An error is the read's: what
// the full read would have met.
func (c *Client) revalidate(ctx context.Context, u *url.URL, fam Family, akey memoKey, a answer) (bool, error) {
	q := u.Query()
	for _, k := range paging {
		q.Del(k)
	}
	for _, p := range Conversations.Params {
		if p.Leavable {
			q.Del(p.Name)
		}
	}
	q.Set(UpdatedFrom, formatFilterTime(a.reached.Add(-RevalidateOverlap)))
	q.Set("limit", "1")
	raw := c.endpoint(v3+"/conversations/", q)
	ru, err := url.Parse(raw)
	if err != nil {
		return false, err
	}
	epoch := c.flights.now()
	var p Page[Conversation]
	if _, err := c.get(revalidating(ctx), request{method: http.MethodGet, url: raw}, ru, fam, &p); err != nil {
		return false, err
	}
	if len(p.Results) > 0 {
		return false, nil // the caller fetches it, marked changed (sendOpts.changed)
	}
	// A write that ended meanwhile cleared the memory: nothing to renew.
	return c.memo.renewIf(akey, a.value, c.ServerReached(), func() bool { return c.flights.current(epoch) }), nil
}
