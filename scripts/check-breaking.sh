#!/bin/sh
# Fails when the released contracts break wire or source compatibility with the committed
# baseline image (proto/baseline/image.binpb). Refresh the baseline deliberately, when a breaking
# change is intended, with `pnpm contracts:baseline` (this script with --write-baseline), and
# commit it. Only released packages are checked (RELEASED below); a package joins the list when
# its contracts are settled.
# Usage: check-breaking.sh [--write-baseline] [root]   (root defaults to the repository; the gate
# tests pass a fixture)
set -e
repo=$(cd "$(dirname "$0")/.." && pwd)
write=false
if [ "${1:-}" = "--write-baseline" ]; then write=true; shift; fi
cd "${1:-$repo}"
buf="$repo/node_modules/.bin/buf"
RELEASED="proto/crs/state/v1 proto/crs/analytics/v1"
baseline=proto/baseline/image.binpb
paths=""
for p in $RELEASED; do paths="$paths --path $p"; done
if [ "$write" = true ]; then
  # shellcheck disable=SC2086
  "$buf" build --exclude-source-info $paths -o "$baseline"
  echo "check-breaking: wrote $baseline for $RELEASED"
  exit 0
fi
if [ ! -f "$baseline" ]; then
  echo "check-breaking: $baseline is missing; create it with 'pnpm contracts:baseline'" >&2
  exit 1
fi
current=$(mktemp)
trap 'rm -f "$current"' EXIT
# shellcheck disable=SC2086
"$buf" build $paths -o "$current#format=binpb"
if "$buf" breaking "$current#format=binpb" --against "$baseline"; then
  echo "check-breaking: $RELEASED compatible with $baseline"
else
  echo "check-breaking: $RELEASED breaks compatibility with $baseline (see above); if intended, run 'pnpm contracts:baseline' and commit the new image" >&2
  exit 1
fi
