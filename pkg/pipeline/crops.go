package pipeline

import (
	"context"
	"fmt"
	"image"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
	"docsuite/pkg/rawimg"
)

// UprightCrop reads the stored crop of a classified item (lossless, at the
// cropper's resolution) and turns it upright by the item's rotation, for
// methods that read the document itself. The crop exists while the task
// runs.
func (r *Runner) UprightCrop(ctx context.Context, it Item) (image.Image, error) {
	if it.CropKey == "" {
		return nil, fmt.Errorf("pipeline: item has no stored crop")
	}
	data, err := r.store.Get(ctx, it.CropKey)
	if err != nil {
		return nil, storeErr(err, "crop")
	}
	img, err := rawimg.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("pipeline: decode crop: %w", err)
	}
	up, err := cvimg.Turn(img, geom.Rotation(it.Document.Rotation))
	if err != nil {
		return nil, fmt.Errorf("pipeline: turn crop upright: %w", err)
	}
	return up, nil
}
