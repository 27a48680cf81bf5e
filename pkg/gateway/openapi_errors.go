package gateway

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"docsuite/pkg/apierr"
)

// A step is one part of the handling a request passes through, with the
// catalogue codes it can answer. An operation's error responses in the
// OpenAPI document are the union of its steps' codes (errorResponses), so
// that each operation lists what it can answer and nothing else: no 413 on
// /result, no 404 task_not_found on a method. TestStepsNameTheirCodes
// reads the functions behind each step and checks that its codes are
// exactly those they answer.
type step struct {
	// name tells the steps apart in the tests.
	name  string
	codes []apierr.Code
	// note, when set, says when the step answers its codes; it is added
	// to a code's line in a response's description when every step that
	// answers the code has one.
	note string
}

// stageCodes are the codes the pipeline and the stage workers answer
// (packages pipeline, bus, cropsvc and roles): a file the cropper cannot
// read, too many pages or pixels, a worker or its model missing, the
// pipeline's time spent. Any error outside the catalogue is 500 internal.
var stageCodes = []apierr.Code{apierr.UnsupportedFormat, apierr.CorruptFile, apierr.TooManyPages, apierr.TooManyPixels,
	apierr.DependencyDown, apierr.ModelNotLoaded, apierr.PipelineTimeout}

// The steps, in the order a request meets them.
var (
	// stepEvery is what any request can answer: 500 internal for a
	// panic (recoverer) or an error outside the catalogue (apierr.As),
	// 400 bad_request for a request net/http cannot read
	// (jsonErrListener).
	stepEvery = step{name: "every request", codes: []apierr.Code{apierr.BadRequest, apierr.Internal}}
	// stepNginx is what nginx answers itself, in front of the gateways,
	// on every path it passes on (deploy/nginx/docsuite.conf).
	stepNginx = step{name: "nginx", note: "from nginx in front of the gateways",
		codes: []apierr.Code{apierr.BadRequest, apierr.URITooLong, apierr.BadGateway, apierr.GatewayTimeout}}
	// stepLicense is requireLicense: the installation's license verdict.
	stepLicense = step{name: "license", codes: []apierr.Code{apierr.LicenseInvalid, apierr.LicenseExpired,
		apierr.LicenseExhausted, apierr.DependencyDown}}
	// stepToken is requireToken, on the hosted-compatible paths.
	stepToken = step{name: "token", codes: []apierr.Code{apierr.TokenMissing, apierr.DependencyDown}}
	// stepQuery is the parsing of the query string (package params).
	stepQuery = step{name: "query", codes: []apierr.Code{apierr.InvalidParameter}}
	// stepUpload is readUpload: the multipart body and its file.
	stepUpload = step{name: "upload", codes: []apierr.Code{apierr.NotMultipart, apierr.FileTooLarge, apierr.FileTooSmall,
		apierr.ImageMissing, apierr.UnsupportedFormat, apierr.InvalidParameter, apierr.Overloaded}}
	// stepStore is keep: the file stored under its task.
	stepStore = step{name: "store", codes: []apierr.Code{apierr.DependencyDown}}
	// stepSlot is a synchronous request's slot (MAX_INFLIGHT, syncSlot).
	stepSlot = step{name: "slot", note: "synchronous requests", codes: []apierr.Code{apierr.Overloaded}}
	// stepSync is a synchronous request's run through the stages within
	// PIPELINE_TIMEOUT (runSync).
	stepSync = step{name: "sync", note: "synchronous requests; with async=true the task answers it from /result/{task_id}",
		codes: stageCodes}
	// stepEnqueue is an async request handed to the task queue.
	stepEnqueue = step{name: "enqueue", note: "async=true", codes: []apierr.Code{apierr.DependencyDown}}
	// stepResult is handleResult reading a task's state.
	stepResult = step{name: "result", codes: []apierr.Code{apierr.TaskNotDone, apierr.TaskNotFound, apierr.TokenMissing,
		apierr.TaskForbidden, apierr.DependencyDown}}
	// stepFailedTask is the error an async task failed with, which
	// /result answers as it is: the stages' codes, or task_failed when
	// there is no more specific one (package tasks' runner).
	stepFailedTask = step{name: "failed task", note: "the error the task failed with",
		codes: append([]apierr.Code{apierr.TaskFailed}, stageCodes...)}
)

