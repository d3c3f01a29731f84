package common

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/parley-tui/parley/internal/keymap"
)

// The contracts between the root (package ui) and what it shows: a Screen (one a tab) and a
// Modal (on the modal stack over the screen). Everything else the root asks of them is
// optional, and every optional interface is declared in this file:
//
// A Screen may also be a
//   - Resizer: it has work to do after a resize while it is shown (load what a pane the new
//     layout shows needs);
//   - BackUser: it says whether esc has something of its own to do now; after a jump to it,
//     esc goes back only when it does not (a screen that is no BackUser keeps esc);
//   - Lander: it is told that a jump just delivered its SwitchScreenMsg.Then;
//   - Placer: it names where the user stands on it ("esc: back to Jane Roe"; else the
//     screen's name);
//   - Chooser: it offers the palette rows of its own (its saved views);
//   - ViewHolder: the state file keeps its active saved view;
//   - OrgScoped: what it shows may come from other organizations than the one parley works
//     in; the status bar names them;
//   - Arriving: it counts the arrivals not opened yet; the tab bar and the terminal's title
//     show the counts.
//
// A Modal may also be
//   - Cursored: an inline modal showing the terminal's cursor where text goes;
//   - Unsaved: it holds typed text that quitting would lose (quitting asks first);
//   - Submitter: an edit form; ctrl+p over it picks another operator to send it as, unless
//     it is sending.
//
// What the root knows of a screen without asking it (its name, number key, request family,
// whether it auto-refreshes) is its row in the root's screen registry (internal/ui/screens.go).

// Screen is a top-level screen (conversations, contacts, …). A screen embeds Base and
// writes the four methods only it can: Update (returning itself, so the root can assign
// it back), View (exactly the size given to SetSize), SetSize and Where. It receives keys
// only while it is shown and no modal is open, and every other message always.
type Screen interface {
	Update(tea.Msg) (Screen, tea.Cmd)
	View() string
	SetSize(w, h int)
	// Where is the place the user is in (the focused pane): help, the footer and the
	// palette list the key table's actions of that place (keymap.KeyMap.Sections, Footer).
	Where() keymap.Where

	// Init starts the screen when the program starts, shown or not (Base: nothing; a
	// screen that loads when first shown does so in Focus).
	Init() tea.Cmd
	// Focus is called when the screen is shown (Base: nothing).
	Focus() tea.Cmd
	// Blur is called when another screen is shown (Base: nothing).
	Blur()
}

// Base gives a Screen the lifecycle it has no use for: Init, Focus and Blur that do
// nothing. Embed it and write the ones the screen needs.
type Base struct{}

// Init does nothing.
func (Base) Init() tea.Cmd { return nil }

// Focus does nothing.
func (Base) Focus() tea.Cmd { return nil }

// Blur does nothing.
func (Base) Blur() {}

// Resizer is a Screen with work to do after the terminal was resized while it is shown,
// such as loading what a pane the new layout shows needs. Resized runs after SetSize.
type Resizer interface {
	Resized() tea.Cmd
}

// BackUser is a Screen that says whether esc has something of its own to do now (clear a
// search or the marks, move the focus back to its list). After a jump to the screen
// (SwitchScreenMsg with Then) the root takes esc to go back where the jump came from only
// when UsesBack is false; a screen that is no BackUser keeps esc for itself.
type BackUser interface {
	UsesBack() bool
}

// Lander is a Screen told that a jump just delivered its Then: until the user moves on
// from where the jump left it (another pane), esc there has nothing of the screen's own
// to do (UsesBack is false), so it goes back.
type Lander interface {
	Landed()
}

// Placer is a Screen that names where the user stands on it (the open contact's name),
// for the root's "esc: back to …" after a jump from it; "" names the screen.
type Placer interface {
	Place() string
}

// Choice is one thing a screen offers the command palette beyond its key bindings: a saved
// view to switch to, for example. The palette shows Group and Title (and Hint, such as the
// view's count, when known) and, when chosen, delivers Msg to the screen that offered it.
type Choice struct {
	Group string
	Title string
	Hint  string
	Msg   tea.Msg
}

// Chooser is a Screen that offers the palette choices of its own.
type Chooser interface {
	Choices() []Choice
}

// ViewHolder is a Screen with saved views: the state file keeps the active one by name,
// and the next start restores it (before the first Init).
type ViewHolder interface {
	ActiveView() string
	RestoreView(name string)
}

// OrgScoped is a Screen whose data may cover other organizations than the one parley works
// in (the analytics screen): its organization filter (nil: none) and the organizations of
// the data it shows. The status bar names them instead of the organization worked in.
type OrgScoped interface {
	Organizations() (filter, seen []int64)
}

// Modal is an overlay on the modal stack: it sees every key first while it is on top.
// It opens with Ctx.OpenModal and closes with Ctx.CloseModal (or the OpenModal and
// CloseModal commands, from a command's result).
type Modal interface {
	Init() tea.Cmd
	Update(tea.Msg) (Modal, tea.Cmd)
	View() string
	// SetSize gives the area the modal may use (it centers itself within).
	SetSize(w, h int)
	// Inline modals render in the bottom line instead of a centered box.
	Inline() bool
	// ShortHelp lists the modal's own few keys, from the key map's bindings.
	ShortHelp() []key.Binding
}

// Cursored is an inline modal that shows the terminal's own cursor (tea.Cursor) where text
// goes: Cursor is its position in the modal's line (nil: hidden). The terminal draws and
// blinks it, so a modal waiting for text sends nothing.
type Cursored interface {
	Cursor() *tea.Cursor
}

// Unsaved is a Modal that holds what the user typed and has not saved (a note, a form
// with changed fields): Unsaved names it ("the note"), or is "" when there is nothing to
// lose. Quitting with one open asks first.
type Unsaved interface {
	Unsaved() string
}

// Submitter is a Modal that sends an edit (a form). A refused edit ("You lack permission:
// …") can be sent again as another operator without losing what was typed: the act-as key
// opens the operator picker over it while it is not Submitting, and the form, which reads
// the client when it submits, keeps its input underneath.
type Submitter interface {
	Submitting() bool
}

// Arriving is a Screen that counts the arrivals (common.Arrival) the user has not opened
// yet: the tab bar shows All beside its title, the terminal's title New and Mine.
type Arriving interface {
	Unseen() Unseen
}
