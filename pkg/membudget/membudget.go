// Package membudget admits work by the memory it is estimated to take: a
// weighted semaphore over bytes, so that a worker holds no more pages at
// once than its memory allows, however many requests it takes.
package membudget

import (
	"context"
	"fmt"
	"math"
	"runtime/debug"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// DefaultFallback is the budget when neither GOMEMLIMIT nor a container
// memory limit says how much memory the process may use: 2 GiB.
const DefaultFallback int64 = 2 << 30

// Budget admits work while the sum of the estimates of the work admitted
// fits its size. It is safe for concurrent use.
type Budget struct {
	size  int64
	sem   *semaphore.Weighted
	inUse atomic.Int64
	// waits counts the Acquires that had to wait, waited the nanoseconds
	// they spent waiting (those that gave up included).
	waits, waited atomic.Int64
}

// New returns a budget of size bytes (at least 1).
func New(size int64) *Budget {
	size = max(size, 1)
	return &Budget{size: size, sem: semaphore.NewWeighted(size)}
}

// Size is the budget's size in bytes.
func (b *Budget) Size() int64 { return b.size }

// InUse is the sum of the estimates of the work admitted now.
func (b *Budget) InUse() int64 { return b.inUse.Load() }

// Waits is how many Acquires have had to wait since the budget was made.
func (b *Budget) Waits() int64 { return b.waits.Load() }

// Waited is the time Acquires have spent waiting, all together, since the
// budget was made (those whose context ended while they waited included).
func (b *Budget) Waited() time.Duration { return time.Duration(b.waited.Load()) }

// Acquire waits until cost bytes fit the budget beside the work admitted
// already, or ctx ends (its error is returned, and the waiter leaves the
// queue). A cost above the whole budget is counted as the whole budget:
// such work is admitted alone, once nothing else runs, and never refused
// for its size. Waiters are admitted in their order of arrival, so a large
// one is not passed over forever by small ones. waiting, when not nil, is
// called once before Acquire blocks. The caller must call the returned
// function when the work is done and its memory let go.
func (b *Budget) Acquire(ctx context.Context, cost int64, waiting func()) (func(), error) {
	n := min(max(cost, 1), b.size)
	if !b.sem.TryAcquire(n) {
		if waiting != nil {
			waiting()
		}
		b.waits.Add(1)
		start := time.Now()
		err := b.sem.Acquire(ctx, n)
		b.waited.Add(int64(time.Since(start)))
		if err != nil {
			return nil, fmt.Errorf("membudget: wait for %d bytes: %w", cost, err)
		}
	}
	b.inUse.Add(n)
	var released atomic.Bool
	return func() {
		if released.CompareAndSwap(false, true) {
			b.inUse.Add(-n)
			b.sem.Release(n)
		}
	}, nil
}

// Default is the budget of a process whose operator set none: the Go
// runtime's soft memory limit (GOMEMLIMIT, or the one a role sets itself
// from its container's memory limit, pkg/cli) when there is one, else
// DefaultFallback.
func Default() int64 {
	return defaultFrom(debug.SetMemoryLimit(-1))
}

// defaultFrom is Default for a runtime soft limit of limit bytes
// (math.MaxInt64: none).
func defaultFrom(limit int64) int64 {
	if limit <= 0 || limit == math.MaxInt64 {
		return DefaultFallback
	}
	return limit
}
