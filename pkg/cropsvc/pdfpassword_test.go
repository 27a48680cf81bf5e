package cropsvc

import (
	"context"
	"errors"
	"strings"
	"testing"

	"docsuite/pkg/apierr"
	"docsuite/pkg/decode"
	"docsuite/pkg/testutil"
)

// passwordPDF is a one-page PDF encrypted with a user password (the
// standard security handler; its /U entry matches no empty password), as
// a client's "protected" scan: no reader opens it without the password.
func passwordPDF() []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
		"<< /Filter /Standard /V 1 /R 2 /O <" + strings.Repeat("11", 32) + "> /U <" + strings.Repeat("22", 32) + "> /P -4 >>"}
	return testutil.PDF("1.4", objs, "/Encrypt 4 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>] ")
}

// A PDF that needs a password answers 422 corrupt_file (docs/formats.md),
// and its message must say why: it was "File cannot be decoded", the
// reason left to detail as poppler's "Command Line Error: Incorrect
// password", which a client cannot tell from a broken file.
func TestPasswordPDFSaysSo(t *testing.T) {
	_, err := decode.Open(context.Background(), passwordPDF(), decode.Options{TempDir: t.TempDir()})
	if err == nil {
		t.Fatal("a password-protected PDF opened")
	}
	var ae *apierr.Error
	if !errors.As(DecodeError(err), &ae) {
		t.Fatalf("not a catalogue error: %v", err)
	}
	if ae.Code != apierr.CorruptFile {
		t.Errorf("errno of %v, want corrupt_file as documented", ae.Code)
	}
	if m := strings.ToLower(ae.Message); !strings.Contains(m, "password") {
		t.Errorf("message %q does not say the PDF needs a password", ae.Message)
	}
}
