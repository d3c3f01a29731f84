package list

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/parley-tui/parley/client"
)

func TestAddPageDropsStaleAnswersAndKeepsRowsOnce(t *testing.T) {
	t.Parallel()
	var p Pager
	id := func(r int64) int64 { return r }
	index := map[int64]int{}
	var rows []int64

	first := p.Start(false, 0)
	newer := p.Start(false, 0)
	if _, ok := AddPage(&p, rows, index, Page[int64]{Request: first, Rows: []int64{9}, Total: 1}, id); ok {
		t.Fatal("an older query's page was taken")
	}
	rows, ok := AddPage(&p, rows, index, Page[int64]{Request: newer, Rows: []int64{5, 4, 3}, Total: 10, Link: "next", Kind: LinkOffset}, id)
	if !ok || len(rows) != 3 || !p.Loaded || p.Loading || p.Total != 10 || !p.Ready() {
		t.Fatalf("first page: ok %v rows %v pager %+v", ok, rows, p)
	}

	next := p.Next()
	rows, _ = AddPage(&p, rows, index, Page[int64]{Request: next, Rows: []int64{3, 2}, Total: -1, Kind: LinkOffset}, id)
	if len(rows) != 4 || index[2] != 3 || p.Total != 10 || p.Link != "" || !p.PastCap(len(rows)) {
		t.Fatalf("second page: rows %v index %v pager %+v", rows, index, p)
	}

	failed := p.Next()
	boom := errors.New("boom")
	rows, _ = AddPage(&p, rows, index, Page[int64]{Request: failed, Err: boom}, id)
	if len(rows) != 4 || p.Err != boom || p.Ready() {
		t.Fatalf("a failed page: rows %v pager %+v", rows, p)
	}

	p.Reset()
	if _, ok := AddPage(&p, rows, index, Page[int64]{Request: failed}, id); ok || p.Loaded || p.Total != 0 {
		t.Fatalf("after Reset: ok %v pager %+v", ok, p)
	}
}

func TestRetryNextOnlyAfterAFailedNextPage(t *testing.T) {
	t.Parallel()
	var p Pager
	id := func(r int64) int64 { return r }
	index := map[int64]int{}
	boom := errors.New("boom")

	first := p.Start(false, 0)
	rows, _ := AddPage(&p, nil, index, Page[int64]{Request: first, Err: boom}, id)
	if p.NextFailed() || p.RetryNext() || p.Err != boom {
		t.Fatalf("a failed first page is not a failed next page: %+v", p)
	}

	first = p.Start(false, 0)
	rows, _ = AddPage(&p, rows, index, Page[int64]{Request: first, Rows: []int64{3, 2}, Total: 4, Link: "next", Kind: LinkOffset}, id)
	next := p.Next()
	if p.NextFailed() {
		t.Fatal("a next page in flight reported failed")
	}
	rows, _ = AddPage(&p, rows, index, Page[int64]{Request: next, Err: boom}, id)
	if !p.NextFailed() || p.Ready() || len(rows) != 2 || p.Link != "next" {
		t.Fatalf("after a failed next page: rows %v pager %+v", rows, p)
	}
	if !p.RetryNext() || p.Err != nil || !p.Ready() || p.NextFailed() || p.Link != "next" {
		t.Fatalf("RetryNext: pager %+v", p)
	}
	if p.RetryNext() {
		t.Fatal("RetryNext twice")
	}

	next = p.Next()
	_, _ = AddPage(&p, rows, index, Page[int64]{Request: next, Err: boom}, id)
	p.Start(false, 0)
	if p.NextFailed() || p.Err != nil {
		t.Fatalf("a new first page still reports the failed next page: %+v", p)
	}
}

// pages of 10 of a list of ids n..1 (id descending), as an offset endpoint answers them.
func offsetPage(r Request, n, offset int) Page[int64] {
	var rows []int64
	for i := offset; i < min(n, offset+10); i++ {
		rows = append(rows, int64(n-i))
	}
	pg := Page[int64]{Request: r, Rows: rows, Total: n, Kind: LinkOffset}
	if offset+10 < n {
		pg.Link = fmt.Sprintf("offset=%d", offset+10)
	}
	if offset > 0 {
		pg.Prev = fmt.Sprintf("offset=%d", max(0, offset-10))
	}
	return pg
}

