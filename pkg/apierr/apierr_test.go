package apierr

import (
	"errors"
	"fmt"
	"testing"
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
