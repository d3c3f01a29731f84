package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/keymap"
	"github.com/parley-tui/parley/views/analytics"
	"github.com/parley-tui/parley/views/common"
	"github.com/parley-tui/parley/views/contacts"
	"github.com/parley-tui/parley/views/conversations"
	"github.com/parley-tui/parley/views/navigation"
	"github.com/parley-tui/parley/views/operators"
)

// screenSpec is one screen as the root knows it without asking the screen: ui.New builds
// the screens from these rows, and the tab bar, the palette's screen rows, the state
// file's screen names, the number keys and auto-refresh read them.
type screenSpec struct {
	id common.ScreenID
	// name is the screen's name in the tab bar, the palette and help ("Conversations");
	// in lower case it names the screen in the state file and in "esc: back to …".
	name string
	// key is the screen's number key: its action in the key table (keymap/table.go), which
	// declares it with its default and the config file's name.
	key   func(*keymap.KeyMap) key.Binding
	build func(*common.Ctx) common.Screen
	// family is the request family the screen draws on; with auto, the root's timer (the
	// only auto-refresh) asks it for one refresh, one request of that family, at the pace
	// the family's use today allows. A screen without auto refreshes on its refresh key
	// only, and no tick is armed while it is shown.
	family client.Family
	auto   bool
}

// screenSpecs are the screens, in tab order.
func screenSpecs() []screenSpec {
	return []screenSpec{
		{id: common.ScreenConversations, name: "Conversations", family: client.FamilyConversations, auto: true,
			key:   func(k *keymap.KeyMap) key.Binding { return k.Conversations },
			build: func(c *common.Ctx) common.Screen { return conversations.New(c) }},
		// Contacts have no "changed since" filter: an auto-refresh would read whole pages.
		{id: common.ScreenContacts, name: "Contacts", family: client.FamilyContacts,
			key:   func(k *keymap.KeyMap) key.Binding { return k.Contacts },
			build: func(c *common.Ctx) common.Screen { return contacts.New(c) }},
		// The list, away and online for everyone; the slots of the operators in view come
		// along every common.SlotsFactor refreshes (the screen paces them).
		{id: common.ScreenOperators, name: "Operators", family: client.FamilyOperators, auto: true,
			key:   func(k *keymap.KeyMap) key.Binding { return k.Operators },
			build: func(c *common.Ctx) common.Screen { return operators.New(c) }},
		// Every analytics request counts against a limit of 10 a minute, in a family of
		// its metric's.
		{id: common.ScreenAnalytics, name: "Analytics", family: client.FamilyOther,
			key:   func(k *keymap.KeyMap) key.Binding { return k.Analytics },
			build: func(c *common.Ctx) common.Screen { return analytics.New(c) }},
		{id: common.ScreenNavigation, name: "Navigation", family: client.FamilyNavigation, auto: true,
			key:   func(k *keymap.KeyMap) key.Binding { return k.Navigation },
			build: func(c *common.Ctx) common.Screen { return navigation.New(c) }},
	}
}

// lower is the screen's name in lower case: its name in the state file ("conversations")
// and in running text.
func (s screenSpec) lower() string { return strings.ToLower(s.name) }
