package prompt_test

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/prompt"
	"github.com/parley-tui/parley/internal/views/viewtest"
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

// A user who presses "/" twice out of habit must not search for "/berlin". Once text is typed, "/" is text like any other.
func TestSearchKeyIgnoredWhileEmpty(t *testing.T) {
	ctx := viewtest.Ctx(nil)
	p := prompt.New(ctx, "Search:", "", func(s string) tea.Msg { return submitted(s) })
	typeKeys(p, runes("/"), runes("b"), runes("e"), runes("/"), runes("x"))
	if got := p.Value(); got != "be/x" {
		t.Fatalf("value = %q, want %q", got, "be/x")
	}
}

// submits presses enter in p and returns what it submitted.
func submits(t *testing.T, p *prompt.Model) string {
	t.Helper()
	_, cmd := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	for _, msg := range viewtest.Run(cmd, time.Second) {
		if s, ok := msg.(submitted); ok {
			return string(s)
		}
	}
	t.Fatal("enter submitted nothing")
	return ""
}

// TestReopenedSearchSelectsTheQuery: a prompt opened with the search in force shows it
// selected: typing replaces it ("zorblax", then "Mallory" searches Mallory), a paste
// replaces it, backspace clears it, and a move key keeps it to edit.
func TestReopenedSearchSelectsTheQuery(t *testing.T) {
	ctx := viewtest.Ctx(nil)
	open := func() *prompt.Model {
		return prompt.New(ctx, "Search:", "zorblax", func(s string) tea.Msg { return submitted(s) })
	}
	p := open()
	for _, r := range "Mallory" {
		p.Update(runes(string(r)))
	}
	if got := submits(t, p); got != "Mallory" {
		t.Fatalf("typing over the reopened query searched %q, want Mallory", got)
	}
	p = open()
	p.Update(tea.PasteMsg{Content: "Anna"})
	if got := submits(t, p); got != "Anna" {
		t.Fatalf("a paste over the reopened query searched %q, want Anna", got)
	}
	p = open()
	p.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
	if got := p.Value(); got != "" {
		t.Fatalf("backspace left %q, want the query cleared", got)
	}
	p = open()
	p.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	p.Update(runes("s"))
	if got := submits(t, p); got != "zorblaxs" {
		t.Fatalf("end then s searched %q, want zorblaxs", got)
	}
}

func TestEnterSubmitsTypedText(t *testing.T) {
	ctx := viewtest.Ctx(nil)
	p := prompt.New(ctx, "Search:", "old", func(s string) tea.Msg { return submitted(s) })
	p.Update(tea.KeyPressMsg{Code: tea.KeyEnd}) // keep the text it opened with
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
