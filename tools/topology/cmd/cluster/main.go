// Command cluster starts the production topology as separate processes
// (nats-server, MinIO, every role, nginx in front) for benchmarks and
// manual checks, writes nginx's URL and the process ids to -info, and
// runs until interrupted.
//
//	go run ./tools/topology/cmd/cluster -info /tmp/cluster.env
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"docsuite/tools/topology"
)

func main() {
	info := flag.String("info", "", "file to write DOCSUITE_URL and DOCSUITE_PIDS to (shell syntax)")
	port := flag.Int("port", 0, "nginx port on 127.0.0.1 (0: a free one)")
	classifiers := flag.Int("classifiers", 1, "classifier processes")
	flag.Parse()
	if err := run(*info, *port, *classifiers); err != nil {
		fmt.Fprintln(os.Stderr, "cluster:", err)
		os.Exit(1)
	}
}

func run(info string, port, classifiers int) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "docsuite-cluster-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	c, err := topology.Start(ctx, topology.Options{
		Root: root, Dir: dir, Port: port, Log: os.Stderr,
		// No license server here: evaluation mode, as the all-in-one.
		Replicas: map[string]int{"gateway": 2, "classifier": classifiers, "license": 0},
		Env:      map[string]string{"LOGURU_LEVEL": "WARNING", "DEV_ALLOW_NO_AVX512": "true"},
	})
	if err != nil {
		return err
	}
	defer c.Stop()
	var pids []string
	for _, p := range c.All() {
		if p.Pid() > 0 {
			pids = append(pids, fmt.Sprint(p.Pid()))
		}
	}
	line := fmt.Sprintf("DOCSUITE_URL=%s\nDOCSUITE_PIDS=%s\n", c.BaseURL, strings.Join(pids, ","))
	if info != "" {
		if err := os.WriteFile(info, []byte(line), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprint(os.Stderr, line)
	<-ctx.Done()
	return nil
}