// methodSteps are the steps of the methods' POST operations: the hosted
// paths check the token after the license (routes).
func methodSteps(hosted bool) []step {
	steps := []step{stepEvery, stepNginx, stepLicense}
	if hosted {
		steps = append(steps, stepToken)
	}
	return append(steps, stepQuery, stepUpload, stepStore, stepSlot, stepSync, stepEnqueue)
}

// resultSteps are the steps of GET /result/{task_id}, which takes no
// license check (a task accepted is answered) and no token check of its
// own (a task is answered to the token that created it).
func resultSteps() []step { return []step{stepEvery, stepNginx, stepResult, stepFailedTask} }

// pageSteps are the steps of the pages that answer from the binary alone
// (/docs, /openapi.json) and of /healthcheck, whose 503 is its own.
func pageSteps() []step { return []step{stepEvery, stepNginx} }

// codeCases completes the catalogue message of the codes that also answer
// cases the message does not name; the text follows the message on the
// code's line wherever the code is listed.
var codeCases = map[apierr.Code]string{
	apierr.NotMultipart: "or the upload was cut short: it sent nothing for 60 s (The upload stalled), averaged under " +
		"UPLOAD_MIN_RATE bytes a second (1 KiB by default) over 60 s (The upload is too slow), or ended before its " +
		"multipart closing boundary (The upload ended early)",
	apierr.TooManyPixels: "or the file's pages together are over MAX_FILE_PIXELS (1000 megapixels by default), told from " +
		"its headers before any page is decoded",
	apierr.CorruptFile: "or a PDF or DJVU page did not render within the renderer's time limit (60 s): its drawing is " +
		"too complex to render here, and a lower dpi renders it faster",
	apierr.BadRequest: "or it is plain HTTP sent to a port that speaks HTTPS (nginx with DOCSUITE_TLS=on, a gateway or " +
		"the all-in-one with TLS_CERT_FILE), detail[0].msg saying use https://",
}

// errorResponses lists the error statuses the steps can answer, each with
// the errno values that answer it (and when, where the steps say).
func errorResponses(steps ...step) obj {
	notes := map[apierr.Code][]string{}
	unconditional := map[apierr.Code]bool{}
	for _, s := range steps {
		for _, c := range s.codes {
			if s.note == "" {
				unconditional[c] = true
			} else if !slices.Contains(notes[c], s.note) {
				notes[c] = append(notes[c], s.note)
			}
		}
	}
	byStatus := map[int][]string{}
	for _, e := range apierr.Catalogue() {
		if _, ok := notes[e.Name]; (!ok && !unconditional[e.Name]) || e.Status < 400 {
			continue
		}
		line := fmt.Sprintf("errno %d %s: %s", e.Errno, e.Name, e.Message)
		if more := codeCases[e.Name]; more != "" {
			line += ", " + more
		}
		if !unconditional[e.Name] {
			line += " (" + strings.Join(notes[e.Name], "; ") + ")"
		}
		byStatus[e.Status] = append(byStatus[e.Status], line)
	}
	out := obj{}
	for status, lines := range byStatus {
		r := obj{"description": strings.Join(lines, "; "),
			"content": obj{"application/json": obj{"schema": obj{"$ref": "#/components/schemas/Error"}}}}
		if status == http.StatusServiceUnavailable {
			r["headers"] = obj{"Retry-After": retryAfter("5")}
		}
		out[fmt.Sprint(status)] = r
	}
	return out
}
