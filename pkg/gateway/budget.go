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

// firstPiece is the first piece an upload is read and reserved in; each
// next piece is twice the last, up to readChunk. A piece is reserved
// before its bytes arrive, so what an upload holds is at most twice what
// it has sent, plus firstPiece: with pieces of readChunk from the start,
// a client that sent one byte held 256 KiB, and 2,100 connections sending
// a byte every 40 s (50 bytes a second in all) held the whole default
// budget, every other upload answered 503 for as long as they went on.
const firstPiece = 4 << 10

// readChunk is the largest piece an upload is read and reserved in.
const readChunk = 256 << 10

// chunks is a file read in pieces (of firstPiece bytes, then twice the
// last up to readChunk; the last one shorter), so that what an upload
// holds is what it has sent, with no doubling buffer and no copy to join
// the pieces.
type chunks [][]byte

// ReadAt implements io.ReaderAt.
func (c chunks) ReadAt(p []byte, off int64) (int, error) {
	n := 0
	for _, piece := range c {
		if n == len(p) {
			return n, nil
		}
		if off >= int64(len(piece)) {
			off -= int64(len(piece))
			continue
		}
		n += copy(p[n:], piece[off:])
		off = 0
	}
	if n == len(p) {
		return n, nil
	}
	return n, io.EOF
}

// head returns the first bytes of the file (up to firstPiece).
func (c chunks) head() []byte {
	if len(c) == 0 {
		return nil
	}
	return c[0]
}

// readHeld reads r to its end, or to limit+1 bytes, in pieces each
// reserved from b before it is read (firstPiece bytes, then twice the
// last, up to readChunk): what an upload holds is reserved as it arrives,
// not when its client announces it, so a client that sends nothing holds
// nothing and one that sends little holds little. It returns the pieces,
// their total size and the bytes reserved, which the caller gives back;
// on error nothing stays reserved. errBudget says b had too little left.
// Only r's own end (io.EOF) ends the file: a multipart part whose body
// stops before the closing boundary reports io.ErrUnexpectedEOF, a file
// cut short, which is returned as an error.
func readHeld(r io.Reader, limit int64, b *memBudget) (chunks, int64, int64, error) {
	var out chunks
	var held, size int64
	piece := int64(firstPiece)
	for size <= limit {
		n := min(piece, limit+1-size)
		piece = min(2*piece, readChunk)
		if !b.take(n) {
			b.give(held)
			return nil, 0, 0, errBudget
		}
		held += n
		buf := make([]byte, n)
		m, err := fill(r, buf)
		if m > 0 {
			out = append(out, buf[:m])
			size += int64(m)
		} else {
			b.give(n) // nothing came: the piece is dropped
			held -= n
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			b.give(held)
			return nil, 0, 0, err
		}
	}
	return out, size, held, nil
}

// fill reads from r until p is full or r fails, and returns r's own
// error: io.EOF only where r ended. io.ReadFull would report an end
// within p as io.ErrUnexpectedEOF, the very error by which a multipart
// part says that its body stopped before the closing boundary, and the
// two could not be told apart.
func fill(r io.Reader, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k, err := r.Read(p[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
