package version

import (
	"os"
	"regexp"
	"testing"
)

// TestComposeTagIsTheRelease: the image tag docker compose builds and runs
// by default, and the env example's, name this release, so an upgrade
// that bumps one and not the others fails here instead of at a customer's.
func TestComposeTagIsTheRelease(t *testing.T) {
	tests := []struct {
		file    string
		pattern string
	}{
		{"../../docker-compose.yml", `docsuite/[a-z]+:\$\{DOCSUITE_VERSION:-([0-9.]+)\}`},
		{"../../deploy/compose/docsuite.env.example", `(?m)^#?\s*DOCSUITE_VERSION=([0-9.]+)`},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			b, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			ms := regexp.MustCompile(tc.pattern).FindAllStringSubmatch(string(b), -1)
			if len(ms) == 0 {
				t.Fatalf("no DOCSUITE_VERSION default found by %s", tc.pattern)
			}
			for _, m := range ms {
				if m[1] != Number {
					t.Errorf("%s names %s, the release is %s", tc.file, m[1], Number)
				}
			}
		})
	}
}
