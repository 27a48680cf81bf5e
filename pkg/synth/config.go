package synth

// Effects holds the strength of every scene effect: 0 turns an effect
// off, 1 is the default, larger values exaggerate it.
type Effects struct {
	Perspective float64 // camera tilt
	Angle       float64 // in-plane angle away from the 90-degree steps
	Mirror      float64 // chance factor of mirrored documents
	Turn        float64 // chance factor of 90/180/270-degree orientations
	Overlap     float64 // allowed overlap between documents
	Occlusion   float64 // fingers and hands over documents
	Shadow      float64 // drop shadows and cast shadows
	Glare       float64 // specular highlights
	Lighting    float64 // uneven light, vignetting, colour cast
	Exposure    float64 // over and under exposure
	Blur        float64 // defocus and motion blur
	Noise       float64 // sensor noise
	JPEG        float64 // compression artefacts (lower quality)
	LowRes      float64 // down- and up-sampling
	Clutter     float64 // objects on the table (pens, coins, papers)
	Bend        float64 // paper sheets that bow and show fold creases
	// Print is how far one printed instance strays from its template:
	// the values' block shifted as a printer feeds the blank, the photo
	// glued larger or lower over its frame, a passport photographed in
	// its open cover (see printVariation and coverPad). DefaultEffects
	// leaves it off, so that the documents drawn for a seed stay those the
	// tests were written against; tools/synth turns it on.
	Print float64
	// Specimen is the chance factor of a specimen mark (ОБРАЗЕЦ,
	// SPECIMEN, 見本...) printed across a document (specimenMark). It is
	// off by default, in tools/synth too (-specimen 1 turns it on): the
	// docnets trained with it were no better on the real files
	// (docs/models.md).
	Specimen float64
}

// DefaultEffects are the strengths used when none are given.
func DefaultEffects() Effects {
	return Effects{Perspective: 1, Angle: 1, Mirror: 1, Turn: 1, Overlap: 1, Occlusion: 1, Shadow: 1,
		Glare: 1, Lighting: 1, Exposure: 1, Blur: 1, Noise: 1, JPEG: 1, LowRes: 1, Clutter: 1, Bend: 1}
}

// Scaled returns every strength multiplied by k (0 turns all off, 2
// exaggerates them).
func (e Effects) Scaled(k float64) Effects {
	for _, p := range []*float64{&e.Perspective, &e.Angle, &e.Mirror, &e.Turn, &e.Overlap, &e.Occlusion, &e.Shadow,
		&e.Glare, &e.Lighting, &e.Exposure, &e.Blur, &e.Noise, &e.JPEG, &e.LowRes, &e.Clutter, &e.Bend, &e.Print, &e.Specimen} {
		*p *= k
	}
	return e
}

// Config controls a Generator.
type Config struct {
	// Seed makes the whole output reproducible.
	Seed uint64
	// Size is the longer side of a scene in pixels (default 1600).
	Size int
	// MinDocs and MaxDocs bound the documents per scene (default 1..4).
	MinDocs, MaxDocs int
	// Types restricts the document types (default: all 97).
	Types []string
	// ScanProb is the share of flat scanner-style scenes (default 0.15).
	ScanProb float64
	// Effects are the effect strengths; the zero value turns every effect
	// off (clean renders), DefaultEffects() gives the usual mix.
	Effects Effects
	// BackgroundDirs are searched for photographs to use as backgrounds
	// (default: the Debian wallpaper folders).
	BackgroundDirs []string
	// StackProb is the share of photographed scenes of several documents
	// laid as a stack, each on top of one before it (default 0: the
	// documents lie apart, overlapping a little at most). For the
	// cropper's training scenes; classifier crops keep documents apart.
	StackProb float64
	// CoverProb is the chance that a photographed scene's second and
	// later documents are closed booklets (a passport's, a labour book's
	// or a certificate's cover, of the class other) rather than of a
	// drawn type (default 0: none). Real photos show covers beside the
	// open documents; for the cropper's training scenes.
	CoverProb float64
	// PhotoBackgroundProb is the share of scenes on photographs when any
	// were found (default 0.35); the rest are procedural.
	PhotoBackgroundProb float64
}

func (c *Config) defaults() {
	if c.Size <= 0 {
		c.Size = 1600
	}
	if c.MinDocs <= 0 {
		c.MinDocs = 1
	}
	if c.MaxDocs < c.MinDocs {
		c.MaxDocs = 4
		if c.MaxDocs < c.MinDocs {
			c.MaxDocs = c.MinDocs
		}
	}
	if c.ScanProb == 0 {
		c.ScanProb = 0.15
	}
	if c.ScanProb < 0 {
		c.ScanProb = 0
	}
	if c.BackgroundDirs == nil {
		c.BackgroundDirs = []string{"/usr/share/backgrounds", "/usr/share/wallpapers", "/usr/share/desktop-base"}
	}
	if c.PhotoBackgroundProb == 0 {
		c.PhotoBackgroundProb = 0.35
	}
}
