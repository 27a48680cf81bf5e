package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Minio stores objects in one bucket of a MinIO (or any S3) server.
type Minio struct {
	client *minio.Client
	bucket string
}

// MinioConfig says where the server is and which bucket to use.
type MinioConfig struct {
	Endpoint, AccessKey, SecretKey, Bucket string
	UseSSL                                 bool
}

// NewMinio connects and creates the bucket when it is missing.
func NewMinio(ctx context.Context, c MinioConfig) (*Minio, error) {
	cl, err := minio.New(c.Endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(c.AccessKey, c.SecretKey, ""),
		Secure: c.UseSSL,
	})
	if err != nil {
		return nil, fmt.Errorf("store: minio client for %s: %w", c.Endpoint, err)
	}
	ok, err := bucketExists(ctx, cl, c.Bucket)
	if err != nil {
		return nil, fmt.Errorf("store: minio %s: bucket %s: %w", c.Endpoint, c.Bucket, err)
	}
	if !ok {
		if err := cl.MakeBucket(ctx, c.Bucket, minio.MakeBucketOptions{}); err != nil {
			// Another replica may have created it meanwhile.
			if exists, e2 := cl.BucketExists(ctx, c.Bucket); e2 != nil || !exists {
				return nil, fmt.Errorf("store: minio make bucket %s: %w", c.Bucket, err)
			}
		}
	}
	return &Minio{client: cl, bucket: c.Bucket}, nil
}

// startupWait bounds how long a role waits for a MinIO server that
// answers but is still initialising (it reports ready before its object
// layer is up, answering "Server not initialized yet").
const startupWait = 30 * time.Second

// bucketExists asks whether the bucket exists, retrying while the server
// is still initialising.
func bucketExists(ctx context.Context, cl *minio.Client, bucket string) (bool, error) {
	deadline := time.Now().Add(startupWait)
	for delay := 100 * time.Millisecond; ; delay = min(2*delay, 2*time.Second) {
		ok, err := cl.BucketExists(ctx, bucket)
		if err == nil || !strings.Contains(err.Error(), "not initialized") || time.Now().After(deadline) {
			return ok, err
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(delay):
		}
	}
}

// Put implements Store.
func (m *Minio) Put(ctx context.Context, key string, data []byte) error {
	return m.PutReader(ctx, key, bytes.NewReader(data), int64(len(data)))
}

// PutReader implements Store. A reader that also reads at offsets and
// seeks (bytes.Reader, rawimg.Reader) lets minio-go upload parts side by
// side and retry them. An object over multipartAbove (or of unknown size)
// goes as a multipart upload, marked while it is under way so that the
// janitor finds its parts if the process dies before it completes
// (RemovePartial); the mark of one that failed is left to the janitor too,
// minio-go's abort of its parts having failed where ctx was cancelled.
func (m *Minio) PutReader(ctx context.Context, key string, r io.Reader, size int64) error {
	var mark string
	if size < 0 || size > multipartAbove {
		var err error
		if mark, err = m.markUpload(ctx, key); err != nil {
			return err
		}
	}
	_, err := m.client.PutObject(ctx, m.bucket, key, r, size,
		minio.PutObjectOptions{ContentType: "application/octet-stream", PartSize: multipartAbove})
	if err != nil {
		return fmt.Errorf("store: put %s: %w", key, err)
	}
	if mark != "" {
		// A mark left by a failed removal only costs the janitor a look.
		_ = m.Delete(context.WithoutCancel(ctx), mark)
	}
	return nil
}

// Get implements Store.
func (m *Minio) Get(ctx context.Context, key string) ([]byte, error) {
	obj, err := m.client.GetObject(ctx, m.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, fmt.Errorf("store: get %s: %w", key, err)
	}
	defer obj.Close()
	// The object's size comes with the first response: the bytes are read
	// into one slice of that size, where reading to the end would grow a
	// slice by copies and leave a crop of 100 MB as 200 MB of garbage.
	info, err := obj.Stat()
	if err != nil {
		return nil, getError(key, err)
	}
	if info.Size < 0 || info.Size > math.MaxInt32 {
		return nil, fmt.Errorf("store: get %s: object of %d bytes", key, info.Size)
	}
	b := make([]byte, info.Size)
	if _, err := io.ReadFull(obj, b); err != nil {
		return nil, getError(key, err)
	}
	return b, nil
}

// getError wraps a failed Get, as ErrNotFound when the key is not there.
func getError(key string, err error) error {
	var er minio.ErrorResponse
	if errors.As(err, &er) && er.Code == "NoSuchKey" {
		return fmt.Errorf("store: get %s: %w", key, ErrNotFound)
	}
	return fmt.Errorf("store: get %s: %w", key, err)
}

// Delete implements Store.
func (m *Minio) Delete(ctx context.Context, key string) error {
	if err := m.client.RemoveObject(ctx, m.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		return fmt.Errorf("store: delete %s: %w", key, err)
	}
	return nil
}

// DeletePrefix implements Store.
func (m *Minio) DeletePrefix(ctx context.Context, prefix string) error {
	var keys []string
	if err := m.List(ctx, prefix, func(o Object) bool { keys = append(keys, o.Key); return true }); err != nil {
		return err
	}
	for _, k := range keys {
		if err := m.Delete(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

// List implements Store.
func (m *Minio) List(ctx context.Context, prefix string, fn func(Object) bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for o := range m.client.ListObjects(ctx, m.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if o.Err != nil {
			return fmt.Errorf("store: list %s: %w", prefix, o.Err)
		}
		if !fn(Object{Key: o.Key, Size: o.Size, Modified: o.LastModified}) {
			return nil
		}
	}
	return nil
}

// Ping implements Store.
func (m *Minio) Ping(ctx context.Context) error {
	if _, err := m.client.BucketExists(ctx, m.bucket); err != nil {
		return fmt.Errorf("store: minio ping: %w", err)
	}
	return nil
}
