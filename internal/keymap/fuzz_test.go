package keymap

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// overridesOf reads a fuzz input as config key overrides: one action per line,
// "action=key|key|…" ("action=" alone is an empty list).
func overridesOf(spec string) map[string][]string {
	out := map[string][]string{}
	for _, line := range strings.Split(spec, "\n") {
		action, keys, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if keys == "" {
			out[action] = []string{}
			continue
		}
		out[action] = strings.Split(keys, "|")
	}
	return out
}

// snapshot is every binding's keys and help, to compare key maps.
func snapshot(k *KeyMap) map[string][3]string {
	out := map[string][3]string{}
	for _, a := range Actions() {
		b := k.binding(a)
		out[a] = [3]string{strings.Join(b.Keys(), "\x00"), b.Help().Key, b.Help().Desc}
	}
	return out
}

// User overrides come from the config file: Apply takes a set whole or leaves the key map as
// it was; what it takes binds exactly the keys written, keys a terminal can send, none twice
// where they are live together, and ctrl+c still quits.
func FuzzApply(f *testing.F) {
	for _, s := range []string{
		"down=n|down\nnote=N",
		"search=j",
		"fly=x",
		"quit=ctrl+c",
		"quit= ctrl+c ",
		"quit=",
		"quit=|q",
		"mark=space",
		"mark= ",
		"metric=x\nrange=x",
		"refresh=r|r",
		"help=?|f1\nquit=q|ctrl+q",
		"yes=y\nno=y",
		"export=e\nedit=e",
		"quit=\x1b[2J",
		"quit=\x1b",
		"help=\u009b",
		"quit=q\x00",
		"up=\t",
		"=x",
		"quit=ä|ñ|👩‍💻",
	} {
		f.Add(s)
	}
	defaults := snapshot(Default())
	f.Fuzz(func(t *testing.T, spec string) {
		overrides := overridesOf(spec)
		k := Default()
		err := k.Apply(overrides)
		if err != nil {
			var ae *ApplyError
			if !errors.As(err, &ae) || len(ae.Problems) == 0 {
				t.Fatalf("%q: %v", spec, err)
			}
			for _, p := range ae.Problems {
				if _, ok := overrides[p.Action]; !ok {
					t.Fatalf("%q: a problem for %q, which the overrides do not name", spec, p.Action)
				}
			}
			if got := snapshot(k); !equalSnapshots(got, defaults) {
				t.Fatalf("%q: a refused set changed the key map", spec)
			}
			return
		}
		for a, keys := range overrides {
			var want []string
			for _, kk := range keys {
				kk = strings.TrimSpace(kk)
				want = append(want, kk)
			}
			b := k.binding(a)
			if b == nil || !slices.Equal(b.Keys(), want) || b.Help().Key != HelpKeys(want) || b.Help().Desc != defaults[a][2] {
				t.Fatalf("%q: %s is bound to %q (help %q), want %q", spec, a, b.Keys(), b.Help().Key, want)
			}
		}
		for _, a := range Actions() {
			for _, kk := range k.binding(a).Keys() {
				if kk == "ctrl+c" {
					t.Fatalf("%q: %s took ctrl+c", spec, a)
				}
				if strings.ContainsFunc(kk, func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }) {
					t.Fatalf("%q: %s is bound to %q, which no terminal sends as a key", spec, a, kk)
				}
			}
			if _, ok := overrides[a]; !ok && snapshot(k)[a] != defaults[a] {
				t.Fatalf("%q: %s changed without an override", spec, a)
			}
		}
		if !slices.Equal(k.ForceQuit.Keys(), []string{"ctrl+c"}) {
			t.Fatalf("%q: ctrl+c no longer quits", spec)
		}
		if p := k.conflicts(nil); len(p) > 0 {
			t.Fatalf("%q: accepted with conflicts %+v", spec, p)
		}
	})
}

func equalSnapshots(a, b map[string][3]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
