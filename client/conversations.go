package client

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
)

const v3 = "/api/um/v3"

// ListConversations returns one offset page of conversations (each with only its last
// message). Follow Page.Next with FetchPage[Conversation].
func (c *Client) ListConversations(ctx context.Context, opts ConversationListOptions) (*Page[Conversation], error) {
	return filteredPage[Conversation](ctx, c, "/conversations/", ConversationOrderings, opts)
}

// ConversationsAllPage returns one cursor page of /conversations/all/ (no result cap).
func (c *Client) ConversationsAllPage(ctx context.Context, opts AllConversationsOptions) (*CursorPage[Conversation], error) {
	return allPage[Conversation](ctx, c, "/conversations/all/", opts)
}

// ConversationsAll walks /conversations/all/ by cursor to the end.
func (c *Client) ConversationsAll(ctx context.Context, opts AllConversationsOptions) iter.Seq2[Conversation, error] {
	return walkCursor(ctx, c, func() (*CursorPage[Conversation], error) { return c.ConversationsAllPage(ctx, opts) })
}

// ConversationsAllJSON walks /conversations/all/ like ConversationsAll but yields each
// conversation as the server sent it: fields the client does not know and the server's own
// timestamp format are kept (what an export should pass on).
func (c *Client) ConversationsAllJSON(ctx context.Context, opts AllConversationsOptions) iter.Seq2[json.RawMessage, error] {
	return walkCursor(ctx, c, func() (*CursorPage[json.RawMessage], error) {
		return allPage[json.RawMessage](ctx, c, "/conversations/all/", opts)
	})
}

// GetConversation returns one conversation including conversation_part_set: from the
// client's memory when held with its parts at the version held (ConversationWithParts).
func (c *Client) GetConversation(ctx context.Context, id int64) (*Conversation, error) {
	return c.ConversationWithParts(ctx, id, Version{})
}

// ConversationUpdate is a conversation PATCH body: only set fields are sent, at top level.
type ConversationUpdate struct {
	// Topics replaces the conversation's topics; texts unknown to the organization are
	// created. A non-nil empty slice clears them.
	Topics *[]string
	Status *string
	// OperatorAssignedTo assigns the conversation; Unassign sends null instead.
	OperatorAssignedTo *int64
	Unassign           bool
	MarkedReadOperator *bool
}

// MarshalJSON writes the set fields only.
func (u ConversationUpdate) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	if u.Topics != nil {
		t := *u.Topics
		if t == nil {
			t = []string{}
		}
		m["topics"] = t
	}
	if u.Status != nil {
		m["status"] = *u.Status
	}
	if u.Unassign {
		m["operator_assigned_to"] = nil
	} else if u.OperatorAssignedTo != nil {
		m["operator_assigned_to"] = *u.OperatorAssignedTo
	}
	if u.MarkedReadOperator != nil {
		m["marked_read_operator"] = *u.MarkedReadOperator
	}
	return json.Marshal(m)
}

// UpdateConversation PATCHes a conversation and returns it as the server now has it.
func (c *Client) UpdateConversation(ctx context.Context, id int64, u ConversationUpdate) (*Conversation, error) {
	return call[Conversation](ctx, c, request{method: http.MethodPatch, url: c.endpoint(conversationPath(id), nil), body: u})
}

// SetConversationTopics replaces a conversation's topics (PATCH with topics as strings).
func (c *Client) SetConversationTopics(ctx context.Context, id int64, topics []string) (*Conversation, error) {
	if topics == nil {
		topics = []string{}
	}
	return c.UpdateConversation(ctx, id, ConversationUpdate{Topics: &topics})
}

// DeleteConversation deletes one conversation. The spec keeps ongoing conversations from
// list DELETEs only: a server may delete an ongoing one here or refuse (the sandbox
// answers 400), which the error then says.
func (c *Client) DeleteConversation(ctx context.Context, id int64) error {
	return c.remove(ctx, conversationPath(id), nil, false)
}

// DeleteConversations deletes exactly the given conversations (`delete_ids`). The server
// never deletes an ongoing one; the answer does not say which were skipped.
func (c *Client) DeleteConversations(ctx context.Context, ids []int64) error {
	return c.BulkDeleteConversations(ctx, BulkDelete[ConversationFilter]{DeleteIDs: ids})
}

// BulkDeleteConversations sends a list DELETE (irrevocable; see BulkDelete).
func (c *Client) BulkDeleteConversations(ctx context.Context, b BulkDelete[ConversationFilter]) error {
	return b.send(ctx, c, v3+"/conversations/")
}

// MessagesPage returns one cursor page of a conversation's messages. Without options that is
// the latest 100, newest first; follow Next for older ones (FetchCursorPage[Message]).
func (c *Client) MessagesPage(ctx context.Context, conversationID int64, opts MessageOptions) (*CursorPage[Message], error) {
	if err := checkOrdering(opts.Ordering, MessageOrderings, "messages"); err != nil {
		return nil, err
	}
	q := url.Values{}
	opts.encode(q)
	return call[CursorPage[Message]](ctx, c, request{method: http.MethodGet, url: c.endpoint(conversationPath(conversationID)+"messages/", q)})
}

// Messages walks a conversation's messages by cursor to the end (newest first by default).
func (c *Client) Messages(ctx context.Context, conversationID int64, opts MessageOptions) iter.Seq2[Message, error] {
	return walkCursor(ctx, c, func() (*CursorPage[Message], error) { return c.MessagesPage(ctx, conversationID, opts) })
}

func conversationPath(id int64) string { return idPath("conversations", id) }
