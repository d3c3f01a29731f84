package list

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/sat"
	"github.com/parley-tui/parley/internal/views/components/layout"
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

// OffsetCap is the most results an offset list returns (the spec's 10,000). The rows of a
// list in id order go on past it through the /all/ cursor endpoint (spec, Pagination 2 and
// 4). Whether they do is decided by the rows loaded, not by the count: a server may report
// the capped count (the spec only says offset endpoints return at most 10,000 results), so
// a count equal to the cap is a lower bound (Pager.AtLeast) until the cursor endpoint,
// whose envelope carries the count too, or the list's real end says what the total is.
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
	AtLeast bool     // Total is an offset list's count at the cap: the true total may be more
	Cap     int      // results the offset endpoint reaches (0: OffsetCap); kept by Reset
	Link    string   // where the page after the first rows is ("" = none)
	Kind    LinkKind // how to follow Link
	Loading bool     // a request is in flight
	Loaded  bool     // the first page arrived (or failed)
	Err     error    // the last request's error
	Gap     Gap      // the rows not loaded between the first pages and the last ones
	// Counted: the query's first page carried the server's count (an answer without one
	// leaves Total at the rows loaded, which no header may present as the server's).
	Counted bool
	// BadCount: the query's first page carried a count no list can have (below zero): the
	// count is unknown, and shows as "—".
	BadCount bool

	gen, req int
	// bottom is the request id of the last rows asked for by JumpPastCap.
	bottom int
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
	// Cursor says where the rows after the gap came from: LinkNone, the offset endpoint
	// (Prev and Next are offset links); LinkAllPrev or LinkAllNext, the /all/ cursor
	// endpoint for a list in descending or ascending id order (Prev is a cursor link, see
	// FetchBeforeLast, and nothing comes after them).
	Cursor LinkKind
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
	// Quiet marks an automatic reload (an auto-refresh): its failure shows in the list's
	// footer only, without a toast.
	Quiet bool
}

// Page is the answer to a Request: rows or an error.
type Page[R any] struct {
	Request
	Rows  []R
	Total int // the count; -1 keeps the known one (cursor pages have none)
	// Counted: the answer carried a count (Total is the server's, not the rows').
	Counted bool
	// BadCount: the answer carried a count below zero (client.Page.BadCount).
	BadCount bool
	Link     string
	Prev     string // an offset page's previous link
	Kind     LinkKind
	Err      error
	At       time.Time
}

// offsetCap is the results the offset endpoint reaches.
func (p *Pager) offsetCap() int {
	if p.Cap > 0 {
		return p.Cap
	}
	return OffsetCap
}

// Count is the count as a header shows it: "10,000+" while the true total may be more,
// "—" when the server sent one no list can have.
func (p *Pager) Count() string {
	if p.BadCount {
		return "—"
	}
	if p.AtLeast {
		return layout.Count(p.Total) + "+"
	}
	return layout.Count(p.Total)
}

// Reach is the most results the offset endpoint reaches (Cap, or the spec's OffsetCap).
func (p *Pager) Reach() int { return p.offsetCap() }

// BeyondCap reports that the count is past the offset cap, or at it and so perhaps the
// capped one: the offset endpoint does not reach the end of the list, or may not.
func (p *Pager) BeyondCap() bool { return p.AtLeast || p.Total > p.offsetCap() }

// One reports a count of exactly one (the header's noun is then singular).
func (p *Pager) One() bool { return p.Total == 1 && !p.AtLeast && !p.BadCount }

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
		end := p.gapEnd() // the count when the gap opened
		r.Offset = p.Gap.At
		if limit > 0 {
			r.Offset = max(p.Gap.At, (end-1)/limit*limit)
		}
	}
	return r
}

// Len is how many positions the cursor moves over: the n rows loaded and the gap's. The
// gap's size comes from a count the server sent, which may be any int: the positions stop
// at the largest int instead of wrapping round.
func (p *Pager) Len(n int) int { return sat.Add(n, p.Gap.N) }

// gapEnd is the position after the gap (saturated, as Len).
func (p *Pager) gapEnd() int { return sat.Add(p.Gap.At, p.Gap.N) }

