// Package onnxrt runs the project's ONNX models through ONNX Runtime: it
// loads the shared library from an explicit path, reads the model manifest
// (models/manifest.json), refuses model files whose sha256 differs from the
// manifest, picks the execution provider (CUDA when allowed and present,
// else CPU) and wraps sessions for concurrent float32 NCHW inference. It
// also turns an image into the input tensor a manifest entry describes.
package onnxrt

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// DefaultLibrary is where scripts/install-onnxruntime.sh caches the library,
// relative to the repository root.
const DefaultLibrary = ".cache/onnxruntime/libonnxruntime.so.1"

// LibraryEnv names the environment variable that overrides the library path
// when Options.Library is empty.
const LibraryEnv = "ONNXRUNTIME_LIB"

// TelemetryEnv is ONNX Runtime's switch for the usage reports its Linux
// builds make since 1.30: with it unset the library writes a device
// identifier and an event cache under ~/.cache/Microsoft/DeveloperTools,
// a log in /tmp, and queues events for Microsoft's collector. The suite
// runs in closed networks, so Open sets it to 1 before the library starts
// (the library reads it once, then); a value an operator sets is kept.
const TelemetryEnv = "ORT_DISABLE_TELEMETRY"

// Options configure a Runtime.
type Options struct {
	// Library is the path of libonnxruntime.so.1. Empty means $ONNXRUNTIME_LIB,
	// then DefaultLibrary. A relative path is looked up in the working
	// directory and then in each parent directory (so tests running inside
	// a package folder find the repository's cache).
	Library string
	// Threads is the intra-op thread count of each session (0 means 1).
	Threads int
	// AllowGPU asks for the CUDA execution provider; sessions fall back to
	// the CPU provider, and say so in the log, when CUDA is not available.
	AllowGPU bool
	// Log receives the provider choice and fallbacks (nil: slog.Default()).
	Log *slog.Logger
}

// Runtime is an initialised ONNX Runtime environment. Create it with Open
// and release it with Close; any number of sessions may be loaded from it.
type Runtime struct {
	opts    Options
	log     *slog.Logger
	library string
	once    sync.Once
}

// The ONNX Runtime environment is a single per-process object inside the C
// library (onnxruntime_go keeps it in a package variable), so opening it is
// reference-counted here: every role of the all-in-one opens its own
// Runtime and the environment lives until the last one closes. This is the
// one piece of package-level mutable state, forced by the library.
var environment struct {
	mu      sync.Mutex
	refs    int
	library string
}

// Open initialises ONNX Runtime from the configured library (once per
// process; later calls share it) and returns a Runtime.
func Open(opts Options) (*Runtime, error) {
	lib, err := FindLibrary(opts.Library)
	if err != nil {
		return nil, err
	}
	if opts.Threads <= 0 {
		opts.Threads = 1
	}
	log := opts.Log
	if log == nil {
		log = slog.Default()
	}
	environment.mu.Lock()
	defer environment.mu.Unlock()
	if environment.refs == 0 {
		if err := initialise(lib, log); err != nil {
			return nil, err
		}
		environment.library = lib
	} else if environment.library != lib {
		return nil, fmt.Errorf("onnxrt: ONNX Runtime already initialised from %s, cannot also load %s",
			environment.library, lib)
	}
	environment.refs++
	return &Runtime{opts: opts, log: log, library: lib}, nil
}

// initialise loads the library and creates the process's environment with
// the library's telemetry off (see TelemetryEnv).
func initialise(lib string, log *slog.Logger) error {
	value, set := os.LookupEnv(TelemetryEnv)
	if !set {
		value = "1"
		// With cgo, os.Setenv sets the C environment the library reads.
		if err := os.Setenv(TelemetryEnv, value); err != nil {
			return fmt.Errorf("onnxrt: set %s: %w", TelemetryEnv, err)
		}
	}
	ort.SetSharedLibraryPath(lib)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("onnxrt: initialise ONNX Runtime from %s: %w", lib, err)
	}
	telemetry := "off" // the variable alone turns it off, before the environment exists
	if value != "1" {
		telemetry = "left to the library by " + TelemetryEnv + "=" + value
	}
	log.Info("ONNX Runtime initialised", "library", lib, "version", ort.GetVersion(), "telemetry", telemetry)
	return nil
}

// Close releases this Runtime's hold on the environment; the last Close
// destroys it. Sessions loaded from the Runtime must be closed first.
func (r *Runtime) Close() error {
	var err error
	r.once.Do(func() {
		environment.mu.Lock()
		defer environment.mu.Unlock()
		environment.refs--
		if environment.refs == 0 {
			if e := ort.DestroyEnvironment(); e != nil {
				err = fmt.Errorf("onnxrt: destroy environment: %w", e)
			}
			environment.library = ""
		}
	})
	return err
}

// Library is the path of the shared library in use.
func (r *Runtime) Library() string { return r.library }

// ErrLibraryMissing reports that the ONNX Runtime shared library was not
// found; scripts/install-onnxruntime.sh installs it.
var ErrLibraryMissing = errors.New("onnxrt: ONNX Runtime library not found (run scripts/install-onnxruntime.sh)")

// FindLibrary resolves the library path as Options.Library describes.
func FindLibrary(p string) (string, error) {
	if p == "" {
		p = os.Getenv(LibraryEnv)
	}
	if p == "" {
		p = DefaultLibrary
	}
	found, ok := findUp(p)
	if !ok {
		return "", fmt.Errorf("%w: %s", ErrLibraryMissing, p)
	}
	return found, nil
}

// FindDir resolves a relative directory (such as "models") the same way
// as FindLibrary: working directory first, then its parents.
func FindDir(p string) (string, error) {
	found, ok := findUp(p)
	if !ok {
		return "", fmt.Errorf("onnxrt: %s: %w", p, os.ErrNotExist)
	}
	return found, nil
}

// findUp returns p if it exists, or for a relative p the first existing
// dir/p walking from the working directory up to the file system root.
func findUp(p string) (string, bool) {
	if _, err := os.Stat(p); err == nil {
		abs, err := filepath.Abs(p)
		if err != nil {
			return p, true
		}
		return abs, true
	}
	if filepath.IsAbs(p) {
		return "", false
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		c := filepath.Join(dir, p)
		if _, err := os.Stat(c); err == nil {
			return c, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}
