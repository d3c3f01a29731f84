package client

import (
	"container/list"
	"context"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

type freshKey struct{}

// Fresh returns a context whose GET requests skip the client's memory (they still refresh
// it): what a user's explicit refresh needs.
func Fresh(ctx context.Context) context.Context { return context.WithValue(ctx, freshKey{}, true) }

func isFresh(ctx context.Context) bool { v, _ := ctx.Value(freshKey{}).(bool); return v }

type pollKey struct{}

// Poll returns a context whose requests are polling that nobody waits for (an
// auto-refresh): each makes one attempt, never retried, since the next poll asks again
// anyway and a retry of every poll multiplies what an outage costs; the events of its
// failures say Poll.
func Poll(ctx context.Context) context.Context { return context.WithValue(ctx, pollKey{}, true) }

func isPoll(ctx context.Context) bool { v, _ := ctx.Value(pollKey{}).(bool); return v }

// Version is how far a conversation's data goes, as the server stamped it: its updated_at
// and last_message_sent_at. A list row, a refresh and the single GET all carry it, so data
// fetched earlier is known to be current while they show the same version, however long
// ago it was fetched. The zero Version is unknown (a server that sends no updated_at):
// such data is kept for the time-to-live only.
type Version struct {
	UpdatedAt         time.Time
	LastMessageSentAt time.Time
}

// VersionOf is the version a conversation's fields state.
func VersionOf(c Conversation) Version {
	return Version{UpdatedAt: c.UpdatedAt.Time, LastMessageSentAt: c.LastMessageSentAt.Time}
}

// Known reports whether the server stated the version: a conversation without updated_at
// has none.
func (v Version) Known() bool { return !v.UpdatedAt.IsZero() }

// Covers reports whether data fetched at version v is as new as w says the conversation
// is: v is known and neither of w's times is later than v's.
func (v Version) Covers(w Version) bool {
	return v.Known() && !w.UpdatedAt.After(v.UpdatedAt) && !w.LastMessageSentAt.After(v.LastMessageSentAt)
}

// Merge is the newer of each of v's and w's times: what both sources together say.
func (v Version) Merge(w Version) Version {
	if w.UpdatedAt.After(v.UpdatedAt) {
		v.UpdatedAt = w.UpdatedAt
	}
	if w.LastMessageSentAt.After(v.LastMessageSentAt) {
		v.LastMessageSentAt = w.LastMessageSentAt
	}
	return v
}

// entryKind says what a memory entry holds.
type entryKind uint8

const (
	// kindAnswer: a decoded GET answer without a version (a list page, notes, operators),
	// by URL, for the time-to-live.
	kindAnswer entryKind = iota
	// kindConversation: the newest a conversation the client has received (a list row, a
	// refresh, the single GET), with the parts of the single GET.
	kindConversation
	// kindThread: a conversation's messages, newest first, as far as they were fetched.
	kindThread
	// kindContact: a contact as a contacts list or the single GET answered (contacts carry
	// no version: for the time-to-live).
	kindContact
)

// memoKey names an entry: what it holds, for which organization and operator (the context
// headers), and which conversation or contact, or which URL.
type memoKey struct {
	kind          entryKind
	org, operator int64
	id            int64
	url           string
}

// memoEntry is one entry of the memory.
type memoEntry struct {
	key     memoKey
	value   any
	size    int
	at      time.Time     // when it was put
	ttl     time.Duration // its time-to-live; 0: kept until evicted
	expires time.Time     // zero: kept until evicted (versioned data, answers revalidated)
	exp     *list.Element // in memo.expiring[ttl] when expires is set
}

// memo is the client's memory of decoded data: GET answers without a version for a
// time-to-live, and conversations, their threads and contacts as they arrived. It is
// bounded by the estimated bytes of what it holds (least recently used entries go first),
// and entries whose time-to-live ran out are swept whenever an entry is added. Any
// successful write clears it, so an edit is never hidden by what was held before.
type memo struct {
	mu       sync.Mutex
	ttl      time.Duration // the time-to-live of data without a version
	maxBytes int
	bytes    int
	now      func() time.Time
	order    *list.List // every entry; front = most recently used
	// expiring are the entries with a time-to-live by its length, each list in the order
	// its entries expire (one length, so the order they were put in).
	expiring map[time.Duration]*list.List
	entries  map[memoKey]*list.Element
}

func newMemo(ttl time.Duration, maxBytes int, now func() time.Time) *memo {
	return &memo{ttl: ttl, maxBytes: maxBytes, now: now, order: list.New(), expiring: map[time.Duration]*list.List{},
		entries: map[memoKey]*list.Element{}}
}

// ttlIf is the memory's time-to-live when timed, else 0 (kept until evicted).
func (m *memo) ttlIf(timed bool) time.Duration {
	if timed {
		return m.ttl
	}
	return 0
}

// get returns the value of key unless it expired (then it goes); it becomes the most
// recently used.
func (m *memo) get(key memoKey) (any, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.getLocked(key)
}

func (m *memo) getLocked(key memoKey) (any, bool) {
	e, ok := m.entryLocked(key)
	if !ok {
		return nil, false
	}
	return e.value, true
}

// getAt is get with the time the value was put.
func (m *memo) getAt(key memoKey) (any, time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entryLocked(key)
	if !ok {
		return nil, time.Time{}, false
	}
	return e.value, e.at, true
}

func (m *memo) entryLocked(key memoKey) (*memoEntry, bool) {
	el, ok := m.entries[key]
	if !ok {
		return nil, false
	}
	e := el.Value.(*memoEntry)
	if !e.expires.IsZero() && !m.now().Before(e.expires) {
		m.remove(el)
		return nil, false
	}
	m.order.MoveToFront(el)
	return e, true
}

// put keeps value under key, in place of what it held: for the time-to-live when timed,
// else until evicted. Expired entries are swept first; then the least recently used ones go
// until the memory is within its bound. A value larger than a quarter of the bound is not
// kept (it would push out everything else), and key's old value goes all the same.
func (m *memo) put(key memoKey, value any, size int, timed bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.putLocked(key, value, size, timed)
}

// putIf is putFor when current (nil: always) holds, asked under the memory's lock: a
// write that ends clears the memory under the same lock (clearWith), so what current
// checks cannot change between the question and the put.
func (m *memo) putIf(key memoKey, value any, size int, ttl time.Duration, current func() bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if current != nil && !current() {
		return
	}
	m.putForLocked(key, value, size, ttl)
}

func (m *memo) putLocked(key memoKey, value any, size int, timed bool) {
	m.putForLocked(key, value, size, m.ttlIf(timed))
}

// putForLocked keeps value under key for ttl (0: until evicted).
func (m *memo) putForLocked(key memoKey, value any, size int, ttl time.Duration) {
	now := m.now()
	m.sweep(now)
	if el, ok := m.entries[key]; ok {
		m.remove(el)
	}
	size += entryOverhead
	if size > m.maxBytes/4 {
		return
	}
	e := &memoEntry{key: key, value: value, size: size, at: now, ttl: max(0, ttl)}
	if e.ttl > 0 {
		e.expires = now.Add(e.ttl)
		q := m.expiring[e.ttl]
		if q == nil {
			q = list.New()
			m.expiring[e.ttl] = q
		}
		e.exp = q.PushBack(e)
	}
	m.entries[key] = m.order.PushFront(e)
	m.bytes += size
	for m.bytes > m.maxBytes {
		m.remove(m.order.Back())
	}
}

// sweep removes the entries whose time-to-live ran out. Those of one length expire in the
// order they were put, so the sweep of each stops at the first that has not.
func (m *memo) sweep(now time.Time) {
	for _, q := range m.expiring {
		for front := q.Front(); front != nil; front = q.Front() {
			e := front.Value.(*memoEntry)
			if now.Before(e.expires) {
				break
			}
			m.remove(m.entries[e.key])
		}
	}
}

func (m *memo) remove(el *list.Element) {
	e := el.Value.(*memoEntry)
	m.order.Remove(el)
	if e.exp != nil {
		q := m.expiring[e.ttl]
		q.Remove(e.exp)
		if q.Len() == 0 {
			delete(m.expiring, e.ttl)
		}
	}
	delete(m.entries, e.key)
	m.bytes -= e.size
}

// renewIf marks the answer held under key as current now, as a revalidation found it
// (reached: the server's time it was checked at), when it is still the one that was
// checked (held: its value) and current (see putIf) holds; it reports whether it did.
func (m *memo) renewIf(key memoKey, held any, reached time.Time, current func() bool) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	el, ok := m.entries[key]
	if !ok || (current != nil && !current()) {
		return false
	}
	e := el.Value.(*memoEntry)
	a, ok := e.value.(answer)
	if !ok || a.value != held {
		return false
	}
	a.reached = reached
	e.value, e.at = a, m.now()
	m.order.MoveToFront(el)
	return true
}

