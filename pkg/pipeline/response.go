package pipeline

import "docsuite/pkg/fakecheck"

// Document is the document object of a classification item.
type Document struct {
	Type       string   `json:"type"`
	Page       int      `json:"page"`
	Rotation   int      `json:"rotation"`
	Coords     [][2]int `json:"coords"`
	Confidence float64  `json:"confidence"`
}

// Item is one found document with its quality flags.
type Item struct {
	Document           Document `json:"document"`
	Crop               string   `json:"crop,omitempty"`
	ImageExposure      string   `json:"image_exposure"`
	ImageBlured        bool     `json:"image_blured"`
	LowImageResolution bool     `json:"low_image_resolution"`
	LowImageWeight     bool     `json:"low_image_weight"`
	// CropKey is where the stored crop lies (as cut, before orientation);
	// methods that read the document use it (see UprightCrop).
	CropKey string `json:"-"`
	// TextLines is the number of text lines the classifier found on the
	// crop, nil when it did not look (see stages.ClassifyReply).
	TextLines *int `json:"-"`
}

// FakeReason explains one editing trace found by check_fake.
type FakeReason struct {
	Source string `json:"source"`
	Field  string `json:"field"`
	Value  string `json:"value"`
	// Editor is always sent, empty for a trace that names no editor (a
	// PDF's later ModDate): the OpenAPI document requires it and clients
	// read r["editor"] on each reason (see fakecheck.Reason).
	Editor string `json:"editor"`
}

// ClassifyResponse is the body of a finished classification.
type ClassifyResponse struct {
	TaskID      string       `json:"task_id"`
	Items       []Item       `json:"items"`
	TaskTags    []string     `json:"task_tags,omitempty"`
	PagesCount  int          `json:"pages_count"`
	PageCount   int          `json:"page_count"`
	DocsCount   int          `json:"docs_count"`
	Fake        *bool        `json:"fake,omitempty"`
	FakeReasons []FakeReason `json:"fake_reasons,omitempty"`
	Code        int          `json:"code"`
	Message     string       `json:"message"`
	Errno       int          `json:"errno"`
	Traceback   *string      `json:"traceback"`
	Detail      []any        `json:"detail"`
}

// SetFake fills fake and fake_reasons from check_fake's result.
func (r *ClassifyResponse) SetFake(res fakecheck.Result) {
	fake := res.Fake
	r.Fake = &fake
	r.FakeReasons = nil
	for _, reason := range res.Reasons {
		r.FakeReasons = append(r.FakeReasons, FakeReason{Source: reason.Source, Field: reason.Field, Value: reason.Value, Editor: reason.Editor})
	}
}

// NewClassifyResponse returns an empty successful response for a task, as
// the async accept answers it.
func NewClassifyResponse(taskID string, tags []string) *ClassifyResponse {
	return &ClassifyResponse{TaskID: taskID, Items: []Item{}, TaskTags: tags, Code: 200, Message: "OK", Detail: []any{}}
}
