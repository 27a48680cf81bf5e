// Package subdivision is the directory of subdivision codes: the code
// printed in a Russian passport (and on registration stamps) names the
// office that issued it. The recognize method normalises a passport's
// issuing_authority to the directory's name of the code read
// (use_internal_api=true).
//
// The product ships a directory (directory.csv, embedded) generated from
// the document factory's offices (pkg/synth SubdivisionDirectory): its
// codes and names are synthetic, with a third digit (9) that real codes
// do not use, so it matches the factory's documents and no real passport.
// Installations load their own file (SUBDIVISION_DIRECTORY, same format)
// which extends the shipped one, its entries winning on the same code, or
// replaces it (SUBDIVISION_DIRECTORY_ONLY=true).
package subdivision

import (
	"bufio"
	"bytes"
	_ "embed" // the shipped directory
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
)

//go:embed directory.csv
var shipped []byte

// Directory maps subdivision codes (ddd-ddd) to issuing-authority names.
// It is read-only after Load and safe for concurrent use.
type Directory struct {
	names map[string]string
}

var reCode = regexp.MustCompile(`^\d{3}-\d{3}$`)

// Load returns the shipped directory extended by the file at path (when
// path is not empty); with only, the file alone.
func Load(path string, only bool) (*Directory, error) {
	d := &Directory{names: map[string]string{}}
	if !only || path == "" {
		if err := d.read(bytes.NewReader(shipped), "shipped directory"); err != nil {
			return nil, err
		}
	}
	if path == "" {
		if only {
			return nil, errors.New("subdivision: SUBDIVISION_DIRECTORY_ONLY without SUBDIVISION_DIRECTORY")
		}
		return d, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("subdivision: %w", err)
	}
	defer f.Close()
	if err := d.read(f, path); err != nil {
		return nil, err
	}
	return d, nil
}

// read adds the entries of a CSV file: a header line "code,authority",
// then one office a line; later entries win. A UTF-8 byte-order mark,
// which spreadsheets write before "CSV UTF-8", is skipped.
func (d *Directory) read(r io.Reader, name string) error {
	br := bufio.NewReader(r)
	if c, _, err := br.ReadRune(); err == nil && c != '\ufeff' {
		_ = br.UnreadRune()
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = 2
	cr.Comment = '#'
	head, err := cr.Read()
	if err != nil {
		return fmt.Errorf("subdivision: %s: %w", name, err)
	}
	if strings.TrimSpace(head[0]) != "code" || strings.TrimSpace(head[1]) != "authority" {
		return fmt.Errorf("subdivision: %s: the first line must be \"code,authority\", got %q", name, strings.Join(head, ","))
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("subdivision: %s: %w", name, err)
		}
		code, auth := strings.TrimSpace(rec[0]), strings.Join(strings.Fields(rec[1]), " ")
		if !reCode.MatchString(code) || auth == "" {
			line, _ := cr.FieldPos(0)
			return fmt.Errorf("subdivision: %s line %d: want a code ddd-ddd and a name, got %q", name, line, strings.Join(rec, ","))
		}
		d.names[code] = strings.ToUpper(auth)
	}
}

// Authority is the name of the office with code; ok is false when the
// directory does not list it.
func (d *Directory) Authority(code string) (string, bool) {
	if d == nil {
		return "", false
	}
	n, ok := d.names[code]
	return n, ok
}

// Len is the number of offices listed.
func (d *Directory) Len() int { return len(d.names) }
