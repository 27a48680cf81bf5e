package gateway

import "docsuite/pkg/doctypes"

// recognizeSchema describes the body of /recognize and
// /pipelines/run/recognize.
func recognizeSchema() obj {
	quad := func(where string) obj {
		return obj{"type": "array", "minItems": 4, "maxItems": 4,
			"description": "top-left, top-right, bottom-left, bottom-right [x, y] " + where,
			"items":       obj{"type": "array", "minItems": 2, "maxItems": 2, "items": obj{"type": "integer"}}}
	}
	field := obj{"type": "object", "required": []string{"text", "confidence", "coords"}, "properties": obj{
		"text": obj{"type": "string"},
		"confidence": obj{"type": "number", "minimum": 0, "maximum": 1,
			"description": "Confidence of the field on the classification's scale: 0.98 for a value the zone's check digits verify, " +
				"0.95-0.98 for a name the zone and the visual zone agree on, lower for a value read only from the visual zone (Tesseract's confidence x 0.9); " +
				"0.99 for the zone's own lines (mrz_1, mrz_2) when every check digit holds, for page_number of a main spread (pages 2-3 by the type's definition) " +
				"and at most for an issuing_authority named by the subdivision directory (source directory)."},
		"coords": quad("of the field on the upright crop of the document"),
		"source": obj{"type": "string", "enum": []string{"directory", "address_service"},
			"description": "Present when text is a normalised value rather than the one read: the subdivision directory's name of the " +
				"code read (use_internal_api) or the address service's form (normalization_fias)."},
	}}
	passport := "passport_main has 13 fields: series_and_number (\"dddd dddddd\"), surname, first_name, other_names (Russian capitals), " +
		"sex (\"МУЖ.\" or \"ЖЕН.\"), date_of_birth and date_of_issue (dd.mm.yyyy, a date of the calendar), place_of_birth, issuing_authority (Russian capitals), " +
		"subdivision_code (\"ddd-ddd\"), mrz_1 and mrz_2 (the machine-readable lines), page_number (\"2-3\"). A field that is neither in a " +
		"readable machine-readable zone nor legible on the image is left out. Each is chosen between the machine-readable zone " +
		"(check digits verified) and the visual zone. A page answers only what it shows of the main spread: with a Russian " +
		"machine-readable zone, or two of series_and_number, sex, date_of_birth, date_of_issue and subdivision_code read, the fields " +
		"stand as read; with " +
		"one of them (or other_names ending as a patronymic) every field is capped at 0.3 (unsure); with none, fields is {}. " +
		"passport_registration, passport_registration_handwritten and " +
		"passport_registration_deregistered have the fields of the page's newest stamp: a registration registration_date " +
		"(dd.mm.yyyy), locality, street, address (locality, street), subdivision_code and, through the subdivision directory, " +
		"issuing_authority; a deregistration deregistration_date and issuing_authority; both series_and_number from the page's edge. " +
		"Other types have no field list yet: fields is {}."
	item := obj{"type": "object", "required": []string{"doc_type", "fields", "doc_coords", "confidence", "page", "rotation"}, "properties": obj{
		"doc_type":   obj{"type": "string", "enum": doctypes.All(), "description": "Document type identifier (as classify names it; a residence page's follows its newest stamp)."},
		"fields":     obj{"type": "object", "description": passport, "additionalProperties": field},
		"doc_coords": quad("of the document in the page's pixels (the whole page with mode=recognize_only)"),
		"confidence": obj{"type": "number", "minimum": 0, "maximum": 1, "description": "Calibrated confidence of the type (1 with mode=recognize_only)."},
		"page":       obj{"type": "integer", "description": "1-based page"},
		"rotation":   obj{"type": "integer", "minimum": 0, "maximum": 7, "description": "As in classify: turns the document upright."},
		"crop":       obj{"type": "string", "description": "data:image/jpeg;base64 upright crop, with return_crops=true (with mode=recognize_only, the page as sent: the image the fields' coords lie on)."},
	}}
	return obj{"type": "object", "required": []string{"task_id", "items", "pages_count", "page_count", "docs_count"}, "properties": obj{
		"task_id": obj{"type": "string", "pattern": "^[0-9a-f]{32}$"},
		"items": obj{"type": "array", "items": item,
			"description": "Documents found (of the doc_type list when given), by page, then top to bottom, left to right."},
		"task_tags":   obj{"type": "array", "items": obj{"type": "string"}},
		"pages_count": obj{"type": "integer"}, "page_count": obj{"type": "integer", "description": "Same as pages_count."},
		"docs_count": obj{"type": "integer"},
		"code":       obj{"type": "integer"}, "message": obj{"type": "string"}, "errno": obj{"type": "integer"},
		"traceback": obj{"type": "string", "nullable": true}, "detail": obj{"type": "array", "items": obj{}}}}
}
