package roles

import (
	"image"
	"sync"

	"docsuite/pkg/pipeline"
)

// pageCache decodes the pages of a file for its documents' checks: a page
// once, by the first of its documents to ask, and let go when the last of
// them is done, so that a long file's pages are not all held at once (a
// decoded A4 page at 300 dpi is 35 MB; MAX_PAGES is 100). It is safe for
// concurrent use.
type pageCache struct {
	decode func(page int) (image.Image, error)
	mu     sync.Mutex
	left   map[int]int // documents of each page not yet done
	pages  map[int]func() (image.Image, error)
}

// newPageCache prepares the pages of items (1-based page numbers), each
// decoded by decode when first asked for.
func newPageCache(items []pipeline.Item, decode func(page int) (image.Image, error)) *pageCache {
	c := &pageCache{decode: decode, left: map[int]int{}, pages: map[int]func() (image.Image, error){}}
	for _, it := range items {
		c.left[it.Document.Page]++
	}
	return c
}

// get returns page n, decoding it when no document of it has asked yet.
func (c *pageCache) get(n int) (image.Image, error) {
	c.mu.Lock()
	get, ok := c.pages[n]
	if !ok {
		get = sync.OnceValues(func() (image.Image, error) { return c.decode(n) })
		c.pages[n] = get
	}
	c.mu.Unlock()
	return get()
}

// done says one document of page n is checked; after its last the page
// is let go.
func (c *pageCache) done(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left[n]--; c.left[n] <= 0 {
		delete(c.pages, n)
	}
}

// held is how many pages the cache holds.
func (c *pageCache) held() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pages)
}
