package list

// Map returns f of every item.
func Map[T, R any](items []T, f func(T) R) []R {
	out := make([]R, len(items))
	for i, it := range items {
		out[i] = f(it)
	}
	return out
}

// Reindex makes index map the id of every row to its position.
func Reindex[R any](index map[int64]int, rows []R, id func(R) int64) {
	clear(index)
	for i, r := range rows {
		index[id(r)] = i
	}
}

// RemoveRows drops the rows whose id is in ids (in place), indexes the rest, and keeps the
// window's cursor on the row it was on (or, when that one went, near where it was). p, when
// not nil, is the rows' pager: the window moves over its positions, and a gap after
// removed rows moves up with them. It returns the rows left and how many were removed.
func RemoveRows[R any](rows []R, index map[int64]int, ids []int64, id func(R) int64, win *Window, p *Pager) ([]R, int) {
	drop := make(map[int64]bool, len(ids))
	for _, x := range ids {
		drop[x] = true
	}
	var gap Pager
	if p != nil {
		gap.Gap = p.Gap
	}
	kept := rows[:0]
	beforeGap := 0
	cursor := win.Cursor // every removed row before it moves it up one
	for i, r := range rows {
		if drop[id(r)] {
			if gap.PosOf(i) < cursor {
				win.Cursor--
			}
			if gap.Gap.N > 0 && i < gap.Gap.At {
				beforeGap++
			}
			continue
		}
		kept = append(kept, r)
	}
	Reindex(index, kept, id)
	n := len(kept)
	if p != nil {
		p.Gap.At -= beforeGap
		n = p.Len(n)
	}
	win.Clamp(n)
	return kept, len(rows) - len(kept)
}
