package common

import (
	"errors"
	"testing"
)

func TestAddPageDropsStaleAnswersAndKeepsRowsOnce(t *testing.T) {
	var p Pager
	id := func(r int64) int64 { return r }
	index := map[int64]int{}
	var rows []int64

	first := p.Start(0)
	newer := p.Start(0)
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

	first := p.Start(0)
	rows, _ := AddPage(&p, nil, index, Page[int64]{Request: first, Err: boom}, id)
	if p.NextFailed() || p.RetryNext() || p.Err != boom {
		t.Fatalf("a failed first page is not a failed next page: %+v", p)
	}

	first = p.Start(0)
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
	p.Start(0)
	if p.NextFailed() || p.Err != nil {
		t.Fatalf("a new first page still reports the failed next page: %+v", p)
	}
}