// RowAt is the index of the loaded row at position pos; false in the gap.
func (p *Pager) RowAt(pos int) (int, bool) {
	switch {
	case p.Gap.N == 0 || pos < p.Gap.At:
		return pos, true
	case pos < p.gapEnd():
		return 0, false
	}
	return pos - p.Gap.N, true
}

// PosOf is the position of loaded row i.
func (p *Pager) PosOf(i int) int {
	if p.Gap.N > 0 && i >= p.Gap.At {
		return sat.Add(i, p.Gap.N)
	}
	return i
}

// Shift records k rows put before the first loaded one (a refresh's new rows on top).
func (p *Pager) Shift(k int) {
	if p.Gap.N > 0 {
		p.Gap.At += k
	}
}

// JumpEnd lets the cursor go to the last row the offset endpoint reaches when only the
// first of n rows are loaded: the rows after them become a gap, and the page the list asks
// for next is the last one (see Want), not every page in between. That row is the count's
// last, or with a count past the cap (or at it, perhaps the capped one) the cap's: the end
// of a list that the cursor endpoint cannot continue. A list that it can continue asks for
// its last rows there instead (JumpPastCap). JumpEnd reports whether the list reaches that
// row now: not for a cursor list, not after a server showed a lower cap, and not before
// the first page.
func (p *Pager) JumpEnd(n int) bool {
	if p.Gap.N > 0 {
		return true
	}
	end := min(p.Total, p.offsetCap())
	if !p.Loaded || p.Kind != LinkOffset || p.Link == "" || p.noJump || end <= n {
		return false
	}
	p.Gap = Gap{At: n, N: end - n}
	return true
}

// JumpPastCap begins the request for the last rows of a list in id order, of n rows loaded,
// whose end the offset endpoint does not reach: its count is past the cap, or at it and so
// perhaps the capped one. The answer (see FetchBottom) comes from the cursor endpoint, whose
// count places the rows after a gap. False, changing nothing, when the offset endpoint
// reaches the end (JumpEnd), when every row is loaded, when there is a gap already or the
// last rows are asked for already, when they could not be had before (a server without a
// count), and before the first page.
func (p *Pager) JumpPastCap(n int) (Request, bool) {
	switch {
	case !p.Loaded || p.Err != nil || p.Gap.N > 0 || p.noJump || n == 0:
		return Request{}, false
	case p.Loading && p.bottom == p.req:
		return Request{}, false // asked for already
	case p.Link == "" && p.Kind != LinkOffset:
		return Request{}, false // the cursor walk reached the end: every row is loaded
	case !p.BeyondCap():
		return Request{}, false // the offset endpoint reaches the end
	}
	r := p.Begin(LastPage, 0)
	p.bottom = r.Req
	return r, true
}

// Contiguous is how many rows, of n loaded, come one after the other from the first: those
// before the gap. The page after them continues from the last of them.
func (p *Pager) Contiguous(n int) int {
	if p.Gap.N > 0 {
		return p.Gap.At
	}
	return n
}

// PastCap reports that the offset walk ended where the offset endpoint stops, so that the
// rows after the n loaded, if any, are to come from the /all/ cursor endpoint (for a query
// it can serve): the rows before the gap reach the offset cap, whatever the count says (a
// server may report the capped count); or the rows stop short of the count (a server whose
// cap is lower and that says so); or the last rows came from the cursor endpoint (bottom)
// and the gap before them is still open. It is false while the offset walk goes on, after a
// cursor walk began, and after a cursor walk ended.
func (p *Pager) PastCap(n int) bool {
	if !p.Loaded || p.Link != "" || p.Kind != LinkOffset {
		return false
	}
	if p.Gap.N > 0 {
		return p.Gap.Cursor != LinkNone
	}
	return n >= p.offsetCap() || n < p.Total
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
	case pos < sat.Add(g.At, g.N/2):
		return AfterLoaded, g.At-pos <= vis+1
	case n == g.At:
		return LastPage, true
	case g.Prev == "":
		// No link to the page before the last ones (a server without previous links):
		// the gap fills from its start, a page at a time while the cursor is near.
		return AfterLoaded, pos-p.gapEnd() <= vis+1
	}
	return BeforeLast, pos-p.gapEnd() <= vis+1
}