func TestGapFillsFromBothEnds(t *testing.T) {
	t.Parallel()
	var p Pager
	id := func(r int64) int64 { return r }
	index := map[int64]int{}
	rows, _ := AddPage(&p, nil, index, offsetPage(p.Start(false, 0), 45, 0), id)
	if !p.JumpEnd(len(rows)) || p.Len(len(rows)) != 45 {
		t.Fatalf("JumpEnd: pager %+v", p)
	}
	if w, ok := p.Want(len(rows), 44, 5); !ok || w != LastPage {
		t.Fatalf("at the end the list wants %v %v", w, ok)
	}
	r := p.Begin(LastPage, 10)
	if r.Offset != 40 {
		t.Fatalf("last page offset %d", r.Offset)
	}
	rows, _ = AddPage(&p, rows, index, offsetPage(r, 45, 40), id)
	if p.Gap != (Gap{At: 10, N: 30, Prev: "offset=30"}) || len(rows) != 15 {
		t.Fatalf("after the last page: gap %+v, %d rows", p.Gap, len(rows))
	}
	if i, ok := p.RowAt(44); !ok || rows[i] != 1 || p.PosOf(i) != 44 {
		t.Fatalf("position 44 is row %d (%v)", i, ok)
	}
	if _, ok := p.RowAt(25); ok {
		t.Fatal("a position in the gap has a row")
	}
	// The page before the last ones, then the one after the first ones: they meet.
	if w, ok := p.Want(len(rows), 40, 5); !ok || w != BeforeLast {
		t.Fatalf("near the gap's end the list wants %v %v", w, ok)
	}
	rows, _ = AddPage(&p, rows, index, offsetPage(p.Begin(BeforeLast, 10), 45, 30), id)
	if p.Gap.N != 20 || p.Gap.Prev != "offset=20" {
		t.Fatalf("after the page before the last: gap %+v", p.Gap)
	}
	if w, ok := p.Want(len(rows), 8, 5); !ok || w != AfterLoaded {
		t.Fatalf("near the first rows' end the list wants %v %v", w, ok)
	}
	rows, _ = AddPage(&p, rows, index, offsetPage(p.Next(), 45, 10), id)
	rows, _ = AddPage(&p, rows, index, offsetPage(p.Next(), 45, 20), id)
	if p.Gap != (Gap{}) || p.Link != "" || len(rows) != 45 || p.PastCap(len(rows)) {
		t.Fatalf("after the gap closed: gap %+v link %q, %d rows", p.Gap, p.Link, len(rows))
	}
	for i, r := range rows {
		if r != int64(45-i) || index[r] != i {
			t.Fatalf("row %d is %d (index %d)", i, r, index[r])
		}
	}
}

func TestJumpEndOnlyWhereTheLastPageCanBeHad(t *testing.T) {
	t.Parallel()
	id := func(r int64) int64 { return r }
	load := func(total int, kind LinkKind, link string) (*Pager, []int64) {
		var p Pager
		first := offsetPage(p.Start(false, 0), total, 0)
		first.Total, first.Kind, first.Link = total, kind, link
		rows, _ := AddPage(&p, nil, map[int64]int{}, first, id)
		return &p, rows
	}
	// Past the cap, or at it (perhaps the capped count), the last row the offset endpoint
	// reaches is the cap's; below, the count's.
	for _, total := range []int{OffsetCap + 1, OffsetCap, OffsetCap - 1} {
		p, rows := load(total, LinkOffset, "next")
		if !p.JumpEnd(len(rows)) || p.Len(len(rows)) != min(total, OffsetCap) || p.BeyondCap() != (total >= OffsetCap) {
			t.Fatalf("count %d: JumpEnd to %d positions, pager %+v", total, p.Len(len(rows)), p)
		}
		if r := p.Begin(LastPage, 100); r.Offset != OffsetCap-100 {
			t.Fatalf("count %d: the last page's offset is %d", total, r.Offset)
		}
	}
	if p, rows := load(50, LinkAllPrev, "next"); p.JumpEnd(len(rows)) {
		t.Fatal("a cursor list jumped")
	}
	if p, rows := load(50, LinkOffset, ""); p.JumpEnd(len(rows)) {
		t.Fatal("a list with every row loaded jumped")
	}
	// A server whose cap is below the count answers the last page with no rows: the gap
	// goes, and bottom stays with the rows loaded from then on.
	p, rows := load(50, LinkOffset, "next")
	p.JumpEnd(len(rows))
	empty := Page[int64]{Request: p.Begin(LastPage, 10), Total: 50, Kind: LinkOffset}
	rows, _ = AddPage(p, rows, map[int64]int{}, empty, id)
	if p.Gap != (Gap{}) || p.Len(len(rows)) != 10 || p.JumpEnd(len(rows)) || p.Link != "next" {
		t.Fatalf("after an empty last page: pager %+v", p)
	}
}

