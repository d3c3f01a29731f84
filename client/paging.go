package client

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
)

// FetchPage follows an offset envelope's `next` or `previous` link verbatim (the link carries
// the filters, ordering and search). The link must point at the configured API.
func FetchPage[T any](ctx context.Context, c *Client, link string) (*Page[T], error) {
	if link == "" {
		return nil, errors.New("client: empty page link")
	}
	return call[Page[T]](ctx, c, request{method: http.MethodGet, url: link})
}

// FetchCursorPage follows a cursor envelope's `next` or `previous` link verbatim.
func FetchCursorPage[T any](ctx context.Context, c *Client, link string) (*CursorPage[T], error) {
	if link == "" {
		return nil, errors.New("client: empty page link")
	}
	return call[CursorPage[T]](ctx, c, request{method: http.MethodGet, url: link})
}

// ErrPagingLoop is returned by the list walkers when the server sends a `next` link that was
// already followed: walking on would repeat the same pages forever.
var ErrPagingLoop = errors.New("client: the server's next link points back to a page already read")

// links remembers the page links one walk has followed.
type links map[string]struct{}

// visit records link, or returns ErrPagingLoop when it was followed before.
func (l *links) visit(link string) error {
	if *l == nil {
		*l = links{}
	}
	if _, ok := (*l)[link]; ok {
		return fmt.Errorf("%w: %s", ErrPagingLoop, link)
	}
	(*l)[link] = struct{}{}
	return nil
}

// walkCursor yields every item of a cursor-paginated list, starting with first() and following
// `next` links until there is none. It stops at the first error, which it yields, and at a
// link it has already followed (ErrPagingLoop).
func walkCursor[T any](ctx context.Context, c *Client, first func() (*CursorPage[T], error)) iter.Seq2[T, error] {
	return walk(first, func(p *CursorPage[T]) ([]T, string) { return p.Results, p.Next },
		func(link string) (*CursorPage[T], error) { return FetchCursorPage[T](ctx, c, link) })
}

// walkOffset yields every item of an offset list by following `next` links, like walkCursor.
func walkOffset[T any](ctx context.Context, c *Client, first func() (*Page[T], error)) iter.Seq2[T, error] {
	return walk(first, func(p *Page[T]) ([]T, string) { return p.Results, p.Next },
		func(link string) (*Page[T], error) { return FetchPage[T](ctx, c, link) })
}

// walk is the loop of both walkers: the items of each page, then the page its next link
// names, until a page without a link or without items.
func walk[T, P any](first func() (P, error), parts func(P) ([]T, string), fetch func(string) (P, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		var seen links
		page, err := first()
		for {
			if err != nil {
				yield(zero, err)
				return
			}
			items, next := parts(page)
			for _, item := range items {
				if !yield(item, nil) {
					return
				}
			}
			if next == "" || len(items) == 0 {
				return
			}
			if err = seen.visit(next); err != nil {
				continue
			}
			page, err = fetch(next)
		}
	}
}
