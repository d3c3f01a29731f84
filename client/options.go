package client

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// MaxLimit is the largest page size the API serves; DefaultLimit what it uses without one.
const (
	MaxLimit     = 100
	DefaultLimit = 10
)

// ClampLimit brings a page size into 1..100; zero or less means "not set" and stays 0.
func ClampLimit(n int) int {
	switch {
	case n <= 0:
		return 0
	case n > MaxLimit:
		return MaxLimit
	}
	return n
}

// Allowed ordering values per endpoint (spec: Ordering; docs/api-notes.md for the rest). The
// conversation and contact lists' are declared with their words (Conversations, Contacts).
var (
	ConversationOrderings = Conversations.OrderingValues()
	ContactOrderings      = Contacts.OrderingValues()
	NavigationOrderings   = []string{"id", "-id"}
	AllOrderings          = []string{"id"}
	NoteOrderings         = []string{"id", "-id", "created_at", "-created_at"}
	OperatorOrderings     = []string{"id", "-id", "name", "-name"}
	MessageOrderings      = []string{"id", "-id"}
)

func checkOrdering(value string, allowed []string, endpoint string) error {
	if value == "" || slices.Contains(allowed, value) {
		return nil
	}
	return fmt.Errorf("%w: %q on %s (allowed: %s)", ErrInvalidOrdering, value, endpoint, strings.Join(allowed, ", "))
}

// ListOptions are the paging, ordering and search parameters of offset lists.
type ListOptions struct {
	Limit    int    // 1..100; 0 = server default (10)
	Offset   int    // 0 = first page
	Ordering string // checked against the endpoint's allowed values
	// Search is the server's search_query: whitespace-separated keywords combined with OR,
	// ranked by the server (ordering is then ignored).
	Search     string
	ExcludeIDs []int64
}

func (o ListOptions) encode(q url.Values) {
	if l := ClampLimit(o.Limit); l > 0 {
		q.Set("limit", strconv.Itoa(l))
	}
	if o.Offset > 0 {
		q.Set("offset", strconv.Itoa(o.Offset))
	}
	if o.Ordering != "" {
		q.Set("ordering", o.Ordering)
	}
	if s := strings.TrimSpace(o.Search); s != "" {
		q.Set("search_query", s)
	}
	setIDs(q, "exclude_ids", o.ExcludeIDs)
}