// clearWith forgets everything, calling fn (the count of writes that ended: see putIf)
// under the same lock.
func (m *memo) clearWith(fn func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fn()
	m.order.Init()
	clear(m.expiring)
	clear(m.entries)
	m.bytes = 0
}

// drop forgets key's entry, if any.
func (m *memo) drop(key memoKey) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if el, ok := m.entries[key]; ok {
		m.remove(el)
	}
}

// usage is the estimated bytes held and the number of entries.
func (m *memo) usage() (bytes, entries int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes, len(m.entries)
}

// answer is a decoded GET answer and its status.
type answer struct {
	value  any // a pointer to the decoded answer, never handed out (copies are)
	status int
	// reached is, for an answer that is revalidated rather than fetched again when it
	// ages (a conversation list: revalidates), a time the server's clock had reached when
	// it was fetched or last found current (client.ServerReached): the next revalidation
	// asks for the changes since then. Zero for every other answer.
	reached time.Time
	// changed: the revalidation before this answer found a change; when it ages it is
	// fetched again without one.
	changed bool
}

// heldConversation is the newest a conversation the client has received. The parts come
// only with the single GET and are kept with the version they were fetched at (a list row
// of a newer version leaves them out of date).
type heldConversation struct {
	conv      Conversation // its conversation_part_set left out
	version   Version
	parts     []ConversationPart // nil: not fetched
	partsAt   Version
	partsTime time.Time // when the parts arrived (for a conversation without a version)
}

