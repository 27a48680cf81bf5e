// Package store is the object store behind every role: inputs,
// intermediate images and async results, addressed by key. Two
// implementations share one interface: a local folder (the all-in-one) and
// MinIO through minio-go (production).
package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// ErrNotFound is returned by Get for a key that does not exist.
var ErrNotFound = errors.New("store: object not found")

// Object describes one stored object in a listing.
type Object struct {
	Key      string
	Size     int64
	Modified time.Time
}

// Store is an object store. Keys are slash-separated paths without a
// leading slash. Implementations are safe for concurrent use.
type Store interface {
	// Put stores data under key, replacing any previous object.
	Put(ctx context.Context, key string, data []byte) error
	// PutReader stores the size bytes r gives under key, replacing any
	// previous object: a large object goes without a copy of its own.
	PutReader(ctx context.Context, key string, r io.Reader, size int64) error
	// Get returns the object's bytes or an error wrapping ErrNotFound.
	Get(ctx context.Context, key string) ([]byte, error)
	// Delete removes one object; a missing object is not an error.
	Delete(ctx context.Context, key string) error
	// DeletePrefix removes every object whose key starts with prefix.
	DeletePrefix(ctx context.Context, prefix string) error
	// List calls fn for every object under prefix, until fn returns false.
	List(ctx context.Context, prefix string, fn func(Object) bool) error
	// Ping checks the store is reachable.
	Ping(ctx context.Context) error
}

// DeleteOlder removes every object under prefix modified before cutoff
// that keep does not ask to keep, and returns how many objects and bytes
// it removed: the janitor's sweep. A keep that fails ends the sweep with
// its error, the objects not yet removed left in place.
func DeleteOlder(ctx context.Context, s Store, prefix string, cutoff time.Time,
	keep func(ctx context.Context, key string) (bool, error)) (n int, bytes int64, err error) {
	var old []Object
	err = s.List(ctx, prefix, func(o Object) bool {
		if o.Modified.Before(cutoff) {
			old = append(old, o)
		}
		return ctx.Err() == nil
	})
	if err != nil {
		return 0, 0, err
	}
	for _, o := range old {
		kept, err := keep(ctx, o.Key)
		if err != nil {
			return n, bytes, fmt.Errorf("store: sweep %s: %w", prefix, err)
		}
		if kept {
			continue
		}
		if err := s.Delete(ctx, o.Key); err != nil {
			return n, bytes, err
		}
		n++
		bytes += o.Size
	}
	return n, bytes, nil
}

// RemovePartial removes what interrupted writes left in s, begun before
// cutoff, and returns how many entries and bytes it removed: the janitor's
// sweep of what List does not show. A folder store's Put that a killed
// process never finished leaves its temporary file, the object's bytes so
// far (a client's file or a crop of it); NewFolder removes those an hour
// old, but a process restarted at once kept the younger ones until its
// next start. A Minio store's multipart upload (an object over 16 MiB)
// that a killed process, or a cancelled request, never completed leaves
// its parts in MinIO, which kept them until its own stale_uploads_expiry
// (24 h by default); they are aborted here (Minio.abortStale). cutoff
// must lie further back than any write under way can have begun.
func RemovePartial(ctx context.Context, s Store, cutoff time.Time) (n int, bytes int64, err error) {
	switch s := s.(type) {
	case *Folder:
		n, bytes = s.removePartial(cutoff)
		return n, bytes, nil
	case *Minio:
		return s.abortStale(ctx, cutoff)
	}
	return 0, 0, nil
}

// DeleteLater removes every object under prefix once after has passed, in
// the background; onErr hears of a failure. It removes what a stage worker
// that missed a request's cancellation writes after the request's own
// cleanup (a crop of a request or task cut short), so that it does not
// wait for the janitor's PIPELINE_TIMEOUT + COMPLETED_TASK_TTL_SECONDS.
func DeleteLater(s Store, prefix string, after time.Duration, onErr func(error)) {
	time.AfterFunc(after, func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := s.DeletePrefix(ctx, prefix); err != nil {
			onErr(err)
		}
	})
}
