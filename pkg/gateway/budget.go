package gateway

import (
	"errors"
	"io"
	"sync"
)

// errBudget is returned by readHeld when the upload memory budget is
// spent: the upload is refused as overloaded.
var errBudget = errors.New("gateway: upload memory budget spent")

// memBudget bounds the bytes that uploads being read hold at once
// (UPLOAD_MEMORY_BYTES). Uploads are read into memory; without a bound,
// many clients trickling large files (each holding what it has sent so
// far, for as long as it keeps sending) would exhaust the process's
// memory before MAX_INFLIGHT, which counts requests once read, applied.
type memBudget struct {
	mu   sync.Mutex
	left int64
}

func newMemBudget(n int64) *memBudget { return &memBudget{left: n} }

// take reserves n bytes, or reports that fewer are left.
func (b *memBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.left {
		return false
	}
	b.left -= n
	return true
}

// give returns n reserved bytes.
func (b *memBudget) give(n int64) {
	b.mu.Lock()
	b.left += n
	b.mu.Unlock()
}

// readChunk is the first buffer of an upload and the least it grows by.
const readChunk = 64 << 10

// readHeld reads r to its end, or to limit+1 bytes, into a buffer whose
// capacity is reserved from b as it grows (doubling, as io.ReadAll does):
// what an upload holds is reserved when it arrives, not when its client
// announces it, so a client that sends nothing holds nothing. It returns
// the data and the bytes reserved, which the caller gives back; on error
// nothing stays reserved. errBudget says b had too little left.
func readHeld(r io.Reader, limit int64, b *memBudget) ([]byte, int64, error) {
	var held int64
	grow := func(buf []byte) ([]byte, error) {
		n := int64(max(cap(buf), readChunk))
		n = min(n, limit+1-int64(cap(buf)))
		if !b.take(n) {
			return nil, errBudget
		}
		held += n
		nb := make([]byte, len(buf), int64(cap(buf))+n)
		copy(nb, buf)
		return nb, nil
	}
	var buf []byte
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return buf, held, nil
			}
			var err error
			if buf, err = grow(buf); err != nil {
				b.give(held)
				return nil, 0, err
			}
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, held, nil
		}
		if err != nil {
			b.give(held)
			return nil, 0, err
		}
	}
}
