// Package apierr is the service's single error catalogue and the JSON error
// envelope every non-2xx answer uses. The catalogue lives in
// catalogue.json next to this file; it feeds both the handlers (by code
// name) and the OpenAPI document.
package apierr

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"
)

// Code names one catalogue entry.
type Code string

// Catalogue codes used by the Go code; every one must exist in
// catalogue.json (a test checks).
const (
	TokenMissing      Code = "token_missing"
	LicenseInvalid    Code = "license_invalid"
	LicenseExpired    Code = "license_expired"
	LicenseExhausted  Code = "license_exhausted"
	TaskForbidden     Code = "task_forbidden"
	PathNotFound      Code = "path_not_found"
	MethodNotAllowed  Code = "method_not_allowed"
	TaskNotFound      Code = "task_not_found"
	TaskNotDone       Code = "task_not_done"
	FileTooLarge      Code = "file_too_large"
	FileTooSmall      Code = "file_too_small"
	ImageMissing      Code = "image_missing"
	NotMultipart      Code = "not_multipart"
	UnsupportedFormat Code = "unsupported_format"
	CorruptFile       Code = "corrupt_file"
	InvalidParameter  Code = "invalid_parameter"
	TooManyPages      Code = "too_many_pages"
	TooManyPixels     Code = "too_many_pixels"
	Internal          Code = "internal"
	BadGateway        Code = "bad_gateway"
	Overloaded        Code = "overloaded"
	DependencyDown    Code = "dependency_down"
	ModelNotLoaded    Code = "model_not_loaded"
	PipelineTimeout   Code = "pipeline_timeout"
	GatewayTimeout    Code = "gateway_timeout"
	TaskFailed        Code = "task_failed"
	// BadRequest and URITooLong are answered by nginx in front of the
	// gateways (deploy/nginx/docsuite.conf), never by the Go code.
	BadRequest Code = "bad_request"
	URITooLong Code = "uri_too_long"
)

// Entry is one row of the catalogue.
type Entry struct {
	Name    Code   `json:"name"`
	Status  int    `json:"status"`
	Errno   int    `json:"errno"`
	Message string `json:"message"`
}

//go:embed catalogue.json
var catalogueJSON []byte

// catalogue is parsed once from the embedded file and never modified.
var catalogue = func() []Entry {
	var entries []Entry
	if err := json.Unmarshal(catalogueJSON, &entries); err != nil {
		panic(fmt.Sprintf("apierr: catalogue.json is malformed: %v", err))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Errno < entries[j].Errno })
	return entries
}()

// Catalogue returns every entry ordered by errno, as a fresh slice.
func Catalogue() []Entry { return append([]Entry(nil), catalogue...) }

// Lookup returns the entry of a code; an unknown code yields the internal
// error entry so a typo never escapes as a 200.
func Lookup(c Code) Entry {
	for _, e := range catalogue {
		if e.Name == c {
			return e
		}
	}
	return Entry{Name: Internal, Status: 500, Errno: 19, Message: "Internal error"}
}

// Detail is one validation detail, as in the service description.
type Detail struct {
	Loc  []string `json:"loc"`
	Msg  string   `json:"msg"`
	Type string   `json:"type"`
}

// Error is an API error: a catalogue entry plus what this occurrence adds.
type Error struct {
	Code Code
	// Message overrides the catalogue message when set.
	Message string
	Detail  []Detail
	// RetryAfter, in seconds, is sent as a header on 503 answers.
	RetryAfter int
	// Cause is the underlying error; it goes to logs and traceback only.
	Cause error
}

// New makes an error of a catalogue code with an optional message.
func New(c Code, msg string) *Error { return &Error{Code: c, Message: msg} }

// Wrap makes an error of a catalogue code around a cause.
func Wrap(c Code, cause error, msg string) *Error { return &Error{Code: c, Message: msg, Cause: cause} }

// Timeout is the pipeline_timeout error of a request that ran out of
// time with err, after limit (PIPELINE_TIMEOUT; 0: not said): a stage's
// own pipeline_timeout in err is not wrapped in another, so that the
// message and the log do not repeat it, and is copied rather than
// changed. The message says how long the request had, so that a client
// (and the admin it asks) knows the limit it ran into; a file of many
// pages needs more.
func Timeout(err error, limit time.Duration) *Error {
	var e Error
	if stage := (*Error)(nil); errors.As(err, &stage) && stage.Code == PipelineTimeout {
		e = *stage
	} else {
		e = Error{Code: PipelineTimeout, Cause: err}
	}
	if e.Message == "" && limit > 0 {
		e.Message = fmt.Sprintf("%s (%s s): a file of many pages may need more; send fewer pages, or raise PIPELINE_TIMEOUT",
			Lookup(PipelineTimeout).Message, strconv.FormatFloat(limit.Seconds(), 'f', -1, 64))
	}
	return &e
}

// Panic is the internal error a recovered panic p is answered with, its
// value in the traceback ("panic: ..."): the one form the gateway, the
// stage workers, the task runner and the pipeline's goroutines share.
func Panic(p any) *Error { return Wrap(Internal, fmt.Errorf("panic: %v", p), "") }

// Param makes a 422 naming a bad query parameter in detail.loc.
func Param(name, msg, typ string) *Error {
	return &Error{Code: InvalidParameter, Message: "Invalid request parameter: " + name,
		Detail: []Detail{{Loc: []string{"query", name}, Msg: msg, Type: typ}}}
}

// Error implements error.
func (e *Error) Error() string {
	m := e.message()
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, m, e.Cause)
	}
	return fmt.Sprintf("%s: %s", e.Code, m)
}

// Unwrap exposes the cause.
func (e *Error) Unwrap() error { return e.Cause }

func (e *Error) message() string {
	if e.Message != "" {
		return e.Message
	}
	return Lookup(e.Code).Message
}

// Status is the HTTP status of the error.
func (e *Error) Status() int { return Lookup(e.Code).Status }

// As finds an *Error in err's chain; any other error becomes an internal
// error that keeps err as its cause.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: Internal, Cause: err}
}

// Body is the JSON error envelope of every non-2xx answer.
type Body struct {
	Code      int      `json:"code"`
	Message   string   `json:"message"`
	Errno     int      `json:"errno"`
	Traceback *string  `json:"traceback"`
	Detail    []Detail `json:"detail"`
}

// Envelope renders the error body. Internal errors carry a traceback made
// from the error chain (never secrets: causes are built by our own code
// from wrapped errors, and configuration values are never wrapped in).
func (e *Error) Envelope() Body {
	entry := Lookup(e.Code)
	b := Body{Code: entry.Status, Message: e.message(), Errno: entry.Errno, Detail: e.Detail}
	if b.Detail == nil {
		b.Detail = []Detail{}
	}
	if entry.Status >= 500 && e.Cause != nil {
		tb := e.Error()
		b.Traceback = &tb
	}
	return b
}