// closeGap makes the rows contiguous: the page after them is the one after the last pages
// (none after rows from the cursor endpoint's end).
func (p *Pager) closeGap() {
	p.Link = p.Gap.Next
	if p.Gap.Cursor != LinkNone {
		p.Kind = p.Gap.Cursor
	}
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
func (p *Pager) Reset() { *p = Pager{Cap: p.Cap, gen: p.gen + 1, req: p.req} }

// Gen is the query generation (for other requests of the list, such as a refresh merge).
func (p *Pager) Gen() int { return p.gen }

// Ready reports whether the next page may be asked for: the first page arrived, nothing is
// in flight and the last request did not fail.
func (p *Pager) Ready() bool { return p.Loaded && !p.Loading && p.Err == nil }

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
		p.Counted, p.BadCount = page.Counted, page.BadCount
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
			// The offset list does not reach its count's end (a cap below it), or the
			// cursor endpoint gave no count to place its last rows by: the rows stay as
			// they were, and bottom goes to the rows loaded from now on.
			*g, p.noJump = Gap{}, true
			break
		}
		g.At, g.N = len(rows), max(0, page.Offset-len(rows))
		g.Prev, g.Next, g.Cursor = page.Prev, page.Link, LinkNone
		if page.Kind != LinkOffset {
			g.Cursor = page.Kind
		}
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
		// An offset walk that ends does not close a gap before rows from the cursor
		// endpoint: the rows in between come from that endpoint (PastCap).
		ended := page.Link == "" && (g.Cursor == LinkNone || page.Kind != LinkOffset)
		if g.N <= 0 || ended || overlap {
			p.closeGap()
		}
	default:
		rows = append(rows, fresh...)
		p.Link, p.Kind = page.Link, page.Kind
	}
	if inserted {
		Reindex(index, rows, id) // the rows after the gap moved
	}
	if page.Where != LastPage || len(page.Rows) > 0 {
		p.takeCount(page.Replace, page.Kind, page.Total)
	}
	if p.Kind.cursor() && p.Link == "" && p.Gap.N == 0 {
		p.AtLeast = false // the cursor walk reached the end: the rows are every one there is
	}
	p.Total = max(p.Total, p.Len(len(rows)))
	return rows, true
}

// cursor reports a kind of the /all/ cursor endpoint.
func (k LinkKind) cursor() bool { return k == LinkAllNext || k == LinkAllPrev }

// takeCount takes the count of a page of kind (-1: it has none; first: a query's first
// page). The cursor endpoint's count is the true total. An offset page's count at the cap
// may be the capped one (AtLeast) and, after the first page, does not lower a larger total
// known for the query (from the cursor endpoint).
func (p *Pager) takeCount(first bool, kind LinkKind, total int) {
	switch {
	case total < 0:
	case kind.cursor() || total != p.offsetCap():
		p.Total, p.AtLeast = total, false
	case first || p.Total <= total:
		p.Total, p.AtLeast = total, true
	}
}

// FirstPage is the answer to r from an offset page asked for by its options (a query's
// first page, or its last one) or its error, each item made a row by row.
func FirstPage[T, R any](r Request, pg *client.Page[T], err error, row func(T) R, at time.Time) Page[R] {
	if err != nil {
		return Page[R]{Request: r, Err: err}
	}
	return Page[R]{Request: r, Rows: Map(pg.Results, row), Total: pg.Count, Counted: pg.Counted, BadCount: pg.BadCount,
		Link: pg.Next, Prev: pg.Previous, Kind: LinkOffset, At: at}
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
	return cursorPage(r, kind, pg, err, row)
}

// cursorPage is the answer to r from the cursor page pg of a walk of kind, or its error: the
// rows in list order (a walk backwards, LinkAllPrev, reverses them), with Link where the
// walk goes on and Prev where the rows before them are.
func cursorPage[T, R any](r Request, kind LinkKind, pg *client.CursorPage[T], err error, row func(T) R) Page[R] {
	p := Page[R]{Request: r, Kind: kind, Total: -1}
	if err != nil {
		p.Err = err
		return p
	}
	p.Rows, p.Total, p.Link, p.Prev = Map(pg.Results, row), cursorCount(pg), pg.Next, pg.Previous
	if kind == LinkAllPrev {
		slices.Reverse(p.Rows)
		p.Link, p.Prev = pg.Previous, pg.Next
	}
	return p
}

