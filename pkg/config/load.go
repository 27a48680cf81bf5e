package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"strconv"
	"strings"

	"github.com/spf13/viper"
)

// Var describes one configuration variable.
type Var struct {
	Name    string
	Default string
	Doc     string
	Secret  bool
	Value   string
	// Roles, when not empty, are the only roles that use the variable
	// among those whose struct holds it (the roles tag of the field or of
	// a struct field above it): a shared struct may carry settings that
	// some of its roles ignore, and the docs say who really reads them.
	Roles []string
}

// Load fills cfg (a pointer to one of this package's structs) from the
// defaults in its tags, then envFile when not empty, then the process
// environment. Unknown variables in the env file are ignored so one file
// can serve every role.
func Load(cfg any, envFile string) error {
	v := viper.New()
	if envFile != "" {
		v.SetConfigFile(envFile)
		v.SetConfigType("env")
		if err := v.ReadInConfig(); err != nil {
			return fmt.Errorf("config: read env file %s: %w", envFile, err)
		}
	}
	rv := reflect.ValueOf(cfg)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return errors.New("config: Load needs a pointer to a struct")
	}
	return walk(rv.Elem(), func(f reflect.Value, sf reflect.StructField) error {
		name := sf.Tag.Get("env")
		v.SetDefault(name, sf.Tag.Get("default"))
		if err := v.BindEnv(name); err != nil {
			return fmt.Errorf("config: bind %s: %w", name, err)
		}
		return set(f, name, v.GetString(name))
	})
}

// Vars lists every variable of cfg with its current value (secrets masked).
func Vars(cfg any) []Var {
	var out []Var
	seen := map[string]bool{}
	_ = walkRoles(reflect.ValueOf(cfg).Elem(), "", func(f reflect.Value, sf reflect.StructField, roles string) error {
		name := sf.Tag.Get("env")
		if seen[name] {
			return nil
		}
		seen[name] = true
		vr := Var{Name: name, Default: sf.Tag.Get("default"), Doc: sf.Tag.Get("doc"),
			Secret: sf.Tag.Get("secret") == "true", Value: fmt.Sprint(f.Interface())}
		if roles != "" {
			vr.Roles = strings.Split(roles, ",")
		}
		if vr.Secret && vr.Value != "" {
			vr.Value = "****"
		}
		vr.Value = RedactURLs(vr.Value)
		out = append(out, vr)
		return nil
	})
	return out
}

// RedactURLs masks the credentials of the URLs in s, a URL or a
// comma-separated list of them (NATS_URL): a password becomes ****, and so
// does a user name that stands alone (NATS token authentication). Other
// values come back unchanged. The roles log addresses through it, as
// --check-config prints them.
func RedactURLs(s string) string {
	if !strings.Contains(s, "://") || !strings.Contains(s, "@") {
		return s
	}
	parts := strings.Split(s, ",")
	for i, p := range parts {
		u, err := url.Parse(strings.TrimSpace(p))
		if err != nil || u.User == nil {
			continue
		}
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "****")
		} else {
			u.User = url.User("****")
		}
		parts[i] = strings.Replace(u.String(), "%2A%2A%2A%2A", "****", 1)
	}
	return strings.Join(parts, ",")
}

// Print writes the effective configuration, secrets masked, one
// NAME=value line per variable: what --check-config shows.
func Print(cfg any) string {
	var b strings.Builder
	for _, v := range Vars(cfg) {
		fmt.Fprintf(&b, "%s=%s\n", v.Name, v.Value)
	}
	return b.String()
}

// walk visits every tagged field, descending into embedded and nested
// structs. A variable repeated at several depths (e.g. TMPDIR) is set in
// every place.
func walk(rv reflect.Value, fn func(reflect.Value, reflect.StructField) error) error {
	return walkRoles(rv, "", func(f reflect.Value, sf reflect.StructField, _ string) error { return fn(f, sf) })
}

// walkRoles is walk that also hands fn the roles tag that applies to each
// field: its own, else the nearest struct field's above it ("" for none).
func walkRoles(rv reflect.Value, roles string, fn func(reflect.Value, reflect.StructField, string) error) error {
	rt := rv.Type()
	for i := 0; i < rt.NumField(); i++ {
		sf, f := rt.Field(i), rv.Field(i)
		if !sf.IsExported() {
			continue
		}
		r := roles
		if t := sf.Tag.Get("roles"); t != "" {
			r = t
		}
		if sf.Type.Kind() == reflect.Struct && sf.Tag.Get("env") == "" {
			if err := walkRoles(f, r, fn); err != nil {
				return err
			}
			continue
		}
		if sf.Tag.Get("env") == "" {
			continue
		}
		if err := fn(f, sf, r); err != nil {
			return err
		}
	}
	return nil
}

func set(f reflect.Value, name, s string) error {
	s = strings.TrimSpace(s)
	switch f.Kind() {
	case reflect.String:
		f.SetString(s)
	case reflect.Bool:
		if s == "" {
			f.SetBool(false)
			return nil
		}
		b, err := strconv.ParseBool(strings.ToLower(s))
		if err != nil {
			return fmt.Errorf("config: %s=%q is not a boolean (true/false)", name, s)
		}
		f.SetBool(b)
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("config: %s=%q is not an integer", name, s)
		}
		f.SetInt(n)
	default:
		return fmt.Errorf("config: %s has unsupported kind %s", name, f.Kind())
	}
	return nil
}

// EnvFile returns the env file named by --env-file style arguments or the
// ENV_FILE variable; empty when none.
func EnvFile(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	return os.Getenv("ENV_FILE")
}
