package main

import (
	"testing"

	"docsuite/pkg/gateway"
)

// TestVersionMatchesGateway keeps the reported release equal to the one
// the gateway serves.
func TestVersionMatchesGateway(t *testing.T) {
	if version != gateway.Version {
		t.Fatalf("license daemon reports %q, gateway serves %q", version, gateway.Version)
	}
}
