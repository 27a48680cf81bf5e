// Package ocr will be the ocr stage worker. It is not built yet (see the
// extraction/OCR and forgery-check issues); until it is deployed the
// gateway answers its methods with 503 naming the missing worker.
package ocr
