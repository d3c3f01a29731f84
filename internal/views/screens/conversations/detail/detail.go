// Package detail is the conversation detail pane: status, assignment, widget, locale,
// times, rating, topics, custom data, the contact summary and every conversation part.
// It draws at once from the conversation the client holds (the list row carries every
// field but the parts) and fetches the single conversation only when its parts section
// is on screen and the parts are not held for the conversation's version.
package detail

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parley-tui/parley/client"
	"github.com/parley-tui/parley/internal/views/common"
	"github.com/parley-tui/parley/internal/views/components/layout"
	"github.com/parley-tui/parley/internal/views/components/scroll"
	"github.com/parley-tui/parley/internal/writes"
	"github.com/parley-tui/parley/sanitize"
)

type loadedMsg struct {
	stamp common.Stamp
	id    int64
	conv  *client.Conversation
	err   error
	parts bool // an answer to the parts' request (the conversation was shown already)
}

// LoadedMsg is sent upward when a conversation finished loading (the conversations screen uses it
// to refresh the list row).
type LoadedMsg struct{ Conversation client.Conversation }

// Model is the detail pane.
type Model struct {
	ctx     *common.Ctx
	id      int64
	version client.Version // the conversation's, as its list row shows it
	conv    *client.Conversation
	loading bool
	err     error
	// loads stamps the pane's one request at a time (the conversation, or its parts); a
	// generation per conversation shown (loading another cancels the requests for the
	// one left).
	loads   common.Loader
	pane    scroll.Pane // the laid-out lines and the scroll position
	width   int         // the pane holds the height
	focused bool

	// The parts: partsLine is the line of their section's title while they are not
	// shown (-1: shown, or no conversation); a request for them is in flight or failed.
	partsLine    int
	partsLoading bool
	partsErr     error

	// The add-on links (addon_urls) that are web addresses: their lines in lines,
	// ascending, each drawn marked too; the copy key copies the lowest one in view.
	links []addonLink
}

// addonLink is one of the conversation's add-on links as the pane draws it.
type addonLink struct {
	name   string // the integration's name, sanitized
	link   sanitize.Link
	line   int    // its line in lines
	marked string // the line with the mark (▸), fitted
}

// New returns an empty pane.
func New(ctx *common.Ctx) Model {
	return Model{ctx: ctx, loads: common.NewLoader(ctx), partsLine: -1, pane: scroll.New(ctx.Styles)}
}

// Conversation is the loaded conversation, if any.
func (m Model) Conversation() (client.Conversation, bool) {
	if m.conv == nil {
		return client.Conversation{}, false
	}
	return *m.conv, true
}

// ID is the conversation shown (0 = none).
func (m Model) ID() int64 { return m.id }

// Load shows a conversation whose version is not known (see LoadAt).
func (m *Model) Load(id int64, fresh bool) tea.Cmd { return m.LoadAt(id, client.Version{}, fresh) }

// LoadAt shows conversation id at version v (its list row's updated_at and
// last_message_sent_at): at once from the conversation the client holds for that version,
// the parts fetched when their section comes on screen (PartsIfShown); a conversation not
// held is fetched whole. Loading the one shown does nothing unless fresh is set; fresh asks
// the API whatever is held.
func (m *Model) LoadAt(id int64, v client.Version, fresh bool) tea.Cmd {
	if id == m.id && !fresh && (m.conv != nil || m.loading) {
		return nil
	}
	m.loads.Next()
	m.id, m.version = id, v
	m.conv = nil
	m.err = nil
	m.pane.SetOffset(0)
	m.partsLoading, m.partsErr = false, nil
	m.loading = false
	if id != 0 && !fresh && m.ctx.Client != nil {
		if held, ok := m.ctx.Client.HeldConversation(id, v); ok {
			m.conv = &held
			m.rebuild()
			return m.PartsIfShown()
		}
	}
	m.loading = id != 0
	m.rebuild()
	if id == 0 {
		return nil
	}
	return m.fetch(fresh, false)
}

// Refresh asks for the shown conversation again, past the client's memory, and keeps
// showing it (at the same scroll position) until the answer arrives.
func (m *Model) Refresh() tea.Cmd {
	if m.id == 0 {
		return nil
	}
	if m.conv == nil {
		return m.LoadAt(m.id, m.version, true)
	}
	m.loading = true
	m.partsErr = nil
	return m.fetch(true, false)
}

