package client

import (
	"context"
	"net/http"
)

// Thread is a conversation's messages as far as the client holds them, newest first.
type Thread struct {
	// Messages are newest first. They are shared with the client's memory: never modify
	// them.
	Messages []Message
	// Next is the link to the next older page ("" when the oldest message is here).
	Next string
	// Version is the conversation's version the messages were fetched at (zero: unknown).
	Version Version
	// Fetched is how many of the newest Messages this call brought (new ones, and ones
	// held before whose state may have changed); 0 when the thread came from memory.
	Fetched int
	// Added is how many of the newest Messages were not held before this call.
	Added int
	// Restarted: the newest page held none of the messages held before (more arrived than
	// a page holds): the thread starts over from that page.
	Restarted bool
}

// LatestMessages returns conversation id's messages, newest first, for version v: what the
// conversation list (or a refresh) shows of it, zero when it shows nothing (the version the
// client holds counts too).
//
// A thread held at a version that covers v is answered from memory without a request,
// however long ago it was fetched; a thread held without a version is, within the
// time-to-live. With Fresh(ctx) it is only when Within(ctx) allows the age of its newest
// page. Otherwise one request asks for the newest page
// (limit messages): the messages newer than the newest held go on top, those held and on
// the page are replaced by the page's (their state may have changed), and the older ones
// held stay. When the page holds none of the messages held, the thread starts over from
// it. Without the client's memory (Config.CacheTTL zero) it is the newest page.
func (c *Client) LatestMessages(ctx context.Context, id int64, v Version, limit int) (*Thread, error) {
	if c.memo == nil {
		p, err := c.MessagesPage(ctx, id, MessageOptions{CursorOptions: CursorOptions{Limit: limit}})
		if err != nil {
			return nil, err
		}
		return &Thread{Messages: p.Results, Next: p.Next, Fetched: len(p.Results), Added: len(p.Results)}, nil
	}
	known := v.Merge(c.memo.version(c.org, c.readAs(), id))
	held, ok := c.memo.thread(c.org, c.readAs(), id)
	if ok && (!known.Known() || held.version.Covers(known)) && c.mayRecall(ctx, held.fetched) {
		c.logRequest(RequestInfo{Method: http.MethodGet, Path: conversationPath(id) + "messages/", Family: FamilyConversations, Status: http.StatusOK, Cached: true})
		return &Thread{Messages: held.messages, Next: held.next, Version: held.version}, nil
	}
	p, err := c.MessagesPage(ctx, id, MessageOptions{CursorOptions: CursorOptions{Limit: limit}})
	if err != nil {
		return nil, err
	}
	// What the list said before the request: the page is at least as new. A change the
	// list learns meanwhile is fetched next time.
	t := mergeNewest(held, ok, p.Results, p.Next)
	t.version, t.fetched = known, c.now()
	c.memo.keepThread(c.org, c.readAs(), id, t.heldThread)
	return &Thread{Messages: t.messages, Next: t.next, Version: known, Fetched: len(p.Results), Added: t.added, Restarted: t.restarted}, nil
}

type merged struct {
	heldThread
	added     int
	restarted bool
}

// mergeNewest puts the newest page (newest first) on top of the thread held: the page's
// messages, then the held ones the page does not have. Without a message in common, the
// page is the thread.
func mergeNewest(held heldThread, ok bool, page []Message, next string) merged {
	if !ok || len(held.messages) == 0 {
		return merged{heldThread: heldThread{messages: page, next: next, bytes: sizeOfMessages(page)}, added: len(page)}
	}
	onPage := make(map[string]bool, len(page))
	for _, m := range page {
		onPage[m.ID] = true
	}
	heldIDs := make(map[string]bool, len(held.messages))
	for _, m := range held.messages {
		heldIDs[m.ID] = true
	}
	added, common := 0, false
	for _, m := range page {
		if heldIDs[m.ID] {
			common = true
			break
		}
		added++
	}
	if !common {
		if len(page) == 0 {
			return merged{heldThread: held} // an empty answer tells nothing new
		}
		return merged{heldThread: heldThread{messages: page, next: next, bytes: sizeOfMessages(page)}, added: len(page), restarted: true}
	}
	out := make([]Message, 0, len(page)+len(held.messages))
	out = append(out, page...)
	for _, m := range held.messages {
		if !onPage[m.ID] {
			out = append(out, m)
		}
	}
	return merged{heldThread: heldThread{messages: out, next: held.next, bytes: sizeOfMessages(out)}, added: added}
}

func sizeOfMessages(ms []Message) int {
	n := 0
	for _, m := range ms {
		n += approxSize(m)
	}
	return n
}

// OlderMessages follows link (a thread's Next) to the next older page of conversation id's
// messages, and adds it to the thread held when that still ends where the page starts.
func (c *Client) OlderMessages(ctx context.Context, id int64, link string) (*CursorPage[Message], error) {
	p, err := FetchCursorPage[Message](ctx, c, link)
	if err != nil {
		return nil, err
	}
	if c.memo != nil {
		c.memo.appendOlder(c.org, c.readAs(), id, link, p.Results, p.Next)
	}
	return p, nil
}

// HeldConversation returns conversation id as the client last received it (a list row,
// a refresh, the single GET) when that is as new as v, the version the caller's list row
// shows (zero: any); no request is made. Its conversation_part_set is non-nil only when the
// parts were fetched at the version held (or, for a conversation without a version, within
// the time-to-live).
func (c *Client) HeldConversation(id int64, v Version) (Conversation, bool) {
	if c.memo == nil {
		return Conversation{}, false
	}
	return c.memo.conversation(c.org, c.readAs(), id, v)
}

// ConversationWithParts returns conversation id with its conversation_part_set (empty, not
// nil, when the answer has none): from memory when it is held with parts as new as v (see
// HeldConversation) and ctx is not Fresh (or Within(ctx) allows the parts' age), else from
// GET /conversations/{id}/.
func (c *Client) ConversationWithParts(ctx context.Context, id int64, v Version) (*Conversation, error) {
	if c.memo != nil {
		if conv, at, ok := c.memo.conversationAt(c.org, c.readAs(), id, v); ok && conv.ConversationPartSet != nil && c.mayRecall(ctx, at) {
			c.logRequest(RequestInfo{Method: http.MethodGet, Path: conversationPath(id), Family: FamilyConversations, Status: http.StatusOK, Cached: true})
			return &conv, nil
		}
	}
	var conv Conversation
	if _, err := c.do(ctx, request{method: http.MethodGet, url: c.endpoint(conversationPath(id), nil)}, &conv); err != nil {
		return nil, err
	}
	if conv.ConversationPartSet == nil {
		// This answer is the whole conversation: without conversation_part_set it has none.
		conv.ConversationPartSet = []ConversationPart{}
	}
	if c.memo != nil {
		c.memo.sawConversation(c.org, c.readAs(), conv, true)
	}
	return &conv, nil
}
