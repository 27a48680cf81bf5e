package roles

import (
	"context"
	"errors"
	"image"
	"log/slog"
	"sort"

	"docsuite/pkg/classify"
	"docsuite/pkg/config"
	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
	"docsuite/pkg/mrz"
	"docsuite/pkg/onnxrt"
	"docsuite/pkg/orient"
	"docsuite/pkg/ppocr"
)

// zoneReader reads the machine-readable zone of a crop for the classifier:
// it turns the crop upright with the orientation models, then reads the
// zone with PP-OCR. The zone's issuer and document code are evidence the
// picture alone lacks (classify.ApplyZone).
type zoneReader struct {
	rt  *onnxrt.Runtime
	or  *orient.Orienter
	eng *ppocr.Engine
	rd  *mrz.Reader
}

// errTextEvidenceOff is the zone reader's load error when TEXT_EVIDENCE is
// false.
var errTextEvidenceOff = errors.New("TEXT_EVIDENCE=false")

// minZoneSide is the shorter side, in pixels, below which a crop is not
// searched for a zone: its characters would be under 4 pixels tall.
const minZoneSide = 120

// openZoneReader loads the models the zone reader needs.
func openZoneReader(m config.Models, log *slog.Logger) (*zoneReader, error) {
	rt, err := onnxrt.Open(onnxrt.Options{Library: m.ONNXRuntime, Threads: m.Threads, AllowGPU: m.AllowGPU, Log: log})
	if err != nil {
		return nil, err
	}
	z := &zoneReader{rt: rt}
	if z.eng, err = ppocr.Open(rt, ""); err != nil {
		_ = z.Close()
		return nil, err
	}
	z.rd = mrz.NewReader(z.eng)
	if z.or, err = orient.Open(orient.Options{Dir: m.Dir, Library: m.ONNXRuntime, Threads: m.Threads, AllowGPU: m.AllowGPU, Log: log,
		Text: z.eng}); err != nil {
		_ = z.Close()
		return nil, err
	}
	return z, nil
}

// Close releases the models.
func (z *zoneReader) Close() error {
	var errs []error
	if z.or != nil {
		errs = append(errs, z.or.Close())
	}
	if z.eng != nil {
		errs = append(errs, z.eng.Close())
	}
	return errors.Join(append(errs, z.rt.Close())...)
}

// Read returns the evidence read on the crop (its text lines and its zone,
// when it has one that could be read) and the orientation found on the way,
// with its probability. The zone is looked for on the crop turned by the
// most probable orientation, then by the runner-up: a zone whose check
// digits verify on the runner-up settles the orientation too.
func (z *zoneReader) Read(ctx context.Context, img image.Image) (classify.Evidence, geom.Rotation, float64, error) {
	var ev classify.Evidence
	p, err := z.or.Probabilities(ctx, img)
	if err != nil {
		return ev, 0, 0, err
	}
	order := make([]geom.Rotation, len(p))
	for i := range order {
		order[i] = geom.Rotation(i)
	}
	sort.SliceStable(order, func(a, b int) bool { return p[order[a]] > p[order[b]] })
	rot, conf := order[0], p[order[0]]
	if b := img.Bounds(); min(b.Dx(), b.Dy()) < minZoneSide {
		return ev, rot, conf, nil
	}
	for try, r := range order[:2] {
		up, err := cvimg.Turn(img, r)
		if err != nil {
			return ev, 0, 0, err
		}
		m := ppocr.NewImage(up)
		boxes, err := z.eng.Detect(ctx, m, mrz.DetectOptions())
		if err != nil {
			return ev, 0, 0, err
		}
		if try == 0 {
			ev.TextLines = len(boxes)
		}
		rd, err := z.rd.ReadImageDetected(ctx, up, m, boxes)
		if errors.Is(err, mrz.ErrNotFound) {
			continue
		}
		if err != nil {
			return ev, 0, 0, err
		}
		if try > 0 && !rd.Valid() {
			continue // only a verified zone overrules the orientation
		}
		ev.Zone = &classify.Zone{DocumentCode: rd.DocumentCode, Issuer: rd.Issuer, Nationality: rd.Nationality,
			Valid: rd.Valid(), Confidence: rd.Confidence}
		if try > 0 {
			rot, conf = r, max(conf, rd.Confidence)
		}
		break
	}
	return ev, rot, conf, nil
}
