package gateway

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"docsuite/pkg/apierr"
)

// stepSources are the functions behind each step of the OpenAPI
// document's error lists, as "pkg:Func", "pkg:Type.Method", "pkg:file.go"
// (every function of a file) or "pkg:" (the whole package), pkg a
// directory under pkg/. A function's calls to functions of its own
// package, and to methods of its receiver and of its receiver's fields,
// are followed.
var stepSources = map[string][]string{
	stepEvery.name:      {"gateway:Server.recoverer", "gateway:rewriteNetHTTPError"},
	stepLicense.name:    {"gateway:Server.requireLicense", "licensestate:"},
	stepToken.name:      {"gateway:Server.requireToken"},
	stepQuery.name:      {"params:"},
	stepUpload.name:     {"gateway:Server.readUpload"},
	stepStore.name:      {"gateway:Server.keep"},
	stepSlot.name:       {"gateway:Server.syncSlot"},
	stepSync.name:       {"gateway:Server.runSync", "pipeline:", "bus:bus.go", "cropsvc:", "roles:"},
	stepEnqueue.name:    {"gateway:Server.enqueue", "tasks:Queue.Enqueue"},
	stepResult.name:     {"gateway:Server.handleResult", "tasks:Queue.Get", "tasks:Queue.Result"},
	stepFailedTask.name: {"gateway:Server.execTask", "tasks:runner.go", "tasks:abandoned.go", "pipeline:", "bus:bus.go", "cropsvc:", "roles:"},
}

// notAnOperation are the gateway's functions that answer catalogue codes
// outside the operations' steps, and why.
var notAnOperation = map[string]string{
	"Server.routes":          "404 path_not_found and 405 method_not_allowed: paths and methods that are no operation (the document's info says so)",
	"Server.handleDocsAsset": "the API page's own assets are no API operation",
	"Server.handleHealth":    "its 503 dependency_down is written out in the operation itself, the checks' errors go into its body",
}

// TestStepsNameTheirCodes pins the OpenAPI document's error lists to the
// code: each step's codes are exactly the catalogue codes its functions
// answer (a code only compared against is not answered; 500 internal,
// which any error outside the catalogue becomes, is on every operation
// through stepEvery), and every function of the gateway that answers a
// code belongs to a step or says why it does not.
func TestStepsNameTheirCodes(t *testing.T) {
	src := newSourceIndex(t)
	// Every step of an operation, but nginx's (TestNginxStepMatchesItsPages).
	var steps []step
	for _, s := range slices.Concat(methodSteps(true), resultSteps(), pageSteps()) {
		if s.name != stepNginx.name && !slices.ContainsFunc(steps, func(o step) bool { return o.name == s.name }) {
			steps = append(steps, s)
		}
	}
	reached := map[string]bool{}
	for _, s := range steps {
		roots, ok := stepSources[s.name]
		if !ok {
			t.Errorf("step %q has no sources in stepSources", s.name)
			continue
		}
		got, seen := map[apierr.Code]bool{}, map[string]bool{}
		for _, r := range roots {
			src.collect(t, r, got, seen)
		}
		maps.Copy(reached, seen)
		if s.name != stepEvery.name {
			delete(got, apierr.Internal)
		}
		var want []string
		for _, c := range s.codes {
			want = append(want, string(c))
		}
		if have := sortedCodes(got); !slices.Equal(have, sortedStrings(want)) {
			t.Errorf("step %q declares %v; its functions answer %v", s.name, sortedStrings(want), have)
		}
	}
	gw := src.pkg(t, "gateway")
	for key, fd := range gw.funcs {
		if strings.HasPrefix(gw.fileOf[key], "openapi") || reached["gateway:"+key] {
			continue
		}
		direct := map[apierr.Code]bool{}
		src.codesIn(fd.Body, direct)
		delete(direct, apierr.Internal)
		if len(direct) == 0 {
			continue
		}
		if _, ok := notAnOperation[key]; !ok {
			t.Errorf("%s answers %v but belongs to no step of the OpenAPI document's error lists", key, sortedCodes(direct))
		}
	}
}

