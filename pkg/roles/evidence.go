package roles

import (
	"context"
	"image"
	"log/slog"

	"docsuite/pkg/classify"
	"docsuite/pkg/config"
	"docsuite/pkg/geom"
)

// EvidenceReader reads on a crop what the classifier worker reads beside
// its picture (text lines, zone, printed words, orientation), for tools
// that measure or fit how that evidence counts.
type EvidenceReader struct{ z *zoneReader }

// OpenEvidenceReader loads the models the classifier's evidence needs.
func OpenEvidenceReader(m config.Models, log *slog.Logger) (*EvidenceReader, error) {
	z, err := openZoneReader(m, log, false, nil, 1)
	if err != nil {
		return nil, err
	}
	return &EvidenceReader{z: z}, nil
}

// Read returns the evidence read on img and the orientation found on the
// way, as the classifier worker reads them.
func (e *EvidenceReader) Read(ctx context.Context, img image.Image) (classify.Evidence, geom.Rotation, error) {
	ev, rot, _, err := e.z.Read(ctx, img)
	return ev, rot, err
}

// Close releases the models.
func (e *EvidenceReader) Close() error { return e.z.Close() }
