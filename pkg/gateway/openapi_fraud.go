package gateway

// fraudDesc describes /pipelines/run/fraud.
const fraudDesc = "Classification (as classify, same parameters), then a forgery check of every document found: " +
	"items carry a fraud object {verdict, score, signs}. Only the documents the cropper finds are checked, each inside " +
	"its outline: a change outside them is not looked at. Signs: editor_metadata (the file's metadata names an image or " +
	"PDF editor, as check_fake), copy_move (a region of the document repeated elsewhere on it pixel for pixel), splicing " +
	"(a region carrying a JPEG block grid of its own: a piece of another picture pasted in, such as a field or a portrait), " +
	"photo_box (the portrait's photo box, found by a face detector or where the classified type's form prints it, " +
	"carrying a JPEG block grid other than the page's), mrz_mismatch (a Russian internal passport's visual number or " +
	"date disagrees with its machine-readable zone whose check digits hold). Each sign's confidence is a calibrated probability " +
	"that it marks a real tampering (fitted on the synthetic tampering set); the score combines the most confident sign " +
	"of each type as 1 - prod(1 - confidence); the verdict is suspicious from a score of 0.5. fake (check_fake's result) is always present, " +
	"fake_reasons whenever a trace was found."

// fraudSchema describes the body of /pipelines/run/fraud: the classify
// body whose items carry a fraud object.
func fraudSchema() obj {
	sign := obj{"type": "object", "required": []string{"type", "confidence", "coords", "message"}, "properties": obj{
		"type":       obj{"type": "string", "enum": []string{"editor_metadata", "copy_move", "splicing", "photo_box", "mrz_mismatch"}},
		"confidence": obj{"type": "number", "minimum": 0, "maximum": 1, "description": "Calibrated probability that the sign marks a real tampering."},
		"coords": obj{"type": "array", "minItems": 4, "maxItems": 4,
			"description": "top-left, top-right, bottom-left, bottom-right [x, y] of the region in the page's pixels: for editor_metadata the whole document; for copy_move one of the two regions (which one is the copy cannot be told from the pixels; the message names both)",
			"items":       obj{"type": "array", "items": obj{"type": "integer"}}},
		"message": obj{"type": "string", "description": "What was found, for a person: for copy_move both regions, for splicing and photo_box the block grid found against the page's, for mrz_mismatch the zone's and the visual value, for editor_metadata the editor and the field naming it."}}}
	fraud := obj{"type": "object", "required": []string{"verdict", "score", "signs"}, "properties": obj{
		"verdict": obj{"type": "string", "enum": []string{"clean", "suspicious"}},
		"score":   obj{"type": "number", "minimum": 0, "maximum": 1},
		"signs":   obj{"type": "array", "items": sign}}}
	return obj{"allOf": []obj{{"$ref": "#/components/schemas/ClassifyResponse"}, {"type": "object",
		"required": []string{"fake"},
		"properties": obj{"items": obj{"type": "array", "items": obj{"allOf": []obj{{"$ref": "#/components/schemas/Item"},
			{"type": "object", "required": []string{"fraud"}, "properties": obj{"fraud": fraud}}}}}}}}}
}