// TestNginxStepMatchesItsPages: the codes the document says nginx answers
// on every path are those of deploy/nginx's error pages.
func TestNginxStepMatchesItsPages(t *testing.T) {
	conf, err := os.ReadFile(filepath.Join("..", "..", "deploy", "nginx", "docsuite.conf"))
	if err != nil {
		t.Fatal(err)
	}
	pages := map[int]bool{}
	for _, m := range regexp.MustCompile(`"errno":(\d+)`).FindAllStringSubmatch(string(conf), -1) {
		n, _ := strconv.Atoi(m[1])
		pages[n] = true
	}
	for _, c := range stepNginx.codes {
		if !pages[apierr.Lookup(c).Errno] {
			t.Errorf("the document says nginx answers %s, but deploy/nginx/docsuite.conf has no such error page", c)
		}
	}
	// The body limits the document's info names are nginx's.
	server := regexp.MustCompile(`(?m)^    client_max_body_size (\d+)m;`).FindStringSubmatch(string(conf))
	result := regexp.MustCompile(`location /result/ \{\s*client_max_body_size (\d+)m;`).FindStringSubmatch(string(conf))
	info, _ := dig(OpenAPI(), "info", "description").(string)
	if server == nil || result == nil || !strings.Contains(info, "("+server[1]+" MB; "+result[1]+" MB on /result/{task_id})") {
		t.Errorf("info %q does not name nginx's body limits %v and %v", info, server, result)
	}
}

// sourceIndex reads packages of pkg/ and the catalogue's constant names.
type sourceIndex struct {
	pkgs map[string]*srcPkg
	// consts maps apierr's constant names to their codes; helpers the
	// codes apierr's own functions answer (Param: invalid_parameter).
	consts  map[string]apierr.Code
	helpers map[string][]apierr.Code
}

// srcPkg is one package's functions ("Func" or "Type.Method"), the file
// each is in, and its struct types' field types (local types only).
type srcPkg struct {
	files  map[string][]*ast.FuncDecl
	funcs  map[string]*ast.FuncDecl
	fileOf map[string]string
	fields map[string]map[string]string
}

func newSourceIndex(t *testing.T) *sourceIndex {
	t.Helper()
	x := &sourceIndex{pkgs: map[string]*srcPkg{}, consts: map[string]apierr.Code{}, helpers: map[string][]apierr.Code{}}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join("..", "apierr", "apierr.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for i, name := range vs.Names {
				v, err := strconv.Unquote(vs.Values[i].(*ast.BasicLit).Value)
				if err != nil {
					t.Fatal(err)
				}
				x.consts[name.Name] = apierr.Code(v)
			}
		}
	}
	if len(x.consts) != len(apierr.Catalogue()) {
		t.Fatalf("apierr.go names %d codes, the catalogue has %d", len(x.consts), len(apierr.Catalogue()))
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if c, ok := x.consts[id.Name]; ok {
						x.helpers[fd.Name.Name] = append(x.helpers[fd.Name.Name], c)
					}
				}
				return true
			})
		}
	}
	return x
}

// pkg parses the non-test files of pkg/<dir>.
func (x *sourceIndex) pkg(t *testing.T, dir string) *srcPkg {
	t.Helper()
	if p, ok := x.pkgs[dir]; ok {
		return p
	}
	p := &srcPkg{files: map[string][]*ast.FuncDecl{}, funcs: map[string]*ast.FuncDecl{}, fileOf: map[string]string{},
		fields: map[string]map[string]string{}}
	names, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
	if err != nil || len(names) == 0 {
		t.Fatalf("package %s: no Go files (%v)", dir, err)
	}
	fset := token.NewFileSet()
	for _, name := range names {
		base := filepath.Base(name)
		if strings.HasSuffix(base, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				key := d.Name.Name
				if recv := recvType(d); recv != "" {
					key = recv + "." + key
				}
				p.funcs[key], p.fileOf[key] = d, base
				p.files[base] = append(p.files[base], d)
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok {
						continue
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					fields := map[string]string{}
					for _, fl := range st.Fields.List {
						typ := fl.Type
						if star, ok := typ.(*ast.StarExpr); ok {
							typ = star.X
						}
						if id, ok := typ.(*ast.Ident); ok {
							for _, n := range fl.Names {
								fields[n.Name] = id.Name
							}
						}
					}
					p.fields[ts.Name.Name] = fields
				}
			}
		}
	}
	x.pkgs[dir] = p
	return p
}

