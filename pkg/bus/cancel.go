package bus

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// CancelSubject carries the id of a stage request whose caller stopped
// waiting (its client gone, its time up). Every worker hears it; the one
// running or holding that request cancels its context, so that a client
// who leaves a 100-page fulltext does not keep an OCR worker busy with it
// for minutes, and requests a cancelled one spawned are cancelled in turn.
const CancelSubject = "docsuite.cancel"

// requestIDHeader names the header that carries a stage request's id.
const requestIDHeader = "Docsuite-Request-Id"

// newRequestID returns a random id for one stage request.
func newRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// cancels tracks a worker's requests by id: the running ones, with the
// function that cancels each, and the ids cancelled before their request
// started (still waiting for a free slot), remembered for a request
// timeout.
type cancels struct {
	mu      sync.Mutex
	running map[string]context.CancelFunc
	early   map[string]time.Time
	// order lists early's ids as they came, so that the expired ones are
	// dropped from its front (amortised constant time a cancellation).
	order []earlyID
	keep  time.Duration
}

// earlyID is one remembered cancellation.
type earlyID struct {
	id string
	at time.Time
}

func newCancels(keep time.Duration) *cancels {
	if keep <= 0 {
		keep = time.Minute
	}
	return &cancels{running: map[string]context.CancelFunc{}, early: map[string]time.Time{}, keep: keep}
}

// prune forgets the remembered cancellations older than keep; c.mu is
// held.
func (c *cancels) prune(now time.Time) {
	n := 0
	for n < len(c.order) && now.Sub(c.order[n].at) > c.keep {
		if at, ok := c.early[c.order[n].id]; ok && at.Equal(c.order[n].at) {
			delete(c.early, c.order[n].id)
		}
		n++
	}
	if n > 0 {
		c.order = append(c.order[:0], c.order[n:]...)
	}
}

// start registers a request about to run under cancel. It reports false
// when the request was cancelled while it waited: it must not run.
func (c *cancels) start(id string, cancel context.CancelFunc, now time.Time) bool {
	if id == "" {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.prune(now)
	if _, ok := c.early[id]; ok {
		delete(c.early, id)
		return false
	}
	c.running[id] = cancel
	return true
}

// finish forgets a request once it has run.
func (c *cancels) finish(id string) {
	if id == "" {
		return
	}
	c.mu.Lock()
	delete(c.running, id)
	c.mu.Unlock()
}

// cancel cancels a running request, or remembers the id for one not yet
// started. Every worker hears every cancellation, so ids of requests
// another replica holds are remembered too, and forgotten after keep.
func (c *cancels) cancel(id string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if fn, ok := c.running[id]; ok {
		fn()
		return
	}
	c.prune(now)
	c.early[id] = now
	c.order = append(c.order, earlyID{id, now})
}

// listen subscribes c to CancelSubject.
func (c *cancels) listen(nc *nats.Conn) (*nats.Subscription, error) {
	return nc.Subscribe(CancelSubject, func(m *nats.Msg) { c.cancel(string(m.Data), time.Now()) })
}
