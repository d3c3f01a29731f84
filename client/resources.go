package client

import (
	"cmp"
	"context"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strconv"
)

// NoteListOptions are the query of GET /notes/ (filters: docs/api-notes.md).
type NoteListOptions struct {
	ListOptions
	ContactIdentityID int64
}

// ListNotes returns one page of notes.
func (c *Client) ListNotes(ctx context.Context, opts NoteListOptions) (*Page[Note], error) {
	q := url.Values{}
	setInt(q, "contact_identity_id", opts.ContactIdentityID)
	return listPage[Note](ctx, c, "/notes/", NoteOrderings, opts.ListOptions, q)
}

// NewNote is the body of POST /notes/.
type NewNote struct {
	ContactIdentityID int64  `json:"contact_identity_id"`
	Body              string `json:"body"`
}

// CreateNote creates a note about a contact. It is never retried.
func (c *Client) CreateNote(ctx context.Context, n NewNote) (*Note, error) {
	return call[Note](ctx, c, request{method: http.MethodPost, url: c.endpoint(v3+"/notes/", nil), body: n})
}

// GetNote returns one note.
func (c *Client) GetNote(ctx context.Context, id int64) (*Note, error) {
	return call[Note](ctx, c, request{method: http.MethodGet, url: c.endpoint(idPath("notes", id), nil)})
}

// DeleteNote deletes one note.
func (c *Client) DeleteNote(ctx context.Context, id int64) error {
	return c.remove(ctx, idPath("notes", id), nil, false)
}

// NavigationListOptions are the query of GET /navigation/ (ordering id or -id).
type NavigationListOptions struct {
	ListOptions
	ContactIdentityID int64
	ConversationID    int64
}

// ListNavigation returns one page of navigation events.
func (c *Client) ListNavigation(ctx context.Context, opts NavigationListOptions) (*Page[NavigationEvent], error) {
	q := url.Values{}
	setInt(q, "contact_identity_id", opts.ContactIdentityID)
	setInt(q, "conversation_id", opts.ConversationID)
	return listPage[NavigationEvent](ctx, c, "/navigation/", NavigationOrderings, opts.ListOptions, q)
}

// ListOperators returns one page of operators.
func (c *Client) ListOperators(ctx context.Context, opts ListOptions) (*Page[Operator], error) {
	return listPage[Operator](ctx, c, "/operators/", OperatorOrderings, opts, url.Values{})
}

// Operators walks every operator page by page (limit 100).
func (c *Client) Operators(ctx context.Context) iter.Seq2[Operator, error] {
	return walkOffset(ctx, c, func() (*Page[Operator], error) {
		return c.ListOperators(ctx, ListOptions{Limit: MaxLimit})
	})
}

// AllOperators reads every operator of the organization, page by page (limit 100), in
// order of id (the owner first) whatever order the API lists them in. It is the one
// reading of the operator list (the directory, the operators screen, the assign picker,
// other organizations' names): each page is a GET like any other, answered from the
// client's memory or by an identical GET in flight when they can (ctx decides: Fresh,
// Within).
func (c *Client) AllOperators(ctx context.Context) ([]Operator, error) {
	var ops []Operator
	for op, err := range c.Operators(ctx) {
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	slices.SortStableFunc(ops, func(a, b Operator) int { return cmp.Compare(a.ID, b.ID) })
	return ops, nil
}

// GetOperator returns one operator.
func (c *Client) GetOperator(ctx context.Context, id int64) (*Operator, error) {
	return call[Operator](ctx, c, request{method: http.MethodGet, url: c.endpoint(idPath("operators", id), nil)})
}

// OperatorUpdate is an operator PATCH body (writable fields: docs/api-notes.md). It never
// carries the away status: that goes through SetOperatorAway.
type OperatorUpdate struct {
	Name        *string `json:"name,omitempty"`
	DisplayName *string `json:"display_name,omitempty"`
	Email       *string `json:"email,omitempty"`
	Locale      *string `json:"locale,omitempty"`
}

// UpdateOperator PATCHes an operator.
func (c *Client) UpdateOperator(ctx context.Context, id int64, u OperatorUpdate) (*Operator, error) {
	return call[Operator](ctx, c, request{method: http.MethodPatch, url: c.endpoint(idPath("operators", id), nil), body: u})
}

// DeleteOperator deletes an operator.
func (c *Client) DeleteOperator(ctx context.Context, id int64) error {
	return c.remove(ctx, idPath("operators", id), nil, false)
}

// OperatorSlots returns an operator's slot usage, as far as the answer gives it (see
// Slots.UnmarshalJSON; Slots.WithOperator adds the total an operator record carries).
func (c *Client) OperatorSlots(ctx context.Context, id int64) (*Slots, error) {
	var out Slots
	if _, err := c.do(ctx, request{method: http.MethodGet, url: c.endpoint(idPath("operators", id)+"slots/", nil)}, &out); err != nil {
		return nil, err
	}
	if out.OperatorID == 0 {
		out.OperatorID = id // the answer is about the operator asked for
	}
	return &out, nil
}

// SetOperatorAway changes an operator's away status through /operators/{id}/away/. The
// answer states the away status, and the online status, only as far as the server sent
// them (see AwayStatus).
func (c *Client) SetOperatorAway(ctx context.Context, id int64, away bool) (*AwayStatus, error) {
	body := struct {
		IsAway bool `json:"is_away"`
	}{away}
	var out AwayStatus
	if _, err := c.do(ctx, request{method: http.MethodPatch, url: c.endpoint(idPath("operators", id)+"away/", nil), body: body}, &out); err != nil {
		return nil, err
	}
	if out.OperatorID == 0 {
		out.OperatorID = id
	}
	return &out, nil
}

func idPath(resource string, id int64) string {
	return v3 + "/" + resource + "/" + strconv.FormatInt(id, 10) + "/"
}
