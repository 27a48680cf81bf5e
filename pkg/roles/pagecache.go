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
	decode func(page int) (image.Image, func(), error)
	mu     sync.Mutex
	left   map[int]int // documents of each page not yet done
	pages  map[int]func() (heldPage, error)
}

// heldPage is a decoded page and what gives back its share of the memory
// budget (nil: nothing to give back).
type heldPage struct {
	img   image.Image
	leave func()
}

// newPageCache prepares the pages of items (1-based page numbers), each
// decoded by decode when first asked for. decode also returns the
// function that gives the page's memory back (its share of the page
// budget; nil when there is none), called when the page is let go, or at
// once when decoding fails.
func newPageCache(items []pipeline.Item, decode func(page int) (image.Image, func(), error)) *pageCache {
	c := &pageCache{decode: decode, left: map[int]int{}, pages: map[int]func() (heldPage, error){}}
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
		get = sync.OnceValues(func() (heldPage, error) {
			img, leave, err := c.decode(n)
			if err != nil {
				if leave != nil {
					leave()
				}
				return heldPage{}, err
			}
			return heldPage{img: img, leave: leave}, nil
		})
		c.pages[n] = get
	}
	c.mu.Unlock()
	p, err := get()
	return p.img, err
}

// done says one document of page n is checked; after its last the page
// is let go and its memory given back. Each document calls it after its
// get has returned.
func (c *pageCache) done(n int) {
	c.mu.Lock()
	var get func() (heldPage, error)
	if c.left[n]--; c.left[n] <= 0 {
		get = c.pages[n]
		delete(c.pages, n)
	}
	c.mu.Unlock()
	if get == nil {
		return
	}
	if p, err := get(); err == nil && p.leave != nil {
		p.leave()
	}
}

// held is how many pages the cache holds.
func (c *pageCache) held() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pages)
}
