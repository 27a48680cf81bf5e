package params

// Param documents one query parameter for the OpenAPI document.
type Param struct {
	Name        string
	Type        string // integer, number, boolean, string, array
	Default     any
	Minimum     *float64
	Maximum     *float64
	Enum        []string
	Description string
	Deprecated  bool
}

func f(v float64) *float64 { return &v }

// ClassifySpec lists classify's parameters as ParseClassify reads them.
func ClassifySpec() []Param {
	return []Param{
		{Name: "min_shape", Type: "integer", Default: 256, Minimum: f(1), Maximum: f(maxInt), Description: "Minimum shorter side, in pixels, of a document's crop (before it is turned upright); a crop with a shorter side below it has low_image_resolution true. The default 256 flags a document too small to read small print."},
		{Name: "min_filesize", Type: "integer", Default: 10240, Minimum: f(1), Maximum: f(maxInt), Description: "Minimum weight of the uploaded file in bytes; a lighter file has low_image_weight true on every item. The default 10240 flags a heavily compressed or tiny file."},
		{Name: "max_exposure_score", Type: "number", Default: 0.4, Maximum: f(maxScore), Description: "Over-exposure threshold (> 0). A document's over-exposure score, in [0, 1], is the larger of wash-out and glare, measured on its luma with the longer side shrunk to at most 1024 px. Wash-out: its darkest ink (0.1st luma percentile) mapped linearly from 96 (0) to 255 (1), measured on crops whose sharpness is at least 1.8. Glare: the share of the document under a bright spot (16 x 16 tiles; areas at least 3 x 3 tiles of tiles with 95% of pixels at luma 250 or more, each with a tile that is not blown out on both sides of it across or along, plus the blown tiles of its rim), a quarter of the document scoring 1; 0 on white paper (paper level within 10 of clipping). A score above the threshold makes image_exposure overexposed. The default 0.4 flags ink paler than luma 160 or a spot over about a ninth of the document. See docs/quality.md."},
		{Name: "min_exposure_score", Type: "number", Default: 0.05, Maximum: f(maxScore), Description: "Under-exposure threshold (> 0). A document's under-exposure score, in [0, 1], is the share of its pixels at least as bright as mid-grey paper (luma 96 or more). A score below the threshold makes image_exposure underexposed (overexposed wins when both hold). The default 0.05 flags a document of which fewer than one pixel in twenty reaches mid-grey."},
		{Name: "max_blur_score", Type: "number", Default: 2, Maximum: f(maxScore), Description: "Blur threshold (> 0). A document's sharpness, in [1, 10], is E(I) / E(G2 * I): the mean squared Sobel gradient of its luma (longer side shrunk to at most 1024 px) over the same after a Gaussian blur of sigma 2 px; an edge blurred with sigma s scores sqrt(s^2 + 4) / s (4.1 for 0.5 px, 2.2 for 1 px, 1.4 for 2 px), a crop without edges 10. A sharpness below the threshold makes image_blured true. The default 2 flags blur of more than about 1.2 px."},
		{Name: "doc_type", Type: "array", Description: "Types to look for (repeat the parameter or separate with commas); special classes other, not_document, empty always stay possible. Unknown values answer 422."},
		{Name: "priority", Type: "integer", Default: 1, Minimum: f(1), Maximum: f(maxInt), Description: "Priority of an async task; higher runs first (levels above 9 run as 9)."},
		{Name: "simple_cropper", Type: "boolean", Default: false, Description: "true: the classical contour cropper (faster, less exact on complex backgrounds); false: the neural cropper (cropnet)."},
		{Name: "async", Type: "boolean", Default: false, Description: "true: answer task_id at once and fetch the result from /result/{task_id}."},
		{Name: "check_fake", Type: "boolean", Default: false, Description: "true: check the file metadata for traces of digital editors; result in fake (and the reasons in fake_reasons)."},
		{Name: "check_fake_experimental", Type: "boolean", Deprecated: true, Description: "Obsolete, accepted and ignored."},
		{Name: "gauss", Type: "number", Deprecated: true, Description: "Obsolete, accepted and ignored."},
		{Name: "pdf_raw_images", Type: "boolean", Default: true, Description: "true: a scanned PDF page's embedded image is used as it is, rasterising left to auto_pdf_raw_images; a page that shows its image otherwise than as stored (a negative by /Decode, flipped, cut, painted over: docs/formats.md) is rasterised at dpi, never above the image's own resolution; false: every page is rasterised at dpi."},
		{Name: "auto_pdf_raw_images", Type: "boolean", Default: true, Description: "true: pages with a text layer are rasterised even when pdf_raw_images is true; false: a scanned page's embedded image is used even when the page has a text layer."},
		{Name: "dpi", Type: "integer", Default: 300, Minimum: f(1), Maximum: f(1200), Description: "Pixels per inch when rasterising a PDF or DJVU page. A DJVU page is never rendered above its own scan resolution (a 300 dpi scan asked for at 600 is rendered at 300: upsampling adds no detail); its coords are in the grid it was rendered at."},
		{Name: "quality", Type: "integer", Default: 75, Minimum: f(0), Maximum: f(100), Description: "JPEG quality of rasterised PDF pages."},
		{Name: "with_hitl", Type: "boolean", Default: false, Description: "Manual classification by people; not available on-premises, accepted and ignored."},
		{Name: "mode", Type: "string", Enum: []string{"default", "classify_crop", "classify_only"}, Description: "classify_crop or classify_only: no cutting, each page is classified whole."},
		{Name: "task_tags", Type: "array", Description: "Extra identifiers echoed in task_tags (repeat or comma-separate)."},
		{Name: "return_crops", Type: "boolean", Default: true, Description: "true: each item carries crop, the upright document as a data:image/jpeg;base64 URI."},
	}
}

