package main

import "docsuite/pkg/geom"

// pt is a corner in page pixels, as the labels and the service give it.
type pt struct{ X, Y float64 }

// iou is the intersection over union of two convex quadrilaterals given
// as TL, TR, BL, BR corners (geom.IoU, the cropper's own measure).
func iou(a, b [4]pt) float64 { return geom.IoU(truthQuad(a), truthQuad(b)) }

// quadArea is the area of a quadrilateral given as TL, TR, BL, BR corners.
func quadArea(q [4]pt) float64 { return truthQuad(q).Area() }
