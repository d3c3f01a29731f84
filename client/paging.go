package client

import (
	"context"
	"errors"
	"iter"
	"net/http"
)

// FetchPage follows an offset envelope's `next` or `previous` link verbatim (the link carries
// the filters, ordering and search). The link must point at the configured API.
func FetchPage[T any](ctx context.Context, c *Client, link string) (*Page[T], error) {
	if link == "" {
		return nil, errors.New("client: empty page link")
	}
	var p Page[T]
	if _, err := c.do(ctx, request{method: http.MethodGet, url: link}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// FetchCursorPage follows a cursor envelope's `next` or `previous` link verbatim.
func FetchCursorPage[T any](ctx context.Context, c *Client, link string) (*CursorPage[T], error) {
	if link == "" {
		return nil, errors.New("client: empty page link")
	}
	var p CursorPage[T]
	if _, err := c.do(ctx, request{method: http.MethodGet, url: link}, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// walkCursor yields every item of a cursor-paginated list, starting with first() and following
// `next` links until there is none. It stops at the first error, which it yields.
func walkCursor[T any](ctx context.Context, c *Client, first func() (*CursorPage[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		page, err := first()
		for {
			if err != nil {
				yield(zero, err)
				return
			}
			for _, item := range page.Results {
				if !yield(item, nil) {
					return
				}
			}
			if page.Next == "" || len(page.Results) == 0 {
				return
			}
			page, err = FetchCursorPage[T](ctx, c, page.Next)
		}
	}
}

// walkOffset yields every item of an offset list by following `next` links.
func walkOffset[T any](ctx context.Context, c *Client, first func() (*Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		page, err := first()
		for {
			if err != nil {
				yield(zero, err)
				return
			}
			for _, item := range page.Results {
				if !yield(item, nil) {
					return
				}
			}
			if page.Next == "" || len(page.Results) == 0 {
				return
			}
			page, err = FetchPage[T](ctx, c, page.Next)
		}
	}
}
