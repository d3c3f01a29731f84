package sandbox

// SetOffsetCap lowers the number of results reachable by offset, so that tests can check the
// cap without seeding 10,000 items.
func SetOffsetCap(s *Server, n int) { s.offsetCap = n }