func setIDs(q url.Values, key string, ids []int64) {
	if len(ids) == 0 {
		return
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	q.Set(key, strings.Join(parts, ","))
}

func setInt(q url.Values, key string, v int64) {
	if v != 0 {
		q.Set(key, strconv.FormatInt(v, 10))
	}
}

func setStr(q url.Values, key, v string) {
	if v != "" {
		q.Set(key, v)
	}
}

// ConversationFilter holds the 16 conversation filters of the spec (declared in
// Conversations); zero values are unset. Filters combine with AND.
type ConversationFilter struct {
	ContactUUID                 string    // contact_uuid
	OperatorID                  int64     // operator_id
	Status                      string    // status: new, pending, ended
	TopicID                     int64     // topics
	WidgetID                    int64     // um_widget_id
	ContactFirstMessageToDate   time.Time // contact_first_message_to_date
	ContactFirstMessageFromDate time.Time // contact_first_message_from_date
	ContactLastMessageToDate    time.Time // contact_last_message_to_date
	ContactLastMessageFromDate  time.Time // contact_last_message_from_date
	UpdatedAtToDate             time.Time // updated_at_to_date
	UpdatedAtFromDate           time.Time // updated_at_from_date
	IDGreaterThan               int64     // id__gt
	IDLessThan                  int64     // id__lt
	ContactIdentityID           int64     // contact_identity_id
	LastActivityToDate          time.Time // last_activity_to_date
	LastActivityFromDate        time.Time // last_activity_from_date
}

// Values encodes the set filters as query parameters.
func (f ConversationFilter) Values() url.Values { return Conversations.Values(f) }

func (f ConversationFilter) encode(q url.Values) { Conversations.encode(f, q) }

// IsZero reports whether no filter is set.
func (f ConversationFilter) IsZero() bool { return Conversations.IsZero(f) }

// ContactFilter holds the 7 contact filters of the spec (declared in Contacts); zero values
// are unset.
type ContactFilter struct {
	ID           int64     // id
	Email        string    // email
	Name         string    // name
	ToDateTime   time.Time // to_date_time: active before
	FromDateTime time.Time // from_date_time: active after
	Verified     *bool     // verified
	Locale       string    // locale
}

// Values encodes the set filters as query parameters.
func (f ContactFilter) Values() url.Values { return Contacts.Values(f) }

func (f ContactFilter) encode(q url.Values) { Contacts.encode(f, q) }

// IsZero reports whether no filter is set.
func (f ContactFilter) IsZero() bool { return Contacts.IsZero(f) }

// ListFilter is the filter of a filtered list: ConversationFilter or ContactFilter (only
// this package's filters can be one: it encodes itself as query parameters).
type ListFilter interface {
	IsZero() bool
	encode(url.Values)
}

// FilteredListOptions are the query of a filtered offset list (ConversationListOptions,
// ContactListOptions).
type FilteredListOptions[F ListFilter] struct {
	ListOptions
	Filter F
}

// ConversationListOptions are the query of GET /conversations/.
type ConversationListOptions = FilteredListOptions[ConversationFilter]

// ContactListOptions are the query of GET /contact_identities/.
type ContactListOptions = FilteredListOptions[ContactFilter]

// filteredPage GETs one offset page of the filtered list at path (below the API's root,
// "/conversations/"), after checking the ordering against the list's orderings.
func filteredPage[T any, F ListFilter](ctx context.Context, c *Client, path string, orderings []string, opts FilteredListOptions[F]) (*Page[T], error) {
	q := url.Values{}
	opts.Filter.encode(q)
	return listPage[T](ctx, c, path, orderings, opts.ListOptions, q)
}

// listPage GETs one offset page of the list at path (below the API's root, "/notes/") with
// the query q and opts, after checking the ordering against the list's orderings.
func listPage[T any](ctx context.Context, c *Client, path string, orderings []string, opts ListOptions, q url.Values) (*Page[T], error) {
	if err := checkOrdering(opts.Ordering, orderings, strings.Trim(path, "/")); err != nil {
		return nil, err
	}
	opts.encode(q)
	return call[Page[T]](ctx, c, request{method: http.MethodGet, url: c.endpoint(v3+path, q)})
}

// AllOptions are the query of an /all/ list (AllConversationsOptions, AllContactsOptions).
type AllOptions[F ListFilter] struct {
	CursorOptions
	Filter     F
	ExcludeIDs []int64 // items left out (exclude_ids)
}

// AllConversationsOptions are the query of GET /conversations/all/.
type AllConversationsOptions = AllOptions[ConversationFilter]

// AllContactsOptions are the query of GET /contact_identities/all/.
type AllContactsOptions = AllOptions[ContactFilter]

// allPage GETs one cursor page of the /all/ list at path (below the API's root,
// "/conversations/all/").
func allPage[T any, F ListFilter](ctx context.Context, c *Client, path string, opts AllOptions[F]) (*CursorPage[T], error) {
	if err := checkOrdering(opts.Ordering, AllOrderings, strings.Trim(path, "/")); err != nil {
		return nil, err
	}
	q := url.Values{}
	opts.Filter.encode(q)
	opts.CursorOptions.encode(q)
	setIDs(q, "exclude_ids", opts.ExcludeIDs)
	return call[CursorPage[T]](ctx, c, request{method: http.MethodGet, url: c.endpoint(v3+path, q)})
}

// CursorOptions are the parameters of cursor-paginated endpoints.
type CursorOptions struct {
	Cursor   string // "" = first page; an item id, or "-<id>" for the other direction
	Limit    int    // 1..100; 0 = server default
	Ordering string // `/all/`: only "id"; messages: "id" or "-id"
}

func (o CursorOptions) encode(q url.Values) {
	setStr(q, "cursor", o.Cursor)
	if l := ClampLimit(o.Limit); l > 0 {
		q.Set("limit", strconv.Itoa(l))
	}
	setStr(q, "ordering", o.Ordering)
}

// MessageOptions are the query of GET /conversations/{id}/messages/.
type MessageOptions struct {
	CursorOptions
	// ExcludeIDs are message ids (<conversation_id>.<part_id>.<sequence>) left out of the page.
	ExcludeIDs []string
}

func (o MessageOptions) encode(q url.Values) {
	o.CursorOptions.encode(q)
	if len(o.ExcludeIDs) > 0 {
		q.Set("exclude_ids", strings.Join(o.ExcludeIDs, ","))
	}
}

// BulkDelete selects what a list DELETE removes. DeleteIDs, when set, wins over everything
// else (only those ids are deleted). Otherwise Limit (default 10, max 100) items of the set
// chosen by the filter and search are deleted. A request with none of ids, filter or search is
// refused by the client (ErrEmptyBulkDelete). Without DeleteIDs the request is never retried:
// sent again, it would delete the next batch.
type BulkDelete[F ListFilter] struct {
	DeleteIDs  []int64
	Filter     F
	Search     string
	Limit      int
	ExcludeIDs []int64
}

// send sends b as the list DELETE of the list at path.
func (b BulkDelete[F]) send(ctx context.Context, c *Client, path string) error {
	q, err := b.values()
	if err != nil {
		return err
	}
	return c.remove(ctx, path, q, len(b.DeleteIDs) == 0)
}

func (b BulkDelete[F]) values() (url.Values, error) {
	q := url.Values{}
	if len(b.DeleteIDs) == 0 && b.Filter.IsZero() && strings.TrimSpace(b.Search) == "" {
		return nil, ErrEmptyBulkDelete
	}
	setIDs(q, "delete_ids", b.DeleteIDs)
	b.Filter.encode(q)
	setStr(q, "search_query", strings.TrimSpace(b.Search))
	if l := ClampLimit(b.Limit); l > 0 {
		q.Set("limit", strconv.Itoa(l))
	}
	setIDs(q, "exclude_ids", b.ExcludeIDs)
	return q, nil
}
