// Package version holds the suite's release number: one value for every
// role, reported by /healthcheck, the API document, the license daemon's
// checks, each binary's -version flag and its first log line.
package version

// Number is the release. Release builds may set it with
// -ldflags "-X docsuite/pkg/version.Number=X.Y.Z"; docker-compose.yml's
// DOCSUITE_VERSION default names the same (a test checks).
var Number = "4.148.0"
