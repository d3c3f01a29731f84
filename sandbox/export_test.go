package sandbox

// SetOffsetCap lowers the number of results reachable by offset, so that tests can check the
// cap without seeding 10,000 items.
func SetOffsetCap(s *Server, n int) { s.offsetCap = n }

// Delayed is how many requests the server holds back for Options.Latency now.
func Delayed(s *Server) int64 { return s.delayed.Load() }
