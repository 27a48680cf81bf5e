package store

import (
	"context"
	"fmt"

	"docsuite/pkg/config"
)

// Open builds the store the configuration names.
func Open(ctx context.Context, c config.Store) (Store, error) {
	switch c.Kind {
	case "folder":
		return NewFolder(c.Dir)
	case "minio":
		return NewMinio(ctx, MinioConfig{Endpoint: c.MinioEndpoint, AccessKey: c.MinioAccess,
			SecretKey: c.MinioSecret, Bucket: c.MinioBucket, UseSSL: c.MinioSSL})
	default:
		return nil, fmt.Errorf("store: unknown STORE_KIND %q", c.Kind)
	}
}
