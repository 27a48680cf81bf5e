package gateway

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"docsuite/pkg/apierr"
	"docsuite/pkg/config"
)

// TokensBucket is the NATS KV bucket of accepted tokens (AUTH_MODE=kv):
// keys are hex sha256 of the tokens, values are ignored.
const TokensBucket = "docsuite_tokens"

// ownerKey is where requireToken leaves the caller's owner id.
const ownerKey = "docsuite.owner"

// authenticator checks the token of hosted paths.
type authenticator struct {
	mode    string
	license string
	file    string
	kv      jetstream.KeyValue

	mu       sync.Mutex
	tokens   map[string]bool
	loadedAt time.Time
	modTime  time.Time
}

func newAuthenticator(ctx context.Context, cfg config.Gateway, nc *nats.Conn) (*authenticator, error) {
	a := &authenticator{mode: cfg.AuthMode, license: cfg.LicenseToken, file: cfg.TokensFile}
	switch a.mode {
	case "kv":
		js, err := jetstream.New(nc)
		if err != nil {
			return nil, fmt.Errorf("gateway: jetstream: %w", err)
		}
		a.kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: TokensBucket})
		if err != nil {
			return nil, fmt.Errorf("gateway: tokens bucket: %w", err)
		}
	case "file":
		if err := a.reload(); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// Owner is the id a task is bound to: a hash of the token, or "" for the
// on-premises paths that carry none.
func Owner(token string) string {
	if token == "" {
		return ""
	}
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

func requestToken(c *gin.Context) string {
	if t := c.Query("token"); t != "" {
		return t
	}
	return c.GetHeader("Token")
}

func (a *authenticator) check(ctx context.Context, token string) error {
	if token == "" {
		return apierr.New(apierr.TokenMissing, "Token is missing: pass it in the token query parameter or the Token header (form fields are not read for it)")
	}
	bad := apierr.New(apierr.TokenMissing, "Token is not valid")
	switch a.mode {
	case "open":
		return nil
	case "license":
		if a.license == "" || subtle.ConstantTimeCompare([]byte(token), []byte(a.license)) != 1 {
			return bad
		}
		return nil
	case "kv":
		_, err := a.kv.Get(ctx, Owner(token))
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return bad
		}
		if err != nil {
			return apierr.Wrap(apierr.DependencyDown, err, "Token store unavailable")
		}
		return nil
	case "file":
		if err := a.reloadIfChanged(); err != nil {
			return apierr.Wrap(apierr.Internal, err, "")
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		if !a.tokens[Owner(token)] {
			return bad
		}
		return nil
	}
	return bad
}

// reloadIfChanged re-reads the tokens file at most once a second when its
// modification time changed, so admins add tokens without a restart.
func (a *authenticator) reloadIfChanged() error {
	a.mu.Lock()
	recent := time.Since(a.loadedAt) < time.Second
	a.mu.Unlock()
	if recent {
		return nil
	}
	st, err := os.Stat(a.file)
	if err != nil {
		return fmt.Errorf("gateway: tokens file: %w", err)
	}
	a.mu.Lock()
	changed := !st.ModTime().Equal(a.modTime)
	a.loadedAt = time.Now()
	a.mu.Unlock()
	if changed {
		return a.reload()
	}
	return nil
}

func (a *authenticator) reload() error {
	f, err := os.Open(a.file)
	if err != nil {
		return fmt.Errorf("gateway: tokens file: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("gateway: tokens file: %w", err)
	}
	tokens := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			tokens[Owner(line)] = true
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("gateway: tokens file: %w", err)
	}
	a.mu.Lock()
	a.tokens, a.modTime, a.loadedAt = tokens, st.ModTime(), time.Now()
	a.mu.Unlock()
	return nil
}

func (s *Server) requireToken() gin.HandlerFunc {
	return func(c *gin.Context) {
		token := requestToken(c)
		if err := s.auth.check(c.Request.Context(), token); err != nil {
			s.fail(c, err)
			return
		}
		c.Set(ownerKey, Owner(token))
		c.Next()
	}
}
