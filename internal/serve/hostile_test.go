package serve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parley-tui/parley/sanitize"
)

// rawInvisible lists characters that no byte stream to a session's terminal holds: bidi
// controls, zero-width and other format characters, tags, Hangul fillers, line and
// paragraph separators, DEL and the C1 controls the sandbox's hostile text carries. (The
// sandbox has no ZWNJ between letters, so none may arrive at all.)
const rawInvisible = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c" +
	"\u200b\u200c\u200d\u2060\ufeff\u00ad\u115f\u1160\u3164\uffa0\U000E0001\U000E0041\U000E0068\U000E007F" +
	"\u2028\u2029\x7f\u0085\u009b"

// A hub session draws the sandbox's hostile text inert: the contact's name (escape
// sequences, a bidi override, a ZWNJ, tags, Hangul fillers, isolates, a line separator),
// the conversation's messages from the first and its notes reach the agent's terminal
// with none of those characters and none of the escape sequences in the text.
func TestHostileTextReachesASessionInert(t *testing.T) {
	t.Parallel()
	api := startAPI(t)
	th := startHub(t, api, threeUsers(t, api))
	clara := open(t, th.dial(t, "Clara"), "Clara", 200, 50)
	clara.waitList()
	clara.press("/")
	clara.press("mallory\r")
	clara.waitText(fmt.Sprintf("#%d", api.info.HostileConversationID))
	clara.press("\r")
	clara.waitText("Thanks, I'm looking into it.")
	clara.press("g")
	clara.waitText("Hi, my order is broken ␛]0;pwned␇ please help")
	clara.waitText("zerowidthjoinedtext and softhyphen")
	checkScreen(t, clara)

	clara.press("2")
	clara.waitText("time: created") // the contacts list's header
	clara.press("/")
	clara.waitText("enter search")
	clara.press("mallory\r")
	clara.waitText("␛]0;pwned␇Mallory redoc ␛[31mRed␛[0m�2J 👩💻")
	checkScreen(t, clara)
	// The detail's sections are in before G: G pressed while they load goes to the end of
	// what is there, and the notes arriving after it land below the screen.
	clara.waitText("Conversations (1)")
	clara.waitText("Notes (6)")
	clara.press("\tG") // the notes, to their end
	clara.waitText("Customer pasted ␛]0;pwned␇ into the form")
	clara.waitText("Note with bidi gnirts desrever and ZWJ ab isolate")
	checkScreen(t, clara)

	raw := clara.out.String()
	if i := strings.IndexAny(raw, rawInvisible); i >= 0 {
		t.Fatalf("a raw %U reached the terminal: %q", []rune(raw[i:])[0], raw[max(0, i-60):min(len(raw), i+60)])
	}
	for _, seq := range []string{"\x1b]0;pwned", "\x1b]52;", "\x1b]8;;https://evil", "\x1b[2J\x1b[HThe screen", "\x1bP1$r"} {
		if strings.Contains(raw, seq) {
			t.Fatalf("the hostile sequence %q reached the terminal", seq)
		}
	}
}

// checkScreen fails when what the terminal shows holds a character the sanitizer removes.
func checkScreen(t *testing.T, term *terminal) {
	t.Helper()
	s := term.screen()
	if r, at, ok := sanitize.Leak(s); ok {
		t.Fatalf("%s's terminal shows a raw %U at byte %d:\n%s", term.name, r, at, s)
	}
}
