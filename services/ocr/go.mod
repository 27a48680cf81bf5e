module docsuite/services/ocr

go 1.26.0

require docsuite/pkg v0.0.0

replace docsuite/pkg => ../../pkg
