package common

import (
	"context"
	"fmt"
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

// OffsetCap is the most results an offset list returns (the spec's 10,000).
const OffsetCap = 10000

// Pager is the paging state of a list that loads a query's rows page by page from an
// offset endpoint (and, past the offset cap, from its /all/ cursor endpoint). Every request
// gets the pager's query generation and a request id; AddPage drops an answer that is not
// the one awaited, so a stale page never overwrites a newer one.
//
// The rows may have a Gap: bottom (G) loads the last page of the count directly instead of
// every page before it, and the rows in between load a page at a time from either side of
// the gap as the cursor nears it. The list's cursor moves over positions (Len of them):
// RowAt and PosOf map them to the loaded rows.
type Pager struct {
	Total   int      // the server's count (at least the rows loaded)
	Link    string   // where the page after the first rows is ("" = none)
	Kind    LinkKind // how to follow Link
	Loading bool     // a request is in flight
	Loaded  bool     // the first page arrived (or failed)
	Err     error    // the last request's error
	Gap     Gap      // the rows not loaded between the first pages and the last ones

	gen, req int
	// nextErr: Err is the error of a page after the loaded ones (not of a first page).
	nextErr bool
	// noJump: the last page could not be had by offset (a server whose cap is below the
	// count): bottom goes to the rows loaded.
	noJump bool
}

// Gap is a run of a query's rows that are not loaded: rows[:At] come before it and
// rows[At:] after it, the last of them the count's last row.
type Gap struct {
	At   int    // loaded rows before the gap
	N    int    // rows of the query in the gap (0: none; the rows are contiguous)
	Prev string // the previous link of the first page after the gap ("": none loaded yet)
	Next string // the next link of the last page after the gap (where the rows go on)
}

// Where says which page a request is for.
type Where int

// The pages a list asks for after its first.
const (
	AfterLoaded Where = iota // after the rows loaded (before the gap, when there is one)
	LastPage                 // the page of the count's last row, past the rows not loaded
	BeforeLast               // the page that ends where the rows after the gap start
)

// Request identifies one request of a Pager; the Page answering it carries it back.
type Request struct {
	Gen, Req int
	// Replace marks a query's first page: it replaces the rows loaded.
	Replace bool
	// Keep, with Replace: the cursor stays on its row when the new rows have it (KeepAt).
	// That is the row selected when the answer arrives, not the one selected when the
	// request went out (From): keys move the cursor while a refresh is in flight.
	Keep bool
	From int64
	// Prefer, with Keep, is a row the cursor goes to instead when the new rows have it and
	// the cursor is still on From (a row just created, which the reload is for).
	Prefer int64
	// Where is the page asked for after the first; Offset, for LastPage, its offset.
	Where  Where
	Offset int
}

// Page is the answer to a Request: rows or an error.
type Page[R any] struct {
	Request
	Rows  []R
	Total int // the count; -1 keeps the known one (cursor pages have none)
	Link  string
	Prev  string // an offset page's previous link
	Kind  LinkKind
	Err   error
	At    time.Time
}

// Start begins a query's first page: answers to earlier queries and requests are dropped
// from now on. With keep the cursor stays on its row when the page arrives (see KeepAt);
// selected is the row selected now (0: none).
func (p *Pager) Start(keep bool, selected int64) Request {
	p.gen++
	p.req++
	p.Loading, p.Err, p.nextErr, p.noJump = true, nil, false, false
	return Request{Gen: p.gen, Req: p.req, Replace: true, Keep: keep, From: selected}
}

// KeepAt is the position of the row the cursor goes to once the first page answering r
// has replaced the rows (index holds them by id), selected being the row the cursor was
// on just before it arrived (0: none). With r.Keep that is the same row — wherever the
// user moved while the page was in flight — or r.Prefer when the cursor is still where it
// was when r went out; by id, as the new rows may have it elsewhere. False: the new rows
// show from the first.
func KeepAt(r Request, index map[int64]int, selected int64) (int, bool) {
	if !r.Replace || !r.Keep {
		return 0, false
	}
	ids := [2]int64{selected}
	if r.Prefer != 0 && selected == r.From {
		ids = [2]int64{r.Prefer, selected}
	}
	for _, id := range ids {
		if i, ok := index[id]; ok && id != 0 {
			return i, true // a first page leaves no gap: the row's index is its position
		}
	}
	return 0, false
}

// Next begins a request for the page after the rows loaded (before the gap, if any).
func (p *Pager) Next() Request { return p.Begin(AfterLoaded, 0) }

// Begin begins a request for the page w of the current query; for LastPage, limit is the
// page size and the request's Offset is the last page's (a whole number of pages, the way
// the previous links step back).
func (p *Pager) Begin(w Where, limit int) Request {
	p.req++
	p.Loading = true
	r := Request{Gen: p.gen, Req: p.req, Where: w}
	if w == LastPage {
		end := p.Gap.At + p.Gap.N // the count when the gap opened
		r.Offset = p.Gap.At
		if limit > 0 {
			r.Offset = max(p.Gap.At, (end-1)/limit*limit)
		}
	}
	return r
}

// Len is how many positions the cursor moves over: the n rows loaded and the gap's.
func (p *Pager) Len(n int) int { return n + p.Gap.N }

// RowAt is the index of the loaded row at position pos; false in the gap.
func (p *Pager) RowAt(pos int) (int, bool) {
	switch {
	case p.Gap.N == 0 || pos < p.Gap.At:
		return pos, true
	case pos < p.Gap.At+p.Gap.N:
		return 0, false
	}
	return pos - p.Gap.N, true
}

// PosOf is the position of loaded row i.
func (p *Pager) PosOf(i int) int {
	if p.Gap.N > 0 && i >= p.Gap.At {
		return i + p.Gap.N
	}
	return i
}

// Shift records k rows put before the first loaded one (a refresh's new rows on top).
func (p *Pager) Shift(k int) {
	if p.Gap.N > 0 {
		p.Gap.At += k
	}
}

// JumpEnd lets the cursor go to the count's last row when only the first of n rows are
// loaded: the rows after them become a gap, and the page the list asks for next is the last
// one (see Want), not every page in between. It reports whether the list reaches the
// count's end now: not past the offset cap (or a lower one a server showed), not for a
// cursor list, and not before the first page.
func (p *Pager) JumpEnd(n int) bool {
	if p.Gap.N > 0 {
		return true
	}
	if !p.Loaded || p.Kind != LinkOffset || p.Link == "" || p.noJump || p.Total <= n || p.Total > OffsetCap {
		return false
	}
	p.Gap = Gap{At: n, N: p.Total - n}
	return true
}

// Want says which page a list of n loaded rows should ask for with the cursor at position
// pos and vis rows in view, and whether it should: the page after the rows loaded when the
// cursor is within a screen of their end (the list decides whether there is one); with a
// gap, from the side of the gap the cursor is nearer to, the last page or the one before
// the rows after the gap. Nothing while a request is in flight or after a failure.
func (p *Pager) Want(n, pos, vis int) (Where, bool) {
	if !p.Ready() {
		return AfterLoaded, false
	}
	g := p.Gap
	switch {
	case g.N == 0:
		return AfterLoaded, n-pos <= vis+1
	case pos < g.At+g.N/2:
		return AfterLoaded, g.At-pos <= vis+1
	case n == g.At:
		return LastPage, true
	case g.Prev == "":
		// No link to the page before the last ones (a server without previous links):
		// the gap fills from its start, a page at a time while the cursor is near.
		return AfterLoaded, pos-(g.At+g.N) <= vis+1
	}
	return BeforeLast, pos-(g.At+g.N) <= vis+1
}

// closeGap makes the rows contiguous: the page after them is the one after the last pages.
func (p *Pager) closeGap() {
	p.Link = p.Gap.Next
	p.Gap = Gap{}
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
func (p *Pager) EndedBefore(n int) bool {
	return p.Loaded && p.Link == "" && p.Gap.N == 0 && n < p.Total
}

// AddPage takes page into p and into rows, the list's rows indexed by id in index. It
// reports false for a page that is not the answer awaited (an older query's or a
// superseded request's), which changes nothing. A failed page only records its error.
// A first page replaces the rows; rows already loaded are not added again. With a gap, a
// page goes to its side of it and the gap shrinks by the rows the page covers; it closes
// when they meet (or when a page overlaps the rows loaded: the list changed meanwhile).
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
		p.Gap = Gap{}
	}
	var fresh []R
	for _, r := range page.Rows {
		k := id(r)
		if _, dup := index[k]; dup {
			continue
		}
		index[k] = len(rows) + len(fresh) // where appending puts it; Reindex after an insert
		fresh = append(fresh, r)
	}
	overlap := len(fresh) < len(page.Rows)
	inserted := false
	g := &p.Gap
	switch {
	case page.Where == LastPage:
		if len(page.Rows) == 0 {
			// The offset list does not reach its count's end (a cap below it): the rows
			// stay as they were, and bottom goes to the rows loaded from now on.
			*g, p.noJump = Gap{}, true
			break
		}
		g.At, g.N = len(rows), max(0, page.Offset-len(rows))
		g.Prev, g.Next = page.Prev, page.Link
		rows = append(rows, fresh...)
		if g.N == 0 || overlap {
			p.closeGap()
		}
	case page.Where == BeforeLast && g.N > 0:
		rows, inserted = slices.Insert(rows, g.At, fresh...), true
		g.N -= len(page.Rows)
		g.Prev = page.Prev
		if g.N <= 0 || overlap {
			p.closeGap()
		}
	case g.N > 0: // after the first rows, into the gap
		rows, inserted = slices.Insert(rows, g.At, fresh...), true
		g.At += len(fresh)
		g.N -= len(page.Rows)
		p.Link, p.Kind = page.Link, page.Kind
		if g.N <= 0 || page.Link == "" || overlap {
			p.closeGap()
		}
	default:
		rows = append(rows, fresh...)
		p.Link, p.Kind = page.Link, page.Kind
	}
	if inserted {
		Reindex(index, rows, id) // the rows after the gap moved
	}
	if page.Total >= 0 && (page.Where != LastPage || len(page.Rows) > 0) {
		p.Total = page.Total
	}
	p.Total = max(p.Total, p.Len(len(rows)))
	return rows, true
}

// FirstPage is the answer to r from an offset page asked for by its options (a query's
// first page, or its last one) or its error, each item made a row by row.
func FirstPage[T, R any](r Request, pg *client.Page[T], err error, row func(T) R, at time.Time) Page[R] {
	if err != nil {
		return Page[R]{Request: r, Err: err}
	}
	return Page[R]{Request: r, Rows: Map(pg.Results, row), Total: pg.Count, Link: pg.Next, Prev: pg.Previous, Kind: LinkOffset, At: at}
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
		out.Rows, out.Total, out.Link, out.Prev = Map(pg.Results, row), pg.Count, pg.Next, pg.Previous
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

// FetchLinkPage fetches the offset page at link as r's answer, within timeout (in a
// command). An error is wrapped with what; At is now().
func FetchLinkPage[T, R any](c *client.Client, r Request, link string, row func(T) R, now func() time.Time,
	timeout time.Duration, what string) Page[R] {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	p := FetchNext[T](ctx, c, r, link, LinkOffset, nil, row)
	if p.Err != nil {
		p.Err = fmt.Errorf("%s: %w", what, p.Err)
	}
	p.At = now()
	return p
}
