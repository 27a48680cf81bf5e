// Package envvars lists every configuration variable of every role from
// the config structs of pkg/config, and renders the env-file template and
// the Markdown table of the operations guide. tools/envdoc writes them;
// tools/topology checks docker-compose.yml against the same list.
package envvars

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"docsuite/pkg/config"
	"docsuite/pkg/version"
)

// Role is one binary of the suite and its configuration struct.
type Role struct {
	Name string
	// New returns a pointer to a fresh config struct of the role.
	New func() any
}

// stageRoles are the model-running stage workers; they share config.Stage.
func stageRoles() []string { return []string{"cropper", "classifier", "orienter", "ocr", "fraud"} }

// Roles lists every role in the order the documents present them.
func Roles() []Role {
	rs := []Role{{Name: "gateway", New: func() any { return new(config.Gateway) }}}
	for _, n := range stageRoles() {
		rs = append(rs, Role{Name: n, New: func() any { return new(config.Stage) }})
	}
	return append(rs,
		Role{Name: "license", New: func() any { return new(config.License) }},
		Role{Name: "janitor", New: func() any { return new(config.Janitor) }},
		Role{Name: "allinone", New: func() any { return new(config.AllInOne) }},
	)
}

// RoleVars returns the variable names a role reads: those its config
// struct holds, less those whose roles tag leaves the role out, and the
// process variables every role reads outside it (ProcessVars).
func RoleVars(r Role) []string {
	var names []string
	for _, p := range ProcessVars() {
		names = append(names, p.Name)
	}
	for _, v := range config.Vars(r.New()) {
		if reads(v, r.Name) {
			names = append(names, v.Name)
		}
	}
	return names
}

// reads reports whether role uses the variable its config struct holds.
func reads(v config.Var, role string) bool {
	return len(v.Roles) == 0 || slices.Contains(v.Roles, role)
}

// mustSet are the variables every installation sets itself; the template
// leaves them uncommented and empty, and docker compose refuses to start
// without them.
func mustSet() []string {
	return []string{"LICENSE_TOKEN", "LICENSE_URL", "MINIO_ACCESS_KEY", "MINIO_SECRET_KEY", "NATS_USER", "NATS_PASSWORD"}
}

// MustSet reports whether every installation sets the variable itself
// (the env-file template leaves it uncommented and empty, and
// docker-compose.yml interpolates it with ${NAME:?...}): a config variable
// of mustSet or a compose variable marked Required.
func MustSet(name string) bool {
	if slices.Contains(mustSet(), name) {
		return true
	}
	for _, c := range ComposeVars() {
		if c.Name == name && c.Required() {
			return true
		}
	}
	return false
}

// ComposeVar is a variable docker compose itself reads for ${...} in
// docker-compose.yml; no role reads it.
type ComposeVar struct {
	Name, Default, Doc string
}

// Required reports whether every installation sets the variable (no
// default; docker compose refuses to start without it).
func (c ComposeVar) Required() bool { return c.Name == "NATS_LICENSE_PASSWORD" }

// ComposeVars lists the compose-only variables.
func ComposeVars() []ComposeVar {
	return []ComposeVar{
		{"DOCSUITE_VERSION", version.Number, "Tag of the docsuite images docker compose builds and runs."},
		{"DOCSUITE_HTTP_PORT", "8080", "Host port nginx publishes (the container listens on 80): plain HTTP, or HTTPS only with DOCSUITE_TLS=on (e.g. 443 then)."},
		{"DOCSUITE_TLS", "off", "on: nginx speaks HTTPS only (TLS 1.2 and 1.3, HTTP/1.1) on DOCSUITE_HTTP_PORT with the certificate and key of DOCSUITE_TLS_DIR, and answers a plain HTTP request there with a JSON 400 (errno 27) saying to use https:// (no redirect: a client set up with http:// fails at once rather than sending its document in clear text first); off: plain HTTP, as before. docs/operations.md, \"TLS\"."},
		{"DOCSUITE_TLS_DIR", "./deploy/tls", "Host folder mounted read-only into nginx (/etc/docsuite/tls), holding tls.crt (PEM: the server's certificate, then its intermediates) and tls.key (PEM, unencrypted, readable by uid 10001) for DOCSUITE_TLS=on; a relative path is relative to docker-compose.yml. Renewed files are served after docker compose kill -s HUP nginx."},
		{"NATS_LICENSE_PASSWORD", "", "Password of the NATS user license, the license daemon's own (docker-compose.yml gives the daemon NATS_USER=license and this as NATS_PASSWORD): the only NATS user that may write the license verdict the gateways trust, or change its KV bucket or the usage counter's stream (deploy/nats/nats.conf). Must differ from NATS_PASSWORD; the same characters (letters, digits, '-', '_' and '.', starting with a letter), e.g. made by echo p$(openssl rand -hex 24)."},
		{"DOCSUITE_STOP_GRACE_PERIOD", "130s", "How long docker compose lets a docsuite container finish its running requests when stopping it (stop, upgrade, down) before killing it: keep it PIPELINE_TIMEOUT plus 10 s when raising PIPELINE_TIMEOUT."},
	}
}

