// Package topology runs the production topology of docker-compose.yml as
// plain processes on one machine: Debian's nats-server with
// deploy/nats/nats.conf, the MinIO server built by
// scripts/install-minio.sh, every role from its own binary (go build
// ./services/<role>) and Debian's nginx with deploy/nginx, all on loopback
// ports under one directory. The topology test (TOPOLOGY=1) and
// scripts/topology.sh use it.
package topology

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"docsuite/tools/envdoc/envvars"
)

// Options describe the topology to start.
type Options struct {
	// Root is the repository root.
	Root string
	// Dir holds binaries, data, configuration and logs.
	Dir string
	// Port is nginx's port on 127.0.0.1 (0: a free port).
	Port int
	// Replicas is how many processes run each role (default 2 gateways,
	// 1 of every other role). A role without a command yet (ocr, fraud
	// until their issues land) is skipped and reported.
	Replicas map[string]int
	// Env is added to every role's environment; RoleEnv to one role's.
	Env     map[string]string
	RoleEnv map[string]map[string]string
	// SkipBuild uses the binaries already in Dir/bin.
	SkipBuild bool
	// Log receives progress lines.
	Log io.Writer
}

// Cluster is a running topology.
type Cluster struct {
	opts Options
	// BaseURL is nginx's address: what clients use.
	BaseURL string
	// NATSURL is the NATS server's client address.
	NATSURL string
	// NATSUser and NATSPassword are the roles' NATS credentials, and
	// NATSLicensePassword the license daemon's (user license): the server
	// runs the shipped deploy/nats/nats.conf, which requires them.
	NATSUser, NATSPassword, NATSLicensePassword string
	// MinioEndpoint, MinioAccess and MinioSecret reach the object store.
	MinioEndpoint, MinioAccess, MinioSecret string
	// Skipped lists roles without a command.
	Skipped []string

	procs []*Proc
}

// roleOrder is the start order: the daemons first, the gateways last (they
// need the workers for their health check), nginx after them.
func roleOrder() []string {
	return []string{"license", "janitor", "cropper", "classifier", "orienter", "ocr", "fraud", "gateway"}
}

func (o *Options) defaults() {
	if o.Log == nil {
		o.Log = io.Discard
	}
	reps := map[string]int{"gateway": 2}
	for k, v := range o.Replicas {
		reps[k] = v
	}
	for _, r := range roleOrder() {
		if _, ok := reps[r]; !ok {
			reps[r] = 1
		}
	}
	o.Replicas = reps
}

// Start builds the binaries and starts every process, waiting until each
// answers. On error the processes already started are stopped.
func Start(ctx context.Context, o Options) (c *Cluster, err error) {
	o.defaults()
	started := &Cluster{opts: o, MinioAccess: "docsuite", MinioSecret: "docsuite-topology-secret",
		NATSUser: "docsuite", NATSPassword: "p-topology-nats-secret", NATSLicensePassword: "p-topology-license-secret"}
	c = started
	defer func() {
		if err != nil {
			started.Stop() // c is nil on the error returns
		}
	}()
	for _, d := range []string{"bin", "logs", "nats", "minio", "nginx/conf"} {
		if err := os.MkdirAll(filepath.Join(o.Dir, d), 0o755); err != nil {
			return nil, fmt.Errorf("topology: %w", err)
		}
	}
	roles, err := c.build(ctx)
	if err != nil {
		return nil, err
	}
	if err := c.onFreePorts(func() error { return c.startNATS(ctx) }); err != nil {
		return nil, err
	}
	if err := c.onFreePorts(func() error { return c.startMinio(ctx) }); err != nil {
		return nil, err
	}
	for _, role := range roles {
		for i := 1; i <= o.Replicas[role]; i++ {
			if err := c.onFreePorts(func() error { return c.startRole(ctx, role, i) }); err != nil {
				return nil, err
			}
		}
	}
	if err := c.onFreePorts(func() error { return c.startNginx(ctx) }); err != nil {
		return nil, err
	}
	return c, nil
}

