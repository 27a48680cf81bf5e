package bus

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"
)

// TestConnectWaitsForTheServer: a role started before NATS (a reboot,
// `docker compose restart nats`) used to exit at once with "no servers
// available for connection", and its container's restart policy started
// it again in a loop; it waits now, saying what for, and connects once the
// server is up.
func TestConnectWaitsForTheServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	go func() {
		time.Sleep(1500 * time.Millisecond)
		ns, err := StartEmbedded(EmbeddedOptions{StoreDir: t.TempDir(), Port: port})
		if err != nil {
			t.Error(err)
			return
		}
		t.Cleanup(ns.Shutdown)
	}()
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	nc, err := ConnectWait(ctx, url, "test", log)
	if err != nil {
		t.Fatalf("want a connection once the server is up, got %v\n%s", err, logs.String())
	}
	defer nc.Close()
	if !strings.Contains(logs.String(), `"msg":"waiting for NATS"`) || !strings.Contains(logs.String(), url) {
		t.Errorf("no line saying what it waits for:\n%s", logs.String())
	}
}

// TestConnectWaitGivesUpWhenStopped: SIGTERM while waiting ends the wait
// with the last cause.
func TestConnectWaitGivesUpWhenStopped(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := ConnectWait(ctx, "nats://127.0.0.1:1", "test", slog.New(slog.DiscardHandler))
	if err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("want the connect error soon after ctx ends, got %v after %v", err, time.Since(start))
	}
}

// TestConnectLogsNoCredentials: NATS_URL may carry a user and password
// or a token; the lines saying what a role waits for, and the error it
// ends with, show the address with them masked.
func TestConnectLogsNoCredentials(t *testing.T) {
	cases := []struct{ name, url string }{
		{"user and password", "nats://docsuite:N4tsPassw0rd@127.0.0.1:1"},
		{"token", "nats://N4tsPassw0rd@127.0.0.1:1"},
		{"second server of a list", "nats://127.0.0.1:1,nats://docsuite:N4tsPassw0rd@127.0.0.1:2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
			defer cancel()
			_, err := ConnectWait(ctx, tc.url, "test", slog.New(slog.NewJSONHandler(&logs, nil)))
			if err == nil {
				t.Fatal("connected to a closed port")
			}
			if !strings.Contains(logs.String(), "waiting for NATS") {
				t.Fatalf("no waiting line:\n%s", logs.String())
			}
			if strings.Contains(logs.String()+err.Error(), "N4tsPassw0rd") {
				t.Errorf("credentials in the log or the error:\n%s\n%v", logs.String(), err)
			}
		})
	}
}
