package common

// The screens saved views belong to (SavedView.Screen).
const (
	ViewsConversations = "conversations"
	ViewsContacts      = "contacts"
)

// SavedView is one saved view of a list screen: a named query (the config file's views:
// section). Filters are the API's filter parameters and their values as the API takes
// them; Status is a conversation's status.
type SavedView struct {
	Name     string
	Screen   string
	Status   string
	Search   string
	Ordering string
	Filters  map[string]string
}

// ShowViewMsg asks the screen that gets it to show its saved view Name ("all": the whole
// list); the command palette delivers it.
type ShowViewMsg struct{ Name string }

// ViewSavedMsg is the end of a save of a view (Ctx.SaveView): Err is nil when the view is
// in the config file. Seq is the screen's save request, to drop a stale answer.
type ViewSavedMsg struct {
	Screen string
	View   SavedView
	Seq    int
	Err    error
}

// DefaultOrdering is the ordering a list of screen shows when its query names none: the
// config file's (its all view's ordering), else own, the list's default.
func (c *Ctx) DefaultOrdering(screen, own string) string {
	if o := c.Orderings[screen]; o != "" {
		return o
	}
	return own
}

// ViewsOf are the saved views of screen, in the config file's order.
func (c *Ctx) ViewsOf(screen string) []SavedView {
	var out []SavedView
	for _, v := range c.Views {
		if v.Screen == screen {
			out = append(out, v)
		}
	}
	return out
}
