package common

import tea "charm.land/bubbletea/v2"

// Router routes messages between the screens and the modal stack. The root (ui.App) routes
// with one, and so does the stand-in root of the screens' tests (viewtest.Host), so those
// tests run the routing the program runs:
//   - a key press or a paste goes to Hooks.First, then to the top modal when one is open,
//     else to Hooks.Global, then to the shown screen; the first that takes it ends its way;
//   - OpenModalMsg and CloseModalMsg (a command's result) open and close a modal;
//   - a WindowSizeMsg sizes every screen and modal, and the shown screen's Resized runs;
//   - every other message goes to every modal, then to every screen: each drops what is not
//     its own;
//   - after every message its owner calls Settle, which applies the modal changes asked for
//     through the context (Ctx.OpenModal, CloseModal) during it, so that the keys after the
//     one that opened a modal go to that modal.
type Router struct {
	Ctx     *Ctx
	Screens []Screen
	Active  int // the shown screen's index in Screens
	Modals  []Modal
	// Width and Height are the screens' area: a screen gets all of it, a centered modal it
	// less a margin, an inline modal its width and one line.
	Width, Height int
	Hooks         KeyHooks
}

// KeyHooks are where a Router's owner takes keys before the router hands them on. Each
// returns true to keep the key (with the command to run).
type KeyHooks struct {
	// First sees every key and paste before anything else (ctrl+c quits from anywhere).
	First func(tea.Msg) (tea.Cmd, bool)
	// Global sees what no modal took, before the shown screen (the root's global keys).
	Global func(tea.Msg) (tea.Cmd, bool)
}

// Screen is the shown screen.
func (r *Router) Screen() Screen { return r.Screens[r.Active] }

// Top is the top modal, or nil.
func (r *Router) Top() Modal {
	if len(r.Modals) == 0 {
		return nil
	}
	return r.Modals[len(r.Modals)-1]
}

// Route delivers msg as the Router's comment says. The owner calls Settle after it.
func (r *Router) Route(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		return r.Key(msg)
	case tea.WindowSizeMsg:
		r.Resize(msg.Width, msg.Height)
		return r.Resized()
	case OpenModalMsg:
		return r.Ctx.OpenModal(msg.Modal)
	case CloseModalMsg:
		if n := len(r.Modals); n > 0 {
			r.Modals = r.Modals[:n-1]
		}
		return nil
	}
	return r.Broadcast(msg)
}

// Key hands a key press or a paste on: to Hooks.First, the top modal, Hooks.Global or the
// shown screen, whichever takes it first.
func (r *Router) Key(msg tea.Msg) tea.Cmd {
	if c, ok := take(r.Hooks.First, msg); ok {
		return c
	}
	if len(r.Modals) > 0 {
		return r.ToTop(msg)
	}
	if c, ok := take(r.Hooks.Global, msg); ok {
		return c
	}
	return r.ToScreen(r.Active, msg)
}

func take(hook func(tea.Msg) (tea.Cmd, bool), msg tea.Msg) (tea.Cmd, bool) {
	if hook == nil {
		return nil, false
	}
	return hook(msg)
}

// Broadcast sends msg to every modal, then to every screen.
func (r *Router) Broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(r.Modals)+len(r.Screens))
	for i, m := range r.Modals {
		var c tea.Cmd
		r.Modals[i], c = m.Update(msg)
		cmds = append(cmds, c)
	}
	for i := range r.Screens {
		cmds = append(cmds, r.ToScreen(i, msg))
	}
	return tea.Batch(cmds...)
}

// ToTop sends msg to the top modal (there must be one).
func (r *Router) ToTop(msg tea.Msg) tea.Cmd {
	n := len(r.Modals)
	var c tea.Cmd
	r.Modals[n-1], c = r.Modals[n-1].Update(msg)
	return c
}

// ToScreen sends msg to the screen at index i.
func (r *Router) ToScreen(i int, msg tea.Msg) tea.Cmd {
	var c tea.Cmd
	r.Screens[i], c = r.Screens[i].Update(msg)
	return c
}

// Resize gives the screens the area w×h and sizes the modals within it.
func (r *Router) Resize(w, h int) {
	r.Width, r.Height = w, h
	for _, s := range r.Screens {
		s.SetSize(w, h)
	}
	for _, m := range r.Modals {
		r.sizeModal(m)
	}
}

// Resized runs the shown screen's work after a resize (Resizer).
func (r *Router) Resized() tea.Cmd {
	if s, ok := r.Screen().(Resizer); ok {
		return s.Resized()
	}
	return nil
}

// sizeModal gives a modal its room: the bottom line for an inline one, the screens' area
// less a margin for a box.
func (r *Router) sizeModal(m Modal) {
	if m.Inline() {
		m.SetSize(r.Width, 1)
		return
	}
	m.SetSize(max(20, r.Width-4), max(6, r.Height-2))
}

// Settle applies the modal changes asked for through the context since the last Settle:
// the closing modals leave the stack, then the opening ones go on top, sized. A closing
// modal that is not on the stack was wrapped in another (the note form around a form) and
// closes the top one, its wrapper. It returns the opened modals' Init commands.
func (r *Router) Settle() tea.Cmd {
	closing, opening := r.Ctx.TakeModalChanges()
	for _, m := range closing {
		found := false
		for i := len(r.Modals) - 1; i >= 0; i-- {
			if r.Modals[i] == m {
				r.Modals = append(r.Modals[:i], r.Modals[i+1:]...)
				found = true
				break
			}
		}
		if !found && len(r.Modals) > 0 {
			r.Modals = r.Modals[:len(r.Modals)-1]
		}
	}
	inits := make([]tea.Cmd, 0, len(opening))
	for _, m := range opening {
		r.Modals = append(r.Modals, m)
		r.sizeModal(m)
		inits = append(inits, m.Init())
	}
	return tea.Batch(inits...)
}