// build compiles every role that is a command into Dir/bin and returns
// them in start order.
func (c *Cluster) build(ctx context.Context) ([]string, error) {
	var roles, pkgs []string
	for _, r := range roleOrder() {
		if c.opts.Replicas[r] <= 0 {
			continue
		}
		out, err := c.goCmd(ctx, "list", "-f", "{{.Name}}", "./services/"+r).Output()
		if err != nil || strings.TrimSpace(string(out)) != "main" {
			c.Skipped = append(c.Skipped, r)
			continue
		}
		roles = append(roles, r)
		pkgs = append(pkgs, "./services/"+r)
	}
	if len(c.Skipped) > 0 {
		fmt.Fprintf(c.opts.Log, "topology: no command yet for %s: not started\n", strings.Join(c.Skipped, ", "))
	}
	if c.opts.SkipBuild {
		return roles, nil
	}
	start := time.Now()
	// The binaries carry the build identity, as make build's and the
	// images' do (scripts/build-id.sh).
	id, err := exec.CommandContext(ctx, filepath.Join(c.opts.Root, "scripts/build-id.sh"), c.opts.Root).Output()
	if err != nil {
		return nil, fmt.Errorf("topology: scripts/build-id.sh: %w", err)
	}
	ldflags := "-X docsuite/pkg/version.Build=" + strings.TrimSpace(string(id))
	args := append([]string{"build", "-ldflags", ldflags, "-o", filepath.Join(c.opts.Dir, "bin") + "/"}, pkgs...)
	cmd := c.goCmd(ctx, args...)
	cmd.Stdout, cmd.Stderr = c.opts.Log, c.opts.Log
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("topology: go build %s: %w", strings.Join(pkgs, " "), err)
	}
	fmt.Fprintf(c.opts.Log, "topology: built %d roles in %.1fs\n", len(roles), time.Since(start).Seconds())
	return roles, nil
}

func (c *Cluster) goCmd(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = c.opts.Root
	cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=false")
	return cmd
}

// add registers and starts a process.
func (c *Cluster) add(p *Proc) error {
	if p.Dir == "" {
		p.Dir = c.opts.Root
	}
	p.LogPath = filepath.Join(c.opts.Dir, "logs", p.Name+".log")
	c.procs = append(c.procs, p)
	return p.start()
}

// onFreePorts runs start, which picks its ports, starts one process and
// waits for it, up to portTries times while the process exits before it
// answers (errExited): the ports it picked may have been taken in the
// meantime. A process that exited is forgotten before the next try (its
// log keeps every try).
func (c *Cluster) onFreePorts(start func() error) error {
	var err error
	for range portTries {
		n := len(c.procs)
		if err = start(); err == nil || !errors.Is(err, errExited) {
			return err
		}
		for _, p := range c.procs[n:] {
			p.Kill()
		}
		c.procs = c.procs[:n]
		fmt.Fprintf(c.opts.Log, "topology: %v\ntopology: trying other ports\n", err)
	}
	return err
}

func (c *Cluster) startNATS(ctx context.Context) error {
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		return fmt.Errorf("topology: Debian's nats-server is not installed (apt-get install nats-server): %w", err)
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	mon, err := freePort()
	if err != nil {
		return err
	}
	p := &Proc{Name: "nats", Path: bin, Addr: fmt.Sprintf("127.0.0.1:%d", mon),
		Args: []string{"-c", filepath.Join(c.opts.Root, "deploy/nats/nats.conf"), "-a", "127.0.0.1", "-p", fmt.Sprint(port), "-m", fmt.Sprint(mon)},
		Env: append(os.Environ(), "NATS_SERVER_NAME=topology", "NATS_JETSTREAM_DIR="+filepath.Join(c.opts.Dir, "nats"),
			"NATS_USER="+c.NATSUser, "NATS_PASSWORD="+c.NATSPassword, "NATS_LICENSE_PASSWORD="+c.NATSLicensePassword)}
	if err := c.add(p); err != nil {
		return err
	}
	c.NATSURL = fmt.Sprintf("nats://127.0.0.1:%d", port)
	return waitHTTP(ctx, p, "http://"+p.Addr+"/healthz?js-enabled=true", 200)
}

func (c *Cluster) startMinio(ctx context.Context) error {
	bin := filepath.Join(c.opts.Root, ".cache/bin/minio")
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("topology: MinIO missing at %s (run scripts/install-minio.sh): %w", bin, err)
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	console, err := freePort()
	if err != nil {
		return err
	}
	c.MinioEndpoint = fmt.Sprintf("127.0.0.1:%d", port)
	p := &Proc{Name: "minio", Path: bin, Addr: c.MinioEndpoint,
		Args: []string{"server", "--quiet", "--address", c.MinioEndpoint, "--console-address", fmt.Sprintf("127.0.0.1:%d", console), filepath.Join(c.opts.Dir, "minio")},
		Env:  append(os.Environ(), "MINIO_ROOT_USER="+c.MinioAccess, "MINIO_ROOT_PASSWORD="+c.MinioSecret, "MINIO_BROWSER=off")}
	if err := c.add(p); err != nil {
		return err
	}
	return waitHTTP(ctx, p, "http://"+c.MinioEndpoint+"/minio/health/ready", 200)
}