// Follow takes the shown conversation's new version v (a list refresh showed it changed):
// it is drawn again from the conversation the client now holds, and its parts are fetched
// again when their section is on screen. Another conversation's version changes nothing.
func (m *Model) Follow(id int64, v client.Version) tea.Cmd {
	if id == 0 || id != m.id {
		return nil
	}
	m.version = m.version.Merge(v)
	if m.conv == nil || m.ctx.Client == nil {
		return nil // loading, or failed: r asks again
	}
	held, ok := m.ctx.Client.HeldConversation(id, m.version)
	if !ok {
		m.loading = true
		return m.fetch(false, false)
	}
	m.conv = &held
	m.partsErr = nil
	m.rebuild()
	return m.PartsIfShown()
}

// PartsIfShown fetches the shown conversation's parts when their section is on screen
// and they are not held for its version (one request, the single conversation).
func (m *Model) PartsIfShown() tea.Cmd {
	if m.conv == nil || m.partsLine < 0 || m.partsLoading || m.partsErr != nil || m.loading || !m.lineShown(m.partsLine) {
		return nil
	}
	m.partsLoading = true
	m.rebuild()
	return m.fetch(false, true)
}

// lineShown reports whether line i is on screen (the last line of a pane with more below
// shows how many instead).
func (m Model) lineShown(i int) bool { return m.pane.Shown(i) }

// fetch asks for conversation m.id with its parts as the answer awaited (superseding the
// one awaited before); parts marks the request for the parts of a conversation shown.
func (m *Model) fetch(fresh, parts bool) tea.Cmd {
	stamp, parent := m.loads.Start(0)
	id, v, c := m.id, m.version, m.ctx.Client
	return func() tea.Msg {
		ctx, cancel := common.RequestContextIn(parent, common.RequestTimeout, fresh)
		defer cancel()
		conv, err := c.ConversationWithParts(ctx, id, v)
		return loadedMsg{stamp: stamp, id: id, conv: conv, err: err, parts: parts}
	}
}

// Set shows a conversation the caller already has (after an edit).
func (m *Model) Set(c client.Conversation) {
	if c.ID != m.id {
		return
	}
	if len(c.ConversationPartSet) == 0 && m.conv != nil {
		c.ConversationPartSet = m.conv.ConversationPartSet
	}
	m.conv = &c
	m.rebuild()
}

// SetSize sets the inner size.
func (m *Model) SetSize(w, h int) {
	m.width = w
	m.pane.SetSize(w, h)
	m.rebuild()
}

// Focus and Blur toggle focus.
func (m *Model) Focus() { m.focused = true }

// Blur marks the pane as not focused.
func (m *Model) Blur() { m.focused = false }

// Update handles the loaded conversation and scrolling keys.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case common.OperatorsLoadedMsg, common.RestyledMsg:
		m.rebuild() // the detail shows the operator's name, in the current styles
		return m, nil
	case loadedMsg:
		if msg.id != m.id || !m.loads.Take(msg.stamp) {
			return m, nil
		}
		m.loading, m.partsLoading = false, false
		if msg.err != nil {
			if msg.parts {
				m.partsErr = msg.err // shown in the parts' section; r asks again
				m.rebuild()
				return m, nil
			}
			m.err = msg.err
			if m.conv != nil {
				// A refresh failed: the conversation shown stays, and the failure says so.
				return m, common.ErrorToast(fmt.Errorf("conversation %d: %w", m.id, msg.err))
			}
			m.rebuild()
			return m, nil
		}
		m.conv = msg.conv
		m.rebuild()
		conv := *msg.conv
		return m, func() tea.Msg { return LoadedMsg{Conversation: conv} }
	case tea.KeyPressMsg:
		if !m.focused {
			return m, nil
		}
		k := m.ctx.Keys
		if !m.pane.Key(k, msg) && key.Matches(msg, k.Refresh) {
			return m, m.Refresh()
		}
		return m, m.PartsIfShown()
	}
	return m, nil
}

// Wheel scrolls d lines (negative: up) as the keys do, focused or not, and loads the parts
// that come into view.
func (m *Model) Wheel(d int) tea.Cmd {
	m.pane.Wheel(d)
	return m.PartsIfShown()
}

// inView are the lines [from, to) in view, the "more" hint's line left out.
func (m Model) inView() (from, to int) { return m.pane.InView() }

