package gateway

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"docsuite/pkg/apierr"
	"docsuite/pkg/doctypes"
	"docsuite/pkg/params"
)

type obj = map[string]any

func (s *Server) handleOpenAPI(c *gin.Context) { c.JSON(http.StatusOK, OpenAPI()) }

// OpenAPI builds the OpenAPI 3 document from the same sources the code
// uses: the parameter specs and the error catalogue.
func OpenAPI() obj {
	multipart := obj{"required": true, "description": "One part, image. Parameters go in the query string: a form field named " +
		"like one of the method's parameters answers 422 (errno 16, detail.loc [\"body\", name]).",
		"content": obj{"multipart/form-data": obj{"schema": obj{
			"type": "object", "required": []string{"image"},
			"properties": obj{"image": obj{"type": "string", "format": "binary",
				"description": "The file, one per request (a second image part answers 422): JPEG, PNG, BMP, GIF, HEIC, HEIF (one page), TIFF, PDF or DJVU (one page or many); 1 KB to 30 MB."}},
		}}}}
	// Hosted-compatible paths need the token in the query or the Token
	// header; /result takes it when the task was created with one.
	tokenSecurity := []obj{{"token": []string{}}, {"tokenHeader": []string{}}}
	op := func(summary, desc, schema string, spec []params.Param, withToken bool) obj {
		errRefs := errorResponses(methodSteps(withToken)...)
		post := obj{"summary": summary, "description": desc, "parameters": queryParams(spec), "requestBody": multipart,
			"responses": merge(obj{"200": obj{"description": "Processed: the method's body. With async=true, accepted: the AsyncAccepted body at once; fetch the method's body from /result/{task_id}. " +
				"anyOf, not oneOf: the accept body is also a valid classify or recognize body with no items (and a recognize answer that lists no document is also an AsyncAccepted), so the two cannot be told apart by shape; the request's async says which it is.",
				"content": obj{"application/json": obj{"schema": obj{"anyOf": []obj{
					{"$ref": "#/components/schemas/" + schema}, {"$ref": "#/components/schemas/AsyncAccepted"}}}}}}}, errRefs)}
		if withToken {
			// The token as a security scheme: the page's Authorize button
			// takes it once for every call (the service description).
			post["security"] = tokenSecurity
		}
		return obj{"post": post}
	}
	classifyDesc := "Finds every document in the file, cuts it out, names its type and turns it upright. " +
		"rotation = k + 4m: mirror left-right when m = 1, then turn k times 90 degrees clockwise to make the upright crop. " +
		"coords: four [x, y] page pixels, top-left, top-right, bottom-left, bottom-right of the upright document. " +
		"confidence: calibrated probability in [0, 1] (below 0.4 unsure, 0.4-0.6 grey zone, above 0.6 sure)."
	recognizeDesc := "Classification, then field extraction per document (mode=recognize_only with doc_type: each page is one " +
		"upright document of the one doc_type given, no classification; two different types answer 422). passport_main: its 13 fields from the machine-readable " +
		"zone (check digits verified, Russian internal-passport table) and Tesseract on the field regions. passport_registration " +
		"(and its handwritten and deregistered kinds): only the newest stamp on the page is read, and doc_type becomes the kind of " +
		"that stamp (passport_registration_handwritten for a registration completed by hand, passport_registration_deregistered " +
		"for a deregistration). Other types: fields {}. With doc_type, the classification chooses among those types (and other, not_document, empty, as classify does) and only documents classified as one of them are listed; a residence page classified as a listed kind keeps the kind its newest stamp shows, and its confidence is the classification's. " +
		"use_internal_api=true (default) sets issuing_authority to the subdivision directory's name of the subdivision_code read " +
		"(source \"directory\"). normalization_fias=true sends a registration's address to the address service the installation " +
		"configures (ADDRESS_SERVICE_URL; source \"address_service\"); where none is configured (the on-premises default) it is " +
		"accepted and ignored, and a failing service leaves the address as read."
	health := obj{"summary": "Health (HEAD answers the same status without a body)", "responses": merge(obj{
		"200": obj{"description": "Every dependency classification needs answers: {success: true, version, build, builds, checks}. checks also report the OCR and forgery-check workers (ocr, fraud), which do not fail the check: their routes answer 503 while they are not running.",
			"content": obj{"application/json": obj{"schema": obj{"$ref": "#/components/schemas/Health"}}}},
		"503": obj{"description": "A dependency (NATS, store, license, a stage or its model) is down; checks name it. The error envelope (errno 22 dependency_down, its message naming the failing checks) with success false, version, build, builds and checks.",
			"headers": obj{"Retry-After": retryAfter("5")},
			"content": obj{"application/json": obj{"schema": obj{"allOf": []obj{{"$ref": "#/components/schemas/Health"}, {"$ref": "#/components/schemas/Error"}}}}}}}, errorResponses(pageSteps()...))}
	docsPageOp := obj{"summary": "Interactive API page (Swagger UI, served from the binary, works offline; HEAD answers the same without a body)",
		"responses": merge(obj{"200": obj{"description": "The page.", "content": obj{"text/html": obj{"schema": obj{"type": "string"}}}}}, errorResponses(pageSteps()...))}
	openAPIOp := obj{"summary": "This OpenAPI 3 document (HEAD answers the same without a body)",
		"responses": merge(obj{"200": obj{"description": "The document.", "content": obj{"application/json": obj{"schema": obj{"type": "object"}}}}}, errorResponses(pageSteps()...))}
	stageDesc := func(what string) string {
		return what + " Served by its own stage worker; while that worker is not deployed the answer is 503 naming it."
	}
	doc := obj{
		"openapi": "3.0.3",
		"info": obj{"title": "Document classification service", "version": Version(),
			"description": "On-premises document classification, extraction, OCR and forgery check. Errors use one envelope " +
				"{code, message, errno, traceback, detail}; the errno catalogue is listed under components.schemas.ErrorCatalogue. " +
				"Each operation lists the errors it can answer. Besides them, a path answers a method it does not list with 405 " +
				"method_not_allowed (errno 7), an unknown path (a known one with a trailing slash too) answers 404 path_not_found (errno 6), " +
				"and nginx refuses a request body over its limit (32 MB; 1 MB on /result/{task_id}) with 413 file_too_large (errno 10). " +
				"A client must read its answer at ANSWER_MIN_RATE bytes a second (1 KiB by default) or faster over every 60 s, " +
				"or the gateway closes the connection without a status (behind nginx, which reads the answer at once and buffers it, " +
				"a client is cut only when it takes nothing for 60 s)."},
		"paths": obj{
			"/pipelines/run/classify":  op("Classify documents (on-premises)", classifyDesc, "ClassifyResponse", params.ClassifySpec(), false),
			"/pipelines/run/recognize": op("Extract data (on-premises)", stageDesc(recognizeDesc), "RecognizeResponse", params.RecognizeSpec(), false),
			"/pipelines/run/fraud":     op("Check for forgery signs (on-premises)", stageDesc(fraudDesc), "FraudResponse", params.ClassifySpec(), false),
			"/pipelines/run/fulltext":  op("Full-text OCR (on-premises)", stageDesc("Basic OCR of every page (Tesseract, Russian and English): lines and words with confidence and coords, and the plain text; pages of the plain text are separated by a form feed. The cropper (neural, or simple_cropper=true) first finds the documents on each page: each is read on its own crop, flattened and enlarged, turned first as the orienter says, as sparse text in reading order (its rows), then the rest of the page with the documents painted over, keeping its lines mostly of legible words; a document's (or a page read whole's) machine-readable zone, where Tesseract reads a line like one, is read again by the extraction's zone reader (PP-OCR) and, when every check digit verifies, its lines replace Tesseract's there, exact, in their place; the page's documents list them in that order with their corners and turn, and each line says which document it was read on. A page where no document is found, and every page with mode=classify_only or classify_crop, is read whole. A page or document that does not read legibly as it lies is read turned as Tesseract's orientation detector proposes and the most legible reading kept (rotation says how it was turned); every coords is in the page as sent. Word recall on the document factory's pages: docs/accuracy-fulltext.md."), "FulltextResponse", ignoredBy("fulltext", params.ClassifySpec(), fulltextIgnores...), false),
			"/classify":                op("Classify documents (hosted-compatible)", classifyDesc, "ClassifyResponse", params.ClassifySpec(), true),
			"/recognize":               op("Extract data (hosted-compatible)", stageDesc(recognizeDesc), "RecognizeResponse", params.RecognizeSpec(), true),
			"/result/{task_id}": obj{"get": obj{"summary": "Result of an async task",
				"description": "Poll every 1-2 seconds. Answers the method's body when done, 202 while queued or running, the task's own error when it failed (its catalogue error, or 500 task_failed, errno 26, when there is no more specific one). A task is readable by the token that created it (on-premises tasks, whose paths take no token: by anyone with its id, a token sent or not); a hosted task read without a token answers 403 token_missing (errno 1), with another token 403 task_forbidden (errno 5). The task_id of a request answered synchronously answers 404 (errno 8) saying so until the result TTL has passed: its result was in that reply and is not kept.",
				"parameters": []obj{
					{"name": "task_id", "in": "path", "required": true, "schema": obj{"type": "string", "pattern": "^[0-9a-fA-F]{32}$"}, "description": "As the method answered it (lower case; upper case is read the same)."}},
				"security": append([]obj{{}}, tokenSecurity...),
				"responses": merge(obj{
					"200": obj{"description": "Done: the response body of the method that created the task (classify: ClassifyResponse, recognize: RecognizeResponse, fraud: FraudResponse, fulltext: FulltextResponse).",
						"content": obj{"application/json": obj{"schema": obj{"anyOf": []obj{
							{"$ref": "#/components/schemas/ClassifyResponse"}, {"$ref": "#/components/schemas/RecognizeResponse"},
							{"$ref": "#/components/schemas/FraudResponse"}, {"$ref": "#/components/schemas/FulltextResponse"}}}}}},
					"202": obj{"description": "Not done yet", "headers": obj{"Retry-After": retryAfter("1")},
						"content": obj{"application/json": obj{"schema": obj{"$ref": "#/components/schemas/Pending"}}}},
				}, errorResponses(resultSteps()...))}},
			"/healthcheck":  obj{"get": health, "head": health},
			"/docs":         obj{"get": docsPageOp, "head": docsPageOp},
			"/openapi.json": obj{"get": openAPIOp, "head": openAPIOp},
			"/metrics": obj{"get": obj{"summary": "Prometheus metrics, on the gateway's own address (nginx answers 404 path_not_found for it)",
				"responses": merge(obj{"200": obj{"description": "Text exposition format."}}, errorResponses(stepEvery))}},
		},
		"components": obj{"schemas": schemas(), "securitySchemes": obj{
			"token": obj{"type": "apiKey", "in": "query", "name": "token",
				"description": "License key of the hosted-compatible paths /classify and /recognize (checked as AUTH_MODE says); /result answers their tasks to the same key only. The on-premises paths (/pipelines/run/...) take none."},
			"tokenHeader": obj{"type": "apiKey", "in": "header", "name": "Token", "description": "The same key in the Token header."}}},
	}
	setOperationIDs(doc["paths"].(obj))
	return doc
}