// ProcessVar is a variable every role's process reads outside its config
// struct, so that --check-config does not show it: the env file's own
// name, read before the configuration, and the Go runtime's settings.
type ProcessVar struct {
	Name, Default, ReadBy, Doc string
}

// ProcessVars lists the process variables.
func ProcessVars() []ProcessVar {
	return []ProcessVar{
		{"ENV_FILE", "", "every role (before its configuration)", "Env file the role reads its settings from, as --env-file FILE does (the flag wins): " +
			"its values come after the built-in defaults and the environment's win over them. Leave it out of deploy/compose/docsuite.env: " +
			"docker compose hands that file's values to the containers as their environment (env_file), and a role whose ENV_FILE names a " +
			"file it cannot read (nothing of the host is mounted in its container) refuses to start. Neither docker-compose.yml nor the image sets it."},
		{"GOMEMLIMIT", "", "every role (the Go runtime)", "Soft limit of the Go heap (e.g. 1536MiB), read by the Go runtime at start. " +
			"Unset, a role in a container with a memory limit holds its heap under three quarters of that limit itself, leaving the rest " +
			"to ONNX Runtime, OpenCV and Tesseract, and logs gomemlimit_bytes at start; set, it wins. The containers' limits differ " +
			"(docker-compose.yml, deploy.resources.limits) and every container reads deploy/compose/docsuite.env: set it per service " +
			"(environment: in a docker-compose.override.yml), if at all. Neither docker-compose.yml nor the image sets it."},
	}
}

// Variable is one environment variable over all roles.
type Variable struct {
	Name   string
	Roles  []string
	Docs   []string // distinct descriptions, in role order
	DocBy  []string // the role that first gave each description
	Defs   []string // distinct defaults, in role order
	Secret bool
}

// Group is the variables read by the same set of roles.
type Group struct {
	Title string
	Vars  []*Variable
}

// Collect gathers every variable of every role, grouped by the roles that
// read it, groups and variables in order of first appearance.
func Collect() []Group {
	byName := map[string]*Variable{}
	var order []*Variable
	for _, r := range Roles() {
		for _, cv := range config.Vars(r.New()) {
			if !reads(cv, r.Name) {
				continue
			}
			v := byName[cv.Name]
			if v == nil {
				v = &Variable{Name: cv.Name}
				byName[cv.Name] = v
				order = append(order, v)
			}
			v.Roles = append(v.Roles, r.Name)
			if !slices.Contains(v.Docs, cv.Doc) {
				v.Docs, v.DocBy = append(v.Docs, cv.Doc), append(v.DocBy, r.Name)
			}
			if !slices.Contains(v.Defs, cv.Default) {
				v.Defs = append(v.Defs, cv.Default)
			}
			v.Secret = v.Secret || cv.Secret
		}
	}
	var groups []Group
	index := map[string]int{}
	for _, v := range order {
		title := rolesTitle(v.Roles)
		i, ok := index[title]
		if !ok {
			i = len(groups)
			index[title] = i
			groups = append(groups, Group{Title: title})
		}
		groups[i].Vars = append(groups[i].Vars, v)
	}
	return groups
}

// rolesTitle names a set of roles, collapsing the stage workers.
func rolesTitle(roles []string) string {
	if len(roles) == len(Roles()) {
		return "every role"
	}
	var parts []string
	stages, all := 0, stageRoles()
	for _, r := range roles {
		if slices.Contains(all, r) {
			stages++
			continue
		}
		parts = append(parts, r)
	}
	if stages == len(all) {
		parts = append([]string{"model workers (" + strings.Join(all, ", ") + ")"}, parts...)
	} else if stages > 0 {
		return strings.Join(roles, ", ")
	}
	return strings.Join(parts, ", ")
}

// Default is the variable's default; several defaults are listed per role.
func (v *Variable) Default() string {
	if len(v.Defs) == 1 {
		return v.Defs[0]
	}
	return strings.Join(v.Defs, " | ")
}

// Doc is the variable's description; where roles describe it differently,
// each description is prefixed with the role that gives it.
func (v *Variable) Doc() string {
	d := v.Docs[0]
	if len(v.Docs) > 1 {
		parts := make([]string, len(v.Docs))
		for i, doc := range v.Docs {
			parts[i] = v.DocBy[i] + ": " + doc
		}
		d = strings.Join(parts, " ")
	}
	if v.Secret {
		d += " Secret: masked by --check-config."
	}
	return d
}

// ImageVar is a variable the app image sets in its environment (the
// Dockerfile's ENV), which the template's commented default does not show.
type ImageVar struct{ Name, Value string }

// ImageVars lists the app image's settings that differ from the built-in
// defaults; tools/topology checks them against the Dockerfile.
func ImageVars() []ImageVar {
	return []ImageVar{
		{"MODELS_DIR", "/opt/docsuite/models"},
		{"ONNXRUNTIME_LIB", "/opt/docsuite/lib/libonnxruntime.so.1"},
		{"HTTP_ADDR", "0.0.0.0:8080"},
	}
}