// RecognizeSpec lists recognize's parameters as ParseRecognize reads them.
func RecognizeSpec() []Param {
	return []Param{
		{Name: "doc_type", Type: "array", Description: "Limits extraction to these types (repeat or comma-separate). With mode=recognize_only exactly one type, the one of the earlier classification (repeating it changes nothing); none, or two different types, answer 422 naming doc_type."},
		{Name: "mode", Type: "string", Default: "default", Enum: []string{"default", "recognize_only"}, Description: "recognize_only: each page is one upright document of the one type in doc_type; no classification."},
		{Name: "return_crops", Type: "boolean", Default: false, Description: "true: items carry crop."},
		{Name: "use_internal_api", Type: "boolean", Default: true, Description: "Set issuing_authority of passports (main spread and registration stamps) to the subdivision directory's name of the subdivision_code read (the shipped directory extended or replaced by SUBDIVISION_DIRECTORY); false keeps the text read."},
		{Name: "normalization_fias", Type: "boolean", Default: false, Description: "Send a registration's address to the external address service (ADDRESS_SERVICE_URL) and answer its form; without a configured service (the on-premises default) accepted and ignored; a failing service leaves the address as read."},
		{Name: "async", Type: "boolean", Default: false, Description: "As in classify."},
		{Name: "priority", Type: "integer", Default: 1, Minimum: f(1), Maximum: f(maxInt), Description: "As in classify."},
		{Name: "task_tags", Type: "array", Description: "As in classify."},
		{Name: "dpi", Type: "integer", Default: 300, Minimum: f(1), Maximum: f(1200), Description: "As in classify."},
		{Name: "quality", Type: "integer", Default: 75, Minimum: f(0), Maximum: f(100), Description: "As in classify."},
		{Name: "pdf_raw_images", Type: "boolean", Default: true, Description: "As in classify."},
		{Name: "auto_pdf_raw_images", Type: "boolean", Default: true, Description: "As in classify."},
	}
}
