package ocr

import (
	"sync"
	"syscall"
	"testing"
)

// fdTarget identifies what a file descriptor points at: its device and
// inode (a pipe, a file, /dev/null).
func fdTarget(t *testing.T, fd int) [2]uint64 {
	t.Helper()
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		t.Fatal(err)
	}
	return [2]uint64{uint64(st.Dev), st.Ino}
}

// TestEnginesStartedTogetherKeepStderr starts Tesseract engines side by
// side, as the all-in-one's roles do at their first requests: afterwards
// the process's stderr, where every role writes its log, must point where
// it pointed before (gosseract points it at /dev/null while Tesseract
// loads, see tesseractInit; two at once left it there).
func TestEnginesStartedTogetherKeepStderr(t *testing.T) {
	saved, err := syscall.Dup(2)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // so a failure here leaves the other tests their stderr
		_ = syscall.Dup2(saved, 2)
		_ = syscall.Close(saved)
	})
	before := fdTarget(t, 2)
	for round := 0; round < 3; round++ {
		const n = 6
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := 0; i < n; i++ {
			e, err := New(1)
			if err != nil {
				t.Skipf("tesseract not usable: %v", err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := e.newClient()
				if err != nil {
					errs <- err
					return
				}
				_ = c.Close()
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if after := fdTarget(t, 2); after != before {
			t.Fatalf("round %d: stderr points elsewhere after %d engines started together (device/inode %v, was %v)", round, n, after, before)
		}
	}
}
