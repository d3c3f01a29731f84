package client

import (
	"container/list"
	"context"
	"strconv"
	"sync"
	"time"
)

type freshKey struct{}

// Fresh returns a context whose GET requests skip the response cache (they still refresh
// it): what a user's explicit refresh needs.
func Fresh(ctx context.Context) context.Context { return context.WithValue(ctx, freshKey{}, true) }

func isFresh(ctx context.Context) bool { v, _ := ctx.Value(freshKey{}).(bool); return v }

// cache keeps successful GET bodies keyed by URL and context headers for a TTL, bounded in
// bytes (least recently used entries go first). Any successful write clears it, so an edit
// is never hidden by a stale page.
type cache struct {
	mu       sync.Mutex
	ttl      time.Duration
	maxBytes int
	bytes    int
	now      func() time.Time
	order    *list.List // front = most recently used
	entries  map[string]*list.Element
}

type cacheEntry struct {
	key     string
	body    []byte
	status  int
	expires time.Time
}

func newCache(ttl time.Duration, maxBytes int, now func() time.Time) *cache {
	return &cache{ttl: ttl, maxBytes: maxBytes, now: now, order: list.New(), entries: map[string]*list.Element{}}
}

func cacheKey(org, operator int64, url string) string {
	return strconv.FormatInt(org, 10) + "|" + strconv.FormatInt(operator, 10) + "|" + url
}

func (c *cache) get(key string) ([]byte, int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return nil, 0, false
	}
	e := el.Value.(*cacheEntry)
	if !c.now().Before(e.expires) {
		c.remove(el)
		return nil, 0, false
	}
	c.order.MoveToFront(el)
	return e.body, e.status, true
}

func (c *cache) put(key string, status int, body []byte) {
	if len(body) > c.maxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.remove(el)
	}
	e := &cacheEntry{key: key, body: body, status: status, expires: c.now().Add(c.ttl)}
	c.entries[key] = c.order.PushFront(e)
	c.bytes += len(body)
	for c.bytes > c.maxBytes {
		c.remove(c.order.Back())
	}
}

func (c *cache) remove(el *list.Element) {
	e := el.Value.(*cacheEntry)
	c.order.Remove(el)
	delete(c.entries, e.key)
	c.bytes -= len(e.body)
}

func (c *cache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.order.Init()
	clear(c.entries)
	c.bytes = 0
}

// drop removes key's entry, if any.
func (c *cache) drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[key]; ok {
		c.remove(el)
	}
}
