package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/apierr"
	"docsuite/pkg/fakecheck"
	"docsuite/pkg/params"
	"docsuite/pkg/store"
)

// TestCheckFakeInputReadFailure: classify with check_fake reads the input
// itself; an input the store no longer holds is the task's own failure
// (internal), while a store that cannot read it is a dependency down (503,
// errno 22: sending again, or an async task's next try, may succeed).
func TestCheckFakeInputReadFailure(t *testing.T) {
	fc, err := fakecheck.New()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		// setup leaves the input key missing or unreadable under root.
		setup func(t *testing.T, root string)
		want  apierr.Code
	}{
		{"input gone", func(t *testing.T, root string) {}, apierr.Internal},
		{"store cannot read it", func(t *testing.T, root string) {
			// A folder where the input's file belongs: reading it fails
			// as a broken disk or a refusing MinIO would, not as missing.
			if err := os.MkdirAll(filepath.Join(root, "tasks", "t1", "input"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, apierr.DependencyDown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			st, err := store.NewFolder(root)
			if err != nil {
				t.Fatal(err)
			}
			tc.setup(t, root)
			r := New(nil, st, Limits{}, nil, fc)
			_, err = r.Classify(t.Context(), Input{TaskID: "t1", InputKey: "tasks/t1/input"}, params.Classify{CheckFake: true}, nil)
			if err == nil {
				t.Fatal("classify succeeded without its input")
			}
			if got := apierr.As(err).Code; got != tc.want {
				t.Errorf("code %v (%v), want %v", got, err, tc.want)
			}
		})
	}
}
