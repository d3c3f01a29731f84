package common

import (
	"context"
	"slices"
	"time"

	"github.com/parley-tui/parley/client"
)

// LinkKind says how a paged list fetches its next page.
type LinkKind int

// How the next page is fetched.
const (
	LinkNone    LinkKind = iota
	LinkOffset           // follow the offset envelope's next link
	LinkAllNext          // /all/ ascending: follow next
	LinkAllPrev          // /all/ descending: follow previous, reversing each page
)

// Pager is the paging state of a list that loads a query's rows page by page from an
// offset endpoint (and, past the offset cap, from its /all/ cursor endpoint). Every request
// gets the pager's query generation and a request id; AddPage drops an answer that is not
// the one awaited, so a stale page never overwrites a newer one.
type Pager struct {
	Total   int      // the server's count (at least the rows loaded)
	Link    string   // where the next page is ("" = none)
	Kind    LinkKind // how to follow Link
	Loading bool     // a request is in flight
	Loaded  bool     // the first page arrived (or failed)
	Err     error    // the last request's error

	gen, req int
	// nextErr: Err is the error of a page after the loaded ones (not of a first page).
	nextErr bool
}

// Request identifies one request of a Pager; the Page answering it carries it back.
type Request struct {
	Gen, Req int
	// Replace marks a query's first page: it replaces the rows loaded.
	Replace bool
	// KeepID, with Replace, is the row the cursor stays on when the new rows have it;
	// KeepElse the one it goes to when they do not have KeepID.
	KeepID, KeepElse int64
}

// Page is the answer to a Request: rows or an error.
type Page[R any] struct {
	Request
	Rows  []R
	Total int // the count; -1 keeps the known one (cursor pages have none)
	Link  string
	Kind  LinkKind
	Err   error
	At    time.Time
}

// Start begins a query's first page: answers to earlier queries and requests are dropped
// from now on. keep is the row the cursor should stay on.
func (p *Pager) Start(keep int64) Request {
	p.gen++
	p.req++
	p.Loading, p.Err, p.nextErr = true, nil, false
	return Request{Gen: p.gen, Req: p.req, Replace: true, KeepID: keep}
}

// Next begins a request for the next page of the current query.
func (p *Pager) Next() Request {
	p.req++
	p.Loading = true
	return Request{Gen: p.gen, Req: p.req}
}

// NextFailed reports that the last request was for the page after the loaded ones and it
// failed: the rows loaded are still good, and RetryNext lets that page be asked for again
// instead of starting over from the first.
func (p *Pager) NextFailed() bool { return p.Err != nil && p.nextErr && !p.Loading }

// RetryNext forgets the error of a failed next page, so that Ready reports true again and
// the list may ask for that page once more. It reports false, changing nothing, unless
// NextFailed.
func (p *Pager) RetryNext() bool {
	if !p.NextFailed() {
		return false
	}
	p.Err, p.nextErr = nil, false
	return true
}

// Reset forgets the query's paging state and drops every answer in flight.
func (p *Pager) Reset() { *p = Pager{gen: p.gen + 1, req: p.req} }

// Gen is the query generation (for other requests of the list, such as a refresh merge).
func (p *Pager) Gen() int { return p.gen }

// Ready reports whether the next page may be asked for: the first page arrived, nothing is
// in flight and the last request did not fail.
func (p *Pager) Ready() bool { return p.Loaded && !p.Loading && p.Err == nil }

// EndedBefore reports that the pages ended with n rows loaded, fewer than the count: the
// cap on the results an offset list reaches (10,000 per the spec).
func (p *Pager) EndedBefore(n int) bool { return p.Loaded && p.Link == "" && n < p.Total }

// AddPage takes page into p and into rows, the list's rows indexed by id in index. It
// reports false for a page that is not the answer awaited (an older query's or a
// superseded request's), which changes nothing. A failed page only records its error.
// A first page replaces the rows; rows already loaded are not added again.
func AddPage[R any](p *Pager, rows []R, index map[int64]int, page Page[R], id func(R) int64) ([]R, bool) {
	if page.Gen != p.gen || page.Req != p.req {
		return rows, false
	}
	p.Loading, p.Loaded = false, true
	p.Err, p.nextErr = page.Err, page.Err != nil && !page.Replace
	if page.Err != nil {
		return rows, true
	}
	if page.Replace {
		rows = rows[:0:0]
		clear(index)
	}
	for _, r := range page.Rows {
		k := id(r)
		if _, dup := index[k]; dup {
			continue
		}
		index[k] = len(rows)
		rows = append(rows, r)
	}
	if page.Total >= 0 {
		p.Total = page.Total
	}
	p.Total = max(p.Total, len(rows))
	p.Link, p.Kind = page.Link, page.Kind
	return rows, true
}

// FirstPage is the answer to r from a query's first offset page (or its error), each item
// made a row by row.
func FirstPage[T, R any](r Request, pg *client.Page[T], err error, row func(T) R, at time.Time) Page[R] {
	if err != nil {
		return Page[R]{Request: r, Err: err}
	}
	return Page[R]{Request: r, Rows: Map(pg.Results, row), Total: pg.Count, Link: pg.Next, Kind: LinkOffset, At: at}
}

// FetchNext fetches the answer to r, the page after the loaded ones: the offset page at
// link (LinkOffset), or the cursor page at link, or without a link the cursor page first
// fetches (the first one past the offset cap). A cursor page walked backwards (LinkAllPrev)
// is reversed and continues at its previous link. Errors are the client's, unwrapped.
func FetchNext[T, R any](ctx context.Context, c *client.Client, r Request, link string, kind LinkKind,
	first func(context.Context) (*client.CursorPage[T], error), row func(T) R) Page[R] {
	out := Page[R]{Request: r, Kind: kind}
	if kind == LinkOffset {
		pg, err := client.FetchPage[T](ctx, c, link)
		if err != nil {
			out.Err = err
			return out
		}
		out.Rows, out.Total, out.Link = Map(pg.Results, row), pg.Count, pg.Next
		return out
	}
	var pg *client.CursorPage[T]
	var err error
	if link != "" {
		pg, err = client.FetchCursorPage[T](ctx, c, link)
	} else {
		pg, err = first(ctx)
	}
	if err != nil {
		out.Err = err
		return out
	}
	out.Rows, out.Total, out.Link = Map(pg.Results, row), -1, pg.Next
	if kind == LinkAllPrev {
		slices.Reverse(out.Rows)
		out.Link = pg.Previous
	}
	return out
}
