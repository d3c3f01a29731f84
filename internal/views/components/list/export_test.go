package list

// CachedRows is how many drawn rows the render cache holds.
func (m *Model[R]) CachedRows() int { return len(m.cache) }