// roleEnv is the environment of one role process: the caller's
// environment without any docsuite variable (so a developer's settings do
// not leak in), then the topology's settings, then the options'.
func (c *Cluster) roleEnv(role string, extra map[string]string) []string {
	known := map[string]bool{}
	for _, g := range envvars.Collect() {
		for _, v := range g.Vars {
			known[v.Name] = true
		}
	}
	for _, p := range envvars.ProcessVars() {
		known[p.Name] = true
	}
	var env []string
	for _, kv := range os.Environ() {
		if !known[strings.SplitN(kv, "=", 2)[0]] {
			env = append(env, kv)
		}
	}
	set := map[string]string{
		"NATS_URL": c.NATSURL, "NATS_USER": c.NATSUser, "NATS_PASSWORD": c.NATSPassword,
		"STORE_KIND": "minio", "MINIO_ENDPOINT": c.MinioEndpoint,
		"MINIO_ACCESS_KEY": c.MinioAccess, "MINIO_SECRET_KEY": c.MinioSecret, "MINIO_BUCKET": "docsuite",
		"MODELS_DIR":      filepath.Join(c.opts.Root, "models"),
		"ONNXRUNTIME_LIB": filepath.Join(c.opts.Root, ".cache/onnxruntime/libonnxruntime.so.1"),
		"INSTANCE_ID":     "topology", "OMP_THREAD_LIMIT": "1", "OPENCV_LOG_LEVEL": "ERROR", "ORT_DISABLE_TELEMETRY": "1",
	}
	if role == "license" {
		// As docker-compose.yml does: the license daemon's own user, the
		// only one that may write the verdict.
		set["NATS_USER"], set["NATS_PASSWORD"] = "license", c.NATSLicensePassword
	}
	for _, m := range []map[string]string{c.opts.Env, c.opts.RoleEnv[role], extra} {
		for k, v := range m {
			set[k] = v
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+set[k])
	}
	return env
}

// startRole starts replica i of a role and, when it serves HTTP, waits for
// it to answer: a worker's /healthz, a gateway's /healthcheck (the workers
// start before the gateways, which need them to be healthy).
func (c *Cluster) startRole(ctx context.Context, role string, i int) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	extra := map[string]string{}
	switch role {
	case "gateway":
		extra["HTTP_ADDR"] = addr
	default:
		extra["METRICS_ADDR"] = addr
	}
	p := &Proc{Name: fmt.Sprintf("%s-%d", role, i), Role: role, Addr: addr,
		Path: filepath.Join(c.opts.Dir, "bin", role), Env: c.roleEnv(role, extra)}
	if err := c.add(p); err != nil {
		return err
	}
	return waitRole(ctx, p)
}

// waitRole waits until a role's process answers: a gateway's
// /healthcheck, a worker's /healthz; a role without a port is not waited
// for.
func waitRole(ctx context.Context, p *Proc) error {
	var err error
	switch {
	case p.Role == "gateway":
		err = waitHTTP(ctx, p, "http://"+p.Addr+"/healthcheck", 200)
	case p.Role != "" && p.Addr != "":
		err = waitHTTP(ctx, p, "http://"+p.Addr+"/healthz", 200)
	}
	if err != nil {
		return fmt.Errorf("topology: %s not healthy: %w", p.Name, err)
	}
	return nil
}

// Restart starts a stopped or killed process again with the same command
// line and environment (what a restart policy does), and waits for it.
func (c *Cluster) Restart(ctx context.Context, p *Proc) error {
	if p.Running() {
		return fmt.Errorf("topology: %s is still running", p.Name)
	}
	if err := p.start(); err != nil {
		return err
	}
	return waitRole(ctx, p)
}

// Proc returns the process of that name, or nil.
func (c *Cluster) Proc(name string) *Proc {
	for _, p := range c.procs {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Procs returns the processes of a role, in replica order.
func (c *Cluster) Procs(role string) []*Proc {
	var out []*Proc
	for _, p := range c.procs {
		if p.Role == role {
			out = append(out, p)
		}
	}
	return out
}

// All returns every process in start order.
func (c *Cluster) All() []*Proc { return slices.Clone(c.procs) }

// Stop stops every process in reverse start order: nginx, the gateways
// (which finish running requests), the workers, then MinIO and NATS.
func (c *Cluster) Stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		c.procs[i].Stop(15 * time.Second)
	}
}
