package bus

import (
	"context"
	"testing"

	"docsuite/pkg/apierr"
	"docsuite/pkg/version"
)

// TestHealthSaysTheBuild: a stage's probe answer carries the replica's
// verdict and the build it runs, so /healthcheck can name each role's build
// (and an admin see roles of two builds side by side); no replica at all
// is dependency_down, a replica not ready is model_not_loaded with its
// reason.
func TestHealthSaysTheBuild(t *testing.T) {
	old := version.Build
	version.Build = "0123456789ab"
	t.Cleanup(func() { version.Build = old })
	nc := startNATS(t)
	tests := []struct {
		name      string
		stage     string
		serve     *Readiness
		wantBuild string
		wantCode  apierr.Code
	}{
		{"ready", "ready-stage", &Readiness{Ready: true}, "0123456789ab", ""},
		{"loading", "loading-stage", &Readiness{Reason: "model loading"}, "0123456789ab", apierr.ModelNotLoaded},
		{"absent", "absent-stage", nil, "", apierr.DependencyDown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.serve != nil {
				sub, err := ServeHealth(nc, tc.stage, func() Readiness { return *tc.serve })
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = sub.Unsubscribe() })
			}
			build, err := Health(context.Background(), nc, tc.stage)
			if build != tc.wantBuild {
				t.Errorf("build %q, want %q", build, tc.wantBuild)
			}
			if tc.wantCode == "" && err != nil || tc.wantCode != "" && apierr.As(err).Code != tc.wantCode {
				t.Errorf("err %v, want code %v", err, tc.wantCode)
			}
		})
	}
}
