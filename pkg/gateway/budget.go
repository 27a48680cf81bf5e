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

// readChunk is the piece an upload is read and reserved in.
const readChunk = 256 << 10

// chunks is a file read in pieces of readChunk bytes (the last one
// shorter), so that what an upload holds is what it has sent, with no
// doubling buffer and no copy to join the pieces.
type chunks [][]byte

// ReadAt implements io.ReaderAt.
func (c chunks) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		i, at := (off+int64(n))/readChunk, (off+int64(n))%readChunk
		if i >= int64(len(c)) || at >= int64(len(c[i])) {
			return n, io.EOF
		}
		n += copy(p[n:], c[i][at:])
	}
	return n, nil
}

// head returns the first bytes of the file (up to readChunk).
func (c chunks) head() []byte {
	if len(c) == 0 {
		return nil
	}
	return c[0]
}

// readHeld reads r to its end, or to limit+1 bytes, in pieces each
// reserved from b before it is read: what an upload holds is reserved as
// it arrives, not when its client announces it, so a client that sends
// nothing holds nothing. It returns the pieces, their total size and the
// bytes reserved, which the caller gives back; on error nothing stays
// reserved. errBudget says b had too little left.
func readHeld(r io.Reader, limit int64, b *memBudget) (chunks, int64, int64, error) {
	var out chunks
	var held, size int64
	for size <= limit {
		n := min(readChunk, limit+1-size)
		if !b.take(n) {
			b.give(held)
			return nil, 0, 0, errBudget
		}
		held += n
		piece := make([]byte, n)
		m, err := io.ReadFull(r, piece)
		if m > 0 {
			out = append(out, piece[:m])
			size += int64(m)
		} else {
			b.give(n) // nothing came: the piece is dropped
			held -= n
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			b.give(held)
			return nil, 0, 0, err
		}
	}
	return out, size, held, nil
}
