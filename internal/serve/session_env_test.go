package serve

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/parley-tui/parley/internal/theme"
)

// Over real SSH, the look of a session is decided by the PTY's terminal type and the
// well-formed variables its client sent: a TERM sent as a variable does not count, a
// malformed or oversized variable is dropped, and the rest arrive in order.
func TestASessionsEnvironmentIsThePTYsTerminalAndTheClientsVariables(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen [][]string
	api := startAPI(t)
	th := startHub(t, api, threeUsers(t, api), func(o *Options) {
		o.Look = func(env []string) Look {
			mu.Lock()
			seen = append(seen, slices.Clone(env))
			mu.Unlock()
			return Look{Profile: colorprofile.Env(env), Styles: theme.New(theme.Default(), true, false)}
		}
	})
	clara := open(t, th.dial(t, "Clara"), "Clara", 100, 30,
		"TERM=dumb", "COLORFGBG=0;15", "1BAD=x", "HUGE="+strings.Repeat("x", maxSessionEnvVar), "LANG=C.UTF-8")
	clara.waitList() // the list's header: the session is up
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 {
		t.Fatalf("%d looks asked for one session", len(seen))
	}
	env := seen[0]
	want := []string{"COLORFGBG=0;15", "LANG=C.UTF-8", "TERM=xterm-256color"}
	if !slices.Equal(env, want) {
		t.Fatalf("the session's environment is %.200q, want %q", env, want)
	}
	if !strings.Contains(clara.out.String(), "\x1b[38;") {
		t.Error("the session (xterm-256color, not the dumb TERM its client sent) got no colour")
	}
}
