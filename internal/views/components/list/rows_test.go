package list

import (
	"slices"
	"testing"
)

func TestRemoveRowsKeepsTheCursorOnItsRow(t *testing.T) {
	t.Parallel()
	id := func(r int64) int64 { return r }
	rows := []int64{10, 11, 12, 13, 14, 15}
	index := map[int64]int{}
	Reindex(index, rows, id)
	win := Window{Cursor: 3} // on 13
	win.SetSize(3)
	rows, removed := RemoveRows(rows, index, []int64{11, 14, 99}, id, &win, nil)
	if removed != 2 || !slices.Equal(rows, []int64{10, 12, 13, 15}) {
		t.Fatalf("rows %v, removed %d", rows, removed)
	}
	if rows[win.Cursor] != 13 || index[15] != 3 || len(index) != 4 {
		t.Fatalf("cursor on %d, index %v", rows[win.Cursor], index)
	}
	rows, _ = RemoveRows(rows, index, []int64{13, 15}, id, &win, nil)
	if win.Cursor != 1 || rows[win.Cursor] != 12 {
		t.Fatalf("cursor %d after removing the selected row and the last", win.Cursor)
	}
}

// Every removed row before the cursor moves it up one: removing the two rows above it
// leaves it on its row, not on the one below.
func TestRemoveRowsBeforeTheCursorEachMoveItUp(t *testing.T) {
	t.Parallel()
	id := func(r int64) int64 { return r }
	rows := []int64{10, 11, 12, 13}
	index := map[int64]int{}
	Reindex(index, rows, id)
	win := Window{Cursor: 2} // on 12
	win.SetSize(4)
	rows, _ = RemoveRows(rows, index, []int64{10, 11}, id, &win, nil)
	if rows[win.Cursor] != 12 {
		t.Fatalf("cursor on %d after removing the two rows above 12", rows[win.Cursor])
	}
}
