package demo

import (
	"container/list"
	"sync"
)

// imageCache is a small LRU of encoded images, bounded by entry count and
// total bytes. Images can always be rendered again from their key, so
// evicting one only costs time.
type imageCache struct {
	mu         sync.Mutex
	maxEntries int
	maxBytes   int
	size       int
	order      *list.List // of *cacheEntry, most recently used first
	entries    map[string]*list.Element
}

type cacheEntry struct {
	key  string
	data []byte
}

func newImageCache(maxEntries, maxBytes int) *imageCache {
	return &imageCache{
		maxEntries: maxEntries,
		maxBytes:   maxBytes,
		order:      list.New(),
		entries:    make(map[string]*list.Element),
	}
}

// get returns the image stored under key.
func (c *imageCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).data, true
}

// put stores data under key, evicting the least recently used images to
// stay within bounds. An image larger than the byte budget is not kept.
func (c *imageCache) put(key string, data []byte) {
	if len(data) > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.entries[key] = c.order.PushFront(&cacheEntry{key, data})
	c.size += len(data)
	for c.order.Len() > c.maxEntries || c.size > c.maxBytes {
		last := c.order.Back()
		ent := last.Value.(*cacheEntry)
		c.order.Remove(last)
		delete(c.entries, ent.key)
		c.size -= len(ent.data)
	}
}
