package cropsvc

import (
	"container/list"
	"context"
	"sync"
	"time"

	"docsuite/pkg/decode"
)

// docCache keeps recently opened documents so the pages of one file, sent
// as separate crop requests, do not each re-read and re-open the input.
// Entries are reference-counted: an evicted document is closed only when
// its last user is done. An entry unused for the TTL is evicted by a timer,
// not at the next request: a PDF or DJVU is held as a temporary file, a
// copy of the client's document that must not outlive the request by more
// than the TTL on a service left idle.
type docCache struct {
	mu    sync.Mutex
	max   int
	ttl   time.Duration
	order *list.List // of *cacheEntry, most recent first
	byKey map[string]*list.Element
	sweep *time.Timer // pending expiry; nil when the cache is empty or closed
}

type cacheEntry struct {
	key     string
	doc     decode.Document
	refs    int
	evicted bool
	used    time.Time
}

func newDocCache(max int, ttl time.Duration) *docCache {
	return &docCache{max: max, ttl: ttl, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns the cached document of key, or opens it with open. The
// returned release must be called when the caller is done with the
// document.
func (c *docCache) get(ctx context.Context, key string, open func(context.Context) (decode.Document, error)) (decode.Document, func(), error) {
	c.mu.Lock()
	c.expireLocked(time.Now())
	if el, ok := c.byKey[key]; ok {
		e := el.Value.(*cacheEntry)
		e.refs++
		e.used = time.Now()
		c.order.MoveToFront(el)
		c.mu.Unlock()
		return e.doc, c.releaser(e), nil
	}
	c.mu.Unlock()

	doc, err := open(ctx)
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok { // opened twice concurrently: keep the first
		_ = doc.Close()
		e := el.Value.(*cacheEntry)
		e.refs++
		return e.doc, c.releaser(e), nil
	}
	e := &cacheEntry{key: key, doc: doc, refs: 1, used: time.Now()}
	c.byKey[key] = c.order.PushFront(e)
	for c.order.Len() > c.max {
		c.evictLocked(c.order.Back())
	}
	if c.sweep == nil {
		c.sweep = time.AfterFunc(c.ttl, c.expire)
	}
	return doc, c.releaser(e), nil
}

// expire evicts the entries unused for the TTL and, while entries remain,
// runs again when the least recently used of them reaches it.
func (c *docCache) expire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sweep == nil { // closed meanwhile
		return
	}
	now := time.Now()
	c.expireLocked(now)
	back := c.order.Back()
	if back == nil {
		c.sweep = nil
		return
	}
	c.sweep.Reset(back.Value.(*cacheEntry).used.Add(c.ttl).Sub(now) + time.Millisecond)
}

func (c *docCache) releaser(e *cacheEntry) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			e.refs--
			if e.evicted && e.refs == 0 {
				_ = e.doc.Close()
			}
		})
	}
}

func (c *docCache) expireLocked(now time.Time) {
	for el := c.order.Back(); el != nil; {
		prev := el.Prev()
		if now.Sub(el.Value.(*cacheEntry).used) > c.ttl {
			c.evictLocked(el)
		}
		el = prev
	}
}

func (c *docCache) evictLocked(el *list.Element) {
	e := el.Value.(*cacheEntry)
	c.order.Remove(el)
	delete(c.byKey, e.key)
	e.evicted = true
	if e.refs == 0 {
		_ = e.doc.Close()
	}
}

// drop evicts the document of key, if cached: it is closed, and what it
// holds let go, once its last user is done.
func (c *docCache) drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[key]; ok {
		c.evictLocked(el)
	}
}

// close evicts everything.
func (c *docCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sweep != nil {
		c.sweep.Stop()
		c.sweep = nil
	}
	for c.order.Len() > 0 {
		c.evictLocked(c.order.Back())
	}
}
