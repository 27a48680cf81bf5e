package bus

import (
	"log/slog"
	"testing"

	"docsuite/pkg/testutil"
)

// TestNATSCredentialsWarning: a role whose NATS user or password the
// shipped nats.conf cannot carry says so in its log (compose's nats
// container would not start, and the role would only wait for it); a
// value of the recommended form, or none, says nothing.
func TestNATSCredentialsWarning(t *testing.T) {
	tests := []struct {
		name, user, password string
		warnings             int
	}{
		{"none", "", "", 0},
		{"recommended form", "docsuite", "p3f9a0c1e2d4b5a6978", 0},
		{"dots, dashes, underscores", "doc.suite-app_1", "pA.b-c_d", 0},
		{"password starting with a digit", "docsuite", "123456", 1},
		{"password with a space", "docsuite", "ab cd", 1},
		{"password with a quote", "docsuite", "a'b", 1},
		{"password with a hash", "docsuite", "ab#cd", 1},
		{"both wrong", "1user", "p@ss", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &testutil.LogCounter{Substring: "cannot read"}
			WarnCredentials(slog.New(h), tc.user, tc.password)
			if h.Count() != tc.warnings {
				t.Errorf("%d warnings, want %d", h.Count(), tc.warnings)
			}
		})
	}
}
