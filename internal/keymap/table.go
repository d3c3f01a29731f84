package keymap

// Where is a set of places where keys apply: the panes of the screens, and the two kinds
// of modal whose keys are checked against each other (confirmations and forms). A screen
// says where the user is with one of them (common.Screen.Where): help, the footer and the
// palette list the actions of that place.
type Where uint32

// The places.
const (
	InConvList      Where = 1 << iota // the conversations list
	InThread                          // a conversation's messages
	InConvDetail                      // a conversation's detail
	InContactList                     // the contacts list
	InContactDetail                   // a contact's detail (its conversations and notes)
	InOperators                       // the operators screen
	InNavigation                      // the navigation screen
	InAnalytics                       // the analytics screen (chart, table and breakdown)
	InConfirm                         // a confirmation (delete and other irreversible actions)
	InForm                            // a form, its selects and multi-selects included

	InConversations = InConvList | InThread | InConvDetail
	InContacts      = InContactList | InContactDetail
	InLists         = InConversations | InContacts | InOperators | InNavigation // the list screens
	InScreens       = InLists | InAnalytics
)

// clashScopes are the sets of places whose keys are live at the same time, as Apply checks
// them: a key may serve only one action of a scope. where names the scope in messages.
var clashScopes = []struct {
	where string
	in    Where
}{
	{"on the list screens", InLists},
	{"on the analytics screen", InAnalytics},
	{"in confirmations", InConfirm},
	{"in forms", InForm},
}

// Caps are what a session may do, as bits. An entry of the table says what it needs; a
// session lacking one of them is not offered the action (KeyMap.Deny, KeyMap.Allows).
type Caps uint8

// The capabilities.
const (
	// CanWrite: change something (edits, deletes, the row marks that serve bulk deletes,
	// an export's file). A viewer of the hub and `parley --readonly` lack it.
	CanWrite Caps = 1 << iota
	// CanActAs: choose the operator writes go as. A hub agent lacks it.
	CanActAs
	// CanPickOrg: switch organizations. Every hub session lacks it.
	CanPickOrg
	// CanManageOperators: change operators (edit one, delete one). A hub agent lacks it
	// (an agent sets only their own away status: a rule on the row, not on the key).
	CanManageOperators
	// CanSaveFiles: write files on the machine parley runs on (an export, a transcript).
	// A session of the team hub lacks it: that machine is the hub's, not the agent's.
	CanSaveFiles
)

// Group is what an action is about; help lists the actions of a place by group.
type Group uint8

// The groups. Help puts the group of the place's most used footer key first.
const (
	GroupMove         Group = iota // moving in a list or pane
	GroupAct                       // open, back, search, filter, order, mark, delete, copy…
	GroupEdit                      // topics, notes, contact and operator edits
	GroupConversation              // the conversation actions (one PATCH each)
	GroupPane                      // panes and the next/previous conversation
	GroupView                      // saved views
	GroupAnalytics                 // the analytics screen's own
	GroupGlobal                    // help, palette, screens, context pickers, quit
	GroupConfirm                   // yes/no
	GroupForm                      // submit
)

// Spec declares one action: its name in the config file, its default keys, where it
// applies, its words, its rank in the footer and what a session needs to use it. The
// KeyMap field bound to it is its name in Go spelling (next_pane: NextPane, copy_id:
// CopyID).
type Spec struct {
	Name  string   // the config's `keys:` name
	Keys  []string // the default keys
	Help  string   // what help, the palette and the footer say
	Short string   // the footer's words, when shorter than Help
	Doc   string   // more about it, for the key table of docs/keys.md
	In    Where    // where it applies
	Foot  Where    // where the footer names it (within In)
	Prio  int      // its rank in the footer and in its help group: lower first (most used)
	Group Group
	Needs Caps // what a session needs to use it anywhere
	// Pin: the footer always shows it, at the end (help, palette, quit).
	Pin bool
	// FootKeys is how many of its keys the footer names (0: all): "g top", not
	// "g/home top", leaves room for the next hint at 80 columns.
	FootKeys int
	// Pair: the footer shows it with the named action in one hint ("J/K next/prev").
	Pair string
	// Fixed: it cannot be rebound (ctrl+c always quits).
	Fixed bool
	// Local are its own words or needs in some places.
	Local []Local
}

// Local is what an action says, or needs besides its Needs, in some places.
type Local struct {
	In    Where
	Help  string // "" keeps the action's
	Needs Caps
}

// conversationAction is one of the conversation actions (one PATCH each): an edit, live in
// every pane of the conversations screen.
func conversationAction(name, k, help, doc string, prio int) Spec {
	return Spec{Name: name, Keys: []string{k}, Help: help, Doc: doc, In: InConversations, Prio: prio, Group: GroupConversation, Needs: CanWrite}
}

