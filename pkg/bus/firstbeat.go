package bus

import (
	"sync"
	"time"
)

// beatsHeader names the header a worker sets on its answer to a request
// it beat for (aliveHeader): its caller learns from it that the stage's
// workers beat, which a worker of a release before 2026-12-07 does not.
const beatsHeader = "Docsuite-Beats"

// beaters remembers, by stage, whether the workers that answer a
// process's requests beat. A worker of this release beats for a request
// as soon as NATS hands it over, before it waits for a slot; a request
// that gets no beat at all was handed to a worker that died (or froze)
// before it read it, and would wait out the pipeline timeout. Such a
// request is sent again once nothing beat for it for liveness.lost, but
// only for a stage whose workers have answered with beatsHeader and none
// without it for quiet: during a rolling upgrade the old workers, which
// never beat, would otherwise have every long request of theirs taken
// away and sent again.
type beaters struct {
	mu sync.Mutex
	// beating holds the stages a beating worker answered; silent, when
	// one that does not beat last did.
	beating map[string]bool
	silent  map[string]time.Time
	quiet   time.Duration
}

// quietAfterSilent is how long, after a worker that does not beat
// answered a stage, its requests are waited for without a first-beat
// deadline: the old release's workers of a rolling upgrade are replaced
// within minutes, and each of their answers extends it.
const quietAfterSilent = 10 * time.Minute

func newBeaters(quiet time.Duration) *beaters {
	return &beaters{beating: map[string]bool{}, silent: map[string]time.Time{}, quiet: quiet}
}

// expect reports whether a worker taking a request of stage now beats
// for it at once. A nil b expects nothing.
func (b *beaters) expect(stage string, now time.Time) bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	at, silent := b.silent[stage]
	return b.beating[stage] && (!silent || now.Sub(at) >= b.quiet)
}

// answered records whether a worker of stage that answered beats.
func (b *beaters) answered(stage string, beats bool, now time.Time) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if beats {
		b.beating[stage] = true
	} else {
		b.silent[stage] = now
	}
}
