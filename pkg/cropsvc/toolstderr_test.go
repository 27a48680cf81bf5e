package cropsvc

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"docsuite/pkg/apierr"
	"docsuite/pkg/decode"
	"docsuite/pkg/testutil"
)

// A PDF poppler cannot open answers 422 corrupt_file whose detail names the
// tool that failed and nothing it wrote to stderr, which may quote the file;
// the error logged keeps the reason, on one line. The detail was poppler's
// stderr verbatim ("... exit status 1: Syntax Error: Couldn't find trailer
// dictionary\nSyntax Error: ...", up to 4 KB), and so was the log.
func TestToolStderrStaysOutOfTheAnswer(t *testing.T) {
	testutil.Need(t, "pdfinfo")
	// No cross-reference table, no trailer: a PDF cut after its catalogue.
	pdf := []byte("%PDF-1.4\n1 0 obj <</Type/Catalog/Pages 2 0 R /Title (Ivanov Ivan)>> endobj\n%%EOF\n")
	_, err := decode.Open(context.Background(), pdf, decode.Options{MaxPages: 10, TempDir: t.TempDir()})
	var ae *apierr.Error
	if !errors.As(DecodeError(err), &ae) || ae.Code != apierr.CorruptFile {
		t.Fatalf("%v: want corrupt_file", err)
	}
	body, _ := json.Marshal(ae.Envelope())
	if s := string(body); strings.Contains(s, "Syntax") || strings.Contains(s, "xref") || strings.Contains(s, `\n`) ||
		!strings.Contains(s, "pdfinfo") {
		t.Errorf("answer %s: want the failing tool named, nothing of its stderr", s)
	}
	if log := ae.Error(); strings.Contains(log, "\n") || !strings.Contains(log, "xref") {
		t.Errorf("logged as %q: want one line with poppler's reason", log)
	}
}
