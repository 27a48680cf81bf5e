package bus

import (
	"context"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// aliveHeader names the header of a stage request that carries the inbox
// on which the worker holding it (running it, or keeping it until a slot
// is free) says, every beat, that it still is. A
// worker killed under a request (the kernel's out-of-memory killer, a
// crash in a C library) sends no answer; its caller, hearing the beats
// stop, sends the request once more instead of waiting out the whole
// pipeline timeout.
const aliveHeader = "Docsuite-Alive"

// liveness is how often a worker beats, how long its caller waits, after
// a first beat, for the next before it takes the worker for lost, and how
// long it then waits for a worker to take the request again when none is
// running; and how long a request waits for a lost NATS connection to
// come back (a server restarting) before it fails as dependency_down.
type liveness struct {
	beat      time.Duration
	lost      time.Duration
	restart   time.Duration
	reconnect time.Duration
}

// defaultLiveness: a beat every 2 s, a worker lost after 10 s without one,
// time enough for a worker whose two cores are busy and whose garbage
// collector is at work (its beats are sent by a goroutine of their own);
// 20 s for a lone worker's container to be restarted and load its models;
// 5 s for the NATS connection to come back. Sent while disconnected, a
// request sat in the client's reconnect buffer until PIPELINE_TIMEOUT
// (120 s) and was answered 503 pipeline_timeout, holding its in-flight
// slot all along.
var defaultLiveness = liveness{beat: 2 * time.Second, lost: 10 * time.Second, restart: 20 * time.Second,
	reconnect: 5 * time.Second}

// keepAlive publishes on inbox now and every beat until the returned stop
// is called. Failures to publish are dropped: a beat that does not arrive
// reads as a worker lost only after several.
func keepAlive(nc *nats.Conn, inbox string, beat time.Duration) (stop func()) {
	_ = nc.Publish(inbox, nil)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(beat)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = nc.Publish(inbox, nil)
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// errWorkerLost says the worker holding a request stopped beating before
// it answered, or, unheard, never beat for it where its stage's workers
// do (beaters).
type errWorkerLost struct{ unheard bool }

func (e errWorkerLost) Error() string {
	if e.unheard {
		return "no worker said it took the request"
	}
	return "the worker stopped while handling the request"
}

// requestWatched sends m and waits for its answer as RequestMsgWithContext
// does, listening on a fresh inbox for the beats of the worker that takes
// it (aliveHeader). After a beat, a silence of l.lost ends the wait with
// errWorkerLost. Before the first, the same silence counted from the send
// ends it only when first is set (the stage's workers are known to beat,
// beaters): a worker of an older release does not beat, and one that died
// or froze before it read the request sends nothing either.
func requestWatched(ctx context.Context, nc *nats.Conn, m *nats.Msg, l liveness, first bool) (*nats.Msg, error) {
	inbox := nc.NewRespInbox()
	beats := make(chan struct{}, 1)
	sub, err := nc.Subscribe(inbox, func(*nats.Msg) {
		select {
		case beats <- struct{}{}:
		default:
		}
	})
	if err != nil {
		// No beats then; the request is still sent and waited for.
		return nc.RequestMsgWithContext(ctx, m)
	}
	defer func() { _ = sub.Unsubscribe() }()
	m.Header.Set(aliveHeader, inbox)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type answer struct {
		msg *nats.Msg
		err error
	}
	done := make(chan answer, 1)
	go func() {
		msg, err := nc.RequestMsgWithContext(rctx, m)
		done <- answer{msg, err}
	}()
	var silence *time.Timer
	var lost <-chan time.Time
	heard := false
	if first {
		silence = time.NewTimer(l.lost)
		lost = silence.C
	}
	defer func() {
		if silence != nil {
			silence.Stop()
		}
	}()
	for {
		select {
		case a := <-done:
			return a.msg, a.err
		case <-beats:
			heard = true
			if silence == nil {
				silence = time.NewTimer(l.lost)
				lost = silence.C
			} else {
				silence.Reset(l.lost)
			}
		case <-lost:
			cancel()
			if a := <-done; a.err == nil {
				// The answer came as the wait ended.
				return a.msg, nil
			}
			return nil, errWorkerLost{unheard: !heard}
		}
	}
}
