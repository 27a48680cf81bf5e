package extract

import (
	"context"
	"fmt"
)

// Normalisation of extracted fields against outside references: the
// subdivision directory (use_internal_api) and an address service
// (normalization_fias).

// Authorities names the office of a subdivision code (pkg/subdivision).
type Authorities interface {
	Authority(code string) (string, bool)
}

// Addresses returns the normalised form of an address (pkg/address).
type Addresses interface {
	Normalize(ctx context.Context, address string) (string, error)
}

// NormalizeAuthority sets issuing_authority to the directory's name of
// the subdivision_code read, when the directory lists it; the field is as
// sure as the code. It reports whether it did.
func NormalizeAuthority(f Fields, a Authorities) bool {
	code, ok := f["subdivision_code"]
	if !ok || a == nil {
		return false
	}
	name, ok := a.Authority(code.Text)
	if !ok {
		return false
	}
	coords := code.Coords
	if old, ok := f["issuing_authority"]; ok {
		coords = old.Coords
	}
	f["issuing_authority"] = Field{Text: name, Confidence: round3(min(code.Confidence, 0.99)), Coords: coords, Source: "directory"}
	return true
}

// NormalizeAddress sends the address read to the address service and
// puts its answer in the field's place. An error leaves the field as read
// and is returned for the caller to log; it never fails extraction.
func NormalizeAddress(ctx context.Context, f Fields, a Addresses) error {
	addr, ok := f["address"]
	if !ok || a == nil {
		return nil
	}
	norm, err := a.Normalize(ctx, addr.Text)
	if err != nil {
		return fmt.Errorf("extract: address service: %w", err)
	}
	if norm != "" && norm != addr.Text {
		addr.Text, addr.Source = norm, "address_service"
		f["address"] = addr
	}
	return nil
}
