// Package synth is the synthetic document factory. It renders every
// document type of the catalogue from a template described as data
// (templates/<type>.json), fills the fields with plausible random values
// (MRZ and registry numbers with valid check digits), lays one or more
// documents on photographic or procedural backgrounds with perspective,
// orientation, occlusion and camera effects, and reports exact ground
// truth: the quadrilateral of each upright document in scene pixels, its
// rotation code (see geom.Rotation) and its field values.
//
// All randomness flows from one seed through per-scene generators, so the
// same seed and configuration give the same bytes whatever the number of
// workers.
package synth
