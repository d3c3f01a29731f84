package prompt_test

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/prompt"
	"github.com/parley-tui/parley/views/viewtest"
)

type submitted string

func typeKeys(m common.Modal, keys ...tea.KeyMsg) common.Modal {
	for _, k := range keys {
		m, _ = m.Update(k)
	}
	return m
}

// runes is the press of the one key s.
func runes(s string) tea.KeyPressMsg { return viewtest.Key(s) }

// The contacts screen opens its search prompt by itself; a user who presses "/" out of
// habit must not search for "/berlin". Once text is typed, "/" is text like any other.
func TestSearchKeyIgnoredWhileEmpty(t *testing.T) {
	ctx := viewtest.Ctx(nil)
	p := prompt.New(ctx, "Search:", "", func(s string) tea.Msg { return submitted(s) })
	typeKeys(p, runes("/"), runes("b"), runes("e"), runes("/"), runes("x"))
	if got := p.Value(); got != "be/x" {
		t.Fatalf("value = %q, want %q", got, "be/x")
	}
}

func TestEnterSubmitsTypedText(t *testing.T) {
	ctx := viewtest.Ctx(nil)
	p := prompt.New(ctx, "Search:", "old", func(s string) tea.Msg { return submitted(s) })
	for _, r := range " new" {
		p.Update(runes(string(r)))
	}
	_, cmd := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	got := viewtest.Run(cmd, time.Second)
	found := false
	for _, msg := range got {
		if s, ok := msg.(submitted); ok {
			found = true
			if s != "old new" {
				t.Fatalf("submitted %q, want %q", s, "old new")
			}
		}
	}
	if !found {
		t.Fatalf("enter submitted nothing: %v", got)
	}
}
