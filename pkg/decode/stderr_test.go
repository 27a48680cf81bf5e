package decode

import (
	"context"
	"strings"
	"testing"
)

// TestStderrExcerpt: of what a tool wrote to stderr a log keeps one line,
// the last, bounded, with the file's text that the tools quote left out;
// it kept all of it (4 KB, many lines), and so did the client's answer.
func TestStderrExcerpt(t *testing.T) {
	tests := []struct {
		name, stderr, want string
	}{
		{"nothing", "", ""},
		{"blank lines", "\n \r\n", ""},
		{"one line", "Syntax Error: Couldn't read xref table\n", "Syntax Error: Couldn't read xref table"},
		{"the last of many", "Syntax Warning: No valid XRef size in trailer\nSyntax Error: Couldn't find trailer dictionary\n" +
			"Syntax Error: Couldn't read xref table\n", "Syntax Error: Couldn't read xref table (last of 3 lines)"},
		{"an operator quoted from the file", "Syntax Error (236): Unknown operator 'IvanovIvan'",
			"Syntax Error (236): Unknown operator '...'"},
		{"double quotes, two spans", `bad name "Ivanov" in "passport 4509 123456"`, `bad name "..." in "..."`},
		{"a quote left open", "Syntax Error: Unknown font tag 'Ivanov Ivan Ivanovich",
			"Syntax Error: Unknown font tag '...'"},
		{"bytes not printable ASCII", "name \x1b[31mИван\x07", "name ?(31m?????????"},
		{"brackets", "*** [1-11711] Unexpected End Of File.", "*** (1-11711) Unexpected End Of File."},
		{"a long line", strings.Repeat("x", 5000), strings.Repeat("x", excerptMax) + "..."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := stderrExcerpt([]byte(tc.stderr), 0); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestToolStderrNotForClients: a tool's failure, as decoding wraps it,
// logs one line of its stderr and tells a client none of it.
func TestToolStderrNotForClients(t *testing.T) {
	if _, err := runTool(context.Background(), 1<<30, 1<<10, "true"); err != nil {
		t.Skipf("prlimit cannot run tools here: %v", err)
	}
	script := "for i in $(seq 200); do echo \"Syntax Error ($i): Unknown operator 'Ivanov'\" >&2; done; " +
		"echo \"Syntax Error: Couldn't read xref table\" >&2; exit 1"
	_, err := runTool(context.Background(), 1<<30, 1<<10, "sh", "-c", script)
	if err == nil {
		t.Fatal("the tool's failure was not reported")
	}
	err = corrupt(PDF, err)
	log, client := err.Error(), ClientText(err)
	if strings.Contains(log, "\n") || len(log) > 300 || strings.Contains(log, "Ivanov") ||
		!strings.Contains(log, "Couldn't read xref table") {
		t.Errorf("logged as %q: want one line of at most 300 bytes, the failure's reason, no text of the file", log)
	}
	if want := "decode: corrupt file: pdf: sh: exit status 1"; client != want {
		t.Errorf("a client reads %q, want %q", client, want)
	}
}

// TestStderrBufferKeepsBothEnds: of a tool's stderr the start (poppler's
// "Incorrect password") and the end (the failure's reason) are kept,
// whatever lies between, and its lines are counted.
func TestStderrBufferKeepsBothEnds(t *testing.T) {
	warnings := make([]string, 100000) // written a line at a time, as poppler does
	for i := range warnings {
		warnings[i] = "Syntax Warning: x\n"
	}
	tests := []struct {
		name   string
		writes []string
		lines  int
		starts string
		ends   string
	}{
		{"short", []string{"Command Line Error: Incorrect password\n"}, 1, "Command Line Error: Incorrect password", "password"},
		{"a flood of warnings", append(append([]string{"first\n"}, warnings...), "Syntax Error: Couldn't read xref table\n"),
			100002, "first\n", "\nSyntax Error: Couldn't read xref table"},
		{"one large write", []string{"first\n" + strings.Repeat("y", 10*stderrKeep) + "\nlast\n"}, 3, "first\n", "\nlast"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b stderrBuffer
			for _, w := range tc.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("write: %d, %v", n, err)
				}
			}
			k := string(b.kept())
			if !strings.HasPrefix(k, tc.starts) || !strings.HasSuffix(k, tc.ends) || len(k) > 2*stderrKeep+1 {
				t.Errorf("kept %d bytes %.40q...%.40q, want from %q to %q", len(k), k, k[max(len(k)-40, 0):], tc.starts, tc.ends)
			}
			if b.lines != tc.lines {
				t.Errorf("%d lines, want %d", b.lines, tc.lines)
			}
		})
	}
}
