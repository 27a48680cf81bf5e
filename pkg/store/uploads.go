package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
)

// multipartAbove is the size above which a Minio store's PutReader sends
// an object as a multipart upload, in parts of this size (also when its
// size is unknown); a smaller object goes in one request, which MinIO
// keeps whole or not at all.
const multipartAbove = 16 << 20

// uploadMarks is the prefix of the marks a Minio store writes while it
// sends a multipart upload: uploadMarks + key + "/" + a random suffix,
// written before the upload starts and removed once it is complete. A
// process killed in the middle leaves its parts in MinIO, which no
// listing of objects shows, and its mark, which tells the janitor's
// sweep (RemovePartial) the key to look under: MinIO lists the incomplete
// uploads of one key at a time, never those under a prefix.
const uploadMarks = "uploads/"

// markUpload writes the mark of a multipart upload of key and returns its
// key, to be removed once the upload is complete.
func (m *Minio) markUpload(ctx context.Context, key string) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("store: mark upload of %s: %w", key, err)
	}
	mark := uploadMarks + key + "/" + hex.EncodeToString(b[:])
	if err := m.Put(ctx, mark, nil); err != nil {
		return "", fmt.Errorf("store: mark upload of %s: %w", key, err)
	}
	return mark, nil
}

// abortStale aborts the incomplete multipart uploads that interrupted
// PutReaders left, those begun before cutoff, and removes their marks: a
// gateway or worker killed (or its request cancelled: minio-go's own abort
// then fails on the cancelled context) while it stored an object over
// multipartAbove. It returns how many uploads it aborted and the bytes of
// their parts. A mark written before cutoff whose uploads are all younger
// stays for a later sweep.
func (m *Minio) abortStale(ctx context.Context, cutoff time.Time) (n int, size int64, err error) {
	var marks []Object
	if err := m.List(ctx, uploadMarks, func(o Object) bool {
		if o.Modified.Before(cutoff) {
			marks = append(marks, o)
		}
		return ctx.Err() == nil
	}); err != nil {
		return 0, 0, err
	}
	core := minio.Core{Client: m.client}
	for _, mark := range marks {
		key := strings.TrimPrefix(mark.Key, uploadMarks)
		if i := strings.LastIndexByte(key, '/'); i > 0 {
			key = key[:i]
		}
		young := false
		for u := range m.client.ListIncompleteUploads(ctx, m.bucket, key, true) {
			if u.Err != nil {
				return n, size, fmt.Errorf("store: list uploads of %s: %w", key, u.Err)
			}
			if u.Key != key {
				continue // MinIO lists one key; S3 lists the prefix
			}
			if !u.Initiated.Before(cutoff) {
				young = true
				continue
			}
			parts, err := partsSize(ctx, core, m.bucket, key, u.UploadID)
			if err != nil {
				return n, size, err
			}
			if err := core.AbortMultipartUpload(ctx, m.bucket, key, u.UploadID); err != nil {
				return n, size, fmt.Errorf("store: abort upload of %s: %w", key, err)
			}
			n++
			size += parts
		}
		if !young {
			if err := m.Delete(ctx, mark.Key); err != nil {
				return n, size, err
			}
		}
	}
	return n, size, nil
}

// partsSize is the bytes of the parts an incomplete upload holds.
func partsSize(ctx context.Context, core minio.Core, bucket, key, id string) (int64, error) {
	var size int64
	marker := 0
	for {
		res, err := core.ListObjectParts(ctx, bucket, key, id, marker, 1000)
		if err != nil {
			return size, fmt.Errorf("store: parts of the upload of %s: %w", key, err)
		}
		for _, p := range res.ObjectParts {
			size += p.Size
		}
		if !res.IsTruncated {
			return size, nil
		}
		marker = res.NextPartNumberMarker
	}
}
