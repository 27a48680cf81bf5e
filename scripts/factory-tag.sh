#!/usr/bin/env bash
# Prints a short tag of the document factory's sources (pkg/synth and
# tools/synth, as committed): sets of synthetic data recorded under it are
# made again when the factory changes (scripts/models.sh, make eval).
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files -z pkg/synth tools/synth | xargs -0 cat | sha256sum | cut -c1-12