// cursorCount is the count of a cursor page (-1: it has none).
func cursorCount[T any](pg *client.CursorPage[T]) int {
	if pg.Count == nil || *pg.Count < 0 {
		return -1
	}
	return *pg.Count
}

// FetchBottom fetches the answer to r, the last rows of a list in id order (desc: id
// descending, the default order) that the offset endpoint does not reach, from the /all/
// cursor endpoint, whose count places them (the answer's Offset is the position of its
// first row). all fetches the cursor page at cursor ("": the first; ordering id, the one
// the endpoint allows).
//
// Descending, the last rows are the oldest: the endpoint's first page, reversed; the rows
// above them are its next pages (FetchBeforeLast with LinkAllPrev). Ascending, the last rows
// are the newest: newest fetches them as the offset endpoint's first page in the default
// order (reversed), and the cursor page before them (ids below the lowest of them) brings
// the count and the rows above them; those before follow previous links (LinkAllNext).
// Without a count the answer has no rows: the rows cannot be placed (see AddPage). Errors
// are the client's, unwrapped.
func FetchBottom[T, R any](ctx context.Context, r Request, desc bool,
	all func(ctx context.Context, cursor string) (*client.CursorPage[T], error),
	newest func(context.Context) (*client.Page[T], error), row func(T) R, id func(R) int64) Page[R] {
	out := Page[R]{Request: r, Kind: LinkAllNext, Total: -1}
	if desc {
		out.Kind = LinkAllPrev
		pg, err := all(ctx, "")
		if err != nil {
			out.Err = err
			return out
		}
		if n := cursorCount(pg); n >= 0 {
			out.Rows, out.Total, out.Prev = Map(pg.Results, row), n, pg.Next
			slices.Reverse(out.Rows)
		}
	} else {
		top, err := newest(ctx)
		if err != nil {
			out.Err = err
			return out
		}
		last := Map(top.Results, row)
		if len(last) == 0 {
			return out
		}
		slices.Reverse(last)
		cursor, err := CursorFrom(id(last[0]), true)
		if err != nil {
			out.Err = err
			return out
		}
		pg, err := all(ctx, cursor)
		if err != nil {
			out.Err = err
			return out
		}
		if n := cursorCount(pg); n >= 0 {
			out.Rows, out.Total = append(Map(pg.Results, row), last...), n
			if len(pg.Results) > 0 {
				out.Prev = pg.Previous
			}
		}
	}
	out.Offset = max(0, out.Total-len(out.Rows))
	return out
}

// CursorFrom is the /all/ endpoint's cursor for the ids after id, or with before for those
// before it ("-<id>", the spec's form of a previous link). The cursor's sign says the
// direction, so it names ids of one and more: a row whose id is below one (a server's
// int64 at its smallest) cannot be paged from, and the error says so instead of sending
// "--9223372036854775808".
func CursorFrom(id int64, before bool) (string, error) {
	if id < 1 {
		return "", fmt.Errorf("cannot page on from id %d: a cursor names an id of 1 or more", id)
	}
	if before {
		return "-" + strconv.FormatInt(id, 10), nil
	}
	return strconv.FormatInt(id, 10), nil
}

// FetchBeforeLast fetches r's answer, the page that ends where the rows after the gap
// start, at link (Gap.Prev): an offset page that continues at its previous link (kind
// LinkNone, see Gap.Cursor), or a cursor page (see cursorPage): for a list in descending id
// order (LinkAllPrev) the page after the link's cursor (higher ids), reversed, continuing
// at its next link; ascending (LinkAllNext), the page before it, in order, continuing at its
// previous link. Errors are the client's, unwrapped.
func FetchBeforeLast[T, R any](ctx context.Context, c *client.Client, r Request, link string, kind LinkKind, row func(T) R) Page[R] {
	if !kind.cursor() {
		return FetchNext[T](ctx, c, r, link, LinkOffset, nil, row)
	}
	pg, err := client.FetchCursorPage[T](ctx, c, link)
	return cursorPage(r, kind, pg, err, row)
}