// sawConversation takes in a conversation the API answered with (a list row, a refresh,
// the single GET or an edit's answer). An answer older than what is held (a list page
// answered from memory after a refresh brought the conversation's change) changes nothing.
func (m *memo) sawConversation(org, operator int64, c Conversation, withParts bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sawConversationLocked(org, operator, c, withParts)
}

func (m *memo) sawConversationLocked(org, operator int64, c Conversation, withParts bool) {
	key := memoKey{kind: kindConversation, org: org, operator: operator, id: c.ID}
	v := VersionOf(c)
	h := heldConversation{conv: c, version: v}
	h.conv.ConversationPartSet = nil
	if old, ok := m.getLocked(key); ok {
		o := old.(*heldConversation)
		if o.version.Known() && !v.Covers(o.version) {
			return
		}
		h.parts, h.partsAt, h.partsTime = o.parts, o.partsAt, o.partsTime
	}
	if withParts {
		h.parts, h.partsAt, h.partsTime = c.ConversationPartSet, v, m.now()
		if h.parts == nil {
			h.parts = []ConversationPart{}
		}
	}
	m.putLocked(key, &h, approxSize(&h), !v.Known())
}

// conversation returns conversation id as held, when it is as new as v (what the caller's
// list row says; zero when it does not know): with its parts when they were fetched at the
// version held (or, without a version, within the time-to-live).
func (m *memo) conversation(org, operator, id int64, v Version) (Conversation, bool) {
	c, _, ok := m.conversationAt(org, operator, id, v)
	return c, ok
}

// conversationAt is conversation with the time its parts arrived (zero without parts).
func (m *memo) conversationAt(org, operator, id int64, v Version) (Conversation, time.Time, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	val, ok := m.getLocked(memoKey{kind: kindConversation, org: org, operator: operator, id: id})
	if !ok {
		return Conversation{}, time.Time{}, false
	}
	h := val.(*heldConversation)
	if v.Known() && !h.version.Covers(v) {
		return Conversation{}, time.Time{}, false
	}
	c := h.conv
	if h.parts != nil {
		if h.version.Known() {
			if h.partsAt.Covers(h.version) {
				c.ConversationPartSet = h.parts
			}
		} else if m.now().Before(h.partsTime.Add(m.ttl)) {
			c.ConversationPartSet = h.parts
		}
	}
	if c.ConversationPartSet == nil {
		return c, time.Time{}, true
	}
	return c, h.partsTime, true
}

// version is the version of conversation id as held (zero when not held).
func (m *memo) version(org, operator, id int64) Version {
	m.mu.Lock()
	defer m.mu.Unlock()
	val, ok := m.getLocked(memoKey{kind: kindConversation, org: org, operator: operator, id: id})
	if !ok {
		return Version{}
	}
	return val.(*heldConversation).version
}

// heldThread is a conversation's messages as far as they were fetched. Messages is never
// written in place once held: a merge builds a new slice, and older pages are appended
// past the length of every copy handed out.
type heldThread struct {
	messages []Message // newest first
	next     string    // the next older page; "" when the oldest message is held
	version  Version   // what the conversation's version was when they were fetched
	bytes    int       // approxSize of the messages
	fetched  time.Time // when the newest page was fetched
}

func (m *memo) thread(org, operator, id int64) (heldThread, bool) {
	val, ok := m.get(memoKey{kind: kindThread, org: org, operator: operator, id: id})
	if !ok {
		return heldThread{}, false
	}
	return *val.(*heldThread), true
}

