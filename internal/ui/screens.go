package ui

import (
	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/screens/analytics"
	"github.com/parley-tui/parley/internal/views/screens/contacts"
	"github.com/parley-tui/parley/internal/views/screens/conversations"
	"github.com/parley-tui/parley/internal/views/screens/navigation"
	"github.com/parley-tui/parley/internal/views/screens/operators"
)

// screenSpec is one screen as the root knows it without asking the screen: ui.New builds
// the screens from these rows, and the tab bar, the number keys, the palette's screen
// rows, help's title, the state file and auto-refresh read them.
type screenSpec struct {
	id common.ScreenID
	// name names the screen in the state file and in running text ("esc: back to
	// contacts"); its number key is the key table's action of that name
	// (internal/keymap/table.go), with its default and its config file override.
	name string
	// title names it in the tab bar, the palette and help.
	title string
	build func(*common.Ctx) common.Screen
	// family is the request family the screen draws on; with auto, the root's timer (the
	// only auto-refresh) asks it for one refresh, one request of that family, at the pace
	// the family's use today allows. A screen without auto refreshes on its refresh key
	// only, and no tick is armed while it is shown.
	family client.Family
	auto   bool
}

// screenSpecs are the screens, in tab order (common.ScreenID's).
func screenSpecs() []screenSpec {
	return []screenSpec{
		{id: common.ScreenConversations, name: "conversations", title: "Conversations", build: screen(conversations.New),
			family: client.FamilyConversations, auto: true},
		// Contacts have no "changed since" filter: an auto-refresh would read whole pages.
		{id: common.ScreenContacts, name: "contacts", title: "Contacts", build: screen(contacts.New),
			family: client.FamilyContacts},
		// One refresh reads the list (away and online for everyone); the slots of the
		// operators in view come along every common.SlotsFactor refreshes.
		{id: common.ScreenOperators, name: "operators", title: "Operators", build: screen(operators.New),
			family: client.FamilyOperators, auto: true},
		// Every analytics request counts against a limit of 10 a minute, in a family of its
		// metric's.
		{id: common.ScreenAnalytics, name: "analytics", title: "Analytics", build: screen(analytics.New),
			family: client.FamilyOther},
		{id: common.ScreenNavigation, name: "navigation", title: "Navigation", build: screen(navigation.New),
			family: client.FamilyNavigation, auto: true},
	}
}

// screen is a screen package's New as a registry row's constructor.
func screen[S common.Screen](build func(*common.Ctx) S) func(*common.Ctx) common.Screen {
	return func(c *common.Ctx) common.Screen { return build(c) }
}
