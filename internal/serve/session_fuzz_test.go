package serve

import (
	"slices"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
)

// The environment a session's TUI gets, from any variables an SSH client sends and any
// terminal type in its PTY request: the PTY's TERM and nothing else as TERM, wherever a
// reader looks; only well-formed variables of the client's, in its order, and a bounded
// number of bounded size. The variables come joined by U+001E (a value may hold anything
// else, NUL included).
func FuzzSessionEnv(f *testing.F) {
	for _, s := range [][2]string{
		{"xterm-256color", "LANG=en_US.UTF-8\x1eCOLORTERM=truecolor\x1eCOLORFGBG=15;0"},
		{"xterm-256color", "TERM=dumb\x1eNO_COLOR=1"},
		{"dumb", "TERM=xterm-256color"},
		{"", ""},
		{"xterm\x1b]0;pwned\x07", "=x\x1eNOEQUALS\x1e1X=2\x1eA B=c\x1eTERM\x1eTERM=\x1e\ufeffLANG=C\x1eOK=a\x00b"},
		{strings.Repeat("x", 1<<20), "COLORFGBG=" + strings.Repeat("9", 1<<20)},
		{"tmux-256color", strings.Repeat("A=1\x1e", 1000) + "NO_COLOR=1"},
		{"xterm", "COLORFGBG=9223372036854775807;-9223372036854775808\x1eLINES=NaN\x1eCOLUMNS=-9223372036854775808"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, term, vars string) {
		client := strings.Split(vars, "\x1e")
		env := sessionEnv(client, term)
		if len(env) == 0 || env[len(env)-1] != "TERM="+term {
			t.Fatalf("the environment does not end with the PTY's TERM: %q", env)
		}
		if got := uv.Environ(env).Getenv("TERM"); got != term {
			t.Fatalf("the last TERM is %q, not the PTY's %q", got, term)
		}
		if i := slices.IndexFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "TERM=") }); i != len(env)-1 {
			t.Fatalf("the first TERM is at %d of %d: %q", i, len(env), env[i])
		}
		kept := env[:len(env)-1]
		if len(kept) > maxSessionEnv {
			t.Fatalf("%d variables kept", len(kept))
		}
		j := 0
		for _, kv := range kept {
			name, _, ok := strings.Cut(kv, "=")
			if !ok || !envName(name) || len(kv) > maxSessionEnvVar {
				t.Fatalf("kept %.80q", kv)
			}
			for j < len(client) && client[j] != kv {
				j++
			}
			if j == len(client) {
				t.Fatalf("%.80q is not the client's, or out of its order", kv)
			}
			j++
		}
	})
}