// markedLink is the index in links of the one the copy key copies: the lowest in view.
func (m Model) markedLink() int {
	lines := make([]int, len(m.links))
	for i, l := range m.links {
		lines[i] = l.line
	}
	from, to := m.inView()
	return layout.LowestInView(lines, from, to-from)
}

// MarkedLink is the add-on link the copy key copies, with its name: the lowest one in view,
// which the pane marks (▸) while it is focused. False when no web link is in view.
func (m Model) MarkedLink() (string, sanitize.Link, bool) {
	j := m.markedLink()
	if j < 0 {
		return "", sanitize.Link{}, false
	}
	return m.links[j].name, m.links[j].link, true
}

// View renders the visible lines, exactly width×height; with more below, the last line
// says how many (the parts come last, often below a short pane). While the pane is
// focused, the link the copy key copies is drawn marked.
func (m Model) View() string {
	if j := m.markedLink(); j >= 0 && m.focused {
		return m.pane.ViewWith(m.links[j].line, m.links[j].marked)
	}
	return m.pane.View()
}

// rebuild lays the conversation out at the current width.
func (m *Model) rebuild() {
	st := m.ctx.Styles
	w := max(10, m.width)
	var out []string
	add := func(s string) { out = append(out, s) }
	m.partsLine = -1
	m.links = nil
	if m.id == 0 {
		m.pane.SetLines(fitAll([]string{st.Muted.Render(" No conversation selected.")}, m.width))
		return
	}
	if m.conv == nil {
		switch {
		case m.err != nil:
			m.pane.SetLines(fitAll(wrap(st.Error.Render(" "+writes.ErrorText(m.err)), w), m.width))
		default:
			m.pane.SetLines(fitAll([]string{st.Loading.Render(" Loading details…")}, m.width))
		}
		return
	}
	c := m.conv
	now := m.ctx.ServerNow() // ages by the server's clock, which stamped the times
	ts := layout.Stamps{Now: now, Age: layout.AgoInParens}
	field := func(label, value string) {
		out = append(out, layout.Labelled(st, label, sanitize.Line(value), 12, w, 0)...)
	}
	// A section title wraps like the fields do ("Part 1 of 8 · Chat via Help Center"
	// in a narrow pane), never cut without a sign.
	section := func(title string) {
		if len(out) > 0 {
			add("")
		}
		for _, l := range wrap(sanitize.Line(title), max(4, w-1)) {
			add(" " + st.Section.Render(l))
		}
	}

	section(fmt.Sprintf("Conversation #%d", c.ID))
	sym, word := layout.StatusSymbol(c.Status)
	field("Status", sym+" "+word+descSuffix(c.StatusDescription))
	if subj := subject(c.Subject); subj != "" {
		field("Subject", subj)
	}
	op := "unassigned"
	if c.OperatorAssignedTo != nil {
		op = m.ctx.Operators[*c.OperatorAssignedTo]
		if op == "" {
			op = fmt.Sprintf("operator %d", *c.OperatorAssignedTo)
		}
	}
	field("Operator", op)
	field("Widget", fmt.Sprintf("%s (#%d, %s)", c.Widget.Name, c.Widget.ID, c.Widget.LanguageName))
	field("Locale", c.Locale+" · "+c.LanguageName)
	field("Channel", strings.Trim(c.ContactChannel.Type+" · "+c.ContactChannel.State, " ·"))
	field("Created", ts.Of(c.CreatedAt.Time))
	field("Updated", ts.Of(c.UpdatedAt.Time))
	field("First msg", ts.OfSent(c.ContactFirstMessageSentAt))
	field("Last msg", ts.OfSent(c.ContactLastMessageSentAt))
	rate := "—"
	if c.Rate != nil {
		rate = fmt.Sprintf("%d", *c.Rate)
	}
	field("Rating", rate)
	if fb := client.Str(c.FeedbackMessage); fb != "" {
		field("Feedback", fb)
	}
	read := "unread by operator"
	if c.MarkedReadOperator {
		read = "read by operator"
	}
	field("Read", read)
	// Shown only as sent: a server that leaves them out (or sends null) shows no line.
	if v, ok := c.AcceptsMessages.Get(); ok {
		field("Accepts msgs", yesNo(v))
	}
	if v, ok := c.DataPrivacy.Get(); ok {
		field("Data privacy", yesNo(v))
	}
	if v, ok := c.PageImpressions.Get(); ok {
		field("Impressions", v.String())
	}
	var topics []string
	for _, t := range c.Topics {
		topics = append(topics, t.Text)
	}
	if len(topics) == 0 {
		topics = []string{"—"}
	}
	field("Topics", strings.Join(topics, ", "))
	if cd := compactJSON(c.Custom); cd != "" {
		field("Custom", cd)
	}

	if names := addonNames(c.AddonURLs); len(names) > 0 {
		section("Links")
		for _, name := range names {
			l := sanitize.ParseLink(c.AddonURLs[name])
			shown := sanitize.Line(name)
			add(" " + layout.LinkLine(st, layout.GlyphAddon, shown, l, m.ctx.Hyperlinks, false))
			if l.Web() {
				m.links = append(m.links, addonLink{name: shown, link: l, line: len(out) - 1,
					marked: layout.Fit(" "+layout.LinkLine(st, layout.GlyphAddon, shown, l, m.ctx.Hyperlinks, true), m.width)})
			}
		}
	}

	ct := c.Contact
	section("Contact")
	field("Name", layout.OrDash(client.Str(ct.Name)))
	field("Email", layout.OrDash(client.Str(ct.Email)))
	phone := client.Str(ct.PhoneNumber)
	if mob := client.Str(ct.MobileNumber); mob != "" {
		phone = strings.Trim(phone+" · mobile "+mob, " ·")
	}
	field("Phone", layout.OrDash(phone))
	// Each under its own label: a position is no company.
	field("Company", layout.OrDash(strings.TrimSpace(client.Str(ct.Company))))
	if pos := strings.TrimSpace(client.Str(ct.Position)); pos != "" {
		field("Position", pos)
	}
	field("Location", layout.OrDash(strings.Trim(client.Str(ct.City)+", "+client.Str(ct.Country), ", ")))
	verified := "no"
	if ct.Verified {
		verified = "yes"
	}
	field("Verified", verified)
	field("Contact id", fmt.Sprintf("%d", ct.ID))

	if c.ConversationPartSet == nil {
		// The list row carries every field but the parts: they load when shown here.
		section("Parts")
		m.partsLine = len(out) - 1
		switch {
		case m.partsErr != nil:
			for _, l := range wrap(st.Error.Render(" "+writes.ErrorText(m.partsErr)+" (r retries)"), w) {
				add(l)
			}
		default:
			add(" " + st.Loading.Render("Loading parts…"))
		}
	}
	for i, p := range c.ConversationPartSet {
		section(fmt.Sprintf("Part %d of %d · %s", i+1, len(c.ConversationPartSet), layout.OrDash(p.NameFriendly)))
		field("Browser", layout.OrDash(strings.TrimSpace(p.Browser.Name+" "+p.Browser.Version+" · "+p.Browser.OS)))
		field("Location", layout.OrDash(strings.Trim(p.Location.City+", "+p.Location.Country, ", ")))
		field("Started", ts.Of(p.CreatedAt.Time))
		field("Duration", layout.OrDash(p.Duration))
		field("Referrer", layout.OrDash(client.Str(p.Referrer)))
	}
	m.pane.SetLines(fitAll(out, m.width))
}

func fitAll(lines []string, w int) []string {
	for i, l := range lines {
		lines[i] = layout.Fit(l, w)
	}
	return lines
}

// addonNames are the names of the add-on links that have a value, sorted (a JSON object's
// order does not survive decoding).
func addonNames(urls map[string]string) []string {
	var out []string
	for name, u := range urls {
		if strings.TrimSpace(u) != "" {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// subject is the conversation's subject as one line: a string as it is, any other value
// as compact JSON; "" when it is missing or null (the spec has seen only null).
func subject(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	return compactJSON(raw)
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func descSuffix(d string) string {
	if d == "" {
		return ""
	}
	return " — " + d
}

// compactJSON renders custom data on one line, keys sorted (encoding/json sorts maps).
func compactJSON(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" || string(raw) == "{}" {
		return ""
	}
	// Numbers stay as sent (json.Number): decoded as float64 an int64 such as
	// 9223372036854775807 would show as 9223372036854776000.
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

func wrap(s string, w int) []string { return strings.Split(ansi.Wrap(s, w, ""), "\n") }
