package params

import (
	"fmt"
	"net/url"
	"strings"

	"docsuite/pkg/apierr"
)

// maxNameEcho bounds how much of an unreadable parameter's name an error
// repeats.
const maxNameEcho = 64

// Values reads a request's query string. One that cannot be read whole (a
// % not followed by two hexadecimal digits, a ; between parameters, which
// Go no longer reads as &) is a 422 invalid_parameter naming the
// parameter of the first unreadable pair: url.URL.Query drops such a pair
// without a word, so dpi=%zz rendered at the default 300 dpi and
// async=true;priority=5 was answered synchronously.
func Values(raw string) (url.Values, error) {
	q, err := url.ParseQuery(raw)
	if err == nil {
		return q, nil
	}
	name := ""
	for _, pair := range strings.Split(raw, "&") {
		if _, perr := url.ParseQuery(pair); perr == nil {
			continue
		}
		name, _, _ = strings.Cut(pair, "=")
		name, _, _ = strings.Cut(name, ";")
		if k, uerr := url.QueryUnescape(name); uerr == nil {
			name = k
		}
		break
	}
	if len(name) > maxNameEcho {
		name = name[:maxNameEcho]
	}
	return nil, apierr.Param(name, fmt.Sprintf("the query string cannot be read: %v "+
		"(escape %% as %%25 and ; as %%3B; parameters are separated by &)", err), "value_error.query")
}
