package list

// Arrange shows rows in place of the loaded ones: the same query's rows, a subset of them or
// in another order, chosen by a screen that holds its whole list as one page (the operators
// screen's availability filter and sort). The cursor stays on its row when that row is among
// rows, else at its position (clamped); the marks of rows that left go, the count becomes
// len(rows). Cached drawings stay: a row's drawing does not depend on its place.
func (m *Model[R]) Arrange(rows []R) {
	selected := m.selectedID()
	m.rows = rows
	Reindex(m.index, m.rows, m.id)
	for id := range m.marked {
		if _, ok := m.index[id]; !ok {
			delete(m.marked, id)
		}
	}
	m.pg.Gap = Gap{}
	m.pg.Total = len(m.rows)
	if i, ok := m.index[selected]; ok && !m.onPinned {
		m.win.Cursor = i
	}
	m.fit()
	m.settlePin()
}
