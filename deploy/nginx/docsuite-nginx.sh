#!/bin/sh
# docsuite-nginx: the nginx image's entrypoint and health check.
#
#   docsuite-nginx [ARG...]   starts nginx in the foreground (ARGs go to
#                             nginx, e.g. -t to check the configuration).
#                             DOCSUITE_TLS=off (the default): exactly the
#                             plain HTTP configuration of deploy/nginx, as
#                             built into the image. DOCSUITE_TLS=on: the
#                             same with listen-tls.conf in place of
#                             listen.conf (HTTPS only), in a copy under
#                             the prefix (the container is read-only),
#                             after checking that the certificate and key
#                             it names can be read.
#   docsuite-nginx health     exits 0 when nginx answers its status page,
#                             over HTTPS in TLS mode (compose's check).
#
# DOCSUITE_NGINX_CONF (/etc/docsuite/nginx) and DOCSUITE_NGINX_PREFIX (/tmp)
# are for running it outside the image (tools/topology); leave them unset.
set -eu

conf=${DOCSUITE_NGINX_CONF:-/etc/docsuite/nginx}
prefix=${DOCSUITE_NGINX_PREFIX:-/tmp}
mode=${DOCSUITE_TLS:-off}

case $mode in
on | off) ;;
*)
	echo "docsuite-nginx: DOCSUITE_TLS=$mode must be on or off" >&2
	exit 64
	;;
esac

if [ "${1:-}" = health ]; then
	if [ "$mode" = on ]; then
		# The certificate names the public host, not 127.0.0.1: this
		# checks that nginx answers, not who it says it is.
		exec curl -fsS -o /dev/null --insecure https://127.0.0.1/nginx_status
	fi
	exec curl -fsS -o /dev/null http://127.0.0.1/nginx_status
fi

if [ "$mode" = off ]; then
	exec nginx -p "$prefix/" -c "$conf/nginx.conf" -e stderr "$@"
fi

for directive in ssl_certificate ssl_certificate_key; do
	file=$(sed -n "s/^$directive  *\([^;]*\);.*/\1/p" "$conf/listen-tls.conf")
	if [ -z "$file" ]; then
		echo "docsuite-nginx: $conf/listen-tls.conf names no $directive" >&2
		exit 1
	fi
	if [ ! -e "$file" ]; then
		echo "docsuite-nginx: DOCSUITE_TLS=on but $file is missing: put tls.crt and tls.key in the host folder DOCSUITE_TLS_DIR names (docs/operations.md, TLS)" >&2
		exit 1
	fi
	if [ ! -r "$file" ]; then
		echo "docsuite-nginx: DOCSUITE_TLS=on but $file cannot be read by uid $(id -u): on the host, chown $(id -u) it or give group $(id -g) read access (docs/operations.md, TLS)" >&2
		exit 1
	fi
done

tls_conf=$prefix/conf-tls
rm -rf "$tls_conf"
mkdir -p "$tls_conf"
cp "$conf"/*.conf "$tls_conf/"
cp "$conf/listen-tls.conf" "$tls_conf/listen.conf"
exec nginx -p "$prefix/" -c "$tls_conf/nginx.conf" -e stderr "$@"