func TestRemoveRowsBeforeTheGapMoveIt(t *testing.T) {
	t.Parallel()
	var p Pager
	id := func(r int64) int64 { return r }
	index := map[int64]int{}
	rows, _ := AddPage(&p, nil, index, offsetPage(p.Start(false, 0), 45, 0), id)
	p.JumpEnd(len(rows))
	rows, _ = AddPage(&p, rows, index, offsetPage(p.Begin(LastPage, 10), 45, 40), id)
	win := Window{Cursor: 44}
	win.SetSize(5)
	rows, removed := RemoveRows(rows, index, []int64{45, 44, 3}, id, &win, &p)
	if removed != 3 || p.Gap.At != 8 || p.Len(len(rows)) != 42 {
		t.Fatalf("removed %d: gap %+v, %d positions", removed, p.Gap, p.Len(len(rows)))
	}
	if i, ok := p.RowAt(win.Cursor); !ok || rows[i] != 1 {
		t.Fatalf("the cursor left its row: position %d", win.Cursor)
	}
	p.Shift(2)
	if p.Gap.At != 10 {
		t.Fatalf("Shift: gap %+v", p.Gap)
	}
}

// A first page keeps the cursor on the row selected when it arrives, which keys may have
// moved since the request went out; a preferred row (one just created) wins only when the
// cursor has not moved.
func TestKeepAtFollowsTheCursorOfWhenThePageArrives(t *testing.T) {
	t.Parallel()
	index := map[int64]int{10: 0, 20: 1, 30: 2, 40: 3}
	var p Pager
	cases := []struct {
		name     string
		r        Request
		selected int64
		want     int
		ok       bool
	}{
		{"not moved", p.Start(true, 20), 20, 1, true},
		{"moved meanwhile", p.Start(true, 20), 40, 3, true},
		{"moved onto a row the new rows lack", p.Start(true, 20), 99, 0, false},
		{"nothing selected then, a row now", p.Start(true, 0), 30, 2, true},
		{"a new query shows from the first", p.Start(false, 20), 40, 0, false},
		{"preferred, not moved", Request{Replace: true, Keep: true, From: 20, Prefer: 30}, 20, 2, true},
		{"preferred, moved meanwhile", Request{Replace: true, Keep: true, From: 20, Prefer: 30}, 40, 3, true},
		{"preferred but not loaded", Request{Replace: true, Keep: true, From: 20, Prefer: 77}, 20, 1, true},
		{"not a first page", Request{Keep: true, From: 20}, 20, 0, false},
	}
	for _, c := range cases {
		if got, ok := KeepAt(c.r, index, c.selected); got != c.want || ok != c.ok {
			t.Errorf("%s: %d %v, want %d %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// A count at the cap is a lower bound: the header shows "30+", the rows go on past the cap
// by the rows loaded although the count says they are all there, and the cursor endpoint's
// count, or its end, makes the total exact. An offset count at the cap then does not lower
// the total known.
func TestCountAtTheCapIsALowerBound(t *testing.T) {
	t.Parallel()
	p := Pager{Cap: 30}
	id := func(r int64) int64 { return r }
	index := map[int64]int{}
	capped := func(pg Page[int64]) Page[int64] {
		pg.Total = min(pg.Total, 30)
		if pg.Link == "offset=30" {
			pg.Link = ""
		}
		return pg
	}
	rows, _ := AddPage(&p, nil, index, capped(offsetPage(p.Start(false, 0), 45, 0)), id)
	if !p.AtLeast || p.Count() != "30+" || p.One() || !p.BeyondCap() || p.PastCap(len(rows)) {
		t.Fatalf("first page: pager %+v, count %q", p, p.Count())
	}
	rows, _ = AddPage(&p, rows, index, capped(offsetPage(p.Next(), 45, 10)), id)
	rows, _ = AddPage(&p, rows, index, capped(offsetPage(p.Next(), 45, 20)), id)
	if len(rows) != 30 || p.Link != "" || p.Total != 30 || !p.PastCap(len(rows)) || p.Count() != "30+" {
		t.Fatalf("at the cap: %d rows, pager %+v", len(rows), p)
	}
	// The cursor page after the last row: ids 15..6, with the true count.
	var next []int64
	for i := int64(15); i > 5; i-- {
		next = append(next, i)
	}
	rows, _ = AddPage(&p, rows, index, Page[int64]{Request: p.Next(), Rows: next, Total: 45, Link: "cursor=-6", Kind: LinkAllPrev}, id)
	if p.AtLeast || p.Count() != "45" || p.PastCap(len(rows)) || len(rows) != 40 {
		t.Fatalf("after a cursor page: %d rows, pager %+v", len(rows), p)
	}
	// A refresh of the first offset page (count at the cap) keeps the known total.
	p.takeCount(false, LinkOffset, 30)
	if p.Total != 45 || p.AtLeast {
		t.Fatalf("an offset count at the cap lowered the total: %+v", p)
	}
	// The last cursor page, without a count: the walk ends, every row is loaded.
	rows, _ = AddPage(&p, rows, index, Page[int64]{Request: p.Next(), Rows: []int64{5, 4, 3, 2, 1}, Total: -1, Kind: LinkAllPrev}, id)
	if len(rows) != 45 || p.Total != 45 || p.AtLeast || p.PastCap(len(rows)) {
		t.Fatalf("at the end: %d rows, pager %+v", len(rows), p)
	}
	if _, ok := p.JumpPastCap(len(rows)); ok {
		t.Fatal("bottom asked for the last rows of a list whose every row is loaded")
	}

	// A list of exactly the cap: the cursor endpoint answers nothing, and the count is exact.
	q := Pager{Cap: 30}
	index = map[int64]int{}
	rows = nil
	for off := 0; off < 30; off += 10 {
		r := q.Next()
		if off == 0 {
			r = q.Start(false, 0)
		}
		rows, _ = AddPage(&q, rows, index, offsetPage(r, 30, off), id)
	}
	if !q.AtLeast || !q.PastCap(len(rows)) {
		t.Fatalf("a list of exactly the cap: pager %+v", q)
	}
	rows, _ = AddPage(&q, rows, index, Page[int64]{Request: q.Next(), Total: 30, Kind: LinkAllPrev}, id)
	if q.AtLeast || q.Count() != "30" || q.PastCap(len(rows)) || len(rows) != 30 {
		t.Fatalf("after the empty cursor page: pager %+v", q)
	}
}

// Bottom past the cap: the last rows come from the cursor endpoint, placed by its count
// after a gap; the gap fills from above by offset pages to the cap and then by cursor pages
// (the offset walk's end does not close it), and from below by the cursor's links.
func TestBottomPastTheCapByCursor(t *testing.T) {
	t.Parallel()
	const total = 65
	p := Pager{Cap: 30}
	id := func(r int64) int64 { return r }
	index := map[int64]int{}
	ids := func(from, to int64) []int64 { // from down to to
		var out []int64
		for i := from; i >= to; i-- {
			out = append(out, i)
		}
		return out
	}
	first := offsetPage(p.Start(false, 0), total, 0)
	first.Total = 30 // the capped count
	rows, _ := AddPage(&p, nil, index, first, id)
	if !p.BeyondCap() || !p.AtLeast {
		t.Fatalf("a count at the cap: pager %+v", p)
	}
	r, ok := p.JumpPastCap(len(rows))
	if !ok || r.Where != LastPage || !p.Loading {
		t.Fatalf("JumpPastCap: %+v %v", r, ok)
	}
	if _, ok := p.JumpPastCap(len(rows)); ok {
		t.Fatal("JumpPastCap while its request is in flight")
	}
	r.Offset = total - 10
	rows, _ = AddPage(&p, rows, index, Page[int64]{Request: r, Rows: ids(10, 1), Total: total, Prev: "cursor=10", Kind: LinkAllPrev}, id)
	if p.Gap != (Gap{At: 10, N: 45, Prev: "cursor=10", Cursor: LinkAllPrev}) || p.Len(len(rows)) != total || p.AtLeast {
		t.Fatalf("after the last rows: gap %+v, %d positions, pager %+v", p.Gap, p.Len(len(rows)), p)
	}
	if w, ok := p.Want(len(rows), 58, 5); !ok || w != BeforeLast {
		t.Fatalf("near the gap's end the list wants %v %v", w, ok)
	}
	// From below: the cursor page after id 10 (ids 11..20), reversed.
	rows, _ = AddPage(&p, rows, index, Page[int64]{Request: p.Begin(BeforeLast, 10), Rows: ids(20, 11), Total: total,
		Prev: "cursor=20", Kind: LinkAllPrev}, id)
	if p.Gap.N != 35 || p.Gap.Prev != "cursor=20" {
		t.Fatalf("after a page from below: gap %+v", p.Gap)
	}
	// From above: offset pages to the cap; the last has no next link.
	rows, _ = AddPage(&p, rows, index, offsetPage(p.Next(), total, 10), id)
	last := offsetPage(p.Next(), total, 20)
	last.Total, last.Link = 30, ""
	rows, _ = AddPage(&p, rows, index, last, id)
	if p.Gap.N != 15 || p.Gap.At != 30 || p.Link != "" || !p.PastCap(len(rows)) || p.Contiguous(len(rows)) != 30 || p.AtLeast || p.Total != total {
		t.Fatalf("after the offset walk's end: gap %+v, pager %+v", p.Gap, p)
	}
	// Cursor pages below the last row before the gap close it, and the list is whole.
	rows, _ = AddPage(&p, rows, index, Page[int64]{Request: p.Next(), Rows: ids(35, 26), Total: total, Link: "cursor=-26", Kind: LinkAllPrev}, id)
	if p.Gap.N != 5 || p.Link != "cursor=-26" || p.PastCap(len(rows)) {
		t.Fatalf("after a cursor page from above: gap %+v, pager %+v", p.Gap, p)
	}
	rows, _ = AddPage(&p, rows, index, Page[int64]{Request: p.Next(), Rows: ids(25, 21), Total: total, Link: "cursor=-21", Kind: LinkAllPrev}, id)
	if p.Gap != (Gap{}) || p.Link != "" || p.Kind != LinkAllPrev || p.PastCap(len(rows)) || len(rows) != total {
		t.Fatalf("after the gap closed: gap %+v, pager %+v, %d rows", p.Gap, p, len(rows))
	}
	for i, r := range rows {
		if r != int64(total-i) || index[r] != i {
			t.Fatalf("row %d is %d (index %d)", i, r, index[r])
		}
	}
}

// FetchBottom: descending, the cursor endpoint's first page reversed; ascending, the
// newest offset page reversed after the cursor page before it; both placed by the cursor
// count. Without a count nothing can be placed: bottom then stays with the rows loaded.
func TestFetchBottomPlacesTheLastRowsByTheCursorCount(t *testing.T) {
	t.Parallel()
	const total = 45 // ids 1..45
	count := total
	var cursors []string
	all := func(_ context.Context, cursor string) (*client.CursorPage[int64], error) {
		cursors = append(cursors, cursor)
		pg := &client.CursorPage[int64]{Count: &count, Next: "next", Previous: "previous"}
		switch cursor {
		case "":
			pg.Results = []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
		case "-36":
			pg.Results = []int64{26, 27, 28, 29, 30, 31, 32, 33, 34, 35}
		}
		return pg, nil
	}
	newest := func(context.Context) (*client.Page[int64], error) {
		return &client.Page[int64]{Count: 30, Results: []int64{45, 44, 43, 42, 41, 40, 39, 38, 37, 36}}, nil
	}
	same := func(r int64) int64 { return r }
	var p Pager
	p.Start(false, 0)
	r := p.Begin(LastPage, 0)

	desc := FetchBottom(context.Background(), r, true, all, newest, same, same)
	if !slices.Equal(desc.Rows, []int64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}) || desc.Offset != 35 || desc.Total != total ||
		desc.Prev != "next" || desc.Kind != LinkAllPrev || !slices.Equal(cursors, []string{""}) {
		t.Fatalf("descending: %+v, cursors %q", desc, cursors)
	}
	cursors = nil
	asc := FetchBottom(context.Background(), r, false, all, newest, same, same)
	want := []int64{26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45}
	if !slices.Equal(asc.Rows, want) || asc.Offset != 25 || asc.Total != total || asc.Prev != "previous" ||
		asc.Kind != LinkAllNext || !slices.Equal(cursors, []string{"-36"}) {
		t.Fatalf("ascending: %+v, cursors %q", asc, cursors)
	}

	noCount := func(ctx context.Context, cursor string) (*client.CursorPage[int64], error) {
		pg, err := all(ctx, cursor)
		pg.Count = nil
		return pg, err
	}
	for _, d := range []bool{true, false} {
		if got := FetchBottom(context.Background(), r, d, noCount, newest, same, same); len(got.Rows) != 0 || got.Err != nil {
			t.Fatalf("desc %v without a count: %+v", d, got)
		}
	}
	q := Pager{Cap: 30}
	rows, _ := AddPage(&q, nil, map[int64]int{}, Page[int64]{Request: q.Start(false, 0), Rows: []int64{45, 44}, Total: 30, Link: "next", Kind: LinkOffset}, same)
	br, ok := q.JumpPastCap(len(rows))
	if !ok {
		t.Fatalf("JumpPastCap: pager %+v", q)
	}
	rows, _ = AddPage(&q, rows, map[int64]int{}, FetchBottom(context.Background(), br, true, noCount, newest, same, same), same)
	if _, ok := q.JumpPastCap(len(rows)); ok || q.Gap != (Gap{}) || len(rows) != 2 || !q.Ready() {
		t.Fatalf("after the last rows could not be placed: pager %+v", q)
	}
}
