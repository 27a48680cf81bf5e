package envvars

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestCollect(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range Collect() {
		for _, v := range g.Vars {
			if seen[v.Name] {
				t.Errorf("%s listed twice", v.Name)
			}
			seen[v.Name] = true
			if v.Doc() == "" {
				t.Errorf("%s has no description", v.Name)
			}
		}
	}
	cases := []struct {
		name  string
		title string
	}{
		{"LOGURU_LEVEL", "every role"},
		{"HTTP_ADDR", "gateway, allinone"},
		{"ALLOW_GPU", "model workers (cropper, classifier, orienter, ocr, fraud), allinone"},
		{"LICENSE_URL", "license"},
		{"LICENSE_TOKEN", "gateway, license, allinone"},
		// Held by a shared struct, used by fewer roles (the roles tag).
		{"ADDRESS_SERVICE_URL", "ocr, allinone"},
		{"MINIO_ENDPOINT", "model workers (cropper, classifier, orienter, ocr, fraud), gateway, janitor, allinone"},
		{"METRICS_ADDR", "model workers (cropper, classifier, orienter, ocr, fraud), license, janitor, allinone"},
		{"INSTANCE_ID", "license"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, g := range Collect() {
				if slices.ContainsFunc(g.Vars, func(v *Variable) bool { return v.Name == tc.name }) {
					if g.Title != tc.title {
						t.Fatalf("group %q, want %q", g.Title, tc.title)
					}
					return
				}
			}
			t.Fatal("not found")
		})
	}
}

func TestRoleVarsLeaveOutUnusedSettings(t *testing.T) {
	byRole := map[string][]string{}
	for _, r := range Roles() {
		byRole[r.Name] = RoleVars(r)
	}
	cases := []struct {
		role, name string
		reads      bool
	}{
		{"ocr", "SUBDIVISION_DIRECTORY", true},
		{"cropper", "SUBDIVISION_DIRECTORY", false},
		{"allinone", "SUBDIVISION_DIRECTORY", true},
		{"license", "STORE_KIND", false},
		{"janitor", "STORE_KIND", true},
		{"gateway", "METRICS_ADDR", false},
		{"janitor", "METRICS_ADDR", true},
		{"license", "NATS_URL", true},
	}
	for _, tc := range cases {
		if got := slices.Contains(byRole[tc.role], tc.name); got != tc.reads {
			t.Errorf("%s reads %s: %v, want %v", tc.role, tc.name, got, tc.reads)
		}
	}
}

func TestWrap(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  []string
	}{
		{"a b c", 3, []string{"a b", "c"}},
		{"word", 2, []string{"word"}},
		{"", 10, nil},
	}
	for _, tc := range cases {
		if got := wrap(tc.in, tc.width); !slices.Equal(got, tc.want) {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}

func TestEnvTemplateSetsOnlyInstallationValues(t *testing.T) {
	var b strings.Builder
	if err := WriteEnv(&b); err != nil {
		t.Fatal(err)
	}
	var set []string
	for _, line := range strings.Split(b.String(), "\n") {
		if line != "" && !strings.HasPrefix(line, "#") {
			set = append(set, strings.SplitN(line, "=", 2)[0])
		}
	}
	if !slices.Equal(set, []string{"NATS_LICENSE_PASSWORD", "NATS_USER", "NATS_PASSWORD", "MINIO_ACCESS_KEY", "MINIO_SECRET_KEY", "LICENSE_TOKEN", "LICENSE_URL"}) {
		t.Fatalf("uncommented assignments: %v", set)
	}
}

// TestStartVariablesDocumented: every variable a role's start reads from
// the environment itself (pkg/cli, pkg/config: os.Getenv and the like
// called with a name) is documented, in a config struct or as a process
// variable; ENV_FILE and GOMEMLIMIT were read and documented nowhere.
func TestStartVariablesDocumented(t *testing.T) {
	documented := map[string]bool{}
	for _, g := range Collect() {
		for _, v := range g.Vars {
			documented[v.Name] = true
		}
	}
	for _, p := range ProcessVars() {
		documented[p.Name] = true
	}
	read := map[string]bool{}
	for _, dir := range []string{"cli", "config"} {
		files, err := filepath.Glob(filepath.Join("..", "..", "..", "pkg", dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("pkg/%s: %v", dir, err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				var fn string
				switch f := call.Fun.(type) {
				case *ast.Ident:
					fn = f.Name
				case *ast.SelectorExpr:
					fn = f.Sel.Name
				}
				lit, ok := call.Args[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING || !slices.Contains([]string{"Getenv", "LookupEnv", "getenv"}, fn) {
					return true
				}
				v, _ := strconv.Unquote(lit.Value)
				read[v] = true
				return true
			})
		}
	}
	for _, want := range []string{"ENV_FILE", "GOMEMLIMIT"} {
		if !read[want] {
			t.Errorf("%s is no longer read by pkg/cli or pkg/config: update ProcessVars", want)
		}
	}
	for v := range read {
		if !documented[v] {
			t.Errorf("%s is read at a role's start but documented nowhere (config struct or ProcessVars)", v)
		}
	}
	var table, env strings.Builder
	if err := WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if err := WriteEnv(&env); err != nil {
		t.Fatal(err)
	}
	for _, p := range ProcessVars() {
		if !strings.Contains(table.String(), "| `"+p.Name+"` |") || !strings.Contains(env.String(), "\n#"+p.Name+"=") {
			t.Errorf("%s is missing from the table or the env template", p.Name)
		}
	}
}
