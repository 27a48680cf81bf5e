package apierr

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestCatalogueIsConsistent(t *testing.T) {
	seenErrno := map[int]Code{}
	for _, e := range Catalogue() {
		if prev, ok := seenErrno[e.Errno]; ok {
			t.Errorf("errno %d used by %s and %s", e.Errno, prev, e.Name)
		}
		seenErrno[e.Errno] = e.Name
		if e.Status < 200 || e.Status > 599 || e.Message == "" {
			t.Errorf("bad entry %+v", e)
		}
	}
	// Numbers fixed by API-DECISIONS.
	if Lookup(TaskNotFound).Errno != 8 || Lookup(TaskNotDone).Errno != 9 {
		t.Error("task_not_found must be errno 8 and task_not_done errno 9")
	}
}

func TestEveryCodeConstantIsCatalogued(t *testing.T) {
	codes := []Code{TokenMissing, LicenseInvalid, LicenseExpired, LicenseExhausted, TaskForbidden,
		PathNotFound, MethodNotAllowed, TaskNotFound, TaskNotDone, FileTooLarge, FileTooSmall,
		ImageMissing, NotMultipart, UnsupportedFormat, CorruptFile, InvalidParameter, TooManyPages,
		TooManyPixels, Internal, BadGateway, Overloaded, DependencyDown, ModelNotLoaded,
		PipelineTimeout, GatewayTimeout, TaskFailed, BadRequest, URITooLong}
	for _, c := range codes {
		if e := Lookup(c); e.Name != c {
			t.Errorf("%s missing from catalogue.json", c)
		}
	}
	if len(codes) != len(Catalogue()) {
		t.Errorf("catalogue has %d entries, constants %d", len(Catalogue()), len(codes))
	}
}

func TestEnvelope(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		status    int
		traceback bool
	}{
		{"param", Param("dpi", "must be > 0", "value_error"), 422, false},
		{"wrapped", fmt.Errorf("ctx: %w", New(FileTooSmall, "")), 415, false},
		{"plain error is internal", errors.New("boom"), 500, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := As(tc.err).Envelope()
			if b.Code != tc.status {
				t.Errorf("status %d, want %d", b.Code, tc.status)
			}
			if (b.Traceback != nil) != tc.traceback {
				t.Errorf("traceback presence %v", b.Traceback)
			}
			if b.Detail == nil {
				t.Error("detail must be an array, never null")
			}
		})
	}
}

// TestTimeoutWrapsOnce: a stage's own pipeline_timeout is not wrapped in
// another (the log said "Processing did not finish" twice); any other
// error becomes one.
func TestTimeoutWrapsOnce(t *testing.T) {
	stage := Wrap(PipelineTimeout, errors.New("context deadline exceeded"), "")
	tests := []struct {
		name string
		err  error
		want int // times the catalogue message appears
	}{
		{"stage's timeout", fmt.Errorf("pipeline: page 2: %w", stage), 1},
		{"plain deadline", errors.New("context deadline exceeded"), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Timeout(tc.err, 0)
			if got.Code != PipelineTimeout {
				t.Fatalf("code %s", got.Code)
			}
			if n := strings.Count(got.Error(), Lookup(PipelineTimeout).Message); n != tc.want {
				t.Errorf("%q says it %d times", got.Error(), n)
			}
		})
	}
}

// TestTimeoutSaysTheLimit: the answer of a request that ran out of
// time names how long it had, from a stage's timeout or a plain deadline
// alike, and says what to do about it; the stage's error is not changed.
func TestTimeoutSaysTheLimit(t *testing.T) {
	stage := Wrap(PipelineTimeout, errors.New("context deadline exceeded"), "")
	tests := []struct {
		name  string
		err   error
		limit time.Duration
		want  string
	}{
		{"stage's timeout", fmt.Errorf("pipeline: page 2: %w", stage), 120 * time.Second, "PIPELINE_TIMEOUT (120 s)"},
		{"plain deadline", errors.New("context deadline exceeded"), 1500 * time.Millisecond, "PIPELINE_TIMEOUT (1.5 s)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Timeout(tc.err, tc.limit)
			if got.Code != PipelineTimeout || !strings.Contains(got.Message, tc.want) || !strings.Contains(got.Message, "raise PIPELINE_TIMEOUT") {
				t.Fatalf("%s %q, want pipeline_timeout saying %q", got.Code, got.Message, tc.want)
			}
			if n := strings.Count(got.Error(), Lookup(PipelineTimeout).Message); n != 1 {
				t.Errorf("%q says it %d times", got.Error(), n)
			}
		})
	}
	if stage.Message != "" {
		t.Errorf("the stage's error was changed: %q", stage.Message)
	}
}
