# Sourced by development entry points (make run, scripts/with-allinone.sh):
# on a machine whose CPU lacks AVX-512, which production requires, the
# model-running roles would refuse to start; set DEV_ALLOW_NO_AVX512=true
# for this development run and say so. An explicit setting is kept.
#   . scripts/dev-avx512.sh NAME
if [ -z "${DEV_ALLOW_NO_AVX512:-}" ] && ! grep -qw avx512f /proc/cpuinfo 2>/dev/null; then
	echo "$1: this CPU lacks AVX-512, which production requires; starting with DEV_ALLOW_NO_AVX512=true (development only)" >&2
	export DEV_ALLOW_NO_AVX512=true
fi
