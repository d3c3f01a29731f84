package common

import (
	"errors"
	"fmt"
	"testing"
)

func TestAddPageDropsStaleAnswersAndKeepsRowsOnce(t *testing.T) {
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
	rows, _ = AddPage(&p, rows, index, Page[int64]{Request: next, Rows: []int64{3, 2}, Total: -1}, id)
	if len(rows) != 4 || index[2] != 3 || p.Total != 10 || p.Link != "" || !p.EndedBefore(len(rows)) {
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
	if p.Gap != (Gap{}) || p.Link != "" || len(rows) != 45 || p.EndedBefore(len(rows)) {
		t.Fatalf("after the gap closed: gap %+v link %q, %d rows", p.Gap, p.Link, len(rows))
	}
	for i, r := range rows {
		if r != int64(45-i) || index[r] != i {
			t.Fatalf("row %d is %d (index %d)", i, r, index[r])
		}
	}
}

func TestJumpEndOnlyWhereTheLastPageCanBeHad(t *testing.T) {
	id := func(r int64) int64 { return r }
	load := func(total int, kind LinkKind, link string) (*Pager, []int64) {
		var p Pager
		first := offsetPage(p.Start(false, 0), total, 0)
		first.Total, first.Kind, first.Link = total, kind, link
		rows, _ := AddPage(&p, nil, map[int64]int{}, first, id)
		return &p, rows
	}
	if p, rows := load(OffsetCap+1, LinkOffset, "next"); p.JumpEnd(len(rows)) {
		t.Fatal("a count past the offset cap jumped")
	}
	if p, rows := load(OffsetCap, LinkOffset, "next"); !p.JumpEnd(len(rows)) {
		t.Fatal("a count at the offset cap did not jump")
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
