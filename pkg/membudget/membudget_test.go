package membudget

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"testing"
	"time"
)

// eventually polls cond for up to five seconds.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestAdmission checks that work is admitted while its estimates fit the
// budget, that work over what is left waits (saying so once) until enough
// is given back, and that work larger than the whole budget runs alone
// rather than being refused.
func TestAdmission(t *testing.T) {
	tests := []struct {
		name       string
		size       int64
		held, next int64
		wantWait   bool
	}{
		{"both fit", 100, 60, 40, false},
		{"second over what is left", 100, 60, 41, true},
		{"oversize beside nothing", 100, 0, 1000, false},
		{"oversize beside other work", 100, 1, 1000, true},
		{"anything beside an oversize one", 100, 1000, 1, true},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := New(tc.size)
			leave := func() {}
			if tc.held > 0 {
				var err error
				if leave, err = b.Acquire(ctx, tc.held, func() { t.Error("first work waited") }); err != nil {
					t.Fatal(err)
				}
			}
			var waits atomic.Int32
			admitted := make(chan func())
			go func() {
				l, err := b.Acquire(ctx, tc.next, func() { waits.Add(1) })
				if err != nil {
					t.Error(err)
				}
				admitted <- l
			}()
			if tc.wantWait {
				eventually(t, "the wait to be reported", func() bool { return waits.Load() == 1 })
				select {
				case <-admitted:
					t.Fatal("admitted beside the work holding the budget")
				case <-time.After(50 * time.Millisecond):
				}
				leave()
			}
			l := <-admitted
			if got := waits.Load(); got != map[bool]int32{false: 0, true: 1}[tc.wantWait] {
				t.Errorf("waiting reported %d times", got)
			}
			l()
			leave()
			l() // giving back twice gives back once
			if b.InUse() != 0 {
				t.Errorf("%d bytes in use after everything left", b.InUse())
			}
		})
	}
}

// TestCancelledWaiterLeaves checks that a waiter whose context ends stops
// waiting with the context's error and holds nothing, so the work after it
// is admitted once the budget frees.
func TestCancelledWaiterLeaves(t *testing.T) {
	b := New(100)
	ctx := context.Background()
	leave, err := b.Acquire(ctx, 80, nil)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	waiting := make(chan struct{})
	done := make(chan error)
	go func() {
		_, err := b.Acquire(cctx, 90, func() { close(waiting) })
		done <- err
	}()
	<-waiting
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the cancelled waiter still waits")
	}
	leave()
	l, err := b.Acquire(ctx, 100, func() { t.Error("waited behind the cancelled waiter") })
	if err != nil {
		t.Fatal(err)
	}
	l()
}

// TestDefault checks the default budget: the runtime's soft memory limit
// where one is set, else the fixed fallback.
func TestDefault(t *testing.T) {
	tests := []struct {
		limit, want int64
	}{
		{3 << 30, 3 << 30},
		{math.MaxInt64, DefaultFallback},
		{0, DefaultFallback},
	}
	for _, tc := range tests {
		if got := defaultFrom(tc.limit); got != tc.want {
			t.Errorf("defaultFrom(%d) = %d, want %d", tc.limit, got, tc.want)
		}
	}
}
