package bus

import (
	"log/slog"
	"regexp"
)

// shippedConfigValue is what deploy/nats/nats.conf can carry as a user name
// or password: nats-server reads $NATS_USER, $NATS_PASSWORD and
// $NATS_LICENSE_PASSWORD as configuration, not text, so a value starting
// with a digit, or holding a quote, a space, '#' and the like, fails to
// parse or is read as something else (123456 a number, true a boolean).
var shippedConfigValue = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._-]*$`)

// WarnCredentials logs, before a role connects, when its NATS user or
// password could not be carried by the shipped NATS configuration: under
// docker compose the nats container then fails to start and the role only
// waits for it, so its log says why. A NATS server of the installation's
// own may accept them; hence a warning, not a refusal.
func WarnCredentials(log *slog.Logger, user, password string) {
	for _, v := range []struct{ name, value string }{{"NATS_USER", user}, {"NATS_PASSWORD", password}} {
		if v.value != "" && !shippedConfigValue.MatchString(v.value) {
			log.Warn(v.name+" holds characters the shipped deploy/nats/nats.conf cannot read (it must start with a letter "+
				"and hold only letters, digits, '-', '_' and '.'): under docker compose the nats container does not start",
				"variable", v.name)
		}
	}
}