// recvType names a method's receiver type ("" for a function).
func recvType(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// collect adds the codes the functions of source answer to got, and the
// functions visited to reached ("pkg:key").
func (x *sourceIndex) collect(t *testing.T, source string, got map[apierr.Code]bool, reached map[string]bool) {
	t.Helper()
	dir, what, _ := strings.Cut(source, ":")
	p := x.pkg(t, dir)
	var keys []string
	switch {
	case what == "":
		for k := range p.funcs {
			keys = append(keys, k)
		}
	case strings.HasSuffix(what, ".go"):
		for _, fd := range p.files[what] {
			key := fd.Name.Name
			if recv := recvType(fd); recv != "" {
				key = recv + "." + key
			}
			keys = append(keys, key)
		}
		if len(keys) == 0 {
			t.Fatalf("%s: no such file or no functions in it", source)
		}
	default:
		if p.funcs[what] == nil {
			t.Fatalf("%s: no such function", source)
		}
		keys = []string{what}
	}
	for _, k := range keys {
		x.visit(dir, p, k, got, reached)
	}
}

// visit adds the codes function key of p answers, and those of the
// functions of p it calls, to got.
func (x *sourceIndex) visit(dir string, p *srcPkg, key string, got map[apierr.Code]bool, reached map[string]bool) {
	fd := p.funcs[key]
	if fd == nil || fd.Body == nil || reached[dir+":"+key] {
		return
	}
	reached[dir+":"+key] = true
	x.codesIn(fd.Body, got)
	recvName, recv := "", recvType(fd)
	if recv != "" && len(fd.Recv.List[0].Names) > 0 {
		recvName = fd.Recv.List[0].Names[0].Name
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch f := call.Fun.(type) {
		case *ast.Ident:
			x.visit(dir, p, f.Name, got, reached)
		case *ast.SelectorExpr:
			switch on := f.X.(type) {
			case *ast.Ident:
				if recvName != "" && on.Name == recvName {
					x.visit(dir, p, recv+"."+f.Sel.Name, got, reached)
				}
			case *ast.SelectorExpr:
				// s.license.check: a method of a field of the receiver.
				if id, ok := on.X.(*ast.Ident); ok && recvName != "" && id.Name == recvName {
					if typ := p.fields[recv][on.Sel.Name]; typ != "" {
						x.visit(dir, p, typ+"."+f.Sel.Name, got, reached)
					}
				}
			}
		}
		return true
	})
}

// codesIn adds the catalogue codes body answers to got: apierr.X
// constants and apierr's helpers that make an error (apierr.Param), less
// the constants it only compares with.
func (x *sourceIndex) codesIn(body ast.Node, got map[apierr.Code]bool) {
	compared := map[ast.Node]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if n.Op == token.EQL || n.Op == token.NEQ {
				compared[n.X], compared[n.Y] = true, true
			}
		case *ast.CaseClause:
			for _, e := range n.List {
				compared[e] = true
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || compared[sel] {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "apierr" {
			return true
		}
		if c, ok := x.consts[sel.Sel.Name]; ok {
			got[c] = true
		}
		for _, c := range x.helpers[sel.Sel.Name] {
			got[c] = true
		}
		return true
	})
}

func sortedCodes(set map[apierr.Code]bool) []string {
	var out []string
	for c := range set {
		out = append(out, string(c))
	}
	return sortedStrings(out)
}

func sortedStrings(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
