// Package version holds the suite's release number and build identity:
// one value each for every role, reported by /healthcheck, the API
// document, the license daemon's checks, each binary's -version flag and
// its first log line.
package version

// Number is the release. Release builds may set it with
// -ldflags "-X docsuite/pkg/version.Number=X.Y.Z"; docker-compose.yml's
// DOCSUITE_VERSION default names the same (a test checks).
var Number = "4.148.0"

// Build identifies the sources a binary was built from: scripts/build-id.sh
// hashes them, and `make build` and the Dockerfile set it with
// -ldflags "-X docsuite/pkg/version.Build=...". Several builds share a
// release number; two builds share a Build only when made from the same
// code and models. Empty in binaries built otherwise (go run, go test).
var Build = ""

// BuildOrUnknown is Build, or "unknown" for a binary built without it.
func BuildOrUnknown() string {
	if Build == "" {
		return "unknown"
	}
	return Build
}
