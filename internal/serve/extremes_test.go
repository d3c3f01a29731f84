package serve

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/parley-tui/parley/internal/views/viewtest"
	"github.com/parley-tui/parley/internal/waitfor"
)

// One session receives numbers at int64's ends (every count of the contacts answers: the
// list's count, conversation_count …) and shows them, or "—" where no count can be; the
// other session keeps working (its keys answered, a thread opened), and the hub keeps
// serving: the first session goes back to work, and a new one connects. An int64 minimum
// reaching the count formatter ended the whole hub, every session with it, with a fatal
// stack overflow that no per-session recover catches (the test binary died with it).
func TestAPoisonedNumberInOneSessionLeavesTheHubServing(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name                 string
		v                    int64
		contacts, oneContact string
	}{
		{"smallest", math.MinInt64, "— · ", "Conversations (—)"},
		{"largest", math.MaxInt64, "9,223,372,036,854,775,807 · ", "Conversations (9,223,372,036,854,775,807)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			api := startAPI(t)
			api.proxy = viewtest.NewProxy(t, api.run.URL)
			api.proxy.Numbers(c.v, func(path, key string) bool {
				return strings.Contains(path, "/contact_identities/") && viewtest.CountKey(key)
			})
			th := startHub(t, api, threeUsers(t, api))
			clara := open(t, th.dial(t, "Clara"), "Clara", 120, 40)
			sam := open(t, th.dial(t, "Sam"), "Sam", 120, 40)
			clara.waitList()
			sam.waitList()

			// Should the test binary die from here on (a fatal error takes no recover and
			// no test report), this line names the test and the cause.
			fmt.Fprintf(os.Stderr, "%s: Sam opens the contacts, whose counts are %d: a fatal error now is that number ending the hub\n", t.Name(), c.v)
			sam.press("2")
			sam.waitScreen("the contacts without the search prompt", func(s string) bool {
				return strings.Contains(s, c.contacts) && !strings.Contains(s, "Search contacts:")
			})
			sam.press("\r") // the first contact
			sam.waitText(c.oneContact)

			clara.press("j")
			clara.waitText("2/")
			clara.press("\r")
			clara.waitText("loaded")
			if n := th.SessionCount(); n != 2 {
				t.Fatalf("%d sessions, want Clara's and Sam's", n)
			}
			sam.press("1")
			sam.waitList()
			vic := open(t, th.dial(t, "Vic"), "Vic", 80, 24)
			vic.waitList()
			waitfor.True(t, "three sessions", func() bool { return th.SessionCount() == 3 })
			if log := th.log.String(); strings.Contains(log, "internal error") {
				t.Errorf("the hub caught an internal error:\n%s", log)
			}
		})
	}
}
