// Package termguard keeps Bubble Tea v1's package initialization from querying the terminal.
//
// Bubble Tea v1 calls lipgloss.HasDarkBackground in an init function; on a terminal that
// never answers the background-colour query, termenv then waits 5 s before the program's
// main even starts. Go initializes packages in import-path order once their imports are
// ready, and this package's path sorts before github.com/…, so its init runs before
// Bubble Tea's: it sets TERM to "dumb" (for which termenv skips the query). parley's main
// calls Restore first thing, then asks the terminal itself with a short timeout.
//
// It lives in its own module only for its import path; it imports nothing but os.
package termguard

import "os"

var (
	origTerm string
	hadTerm  bool
	active   bool
)

func init() {
	origTerm, hadTerm = os.LookupEnv("TERM")
	if os.Setenv("TERM", "dumb") == nil {
		active = true
	}
}

// Restore puts TERM back as it was and returns it (ok is false when TERM was unset).
// Calling it again is harmless.
func Restore() (term string, ok bool) {
	if active {
		if hadTerm {
			_ = os.Setenv("TERM", origTerm)
		} else {
			_ = os.Unsetenv("TERM")
		}
		active = false
	}
	return origTerm, hadTerm
}
