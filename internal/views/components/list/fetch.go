package list

import (
	"context"
	"fmt"
	"time"

	"github.com/parley-tui/parley/client"
)

// PageMsg is a page for the list whose owner id it carries: pages of one list never land in
// another, whatever their row type. Reached is set on a first page: a time the server's
// clock had reached when it answered (client.ServerReached).
type PageMsg[R any] struct {
	Owner int
	Page[R]
	Reached time.Time
}

// Fetcher is how the pages of one query are fetched: Endpoints is its only kind. The list
// hands the value to its commands.
type Fetcher[R any] interface {
	offset(ctx context.Context, c *client.Client, r Request, limit, offset int) Page[R]
	next(ctx context.Context, c *client.Client, r Request, link string, kind LinkKind, after int64, limit int) Page[R]
	bottom(ctx context.Context, c *client.Client, r Request, limit int) Page[R]
	beforeLast(ctx context.Context, c *client.Client, r Request, link string, kind LinkKind) Page[R]
	id(R) int64
	// lookup fetches the query's row id (false: the query has none; nil lookup: it cannot
	// tell).
	lookup() func(ctx context.Context, c *client.Client, id int64) (R, bool, error)
	// cursor is how the query goes on past the offset cap through /all/: LinkAllPrev (id
	// descending), LinkAllNext (ascending), or LinkNone when it cannot.
	cursor() LinkKind
	noun() string
	one() string
	whole() string
	ranked() bool
}

// Endpoints are the list endpoints of one query of a resource whose API items are T and
// whose rows are R. Its functions run in commands: they must use only what they captured
// when the Source built them (a copy of the query), never state that Update changes.
type Endpoints[T, R any] struct {
	// What names the rows in errors and messages ("conversations"); One names one row
	// ("conversation").
	What, One string
	// Whole says how to reach the rows past the offset cap when the query does not go on
	// there ("order by id": the order key is named after it, then "to browse all");
	// Ranked: the query is a search in rank order, which never does.
	Whole  string
	Ranked bool
	// Row makes an item a row (sanitizing its text).
	Row func(T) R
	// ID is a row's id.
	ID func(R) int64
	// Offset fetches the query's page at offset from the offset endpoint (or, for a resource
	// read whole, every item as one page without a next link).
	Offset func(ctx context.Context, c *client.Client, limit, offset int) (*client.Page[T], error)
	// All fetches the query's page of the /all/ cursor endpoint at cursor ("" = its first),
	// ordered by id; nil when the query does not go on past the offset cap that way (a
	// search, an ordering the endpoint does not serve).
	All func(ctx context.Context, c *client.Client, cursor string, limit int) (*client.CursorPage[T], error)
	// Desc: the query lists ids descending, so /all/ is walked backwards.
	Desc bool
	// Newest fetches the newest items of the query in the default order (id descending): the
	// last rows of a query in ascending id order. Needed with All when not Desc.
	Newest func(ctx context.Context, c *client.Client, limit int) (*client.Page[T], error)
	// Lookup fetches the query's item id, if it has one, by an id filter added to the
	// query (nil: the endpoint has none, and jump to id finds loaded rows only).
	Lookup func(ctx context.Context, c *client.Client, id int64) (*client.Page[T], error)
}

func (e Endpoints[T, R]) noun() string  { return e.What }
func (e Endpoints[T, R]) one() string   { return e.One }
func (e Endpoints[T, R]) whole() string { return e.Whole }
func (e Endpoints[T, R]) ranked() bool  { return e.Ranked }
func (e Endpoints[T, R]) id(r R) int64  { return e.ID(r) }

func (e Endpoints[T, R]) cursor() LinkKind {
	switch {
	case e.All == nil:
		return LinkNone
	case e.Desc:
		return LinkAllPrev
	}
	return LinkAllNext
}

// wrap names the rows in err ("conversations (all): …").
func (e Endpoints[T, R]) wrap(err error, kind LinkKind) error {
	if err == nil {
		return nil
	}
	what := e.What
	if kind == LinkAllNext || kind == LinkAllPrev {
		what += " (all)"
	}
	return fmt.Errorf("%s: %w", what, err)
}

func (e Endpoints[T, R]) offset(ctx context.Context, c *client.Client, r Request, limit, offset int) Page[R] {
	pg, err := e.Offset(ctx, c, limit, offset)
	return FirstPage(r, pg, e.wrap(err, LinkOffset), e.Row, time.Time{})
}

func (e Endpoints[T, R]) next(ctx context.Context, c *client.Client, r Request, link string, kind LinkKind, after int64, limit int) Page[R] {
	first := func(ctx context.Context) (*client.CursorPage[T], error) {
		cursor, err := CursorFrom(after, kind == LinkAllPrev)
		if err != nil {
			return nil, err
		}
		return e.All(ctx, c, cursor, limit)
	}
	p := FetchNext(ctx, c, r, link, kind, first, e.Row)
	p.Err = e.wrap(p.Err, kind)
	return p
}

func (e Endpoints[T, R]) bottom(ctx context.Context, c *client.Client, r Request, limit int) Page[R] {
	all := func(ctx context.Context, cursor string) (*client.CursorPage[T], error) {
		return e.All(ctx, c, cursor, limit)
	}
	newest := func(ctx context.Context) (*client.Page[T], error) { return e.Newest(ctx, c, limit) }
	p := FetchBottom(ctx, r, e.Desc, all, newest, e.Row, e.ID)
	p.Err = e.wrap(p.Err, LinkAllNext)
	return p
}

func (e Endpoints[T, R]) beforeLast(ctx context.Context, c *client.Client, r Request, link string, kind LinkKind) Page[R] {
	p := FetchBeforeLast(ctx, c, r, link, kind, e.Row)
	p.Err = e.wrap(p.Err, kind)
	return p
}

func (e Endpoints[T, R]) lookup() func(context.Context, *client.Client, int64) (R, bool, error) {
	if e.Lookup == nil {
		return nil
	}
	return func(ctx context.Context, c *client.Client, id int64) (R, bool, error) {
		var zero R
		pg, err := e.Lookup(ctx, c, id)
		if err != nil {
			return zero, false, e.wrap(err, LinkOffset)
		}
		for _, it := range pg.Results {
			if r := e.Row(it); e.ID(r) == id {
				return r, true, nil
			}
		}
		return zero, false, nil
	}
}