// moves are the places with something to move in.
const moves = InScreens | InForm

// table is every action, in the order of the key table of docs/keys.md.
var table = []Spec{
	{Name: "quit", Keys: []string{"q"}, Help: "quit", In: InScreens, Prio: 930, Group: GroupGlobal, Pin: true},
	{Name: "force_quit", Keys: []string{"ctrl+c"}, Help: "quit now", Doc: "always quits, from anywhere; cannot be rebound",
		In: InScreens, Prio: 931, Group: GroupGlobal, Fixed: true},
	{Name: "help", Keys: []string{"?"}, Help: "help", Doc: "the keys valid where you are; type to filter, `enter` runs the key under the cursor",
		In: InScreens, Prio: 900, Group: GroupGlobal, Pin: true},
	{Name: "back", Keys: []string{"esc"}, Help: "back/close", Short: "back",
		Doc: "back, close; in the list: clear marks, then search, then filters; never quits",
		In:  InScreens | InConfirm | InForm, Foot: InThread | InConvDetail, Prio: 50, Group: GroupAct},
	{Name: "conversations", Keys: []string{"1"}, Help: "conversations", Doc: "the conversations screen", In: InScreens, Prio: 910, Group: GroupGlobal},
	{Name: "contacts", Keys: []string{"2"}, Help: "contacts", Doc: "the contacts screen", In: InScreens, Prio: 911, Group: GroupGlobal},
	{Name: "operators", Keys: []string{"3"}, Help: "operators", Doc: "the operators screen", In: InScreens, Prio: 912, Group: GroupGlobal},
	{Name: "analytics", Keys: []string{"4"}, Help: "analytics", Doc: "the analytics screen", In: InScreens, Prio: 913, Group: GroupGlobal},
	{Name: "navigation", Keys: []string{"5"}, Help: "navigation", Doc: "the navigation screen", In: InScreens, Prio: 914, Group: GroupGlobal},
	{Name: "next_pane", Keys: []string{"tab"}, Help: "next pane", In: InConversations | InContacts | InAnalytics,
		Foot: InConversations | InContacts | InAnalytics, Prio: 180, Group: GroupPane, Local: []Local{{In: InAnalytics, Help: "chart/table"}}},
	{Name: "prev_pane", Keys: []string{"shift+tab"}, Help: "previous pane", In: InConversations | InContacts | InAnalytics,
		Prio: 181, Group: GroupPane, Local: []Local{{In: InAnalytics, Help: "chart/table"}}},
	{Name: "toggle_detail", Keys: []string{"p"}, Help: "toggle detail", Doc: "the detail pane", In: InLists, Foot: InLists, Prio: 190, Group: GroupPane},
	{Name: "refresh", Keys: []string{"r"}, Help: "refresh", Doc: "reload what is shown, bypassing the cache", In: InScreens,
		Foot: InOperators | InNavigation, Prio: 200, Group: GroupAct, Local: []Local{{In: InAnalytics, Help: "run again (no cache)"}}},
	{Name: "pick_org", Keys: []string{"ctrl+o"}, Help: "organization", Doc: "pick the organization", In: InScreens, Prio: 920,
		Group: GroupGlobal, Needs: CanPickOrg},
	{Name: "act_as", Keys: []string{"ctrl+p"}, Help: "act as operator", Doc: "act as another operator", In: InScreens | InForm, Prio: 921,
		Group: GroupGlobal, Needs: CanWrite | CanActAs},
	{Name: "mute_alerts", Keys: []string{"M"}, Help: "mute alerts", Doc: "silences the bell and desktop notifications of arrivals for a while (the `alerts:` setting `mute`, 30 minutes by default); again: sound again. The title and the counts keep counting (see [Arrivals and alerts](#arrivals-and-alerts))",
		In: InScreens, Prio: 925, Group: GroupGlobal},
	{Name: "palette", Keys: []string{":", "ctrl+k"}, Help: "command palette", Short: "palette", Doc: "see [Command palette](#command-palette)",
		In: InScreens, Prio: 901, Group: GroupGlobal, Pin: true, FootKeys: 1},

	{Name: "up", Keys: []string{"k", "up"}, Help: "up", In: moves, Foot: InLists, Prio: 61, Group: GroupMove},
	{Name: "down", Keys: []string{"j", "down"}, Help: "down", In: moves, Foot: InLists, Prio: 60, Group: GroupMove},
	{Name: "top", Keys: []string{"g", "home"}, Help: "top", Doc: "in a thread, the first message, with one request whatever the thread's length",
		In: moves, Foot: InThread, Prio: 10, Group: GroupMove, FootKeys: 1},
	{Name: "bottom", Keys: []string{"G", "end"}, Help: "bottom", Doc: "in the conversations, contacts and navigation lists the last row of the whole list, not of the rows loaded. `G` asks for the last page by its offset (one request) instead of every page before it; the rows in between show as `⋯` and load a page at a time, from either end, as the cursor comes within a screen of them. An offset list's count past 10,000 cannot be reached that way: there `G` goes to the last row loaded, and browsing by id goes on past it as before",
		In: moves, Foot: InThread, Prio: 170, Group: GroupMove, FootKeys: 1},
	{Name: "page_down", Keys: []string{"ctrl+d", "pgdown"}, Help: "page down", In: moves, Foot: InThread, Prio: 160, Group: GroupMove},
	{Name: "page_up", Keys: []string{"ctrl+u", "pgup"}, Help: "page up", In: moves, Foot: InThread, Prio: 161, Group: GroupMove},
	{Name: "open", Keys: []string{"enter"}, Help: "open", In: InConvList | InContacts | InOperators | InNavigation | InAnalytics,
		Foot: InConvList | InContacts | InOperators | InNavigation, Prio: 70, Group: GroupAct,
		Local: []Local{{In: InAnalytics, Help: "run the query"}}},

	{Name: "next_conversation", Keys: []string{"J"}, Help: "next conversation", Short: "next/prev",
		Doc: "the conversations screen, from every pane: the next conversation of the list (its next page loads when needed); the thread and detail follow",
		In:  InConversations, Foot: InThread | InConvDetail, Prio: 40, Group: GroupPane, Pair: "prev_conversation"},
	{Name: "prev_conversation", Keys: []string{"K"}, Help: "previous conversation", Doc: "the same, backwards",
		In: InConversations, Foot: InThread | InConvDetail, Prio: 41, Group: GroupPane},

	{Name: "search", Keys: []string{"/"}, Help: "search", Doc: "server `search_query`, runs on enter; on the operators screen, finds operators by name as you type; in a form's list, filters it",
		In: InConversations | InContacts | InOperators | InForm, Foot: InConvList | InContactList | InOperators, Prio: 90, Group: GroupAct,
		Local: []Local{{In: InOperators, Help: "find by name"}}},
	{Name: "filter", Keys: []string{"f"}, Help: "filters", Doc: "the filters form", In: InConversations | InContacts | InAnalytics,
		Foot: InConvList | InContactList | InAnalytics, Prio: 100, Group: GroupAct},
	{Name: "status", Keys: []string{"s"}, Help: "cycle status", Doc: "the status filter", In: InConvList | InOperators,
		Foot: InConvList | InOperators, Prio: 110, Group: GroupAct},
	{Name: "order", Keys: []string{"o"}, Help: "cycle ordering", In: InConvList | InContactList | InOperators | InNavigation,
		Foot: InConvList | InContactList | InOperators | InNavigation, Prio: 120, Group: GroupAct},
	{Name: "mark", Keys: []string{"space"}, Help: "mark row", Doc: "marks are for bulk deletes", In: InConvList | InContactList | InForm,
		Foot: InConvList | InContactList, Prio: 130, Group: GroupAct, Needs: CanWrite},
	{Name: "delete", Keys: []string{"d"}, Help: "delete", Doc: "asks; marked rows → exactly their ids in `delete_ids`",
		In: InConvList | InContacts | InOperators, Foot: InContacts | InOperators, Prio: 150, Group: GroupAct, Needs: CanWrite,
		Local: []Local{{In: InOperators, Needs: CanManageOperators}}},
	{Name: "copy_id", Keys: []string{"y"}, Help: "copy id", Doc: "OSC 52; inside tmux also through `tmux load-buffer -w`, so it works with tmux's default `set-clipboard external`. In a thread or a conversation's detail it copies the marked link (`▸`: the lowest attachment or add-on link in view) and the id when no link is in view",
		In: InConversations | InContacts | InNavigation, Foot: InNavigation, Prio: 115, Group: GroupAct,
		Local: []Local{{In: InNavigation, Help: "copy URL"}, {In: InThread | InConvDetail, Help: "copy link (▸) or id"}}},
	{Name: "transcript", Keys: []string{"D"}, Help: "write transcript", Short: "transcript",
		Doc: "the conversation's whole thread, oldest first, to a file in the current directory (text, Markdown or JSON, as `parley conversations transcript` writes it); a toast names the file",
		In:  InConversations, Prio: 250, Group: GroupAct, Needs: CanWrite | CanSaveFiles},
	{Name: "jump_id", Keys: []string{"#"}, Help: "go to id", Doc: "typed in the bottom line: a loaded row at once; in the conversations and contacts lists one not loaded yet is asked for by id, with the list's filters, and shows pinned above the rows (`»`) with the cursor on it; in the navigation and operators lists, among the rows loaded; on the operators screen a name instead of an id finds operators by name, as `/` does",
		In: InConvList | InContactList | InOperators | InNavigation, Prio: 220, Group: GroupAct},

	{Name: "prev_view", Keys: []string{"["}, Help: "previous view", Doc: "conversations and contacts: the saved view before (see [Saved views](#saved-views))",
		In: InConversations | InContacts, Prio: 300, Group: GroupView},
	{Name: "next_view", Keys: []string{"]"}, Help: "next view", Doc: "the saved view after", In: InConversations | InContacts, Prio: 301, Group: GroupView},
	{Name: "save_view", Keys: []string{"V"}, Help: "save query as view", Doc: "names the list's current query and writes it into the config file",
		In: InConversations | InContacts, Prio: 302, Group: GroupView},

	{Name: "topics", Keys: []string{"t"}, Help: "edit topics", Short: "topics", Doc: "of a conversation", In: InConversations,
		Foot: InThread | InConvDetail, Prio: 20, Group: GroupEdit, Needs: CanWrite},
	{Name: "note", Keys: []string{"n"}, Help: "new note", Short: "note", Doc: "about the contact", In: InConversations | InContacts,
		Foot: InThread | InConvDetail | InContactDetail, Prio: 30, Group: GroupEdit, Needs: CanWrite},
	{Name: "edit", Keys: []string{"e"}, Help: "edit", Doc: "a contact, an operator", In: InContacts | InOperators,
		Foot: InContactDetail | InOperators, Prio: 140, Group: GroupEdit, Needs: CanWrite,
		Local: []Local{{In: InOperators, Needs: CanManageOperators}}},
	{Name: "away", Keys: []string{"w"}, Help: "toggle away", Doc: "operators", In: InOperators, Foot: InOperators, Prio: 65,
		Group: GroupEdit, Needs: CanWrite},
	{Name: "upsert", Keys: []string{"a"}, Help: "create/update by identifier", Doc: "contacts", In: InContacts, Prio: 230,
		Group: GroupEdit, Needs: CanWrite},

	conversationAction("take", "T", "take (assign to me)", "conversations: assigns it to you (asks first when another operator has it)", 240),
	conversationAction("assign", "A", "assign to…", "conversations: picks an operator (asks first when another operator has it)", 241),
	conversationAction("unassign", "U", "unassign", "conversations (asks first when another operator has it)", 242),
	conversationAction("end", "E", "end conversation", "conversations: asks first; frees the slot", 243),
	conversationAction("reopen", "O", "reopen", "conversations: an ended one becomes pending", 244),
	conversationAction("toggle_read", "u", "mark read/unread", "conversations", 245),

	{Name: "yes", Keys: []string{"y"}, Help: "yes, go ahead", Doc: "in confirmations and a form's questions, in either case (`Y` too); `enter` is no answer unless it is yes's only key",
		In: InConfirm, Prio: 1, Group: GroupConfirm},
	{Name: "no", Keys: []string{"n"}, Help: "no, cancel", Doc: "in confirmations, in either case; `esc` too", In: InConfirm, Prio: 2, Group: GroupConfirm},

	{Name: "submit", Keys: []string{"ctrl+s"}, Help: "submit", Doc: "saves a form from any field", In: InForm, Prio: 1, Group: GroupForm},

	{Name: "export", Keys: []string{"e"}, Help: "export", Doc: "analytics: to a file", In: InAnalytics, Foot: InAnalytics, Prio: 186,
		Group: GroupAnalytics, Needs: CanWrite | CanSaveFiles},
	{Name: "metric", Keys: []string{"m"}, Help: "pick metric", Doc: "analytics", In: InAnalytics, Foot: InAnalytics, Prio: 80, Group: GroupAnalytics},
	{Name: "range", Keys: []string{"d"}, Help: "date range", Doc: "analytics", In: InAnalytics, Foot: InAnalytics, Prio: 81, Group: GroupAnalytics},
	{Name: "mode", Keys: []string{"h"}, Help: "human/bot/all", Doc: "analytics: `operator_mode`", In: InAnalytics, Foot: InAnalytics, Prio: 82,
		Group: GroupAnalytics},
	{Name: "split", Keys: []string{"i"}, Help: "split: human/bot", Doc: "analytics", In: InAnalytics, Foot: InAnalytics, Prio: 106, Group: GroupAnalytics},
	{Name: "chart_kind", Keys: []string{"c"}, Help: "count/mean/median", Doc: "analytics", In: InAnalytics, Foot: InAnalytics, Prio: 105,
		Group: GroupAnalytics},
	{Name: "breakdown", Keys: []string{"b"}, Help: "whole breakdown", Doc: "analytics", In: InAnalytics, Foot: InAnalytics, Prio: 185,
		Group: GroupAnalytics},
}