// setOperationIDs names every operation after its method and path
// (postPipelinesRunClassify, getResultTaskId, headHealthcheck): client
// generators name their methods after operationId and invent unstable
// names without one. GET and HEAD share their operation objects, so each
// gets a copy.
func setOperationIDs(paths obj) {
	for p, v := range paths {
		item := v.(obj)
		for m, op := range item {
			o := maps.Clone(op.(obj))
			o["operationId"] = operationID(m, p)
			item[m] = o
		}
	}
}

func operationID(method, path string) string {
	var b strings.Builder
	b.WriteString(method)
	for _, part := range strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '{' || r == '}' || r == '_' || r == '.' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// retryAfter documents the Retry-After header of an answer.
func retryAfter(example string) obj {
	return obj{"description": "Seconds to wait before sending again (or polling).", "schema": obj{"type": "integer", "example": example}}
}

// fulltextIgnores are classify's parameters that full-text OCR accepts (it
// parses classify's query) and does nothing with: it answers no quality
// flags, no fake, no crops and reads every document whatever its type.
var fulltextIgnores = []string{"min_shape", "min_filesize", "max_exposure_score", "min_exposure_score", "max_blur_score",
	"doc_type", "check_fake", "return_crops"}

// ignoredBy is spec with the parameters named says method accepts and
// ignores, so that the document does not promise what the answer lacks.
func ignoredBy(method string, spec []params.Param, names ...string) []params.Param {
	out := slices.Clone(spec)
	for i, p := range out {
		if slices.Contains(names, p.Name) {
			out[i].Description = "Accepted and ignored by " + method + " (a parameter of classify). " + p.Description
		}
	}
	return out
}

func queryParams(spec []params.Param) []obj {
	out := make([]obj, 0, len(spec))
	for _, p := range spec {
		schema := obj{"type": p.Type}
		if p.Type == "array" {
			item := obj{"type": "string"}
			if p.Name == "doc_type" {
				item["enum"] = doctypes.All()
			}
			schema["items"] = item
		}
		if p.Default != nil {
			schema["default"] = p.Default
		}
		if p.Minimum != nil {
			schema["minimum"] = *p.Minimum
		}
		if p.Maximum != nil {
			schema["maximum"] = *p.Maximum
		}
		if p.Type == "number" && !p.Deprecated {
			schema["exclusiveMinimum"] = true
			schema["minimum"] = 0
		}
		if len(p.Enum) > 0 {
			schema["enum"] = p.Enum
		}
		q := obj{"name": p.Name, "in": "query", "schema": schema, "description": p.Description}
		if p.Deprecated {
			q["deprecated"] = true
		}
		if p.Type == "array" {
			q["style"], q["explode"] = "form", true
		}
		out = append(out, q)
	}
	return out
}

func merge(a, b obj) obj {
	out := obj{}
	for k, v := range b {
		out[k] = v
	}
	for k, v := range a {
		out[k] = v
	}
	return out
}

func schemas() obj {
	errnos := []int{}
	for _, e := range apierr.Catalogue() {
		errnos = append(errnos, e.Errno)
	}
	coords := obj{"type": "array", "minItems": 4, "maxItems": 4, "description": "Top-left, top-right, bottom-left, bottom-right of the upright document, page pixels.",
		"items": obj{"type": "array", "minItems": 2, "maxItems": 2, "items": obj{"type": "integer"}}}
	errorSchema := obj{"type": "object", "required": []string{"code", "message", "errno", "traceback", "detail"}, "properties": obj{
		"code": obj{"type": "integer", "description": "HTTP status"}, "message": obj{"type": "string"},
		"errno":     obj{"type": "integer", "enum": errnos, "description": "Stable error number, see ErrorCatalogue"},
		"traceback": obj{"type": "string", "nullable": true, "description": "Filled on 5xx for support; no secrets."},
		"detail": obj{"type": "array", "items": obj{"type": "object", "properties": obj{
			"loc": obj{"type": "array", "items": obj{"type": "string"}}, "msg": obj{"type": "string"}, "type": obj{"type": "string"}}}}}}
	catalogue := []obj{}
	for _, e := range apierr.Catalogue() {
		catalogue = append(catalogue, obj{"name": e.Name, "status": e.Status, "errno": e.Errno, "message": e.Message})
	}
	return obj{
		"Error": errorSchema,
		"ErrorCatalogue": obj{"type": "array", "description": "Every error the service answers.", "example": catalogue,
			"items": obj{"type": "object"}},
		"Pending": obj{"allOf": []obj{{"$ref": "#/components/schemas/Error"}, {"type": "object", "required": []string{"task_id", "status", "progress"}, "properties": obj{
			"task_id": obj{"type": "string", "pattern": "^[0-9a-f]{32}$"}, "status": obj{"type": "string", "enum": []string{"queued", "running"}},
			"progress": obj{"type": "object", "description": "pages done of the file's pages while the task runs (classify: its documents classified and oriented; fulltext: read; recognize and fraud: their documents done); pages_total known once the first page is cut (fulltext: once the first page is read), 0 before. pages_done counts the current try's pages: a task tried again (its gateway stopped under it, a try failed for a dependency down or ran past PIPELINE_TIMEOUT) shows 0 done of the same pages_total from the moment its try ends (its gateway killed outright: when the next try starts), never an earlier try's pages",
				"required":   []string{"pages_done", "pages_total"},
				"properties": obj{"pages_done": obj{"type": "integer"}, "pages_total": obj{"type": "integer"}}}}}}},
		"Health": obj{"type": "object", "required": []string{"success", "version", "build", "builds", "checks"}, "properties": obj{
			"success": obj{"type": "boolean"}, "version": obj{"type": "string", "description": "Release number MAJOR.MINOR.PATCH"},
			"build": obj{"type": "string", "description": "This gateway's build: 12 hex digits of a hash of the code and models it was built from (scripts/build-id.sh), the same for every build of the same sources; unknown for a binary built without it. Several builds share a release number."},
			"builds": obj{"type": "object", "additionalProperties": obj{"type": "string"},
				"description": "The build of the gateway and of the replica of each stage (crop, classify, orient, ocr, fraud) that answered the probe; unknown from a worker that does not say. Different values mean roles of different builds run side by side, as during a rolling upgrade."},
			"checks": obj{"type": "object", "additionalProperties": obj{"type": "string"},
				"description": "Each dependency (nats, store, license, crop, classify, orient, ocr, fraud): ok, or why it is not. A license that does not stop requests may carry a note: not enforced (evaluation mode, LICENSE_ENFORCE=false), or ok: with the license server's last answer and when the grace period ends."}}},
		"AsyncAccepted": obj{"type": "object", "required": []string{"task_id", "items", "pages_count", "page_count", "docs_count"},
			"description": "The answer to any method with async=true, at once: the classify body of a task not yet run (no items, counts 0).",
			"properties": obj{
				"task_id":     obj{"type": "string", "pattern": "^[0-9a-f]{32}$"},
				"items":       obj{"type": "array", "maxItems": 0, "items": obj{}},
				"task_tags":   obj{"type": "array", "items": obj{"type": "string"}},
				"pages_count": obj{"type": "integer"}, "page_count": obj{"type": "integer"}, "docs_count": obj{"type": "integer"},
				"code": obj{"type": "integer"}, "message": obj{"type": "string"}, "errno": obj{"type": "integer"},
				"traceback": obj{"type": "string", "nullable": true}, "detail": obj{"type": "array", "items": obj{}}}},
		"FraudResponse":     fraudSchema(),
		"RecognizeResponse": recognizeSchema(),
		"FulltextResponse":  fulltextSchema(),
		"ClassifyResponse": obj{"type": "object", "required": []string{"task_id", "items", "pages_count", "page_count", "docs_count"}, "properties": obj{
			"task_id":     obj{"type": "string", "pattern": "^[0-9a-f]{32}$"},
			"items":       obj{"type": "array", "items": obj{"$ref": "#/components/schemas/Item"}, "description": "Every document found, ordered by page, then top to bottom, left to right. A page on which nothing document-like is found is one item: the whole page. A page whose every cut piece is classified not_document (the emblem of a closed booklet's cover) is looked at again whole, and answered as that one item when the whole page is a document (a catalogue type or other); a page whose cut pieces are not_document or other without a single text line found on them (the number plate of a photographed car) is answered as that one item when the whole page is not_document. On a page that holds a document, a cut piece answered other without a single text line found on it (a piece of wallpaper, a hand) is no item, nor is a piece answered other, not_document or empty lying within a document of a catalogue type (a licence's title band). A page whose every cut piece is under 5 % of it and answered other, not_document or empty is looked at again whole, and the whole page replaces them when it is a catalogue type. With mode=classify_only or classify_crop every page is one item."},
			"task_tags":   obj{"type": "array", "items": obj{"type": "string"}},
			"pages_count": obj{"type": "integer"}, "page_count": obj{"type": "integer", "description": "Same as pages_count."},
			"docs_count": obj{"type": "integer"},
			"fake":       obj{"type": "boolean", "description": "Present when check_fake=true: true when the file's metadata names a digital editor (editors.json: Photoshop, GIMP, Lightroom, Canva, online PDF editors...) or a PDF was saved again after creation. Camera, scanner and converter software is not an editor; a file with stripped metadata passes."},
			"fake_reasons": obj{"type": "array", "description": "With check_fake=true, every trace found: where (source: exif, heic_exif, xmp, photoshop_irb, jpeg_app12, jpeg_comment, jpeg_quantization, png_text, pdf_info), the metadata field, its value (at most 200 bytes) and the editor it names. A reason with an empty editor (a PDF ModDate after its CreationDate without a later save) does not make fake true. Absent when nothing was found.",
				"items": obj{"type": "object", "required": []string{"source", "field", "value", "editor"}, "properties": obj{"source": obj{"type": "string"}, "field": obj{"type": "string"},
					"value": obj{"type": "string"}, "editor": obj{"type": "string", "description": "empty for a trace that names no editor"}}}},
			"code": obj{"type": "integer"}, "message": obj{"type": "string"}, "errno": obj{"type": "integer"},
			"traceback": obj{"type": "string", "nullable": true}, "detail": obj{"type": "array", "items": obj{}}}},
		"Item": obj{"type": "object", "required": []string{"document", "image_exposure", "image_blured", "low_image_resolution", "low_image_weight"}, "properties": obj{
			"document": obj{"type": "object", "required": []string{"type", "page", "rotation", "coords", "confidence"}, "properties": obj{
				"type":       obj{"type": "string", "enum": doctypes.All()},
				"page":       obj{"type": "integer", "minimum": 1},
				"rotation":   obj{"type": "integer", "minimum": 0, "maximum": 7, "description": "k + 4m: mirror first when m = 1, then k quarter turns clockwise. 0 for other, not_document, empty."},
				"coords":     coords,
				"confidence": obj{"type": "number", "minimum": 0, "maximum": 1}}},
			"crop":                 obj{"type": "string", "description": "data:image/jpeg;base64,... of the upright document; absent when return_crops=false."},
			"image_exposure":       obj{"type": "string", "enum": []string{"normal", "overexposed", "underexposed"}, "description": "overexposed: over-exposure score above max_exposure_score; underexposed: under-exposure score below min_exposure_score (the scores are defined there)."},
			"image_blured":         obj{"type": "boolean", "description": "Sharpness below max_blur_score."},
			"low_image_resolution": obj{"type": "boolean", "description": "The crop's shorter side below min_shape pixels."},
			"low_image_weight":     obj{"type": "boolean", "description": "The uploaded file lighter than min_filesize bytes."}}},
	}
}

// fulltextSchema describes the body of /pipelines/run/fulltext.
func fulltextSchema() obj {
	quad := obj{"type": "array", "minItems": 4, "maxItems": 4, "description": "top-left, top-right, bottom-left, bottom-right [x, y] of the upright text, in the page's pixels as sent",
		"items": obj{"type": "array", "items": obj{"type": "integer"}}}
	conf := obj{"type": "number", "minimum": 0, "maximum": 1, "description": "Tesseract's word confidence / 100 (a line: the mean of its words)"}
	word := obj{"type": "object", "required": []string{"text", "confidence", "coords"}, "properties": obj{"text": obj{"type": "string"}, "confidence": conf, "coords": quad}}
	line := obj{"type": "object", "required": []string{"text", "confidence", "coords", "block", "document", "words"}, "properties": obj{"text": obj{"type": "string"}, "confidence": conf, "coords": quad,
		"block":    obj{"type": "integer", "description": "lines read together, numbered on across the page: a paragraph of a page read whole (or of the rest of a page), a row of a document"},
		"document": obj{"type": "integer", "minimum": 0, "description": "the document (1-based, in pages[].documents) the line was read on; 0 for a page read whole or the rest of a page"},
		"words":    obj{"type": "array", "items": word}}}
	doc := obj{"type": "object", "required": []string{"coords", "rotation"}, "properties": obj{
		"coords":   obj{"type": "array", "minItems": 4, "maxItems": 4, "description": "the upright document's top-left, top-right, bottom-left, bottom-right [x, y] on the page", "items": obj{"type": "array", "items": obj{"type": "integer"}}},
		"rotation": obj{"type": "integer", "minimum": 0, "maximum": 3, "description": "quarter turns clockwise the document's crop was turned to be read (never mirrored)"}}}
	page := obj{"type": "object", "required": []string{"page", "width", "height", "rotation", "text", "lines", "documents"}, "properties": obj{"page": obj{"type": "integer", "description": "1-based"},
		"width": obj{"type": "integer"}, "height": obj{"type": "integer"},
		"rotation":  obj{"type": "integer", "minimum": 0, "maximum": 3, "description": "quarter turns clockwise the page (or the rest of a page around its documents) was turned to be read upright, coded as the classification's rotation (never mirrored); 0 when it was read as it lies or not at all"},
		"text":      obj{"type": "string", "description": "the page's lines: each document's rows, then the rest of the page's paragraphs, separated by blank lines"},
		"lines":     obj{"type": "array", "items": line},
		"documents": obj{"type": "array", "items": doc, "description": "the documents read one by one, in reading order; empty when the page was read whole"}}}
	return obj{"type": "object", "required": []string{"task_id", "pages", "text", "pages_count", "page_count"}, "properties": obj{
		"task_id": obj{"type": "string", "pattern": "^[0-9a-f]{32}$"}, "pages": obj{"type": "array", "items": page},
		"text":        obj{"type": "string", "description": "plain text of every page, pages separated by a form feed"},
		"pages_count": obj{"type": "integer"}, "page_count": obj{"type": "integer", "description": "Same as pages_count."},
		"task_tags": obj{"type": "array", "items": obj{"type": "string"}, "description": "the request's task_tags, when it passed any"},
		"code":      obj{"type": "integer"}, "message": obj{"type": "string"}, "errno": obj{"type": "integer"},
		"traceback": obj{"type": "string", "nullable": true}, "detail": obj{"type": "array", "items": obj{"type": "object"}}}}
}
