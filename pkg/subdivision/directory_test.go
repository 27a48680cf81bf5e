package subdivision

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/synth"
)

// The shipped file is the factory's directory, entry for entry. Rewrite
// it with UPDATE_DIRECTORY=1 after changing the factory's offices.
func TestShippedIsFactory(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("# Generated from the document factory (pkg/synth SubdivisionDirectory): synthetic offices, not real ones.\n")
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"code", "authority"})
	for _, s := range synth.SubdivisionDirectory() {
		_ = w.Write([]string{s.Code, s.Authority})
	}
	w.Flush()
	if os.Getenv("UPDATE_DIRECTORY") != "" {
		if err := os.WriteFile("directory.csv", b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(b.Bytes(), shipped) {
		t.Fatal("directory.csv differs from the factory's offices: run UPDATE_DIRECTORY=1 go test ./pkg/subdivision")
	}
	d, err := Load("", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range synth.SubdivisionDirectory() {
		if got, ok := d.Authority(s.Code); !ok || got != s.Authority {
			t.Errorf("%s: %q, want %q", s.Code, got, s.Authority)
		}
	}
}

func TestOverride(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	shippedCode := synth.SubdivisionDirectory()[0].Code
	if err := os.WriteFile(good, []byte("code,authority\n770-001,\"ОТДЕЛ УФМС РОССИИ ПО ГОР. МОСКВЕ, ПО РАЙОНУ\"\n"+shippedCode+",новое имя\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Spreadsheets save "CSV UTF-8" with a byte-order mark and CRLF lines.
	bom := filepath.Join(dir, "bom.csv")
	if err := os.WriteFile(bom, []byte("\ufeffcode,authority\r\n770-002,ОТДЕЛ МВД\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte("code,authority\n77-001,X\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		path    string
		only    bool
		wantErr bool
		code    string
		want    string // "" means not listed
	}{
		{"extends", good, false, false, "770-001", "ОТДЕЛ УФМС РОССИИ ПО ГОР. МОСКВЕ, ПО РАЙОНУ"},
		{"wins on a shipped code", good, false, false, shippedCode, "НОВОЕ ИМЯ"},
		{"keeps the other shipped codes", good, false, false, synth.SubdivisionDirectory()[1].Code, synth.SubdivisionDirectory()[1].Authority},
		{"replaces", good, true, false, synth.SubdivisionDirectory()[1].Code, ""},
		{"byte-order mark and CRLF", bom, false, false, "770-002", "ОТДЕЛ МВД"},
		{"malformed code", bad, false, true, "", ""},
		{"missing file", filepath.Join(dir, "none.csv"), false, true, "", ""},
		{"only without a file", "", true, true, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Load(tc.path, tc.only)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err %v, want error %v", err, tc.wantErr)
			}
			if err != nil {
				return
			}
			got, ok := d.Authority(tc.code)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("Authority(%q) = %q, %v; want %q", tc.code, got, ok, tc.want)
			}
		})
	}
}
