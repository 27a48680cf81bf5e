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
		{Name: "min_shape", Type: "integer", Default: 256, Minimum: f(1), Description: "Minimum shorter side of a document in pixels; below it low_image_resolution is true."},
		{Name: "min_filesize", Type: "integer", Default: 10240, Minimum: f(1), Description: "Minimum file weight in bytes; below it low_image_weight is true."},
		{Name: "max_exposure_score", Type: "number", Default: 0.4, Description: "Over-exposure threshold (> 0): a document whose exposure_high score exceeds it is overexposed."},
		{Name: "min_exposure_score", Type: "number", Default: 0.05, Description: "Under-exposure threshold (> 0): a document whose exposure_low score is below it is underexposed."},
		{Name: "max_blur_score", Type: "number", Default: 2, Description: "Sharpness threshold (> 0): a document whose sharpness is below it is image_blured."},
		{Name: "doc_type", Type: "array", Description: "Types to look for (repeat the parameter or separate with commas); special classes other, not_document, empty always stay possible. Unknown values answer 422."},
		{Name: "priority", Type: "integer", Default: 1, Minimum: f(1), Description: "Priority of an async task; higher runs first (levels above 9 run as 9)."},
		{Name: "simple_cropper", Type: "boolean", Default: false, Description: "true: the classical contour cropper (faster, less exact on complex backgrounds)."},
		{Name: "async", Type: "boolean", Default: false, Description: "true: answer task_id at once and fetch the result from /result/{task_id}."},
		{Name: "check_fake", Type: "boolean", Default: false, Description: "true: check the file metadata for traces of digital editors; result in fake (and the reasons in fake_reasons)."},
		{Name: "check_fake_experimental", Type: "boolean", Deprecated: true, Description: "Obsolete, accepted and ignored."},
		{Name: "gauss", Type: "number", Deprecated: true, Description: "Obsolete, accepted and ignored."},
		{Name: "pdf_raw_images", Type: "boolean", Default: true, Description: "true: a scanned PDF page's embedded image is used as it is, rasterising left to auto_pdf_raw_images; false: every page is rasterised at dpi."},
		{Name: "auto_pdf_raw_images", Type: "boolean", Default: true, Description: "true: pages with a text layer are rasterised even when pdf_raw_images is true; false: embedded images are always used."},
		{Name: "dpi", Type: "integer", Default: 300, Minimum: f(1), Maximum: f(1200), Description: "Pixels per inch when rasterising a PDF or DJVU page."},
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
		{Name: "doc_type", Type: "array", Description: "Limits extraction to these types; required with mode=recognize_only."},
		{Name: "mode", Type: "string", Default: "default", Enum: []string{"default", "recognize_only"}, Description: "recognize_only: the image is one document of the type in doc_type; no classification."},
		{Name: "return_crops", Type: "boolean", Default: false, Description: "true: items carry crop."},
		{Name: "use_internal_api", Type: "boolean", Default: true, Description: "Normalise issuing_authority of passports against the shipped directory of subdivision codes."},
		{Name: "normalization_fias", Type: "boolean", Default: false, Description: "Normalise addresses through the configured external address service (off on-premises unless configured)."},
		{Name: "async", Type: "boolean", Default: false, Description: "As in classify."},
		{Name: "priority", Type: "integer", Default: 1, Minimum: f(1), Description: "As in classify."},
		{Name: "task_tags", Type: "array", Description: "As in classify."},
		{Name: "dpi", Type: "integer", Default: 300, Minimum: f(1), Maximum: f(1200), Description: "As in classify."},
		{Name: "quality", Type: "integer", Default: 75, Minimum: f(0), Maximum: f(100), Description: "As in classify."},
		{Name: "pdf_raw_images", Type: "boolean", Default: true, Description: "As in classify."},
		{Name: "auto_pdf_raw_images", Type: "boolean", Default: true, Description: "As in classify."},
	}
}
