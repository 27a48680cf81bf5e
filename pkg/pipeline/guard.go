package pipeline

import (
	"fmt"
	"runtime/debug"

	"docsuite/pkg/apierr"
)

// guarded runs fn and turns a panic into an internal error carrying the
// stack. The pipeline's pages and documents run on goroutines of their
// own, where neither the gateway's request recoverer nor the task
// runner's reaches: a panic there took the whole gateway down, with every
// request and task it was running.
func guarded(fn func() error) func() error {
	return func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = apierr.Panic(fmt.Sprintf("%v\n%s", p, debug.Stack()))
			}
		}()
		return fn()
	}
}
