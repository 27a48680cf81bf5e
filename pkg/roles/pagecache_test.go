package roles

import (
	"image"
	"sync"
	"testing"
)

// TestPageCache checks a file's documents one after another, as the
// fraud worker does with one engine: each page is decoded once however
// many documents it holds, and let go after its last document, so that a
// long file never has more than the page being checked in memory. The
// pages were all held until the answer was written: a 100-page scan at
// 300 dpi, up to 35 MB a decoded page, held up to 3.5 GB.
func TestPageCache(t *testing.T) {
	cases := []struct {
		name  string
		pages []int // the page of each document, in the order checked
	}{
		{"one document a page", []int{1, 2, 3, 4, 5}},
		{"several documents a page", []int{1, 1, 2, 3, 3, 3, 4}},
		{"pages without documents", []int{2, 5, 5, 9}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			decoded := map[int]int{}
			cache := newPageCache(itemsOnPages(c.pages...), func(n int) (image.Image, func(), error) {
				decoded[n]++
				return image.NewGray(image.Rect(0, 0, 8, 8)), nil, nil
			})
			for i, n := range c.pages {
				if _, err := cache.get(n); err != nil {
					t.Fatal(err)
				}
				if h := cache.held(); h != 1 {
					t.Errorf("document %d (page %d): %d pages held while it is checked, want 1", i+1, n, h)
				}
				cache.done(n)
			}
			if h := cache.held(); h != 0 {
				t.Errorf("%d pages held after every document was checked", h)
			}
			for n, k := range decoded {
				if k != 1 {
					t.Errorf("page %d decoded %d times", n, k)
				}
			}
		})
	}
}

// TestPageCacheDecodesAPageOnce asks for one page from many documents at
// once: it is decoded once, and let go after the last of them.
func TestPageCacheDecodesAPageOnce(t *testing.T) {
	const docs = 8
	var mu sync.Mutex
	decoded := 0
	pages := make([]int, docs)
	for i := range pages {
		pages[i] = 3
	}
	cache := newPageCache(itemsOnPages(pages...), func(int) (image.Image, func(), error) {
		mu.Lock()
		defer mu.Unlock()
		decoded++
		return image.NewGray(image.Rect(0, 0, 8, 8)), nil, nil
	})
	var wg sync.WaitGroup
	for range docs {
		wg.Go(func() {
			defer cache.done(3)
			if _, err := cache.get(3); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if decoded != 1 || cache.held() != 0 {
		t.Errorf("decoded %d times, %d pages held after all: want 1 and 0", decoded, cache.held())
	}
}
