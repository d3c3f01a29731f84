package viewtest

import (
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/keymap"
	"github.com/parley-tui/parley/internal/views/common"
)

// fakeModal records the keys it gets; "c" closes it through the context (or, with viaMsg,
// through a CloseModalMsg command).
type fakeModal struct {
	ctx        *common.Ctx
	inline     bool
	viaMsg     bool
	keys       string
	w, h       int
	closeAsked common.Modal // what "c" asks to close (nil: itself)
}

func (m *fakeModal) Init() tea.Cmd { return nil }
func (m *fakeModal) Update(msg tea.Msg) (common.Modal, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		m.keys += k.String()
		if k.String() == "c" {
			target := m.closeAsked
			if target == nil {
				target = m
			}
			if m.viaMsg {
				return m, common.CloseModal()
			}
			return m, m.ctx.CloseModal(target)
		}
	}
	return m, nil
}
func (m *fakeModal) View() string             { return "modal" }
func (m *fakeModal) SetSize(w, h int)         { m.w, m.h = w, h }
func (m *fakeModal) Inline() bool             { return m.inline }
func (m *fakeModal) ShortHelp() []key.Binding { return nil }

// fakeScreen opens its modal through the context on "o" (or, with viaMsg, through an
// OpenModalMsg command).
type fakeScreen struct {
	common.Base
	ctx    *common.Ctx
	modal  common.Modal
	viaMsg bool
	keys   string
}

func (s *fakeScreen) Update(msg tea.Msg) (common.Screen, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		s.keys += k.String()
		if k.String() == "o" {
			if s.viaMsg {
				return s, common.OpenModal(s.modal)
			}
			return s, s.ctx.OpenModal(s.modal)
		}
	}
	return s, nil
}
func (s *fakeScreen) View() string        { return "screen" }
func (s *fakeScreen) SetSize(int, int)    {}
func (s *fakeScreen) Where() keymap.Where { return keymap.InConvList }

// deliver sends msg to h and then the messages its command leads to.
func deliver(h *Host, msg tea.Msg) {
	_, cmd := h.Update(msg)
	for _, m := range Run(cmd, wait) {
		deliver(h, m)
	}
}

const wait = 5 * time.Second

func TestHostRoutesModalsBothWays(t *testing.T) {
	for _, async := range []bool{false, true} {
		ctx := &common.Ctx{}
		m := &fakeModal{ctx: ctx, viaMsg: async}
		s := &fakeScreen{ctx: ctx, modal: m, viaMsg: async}
		h := NewHost(ctx, s)
		deliver(h, tea.WindowSizeMsg{Width: 100, Height: 30})
		deliver(h, Key("o"))
		if h.Top() != m || m.w != 96 || m.h != 28 || h.Opens != 1 {
			t.Fatalf("async %v: o did not open the modal at the root's size: top %v, %d×%d", async, h.Top(), m.w, m.h)
		}
		deliver(h, Key("x"))
		if m.keys != "x" || s.keys != "o" {
			t.Fatalf("async %v: keys went to the screen %q and the modal %q", async, s.keys, m.keys)
		}
		if got := h.Count("tea.KeyPressMsg"); got != 2 {
			t.Fatalf("async %v: counted %d keys", async, got)
		}
		deliver(h, Key("c"))
		if h.Top() != nil {
			t.Fatalf("async %v: c did not close the modal", async)
		}
		deliver(h, Key("y"))
		if s.keys != "oy" {
			t.Fatalf("async %v: after closing, the screen got %q", async, s.keys)
		}
	}
}

func TestHostClosesTheWrapperOfAWrappedModal(t *testing.T) {
	ctx := &common.Ctx{}
	inner := &fakeModal{ctx: ctx}
	wrapper := &fakeModal{ctx: ctx, inline: true, closeAsked: inner}
	h := NewHost(ctx, &fakeScreen{ctx: ctx, modal: wrapper})
	deliver(h, tea.WindowSizeMsg{Width: 100, Height: 30})
	deliver(h, Key("o"))
	if h.Top() != wrapper || wrapper.w != 100 || wrapper.h != 1 {
		t.Fatalf("the inline modal is not open in the bottom line: %d×%d", wrapper.w, wrapper.h)
	}
	deliver(h, Key("c"))
	if len(h.Modals()) != 0 {
		t.Fatalf("closing the wrapped modal left %d open", len(h.Modals()))
	}
}