const envHeader = `# docsuite environment file: every variable of every role, with its default.
# Generated by ` + "`go run ./tools/envdoc`" + ` from the config structs in pkg/config; do not edit by hand.
#
# Copy it to deploy/compose/docsuite.env and fill in every uncommented variable (each is marked
# "Set by every installation"; docker compose refuses to start without NATS_LICENSE_PASSWORD,
# NATS_USER, NATS_PASSWORD, MINIO_ACCESS_KEY and MINIO_SECRET_KEY). A commented line shows the
# built-in default; uncomment it to change the value. docker compose passes this file to every
# docsuite container (env_file) and reads it for ${...} in docker-compose.yml (docker compose
# --env-file deploy/compose/docsuite.env ...). Values that depend on the topology (NATS_URL,
# STORE_KIND, MINIO_ENDPOINT, HTTP_ADDR, METRICS_ADDR), the gateways' LICENSE_ENFORCE=true and
# empty TLS_CERT_FILE and TLS_KEY_FILE, the license daemon's NATS user (license, with
# NATS_LICENSE_PASSWORD as its NATS_PASSWORD) and an empty NATS_LICENSE_PASSWORD in every other
# container are set per service in docker-compose.yml and win over this file. Precedence in every
# role: built-in default < the image's environment < this file < the environment
# docker-compose.yml sets.
# ` + "`<role> --check-config`" + ` prints the effective values.
`

// WriteEnv writes the env-file template.
func WriteEnv(w io.Writer) error {
	var b strings.Builder
	b.WriteString(envHeader)
	b.WriteString("#\n# The app image sets, in its own environment (below this file):")
	for i, iv := range ImageVars() {
		sep := ","
		if i == len(ImageVars())-1 {
			sep = "."
		}
		fmt.Fprintf(&b, "\n#   %s=%s%s", iv.Name, iv.Value, sep)
	}
	b.WriteString("\n# Their commented defaults below are the binaries' own, for runs outside the image: leave\n# them commented under docker compose.\n")
	b.WriteString("\n# ==== docker compose (read by compose, not by the roles) ====\n")
	for _, c := range ComposeVars() {
		if c.Required() {
			b.WriteString("\n")
			for _, line := range wrap(c.Doc, 98) {
				fmt.Fprintf(&b, "# %s\n", line)
			}
			fmt.Fprintf(&b, "# Set by every installation (no default).\n%s=\n", c.Name)
			continue
		}
		writeCommented(&b, c.Doc, c.Name, c.Default)
	}
	b.WriteString("\n# ==== every role, outside its configuration (--check-config does not show them) ====\n")
	for _, p := range ProcessVars() {
		writeCommented(&b, p.Doc, p.Name, p.Default)
	}
	for _, g := range Collect() {
		fmt.Fprintf(&b, "\n# ==== %s ====\n", g.Title)
		for _, v := range g.Vars {
			b.WriteString("\n")
			for _, line := range wrap(v.Doc(), 98) {
				fmt.Fprintf(&b, "# %s\n", line)
			}
			if MustSet(v.Name) {
				fmt.Fprintf(&b, "# Set by every installation (built-in default: %q).\n%s=\n", v.Default(), v.Name)
				continue
			}
			if len(v.Defs) > 1 {
				fmt.Fprintf(&b, "# Defaults differ by role: %s.\n", v.Default())
			}
			fmt.Fprintf(&b, "#%s=%s\n", v.Name, v.Defs[0])
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteTable writes the Markdown table of every variable.
func WriteTable(w io.Writer) error {
	var b strings.Builder
	b.WriteString("| Variable | Default | Read by | Meaning |\n|---|---|---|---|\n")
	for _, c := range ComposeVars() {
		def := "`" + c.Default + "`"
		if c.Required() {
			def = "(required)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | docker compose | %s |\n", c.Name, def, c.Doc)
	}
	for _, p := range ProcessVars() {
		def := "`" + p.Default + "`"
		if p.Default == "" {
			def = "(unset)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", p.Name, def, p.ReadBy, p.Doc)
	}
	for _, g := range Collect() {
		for _, v := range g.Vars {
			def := "`" + v.Default() + "`"
			if v.Default() == "" {
				def = "(empty)"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", v.Name, def, g.Title, strings.ReplaceAll(v.Doc(), "|", "\\|"))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// wrap breaks s into lines of at most width characters at spaces.
func wrap(s string, width int) []string {
	var lines []string
	var cur strings.Builder
	for _, word := range strings.Fields(s) {
		if cur.Len() > 0 && cur.Len()+1+len(word) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(word)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// writeCommented writes a variable to the env template as a commented
// default after its documentation, wrapped as comment lines.
func writeCommented(b *strings.Builder, doc, name, def string) {
	b.WriteString("\n")
	for _, line := range wrap(doc, 98) {
		fmt.Fprintf(b, "# %s\n", line)
	}
	fmt.Fprintf(b, "#%s=%s\n", name, def)
}