func (m *memo) keepThread(org, operator, id int64, t heldThread) {
	m.put(memoKey{kind: kindThread, org: org, operator: operator, id: id}, &t, t.bytes, !t.version.Known())
}

// appendOlder adds an older page to conversation id's thread when the thread held still
// ends where the page starts (link), and reports whether it did.
func (m *memo) appendOlder(org, operator, id int64, link string, older []Message, next string) bool {
	key := memoKey{kind: kindThread, org: org, operator: operator, id: id}
	m.mu.Lock()
	defer m.mu.Unlock()
	val, ok := m.getLocked(key)
	if !ok {
		return false
	}
	t := *val.(*heldThread)
	if t.next != link {
		return false
	}
	held := make(map[string]bool, len(older))
	for _, msg := range t.messages[max(0, len(t.messages)-len(older)):] {
		held[msg.ID] = true
	}
	for _, msg := range older {
		if !held[msg.ID] {
			t.messages = append(t.messages, msg)
			t.bytes += approxSize(msg)
		}
	}
	t.next = next
	m.putLocked(key, &t, t.bytes, !t.version.Known())
	return true
}

// sawContactLocked takes in a contact the API answered with.
func (m *memo) sawContactLocked(org, operator int64, c Contact) {
	m.putLocked(memoKey{kind: kindContact, org: org, operator: operator, id: c.ID}, &c, approxSize(&c), true)
}

// contact returns contact id as held within the time-to-live, and when it arrived.
func (m *memo) contact(org, operator, id int64) (Contact, time.Time, bool) {
	val, at, ok := m.getAt(memoKey{kind: kindContact, org: org, operator: operator, id: id})
	if !ok {
		return Contact{}, time.Time{}, false
	}
	return *val.(*Contact), at, true
}

// heldElsewhere reports a path whose answers the client's memory holds by what they are
// rather than by URL: a conversation, its messages, a contact.
func heldElsewhere(path string) bool {
	if i := strings.LastIndex(path, v3+"/"); i >= 0 { // after the base URL's path
		path = path[i:]
	}
	for _, prefix := range []string{v3 + "/conversations/", v3 + "/contact_identities/"} {
		rest, ok := strings.CutPrefix(path, prefix)
		if !ok {
			continue
		}
		id, tail, _ := strings.Cut(rest, "/")
		if _, err := strconv.ParseInt(id, 10, 64); err != nil {
			return false // a list: conversations/, conversations/all/
		}
		return tail == "" || (prefix == v3+"/conversations/" && tail == "messages/")
	}
	return false
}

// detacher is an answer holding a slice of items that copies of it must not share: a caller
// that changes an item of its copy leaves the memory's alone.
type detacher interface{ detach() }

func (p *Page[T]) detach()       { p.Results = slices.Clone(p.Results) }
func (p *CursorPage[T]) detach() { p.Results = slices.Clone(p.Results) }

// cloneAnswer is a copy of the decoded answer out points to, for the memory to keep.
func cloneAnswer(out checker) any {
	v := reflect.New(reflect.TypeOf(out).Elem())
	v.Elem().Set(reflect.ValueOf(out).Elem())
	c := v.Interface()
	if d, ok := c.(detacher); ok {
		d.detach()
	}
	return c
}

// copyAnswer copies a held answer into out when it is of out's type.
func copyAnswer(out checker, held any) bool {
	ov, hv := reflect.ValueOf(out), reflect.ValueOf(held)
	if ov.Type() != hv.Type() || ov.IsNil() {
		return false
	}
	ov.Elem().Set(hv.Elem())
	if d, ok := out.(detacher); ok {
		d.detach()
	}
	return true
}

// learn takes the conversations and contacts of an accepted answer into the memory, when
// current (nil: always) holds under the memory's lock (see putIf).
func (m *memo) learn(org, operator int64, out checker, current func() bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if current != nil && !current() {
		return
	}
	switch v := out.(type) {
	case *Conversation:
		m.sawConversationLocked(org, operator, *v, v.ConversationPartSet != nil)
	case *Page[Conversation]:
		for _, c := range v.Results {
			m.sawConversationLocked(org, operator, c, false)
		}
	case *CursorPage[Conversation]:
		for _, c := range v.Results {
			m.sawConversationLocked(org, operator, c, false)
		}
	case *Contact:
		m.sawContactLocked(org, operator, *v)
	case *Page[Contact]:
		for _, c := range v.Results {
			m.sawContactLocked(org, operator, c)
		}
	case *CursorPage[Contact]:
		for _, c := range v.Results {
			m.sawContactLocked(org, operator, c)
		}
	}
}
