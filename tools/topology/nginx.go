package topology

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

var (
	listenRe    = regexp.MustCompile(`(?m)^listen 80;$`)
	listenTLSRe = regexp.MustCompile(`(?m)^listen 80 ssl;$`)
	upstreamRe  = regexp.MustCompile(`(?m)^(\s*)server gateway-\d+:8080((?: [^;]*)?);\n`)
)

// tlsDir is where listen-tls.conf looks for tls.crt and tls.key: the
// mount point of DOCSUITE_TLS_DIR in the nginx container.
const tlsDir = "/etc/docsuite/tls/"

// RenderNginx writes deploy/nginx's configuration into dir, unchanged
// except for the listen address (of listen.conf and of listen-tls.conf,
// the TLS mode's), one upstream server per gateway address (with the
// options of deploy/nginx's server lines) and, when certDir is not empty,
// the folder listen-tls.conf reads tls.crt and tls.key from.
func RenderNginx(root, dir, listen string, gateways []string, certDir string) error {
	// listen.conf, listen-tls.conf and upstream.conf are the files that
	// carry addresses.
	for _, name := range []string{"nginx.conf", "docsuite.conf", "listen.conf", "listen-tls.conf", "upstream.conf"} {
		b, err := os.ReadFile(filepath.Join(root, "deploy/nginx", name))
		if err != nil {
			return fmt.Errorf("topology: nginx config: %w", err)
		}
		s := string(b)
		switch name {
		case "listen.conf":
			if len(listenRe.FindAllString(s, -1)) != 1 {
				return fmt.Errorf("topology: deploy/nginx/listen.conf must hold exactly one `listen 80;` line")
			}
			s = listenRe.ReplaceAllString(s, "listen "+listen+";")
		case "listen-tls.conf":
			if len(listenTLSRe.FindAllString(s, -1)) != 1 || strings.Count(s, tlsDir) != 2 {
				return fmt.Errorf("topology: deploy/nginx/listen-tls.conf must hold exactly one `listen 80 ssl;` line and name %s twice", tlsDir)
			}
			s = listenTLSRe.ReplaceAllString(s, "listen "+listen+" ssl;")
			if certDir != "" {
				s = strings.ReplaceAll(s, tlsDir, strings.TrimSuffix(certDir, "/")+"/")
			}
		case "upstream.conf":
			m := upstreamRe.FindStringSubmatchIndex(s)
			if m == nil {
				return fmt.Errorf("topology: deploy/nginx/upstream.conf has no `server gateway-N:8080` line")
			}
			indent, opts := s[m[2]:m[3]], s[m[4]:m[5]]
			var lines strings.Builder
			for _, g := range gateways {
				fmt.Fprintf(&lines, "%sserver %s%s;\n", indent, g, opts)
			}
			s = s[:m[0]] + lines.String() + upstreamRe.ReplaceAllString(s[m[0]:], "")
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			return fmt.Errorf("topology: nginx config: %w", err)
		}
	}
	return nil
}

// startNginx renders the configuration for the running gateways and starts
// Debian's nginx with everything under Dir/nginx.
func (c *Cluster) startNginx(ctx context.Context) error {
	bin, err := nginxBin()
	if err != nil {
		return err
	}
	port := c.opts.Port
	if port == 0 {
		if port, err = freePort(); err != nil {
			return err
		}
	}
	var gws []string
	for _, p := range c.Procs("gateway") {
		gws = append(gws, p.Addr)
	}
	prefix := filepath.Join(c.opts.Dir, "nginx")
	conf := filepath.Join(prefix, "conf")
	listen := fmt.Sprintf("127.0.0.1:%d", port)
	if err := RenderNginx(c.opts.Root, conf, listen, gws, ""); err != nil {
		return err
	}
	if err := openPath(prefix); err != nil {
		return err
	}
	p := &Proc{Name: "nginx", Path: bin, Addr: listen, Env: os.Environ(),
		Args: []string{"-p", prefix + "/", "-c", filepath.Join(conf, "nginx.conf"), "-e", filepath.Join(prefix, "error.log")}}
	if err := c.add(p); err != nil {
		return err
	}
	c.BaseURL = "http://" + listen
	return waitHTTP(ctx, p, c.BaseURL+"/healthcheck", 200)
}

// nginxBin finds Debian's nginx.
func nginxBin() (string, error) {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			return "", fmt.Errorf("topology: Debian's nginx is not installed (apt-get install nginx-light): %w", err)
		}
		bin = "/usr/sbin/nginx"
	}
	return bin, nil
}

// StartNginxTLS starts a second nginx, "nginx-tls", in front of the
// running gateways as the nginx image runs with DOCSUITE_TLS=on: through
// the image's entrypoint, deploy/nginx/docsuite-nginx.sh, which puts
// listen-tls.conf in place of listen.conf, here with tls.crt and tls.key
// read from certDir. It returns the process and its https:// address once
// /healthcheck answers there through client, which must trust the
// certificate.
func (c *Cluster) StartNginxTLS(ctx context.Context, certDir string, client *http.Client) (*Proc, string, error) {
	bin, err := nginxBin()
	if err != nil {
		return nil, "", err
	}
	var gws []string
	for _, p := range c.Procs("gateway") {
		gws = append(gws, p.Addr)
	}
	var proc *Proc
	var base string
	err = c.onFreePorts(func() error {
		port, err := freePort()
		if err != nil {
			return err
		}
		prefix := filepath.Join(c.opts.Dir, "nginx-tls")
		conf := filepath.Join(prefix, "conf")
		if err := os.MkdirAll(conf, 0o755); err != nil {
			return fmt.Errorf("topology: %w", err)
		}
		listen := fmt.Sprintf("127.0.0.1:%d", port)
		if err := RenderNginx(c.opts.Root, conf, listen, gws, certDir); err != nil {
			return err
		}
		if err := openPath(prefix); err != nil {
			return err
		}
		env := append(os.Environ(), "DOCSUITE_TLS=on", "DOCSUITE_NGINX_CONF="+conf, "DOCSUITE_NGINX_PREFIX="+prefix,
			"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
		proc = &Proc{Name: "nginx-tls", Path: "/bin/sh", Addr: listen, Env: env,
			Args: []string{filepath.Join(c.opts.Root, "deploy/nginx/docsuite-nginx.sh")}}
		if err := c.add(proc); err != nil {
			return err
		}
		base = "https://" + listen
		return waitHTTPWith(ctx, client, proc, base+"/healthcheck", 200)
	})
	if err != nil {
		return nil, "", err
	}
	return proc, base, nil
}

// openPath lets other users traverse dir and its parents: nginx started as
// root runs its workers as nobody, and they need the temp directories
// under the prefix. Directories already traversable stop the walk.
func openPath(dir string) error {
	for d := dir; d != "/" && d != "."; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err != nil {
			return fmt.Errorf("topology: %w", err)
		}
		if st.Mode().Perm()&0o001 != 0 {
			return nil
		}
		if err := os.Chmod(d, st.Mode().Perm()|0o055); err != nil {
			return fmt.Errorf("topology: %w", err)
		}
	}
	return nil
}
